// Host staging: chunked, double-buffered transfers between device memory and
// host memory (see host_staging.h); the rings themselves are in staging_ring.cc.
#include "host_staging.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "buffer.h"
#include "device_wait.h"      // DeviceTimeoutNs: the one bound of device waits
#include "external_memory.h"  // MapHostPages
#include "vulkan/vk_status.h"

namespace meshvk {

void AddStagingBytes(const StagingDevice& device, uint64_t bytes) {
  if (!device.staging_bytes) return;
  uint64_t now = device.staging_bytes->fetch_add(bytes) + bytes;
  if (!device.peak_staging_bytes) return;
  uint64_t peak = device.peak_staging_bytes->load();
  while (now > peak && !device.peak_staging_bytes->compare_exchange_weak(peak, now)) {
  }
}

StagedBuffer StagedBufferOf(meshvk_buffer_t* buffer) {
  meshvk_device_set_t* set = buffer->set;
  LogicalDevice& device = set->DeviceOf(buffer->process);
  const Process& owner = set->processes[buffer->process];
  StagedBuffer out;
  out.handle = buffer->buffer;
  out.offset = buffer->base_offset;
  out.mapped = static_cast<uint8_t*>(buffer->mapped);
  out.shared = SharedWithOtherDevices(buffer);
  StagingDevice& d = out.device;
  d.vk = &device.vk;
  d.device = device.device;
  d.queue = device.queues[owner.queue_index];
  d.queue_lock = &device.queue_locks[owner.queue_index];
  d.app_queue_lock = device.app_queue_lock;
  d.queue_family = device.queue_family;
  if (StagesOnTransferQueue(buffer)) {  // the copy engine, ordered with the compute queue by timelines
    const uint32_t timeline = device.timeline_index(owner.queue_index, owner.device_index);
    d.compute_timeline = device.queue_timelines[timeline];
    d.compute_value = &device.queue_timeline_values[timeline];
    d.compute_lock = d.queue_lock;
    d.queue = device.transfer_queue;
    d.queue_lock = &device.transfer_queue_lock;
    d.app_queue_lock = {};  // meshvk's own VkDevice
    d.queue_family = device.transfer_family;
    d.transfer_timeline = device.transfer_timeline;
    d.transfer_value = &device.transfer_timeline_value;
  }
  d.device_mask = set->is_group() ? 1u << owner.device_index : 0;
  d.memory = &device.physical->memory;
  d.staging_bytes = &device.staging_bytes;
  d.peak_staging_bytes = &device.peak_staging_bytes;
  d.where = set->Where(buffer->process);
  d.cache = device.staging_rings;
  d.host_pointer_alignment = device.host_pointer_alignment;
  d.unresponsive = &device.unresponsive;
  d.device_timeout_ns = device.timeout_ns;
  d.chunk_bytes = StagingChunkBytesFor(device.physical->properties.deviceType);
  return out;
}

uint64_t StagingChunkBytesFor(VkPhysicalDeviceType type) {
  return type == VK_PHYSICAL_DEVICE_TYPE_CPU ? kCpuStagingChunkBytes : kGpuStagingChunkBytes;
}

namespace {

// A ring for one transfer: from the device's cache when it has one, given
// back when the transfer ends.
class RingLease {
 public:
  ~RingLease() {
    if (cache_) cache_->Give(std::move(ring_));
  }
  Status Acquire(const StagingDevice& device, uint64_t chunk) {
    cache_ = device.cache;
    return cache_ ? cache_->Take(device, chunk, &ring_) : StagingRing::Create(device, chunk, &ring_);
  }
  StagingRing* get() const { return ring_.get(); }

 private:
  StagingRingCache* cache_ = nullptr;
  std::unique_ptr<StagingRing> ring_;
};

// One chunked transfer. The source is device memory through `out` (chunk i in
// slot i % 2) or, without a ring, the host through `read`; the destination is
// device memory through `in` or the host through `write`. While the host
// moves chunk i, the source device already fills chunk i + 1 and the
// destination device still drains chunk i - 1.
Status Pump(uint64_t size, uint64_t chunk, uint64_t timeout, StagingRing* out, VkBuffer src, uint64_t src_offset,
            const ChunkSource& read, StagingRing* in, VkBuffer dst, uint64_t dst_offset, const ChunkSink& write) {
  const uint64_t n = (size + chunk - 1) / chunk;
  auto bytes = [&](uint64_t i) { return std::min(chunk, size - i * chunk); };
  if (out && n > 0) MESHVK_RETURN_IF_ERROR(out->SubmitOut(0, src, src_offset, bytes(0)));
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t slot = static_cast<uint32_t>(i % 2);
    if (out && i + 1 < n) {
      const uint32_t next = 1 - slot;  // chunk i - 1's slot: the host is done with it
      MESHVK_RETURN_IF_ERROR(out->Wait(next, timeout));
      MESHVK_RETURN_IF_ERROR(out->SubmitOut(next, src, src_offset + (i + 1) * chunk, bytes(i + 1)));
    }
    const uint8_t* from = nullptr;
    if (out) {
      MESHVK_RETURN_IF_ERROR(out->Wait(slot, timeout));
      from = out->data(slot);
    }
    if (!in) {
      MESHVK_RETURN_IF_ERROR(write(from, bytes(i), i * chunk));
      continue;
    }
    MESHVK_RETURN_IF_ERROR(in->Wait(slot, timeout));  // chunk i - 2 has left this slot
    uint8_t* to = in->data(slot);
    if (out) {
      std::memcpy(to, from, bytes(i));
    } else {
      MESHVK_RETURN_IF_ERROR(read(to, bytes(i), i * chunk));
    }
    MESHVK_RETURN_IF_ERROR(in->SubmitIn(slot, dst, dst_offset + i * chunk, bytes(i)));
  }
  if (in) {
    MESHVK_RETURN_IF_ERROR(in->Wait(0, timeout));
    MESHVK_RETURN_IF_ERROR(in->Wait(1, timeout));
  }
  return Status();
}

// Slots of a host allocation shared by two devices: four (at most as many as
// the transfer has chunks), the size of two staging rings, so the
// destination's staging stays within its documented two rings. Four let the
// source device run up to three chunks ahead: with two it had at most one
// queued, so each of its chunks waited for its queue thread to wake up (on
// the layer's separate devices, 256 MiB: the host waited 70 ms of ~125 ms for
// the source's copies with two slots, 5 ms with four; eight, 8 MiB, fall out
// of the caches and were slower).
constexpr uint32_t kSharedSlots = 4;

// One chunked transfer through a host allocation both rings import: chunk i
// goes device A -> slot i % slots -> device B. The host only submits and
// waits; it never touches the bytes, so each byte is copied twice, not three
// times, and the two device copies overlap. The order keeps both devices fed:
// B's copy of chunk i is submitted as soon as A filled it, before the host
// waits for B's copy of chunk i - 1 (so B never idles while the host wakes up
// and submits), and that wait frees the slot A refills with chunk
// i - 1 + slots (so A runs up to slots - 1 chunks ahead).
Status PumpShared(uint64_t size, uint64_t chunk, uint64_t timeout, StagingRing* out, VkBuffer src, uint64_t src_offset,
                  StagingRing* in, VkBuffer dst, uint64_t dst_offset) {
  const uint64_t n = (size + chunk - 1) / chunk;
  const uint32_t slots = out->slots();
  auto bytes = [&](uint64_t i) { return std::min(chunk, size - i * chunk); };
  auto slot = [&](uint64_t i) { return static_cast<uint32_t>(i % slots); };
  for (uint64_t i = 0; i < n && i < slots; ++i)
    MESHVK_RETURN_IF_ERROR(out->SubmitOut(slot(i), src, src_offset + i * chunk, bytes(i)));
  for (uint64_t i = 0; i < n; ++i) {
    MESHVK_RETURN_IF_ERROR(out->Wait(slot(i), timeout));
    MESHVK_RETURN_IF_ERROR(in->SubmitIn(slot(i), dst, dst_offset + i * chunk, bytes(i)));
    if (i == 0) continue;
    const uint64_t next = i - 1 + slots;  // goes where chunk i - 1 was
    MESHVK_RETURN_IF_ERROR(in->Wait(slot(i - 1), timeout));
    if (next < n) MESHVK_RETURN_IF_ERROR(out->SubmitOut(slot(next), src, src_offset + next * chunk, bytes(next)));
  }
  for (uint32_t k = 0; k < slots; ++k) MESHVK_RETURN_IF_ERROR(in->Wait(k, timeout));
  return Status();
}

// The host allocation two rings import, counted as the destination's
// staging memory while it lives. Freed after both rings (declare it first);
// kept when a device that stopped answering may still write it.
class HostAllocation {
 public:
  HostAllocation(const StagingDevice& owner, const StagingDevice& other, uint64_t alignment, uint64_t bytes)
      : owner_(owner), other_(other) {
    // Huge pages where it is large enough: a fresh allocation per transfer
    // then faults in 2 MiB at a time, not 4 KiB.
    data_ = static_cast<uint8_t*>(MapHostPages(bytes, std::max<uint64_t>(alignment, 2ull << 20)));
    if (data_) bytes_ = bytes, AddStagingBytes(owner_, bytes_);
  }
  ~HostAllocation() {
    for (const StagingDevice* d : {&owner_, &other_}) {
      if (d->unresponsive && *d->unresponsive) {
        CountLeaked(1);
        return;
      }
    }
    UnmapHostPages(data_, bytes_);
    if (bytes_ && owner_.staging_bytes) owner_.staging_bytes->fetch_sub(bytes_);
  }
  HostAllocation(const HostAllocation&) = delete;
  HostAllocation& operator=(const HostAllocation&) = delete;
  uint8_t* data() const { return data_; }

 private:
  const StagingDevice& owner_;
  const StagingDevice& other_;
  uint8_t* data_ = nullptr;
  uint64_t bytes_ = 0;
};

// Device A -> one host allocation imported on both devices -> device B
// (VK_EXT_external_memory_host on both). *used is false when the devices
// cannot share a host allocation (nothing was transferred: the caller takes
// the memcpy rings); a failure after the first submission is returned.
Status CopyThroughSharedHostMemory(const StagedBuffer& from, uint64_t src_offset, const StagedBuffer& to,
                                   uint64_t dst_offset, uint64_t size, uint64_t chunk, uint64_t timeout, bool* used) {
  *used = false;
  const uint64_t align = std::max(from.device.host_pointer_alignment, to.device.host_pointer_alignment);
  if (!from.device.host_pointer_alignment || !to.device.host_pointer_alignment ||
      from.device.device == to.device.device || size <= chunk || chunk % align) {
    return Status();
  }
  const auto slots = static_cast<uint32_t>(std::min<uint64_t>(kSharedSlots, (size + chunk - 1) / chunk));
  // The allocation takes the place of the destination's cached rings (one
  // ring per two slots), so its staging stays within two rings.
  if (to.device.cache) to.device.cache->Trim(slots > 2 ? 0 : 1);
  HostAllocation host(to.device, from.device, align, slots * chunk);  // outlives both rings (declared first)
  if (!host.data()) return Status();
  std::unique_ptr<StagingRing> out, in;
  if (!StagingRing::Create(from.device, chunk, &out, slots, host.data()).ok() ||
      !StagingRing::Create(to.device, chunk, &in, slots, host.data()).ok()) {
    return Status();  // a refused import: the memcpy rings still work
  }
  *used = true;
  out->set_shard_shared(from.shared);
  in->set_shard_shared(to.shared);
  return PumpShared(size, chunk, timeout, out.get(), from.handle, from.offset + src_offset, in.get(), to.handle,
                    to.offset + dst_offset);
}

Status CheckStaged(meshvk_buffer_t* buffer, uint64_t offset, uint64_t size, const char* what) {
  if (!buffer) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: buffer is NULL", what);
  return CheckRange(buffer, offset, size, what);
}

// `chunk_bytes`, or when it is 0 the smaller of the devices' own chunks.
uint64_t ChunkFor(uint64_t chunk_bytes, uint64_t size, const StagingDevice& a, const StagingDevice& b) {
  uint64_t chunk = chunk_bytes ? chunk_bytes : std::min(a.chunk_bytes, b.chunk_bytes);
  // Staging for a small transfer is only as large as the transfer.
  return std::max<uint64_t>(4, std::min(chunk, (size + 3) / 4 * 4));
}

}  // namespace

Status StageOut(meshvk_buffer_t* buffer, uint64_t offset, uint64_t size, uint64_t chunk_bytes, uint64_t timeout_ns,
                const ChunkSink& sink) {
  MESHVK_RETURN_IF_ERROR(CheckStaged(buffer, offset, size, "host staging out"));
  if (size == 0) return Status();
  StagedBuffer staged = StagedBufferOf(buffer);
  if (staged.mapped) return sink(staged.mapped + offset, size, 0);
  const uint64_t chunk = ChunkFor(chunk_bytes, size, staged.device, staged.device);
  RingLease out;
  MESHVK_RETURN_IF_ERROR(out.Acquire(staged.device, chunk));
  out.get()->set_shard_shared(staged.shared);
  return Pump(size, chunk, timeout_ns, out.get(), staged.handle, staged.offset + offset, nullptr, nullptr,
              VK_NULL_HANDLE, 0, sink);
}

Status StageIn(meshvk_buffer_t* buffer, uint64_t offset, uint64_t size, uint64_t chunk_bytes, uint64_t timeout_ns,
               const ChunkSource& source) {
  MESHVK_RETURN_IF_ERROR(CheckStaged(buffer, offset, size, "host staging in"));
  if (size == 0) return Status();
  StagedBuffer staged = StagedBufferOf(buffer);
  if (staged.mapped) return source(staged.mapped + offset, size, 0);
  const uint64_t chunk = ChunkFor(chunk_bytes, size, staged.device, staged.device);
  RingLease in;
  MESHVK_RETURN_IF_ERROR(in.Acquire(staged.device, chunk));
  in.get()->set_shard_shared(staged.shared);
  return Pump(size, chunk, timeout_ns, nullptr, VK_NULL_HANDLE, 0, source, in.get(), staged.handle,
              staged.offset + offset, nullptr);
}

Status CopyHostStaged(meshvk_buffer_t* src, uint64_t src_offset, meshvk_buffer_t* dst, uint64_t dst_offset,
                      uint64_t size, uint64_t chunk_bytes, uint64_t timeout_ns) {
  const char* what = "meshvk_buffer_copy_host_staged";
  MESHVK_RETURN_IF_ERROR(CheckStaged(src, src_offset, size, what));
  MESHVK_RETURN_IF_ERROR(CheckStaged(dst, dst_offset, size, what));
  if (src->set != dst->set) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: the buffers belong to different sets", what);
  }
  if (size == 0) return Status();
  StagedBuffer from = StagedBufferOf(src);
  StagedBuffer to = StagedBufferOf(dst);
  // Mappable ends skip their ring: one memcpy when both are mappable.
  if (from.mapped) {
    const uint8_t* bytes = from.mapped + src_offset;
    return StageIn(dst, dst_offset, size, chunk_bytes, timeout_ns, [bytes](uint8_t* chunk, uint64_t n, uint64_t at) {
      std::memcpy(chunk, bytes + at, n);
      return Status();
    });
  }
  if (to.mapped) {
    uint8_t* bytes = to.mapped + dst_offset;
    return StageOut(src, src_offset, size, chunk_bytes, timeout_ns,
                    [bytes](const uint8_t* chunk, uint64_t n, uint64_t at) {
                      std::memcpy(bytes + at, chunk, n);
                      return Status();
                    });
  }
  const uint64_t chunk = ChunkFor(chunk_bytes, size, from.device, to.device);
  const uint64_t timeout = timeout_ns;
  bool shared = false;
  MESHVK_RETURN_IF_ERROR(CopyThroughSharedHostMemory(from, src_offset, to, dst_offset, size, chunk, timeout, &shared));
  if (shared) return Status();
  RingLease out, in;
  MESHVK_RETURN_IF_ERROR(out.Acquire(from.device, chunk));
  MESHVK_RETURN_IF_ERROR(in.Acquire(to.device, chunk));
  out.get()->set_shard_shared(from.shared);
  in.get()->set_shard_shared(to.shared);
  return Pump(size, chunk, timeout, out.get(), from.handle, from.offset + src_offset, nullptr, in.get(), to.handle,
              to.offset + dst_offset, nullptr);
}

}  // namespace meshvk

extern "C" {

meshvk_status_t meshvk_buffer_copy_host_staged(meshvk_buffer_t* src, uint64_t src_offset, meshvk_buffer_t* dst,
                                               uint64_t dst_offset, uint64_t size, meshvk_timeout_t timeout_ns) {
  return meshvk::CopyHostStaged(src, src_offset, dst, dst_offset, size, 0, timeout_ns).ToC();
}

}  // extern "C"
