// Transfers of a command buffer (see command_buffer.h): fill, copy, and the
// strided copy and f32 sum built-ins. Each checks its buffers (the
// destination is the recording process's own: copies are pulls), records the
// hazard for the next barrier and retains what it uses for replays.
#include <algorithm>

#include "buffer.h"
#include "builtin_executables.h"
#include "command_buffer.h"

namespace meshvk {
namespace {

Status Fill(meshvk_command_buffer_t* cb, meshvk_buffer_t* dst, uint64_t offset, uint64_t size, uint32_t value) {
  const char* what = "meshvk_command_buffer_fill";
  MESHVK_RETURN_IF_ERROR(CheckRecording(cb, what));
  MESHVK_RETURN_IF_ERROR(CheckOwnBuffer(cb, dst, what));
  if (size == 0 || size % 4 != 0 || offset % 4 != 0) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: offset %llu and size %llu must be multiples of 4, size > 0",
                      what, static_cast<unsigned long long>(offset), static_cast<unsigned long long>(size));
  }
  MESHVK_RETURN_IF_ERROR(CheckRange(dst, offset, size, what));
  TrackAccess(cb, {}, {dst});
  Retain(cb, dst);
  DeviceOf(cb).vk.vkCmdFillBuffer(cb->command_buffer, dst->buffer, dst->base_offset + offset, size, value);
  return Status();
}

Status Copy(meshvk_command_buffer_t* cb, meshvk_buffer_t* src, uint64_t src_offset, meshvk_buffer_t* dst,
            uint64_t dst_offset, uint64_t size) {
  const char* what = "meshvk_command_buffer_copy";
  MESHVK_RETURN_IF_ERROR(CheckRecording(cb, what));
  MESHVK_RETURN_IF_ERROR(CheckOwnBuffer(cb, dst, what));
  MESHVK_RETURN_IF_ERROR(CheckBufferUse(cb, src, VK_PEER_MEMORY_FEATURE_COPY_SRC_BIT, what, "source"));
  if (size == 0) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: size is 0", what);
  MESHVK_RETURN_IF_ERROR(CheckRange(src, src_offset, size, "meshvk_command_buffer_copy source"));
  MESHVK_RETURN_IF_ERROR(CheckRange(dst, dst_offset, size, "meshvk_command_buffer_copy destination"));
  if (src == dst && src_offset < dst_offset + size && dst_offset < src_offset + size) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "%s: source [%llu, +%llu) and destination [%llu, +%llu) overlap in one "
                      "buffer",
                      what, static_cast<unsigned long long>(src_offset), static_cast<unsigned long long>(size),
                      static_cast<unsigned long long>(dst_offset), static_cast<unsigned long long>(size));
  }
  TrackAccess(cb, {src}, {dst});
  Retain(cb, src);
  Retain(cb, dst);
  VkBufferCopy region{src->base_offset + src_offset, dst->base_offset + dst_offset, size};
  DeviceOf(cb).vk.vkCmdCopyBuffer(cb->command_buffer, src->buffer, dst->buffer, 1, &region);
  return Status();
}

// Highest word index a strided region touches on one side, or an error.
Status RegionLastWord(const meshvk_strided_region_t& region, bool src, uint64_t* out) {
  uint64_t last = src ? region.src_offset_words : region.dst_offset_words;
  const uint32_t* stride = src ? region.src_stride : region.dst_stride;
  for (int d = 0; d < 3; ++d) last += static_cast<uint64_t>(region.count[d] - 1) * stride[d];
  *out = last;
  return Status();
}

Status CopyStrided(meshvk_command_buffer_t* cb, meshvk_buffer_t* src, meshvk_buffer_t* dst,
                   const meshvk_strided_region_t* region) {
  const char* what = "meshvk_command_buffer_copy_strided";
  MESHVK_RETURN_IF_ERROR(CheckRecording(cb, what));
  if (!region) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: region is NULL", what);
  MESHVK_RETURN_IF_ERROR(CheckOwnBuffer(cb, dst, what));
  MESHVK_RETURN_IF_ERROR(CheckBufferUse(cb, src, VK_PEER_MEMORY_FEATURE_GENERIC_SRC_BIT, what, "source"));
  uint64_t total = 1;
  for (int d = 0; d < 3; ++d) {
    if (region->count[d] == 0) {
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: count[%d] is 0 (use 1 for unused dimensions)", what, d);
    }
    total *= region->count[d];
  }
  if (total > (1ull << 31)) {
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "%s: %llu words exceed the 2^31 limit", what,
                      static_cast<unsigned long long>(total));
  }
  const VkPhysicalDeviceLimits& limits = DeviceOf(cb).physical->properties.limits;
  const uint64_t src_words = std::min<uint64_t>(src->size, limits.maxStorageBufferRange) / 4;
  const uint64_t dst_words = std::min<uint64_t>(dst->size, limits.maxStorageBufferRange) / 4;
  uint64_t src_last = 0, dst_last = 0;
  MESHVK_RETURN_IF_ERROR(RegionLastWord(*region, true, &src_last));
  MESHVK_RETURN_IF_ERROR(RegionLastWord(*region, false, &dst_last));
  if (src_last >= src_words || dst_last >= dst_words) {
    bool src_side = src_last >= src_words;
    return MakeStatus(
        MESHVK_STATUS_OUT_OF_RANGE,
        "%s: %s word %llu is outside the %llu addressable words of its buffer "
        "(process %u)",
        what, src_side ? "source" : "destination", static_cast<unsigned long long>(src_side ? src_last : dst_last),
        static_cast<unsigned long long>(src_side ? src_words : dst_words), src_side ? src->process : dst->process);
  }
  if (src == dst && region->src_offset_words <= dst_last && region->dst_offset_words <= src_last) {
    return MakeStatus(
        MESHVK_STATUS_INVALID_ARGUMENT,
        "%s: source words [%llu, %llu] and destination words [%llu, %llu] overlap "
        "in one buffer",
        what, static_cast<unsigned long long>(region->src_offset_words), static_cast<unsigned long long>(src_last),
        static_cast<unsigned long long>(region->dst_offset_words), static_cast<unsigned long long>(dst_last));
  }
  // Each side binds only the words the region spans (from its first word,
  // rounded down to the storage-buffer offset alignment, to its last), so the
  // copy's footprint is what it touches, not the whole buffer: other commands
  // may use the rest of a shared buffer at the same time (the emulation
  // layer's race check sees these ranges too).
  const uint64_t align_words = std::max<uint64_t>(1, limits.minStorageBufferOffsetAlignment / 4);
  const uint64_t src_base = region->src_offset_words / align_words * align_words;
  const uint64_t dst_base = region->dst_offset_words / align_words * align_words;
  // The layout of the push block in shaders/strided_copy.comp, offsets
  // relative to the bound ranges; they fit 32 bits because they are below
  // maxStorageBufferRange / 4.
  uint32_t push[11] = {static_cast<uint32_t>(region->src_offset_words - src_base),
                       static_cast<uint32_t>(region->dst_offset_words - dst_base)};
  for (int d = 0; d < 3; ++d) {
    push[2 + d] = region->count[d];
    push[5 + d] = region->src_stride[d];
    push[8 + d] = region->dst_stride[d];
  }
  meshvk_binding_t bindings[2] = {{src, src_base * 4, (src_last + 1 - src_base) * 4, 0},
                                  {dst, dst_base * 4, (dst_last + 1 - dst_base) * 4, 1}};
  // Only the recording itself can break the command buffer: refused
  // arguments above leave it as it was.
  return Recorded(cb, DispatchBuiltin(cb, MESHVK_BUILTIN_STRIDED_COPY, bindings, 2, push, sizeof(push), total, what));
}

Status SumF32(meshvk_command_buffer_t* cb, meshvk_buffer_t* const* srcs, uint32_t src_count, meshvk_buffer_t* dst,
              uint64_t count) {
  const char* what = "meshvk_command_buffer_sum_f32";
  MESHVK_RETURN_IF_ERROR(CheckRecording(cb, what));
  if (!srcs || src_count < 1 || src_count > 8) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: %u sources, expected 1..8", what, src_count);
  }
  if (count == 0 || count > UINT32_MAX) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: count %llu, expected 1..2^32-1", what,
                      static_cast<unsigned long long>(count));
  }
  MESHVK_RETURN_IF_ERROR(CheckOwnBuffer(cb, dst, what));
  meshvk_binding_t bindings[9] = {};
  bindings[0] = {dst, 0, count * 4, 1};
  for (uint32_t s = 0; s < 8; ++s) {
    // Unused bindings still need a valid descriptor: they repeat source 0.
    bindings[1 + s] = {srcs[s < src_count ? s : 0], 0, count * 4, 0};
  }
  uint32_t push[2] = {static_cast<uint32_t>(count), src_count};
  return Recorded(cb, DispatchBuiltin(cb, MESHVK_BUILTIN_SUM_F32, bindings, 9, push, sizeof(push), count, what));
}

}  // namespace
}  // namespace meshvk

using meshvk::Status;

extern "C" {

meshvk_status_t meshvk_command_buffer_fill(meshvk_command_buffer_t* cb, meshvk_buffer_t* dst, uint64_t offset,
                                           uint64_t size, uint32_t value) {
  return meshvk::Fill(cb, dst, offset, size, value).ToC();
}

meshvk_status_t meshvk_command_buffer_copy(meshvk_command_buffer_t* cb, meshvk_buffer_t* src, uint64_t src_offset,
                                           meshvk_buffer_t* dst, uint64_t dst_offset, uint64_t size) {
  return meshvk::Copy(cb, src, src_offset, dst, dst_offset, size).ToC();
}

meshvk_status_t meshvk_command_buffer_copy_strided(meshvk_command_buffer_t* cb, meshvk_buffer_t* src,
                                                   meshvk_buffer_t* dst, const meshvk_strided_region_t* region) {
  return meshvk::CopyStrided(cb, src, dst, region).ToC();
}

meshvk_status_t meshvk_command_buffer_sum_f32(meshvk_command_buffer_t* cb, meshvk_buffer_t* const* srcs,
                                              uint32_t src_count, meshvk_buffer_t* dst, uint64_t count) {
  return meshvk::SumF32(cb, srcs, src_count, dst, count).ToC();
}

}  // extern "C"
