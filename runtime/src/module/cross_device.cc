// Copies between processes on different VkDevices (see cross_device.h).
#include "cross_device.h"

#include <algorithm>

namespace meshvk::module {
namespace {

bool SameVkDevice(const meshvk_device_set_t* set, uint32_t a, uint32_t b) {
  meshvk_process_info_t ia = MESHVK_PROCESS_INFO_INIT, ib = MESHVK_PROCESS_INFO_INIT;
  meshvk_status_free(meshvk_device_set_process_info(set, a, &ia));
  meshvk_status_free(meshvk_device_set_process_info(set, b, &ib));
  return ia.logical_device == ib.logical_device;
}

meshvk_copy_path_t PathOf(const meshvk_device_set_t* set, uint32_t src, uint32_t dst) {
  meshvk_copy_path_info_t info = MESHVK_COPY_PATH_INFO_INIT;
  meshvk_status_t status = meshvk_device_set_copy_path(set, src, dst, &info);
  meshvk_status_free(status);
  return info.path;
}

// Bytes a copy delivers (what --print-plan counts as arriving).
uint64_t DeliveredBytes(const mvk::Copy* copy) {
  if (!copy->regions() || copy->regions()->size() == 0) return copy->size();
  uint64_t words = 0;
  for (const mvk::StridedRegion* r : *copy->regions())
    words += uint64_t(r->count().x()) * r->count().y() * r->count().z();
  return words * 4;
}

uint32_t LogicalDeviceOf(const meshvk_device_set_t* set, uint32_t process) {
  meshvk_process_info_t info = MESHVK_PROCESS_INFO_INIT;
  meshvk_status_free(meshvk_device_set_process_info(set, process, &info));
  return info.logical_device;
}

}  // namespace

void CrossDeviceCopies::ShareSemaphores(const std::vector<meshvk_semaphore_t*>& semaphores) {
  const uint32_t n = static_cast<uint32_t>(semaphores.size());
  for (uint32_t producer = 0; producer < n; ++producer) {
    for (uint32_t consumer = 0; consumer < n; ++consumer) {
      if (SameVkDevice(set_, producer, consumer)) continue;
      const auto key = std::make_pair(producer, LogicalDeviceOf(set_, consumer));
      if (semaphore_views_.count(key)) continue;
      meshvk_copy_path_info_t info = MESHVK_COPY_PATH_INFO_INIT;
      meshvk_status_free(meshvk_device_set_copy_path(set_, producer, consumer, &info));
      if (!info.external_semaphores) continue;
      meshvk_semaphore_t* view = nullptr;
      if (meshvk_status_t status = meshvk_semaphore_share(semaphores[producer], consumer, &view)) {
        notes_.push_back("process " + std::to_string(consumer) + " waits for process " + std::to_string(producer) +
                         " on the host: " + meshvk_status_message(status));
        meshvk_status_free(status);
        continue;
      }
      semaphore_views_[key] = view;
    }
  }
}

meshvk_semaphore_t* CrossDeviceCopies::DeviceWaitFor(uint32_t producer, uint32_t consumer,
                                                     const std::vector<HostCopy>& host_copies) const {
  auto it = semaphore_views_.find({producer, LogicalDeviceOf(set_, consumer)});
  if (it == semaphore_views_.end()) return nullptr;
  for (const HostCopy& copy : host_copies)
    if (meshvk_buffer_process(copy.src) == producer) return nullptr;
  return it->second;
}

// Bytes of the source buffer a copy reads: [*lo, *hi).
namespace {
// The byte span of one side of a copy (source: src_*, destination: dst_*).
void CopySpan(const mvk::Copy* copy, bool destination, uint64_t* lo, uint64_t* hi) {
  const uint64_t offset = destination ? copy->dst_offset() : copy->src_offset();
  if (!copy->regions() || copy->regions()->size() == 0) {
    *lo = offset;
    *hi = offset + copy->size();
    return;
  }
  *lo = UINT64_MAX;
  *hi = 0;
  for (const mvk::StridedRegion* r : *copy->regions()) {
    const mvk::Dim3 n = r->count(), s = destination ? r->dst_stride() : r->src_stride();
    uint64_t first = offset / 4 + (destination ? r->dst_offset_words() : r->src_offset_words());
    uint64_t last = first + uint64_t(n.x() - 1) * s.x() + uint64_t(n.y() - 1) * s.y() + uint64_t(n.z() - 1) * s.z();
    *lo = std::min(*lo, first * 4);
    *hi = std::max(*hi, (last + 1) * 4);
  }
}
}  // namespace

void SourceSpan(const mvk::Copy* copy, uint64_t* lo, uint64_t* hi) { CopySpan(copy, false, lo, hi); }

void DestinationSpan(const mvk::Copy* copy, uint64_t* lo, uint64_t* hi) { CopySpan(copy, true, lo, hi); }

CrossDeviceCopies::~CrossDeviceCopies() {
  for (auto& [key, view] : semaphore_views_) meshvk_semaphore_release(view);
  for (auto& [key, view] : views_) meshvk_buffer_release(view);
  for (meshvk_buffer_t* landing : landings_) meshvk_buffer_release(landing);
}

std::vector<std::vector<bool>> CrossDeviceCopies::ExportableBuffers(const mvk::Artifact* artifact,
                                                                    const meshvk_device_set_t* set) {
  const auto* processes = artifact->processes();
  std::vector<std::vector<bool>> out(processes->size());
  for (uint32_t p = 0; p < processes->size(); ++p)
    out[p].assign(processes->Get(p)->buffers() ? processes->Get(p)->buffers()->size() : 0, false);
  for (uint32_t f = 0; artifact->functions() && f < artifact->functions()->size(); ++f) {
    const auto* streams = artifact->functions()->Get(f)->streams();
    for (uint32_t p = 0; streams && p < streams->size(); ++p) {
      const auto* commands = streams->Get(p)->commands();
      for (uint32_t c = 0; commands && c < commands->size(); ++c) {
        const mvk::Copy* copy = commands->Get(c)->op_as_Copy();
        if (!copy || SameVkDevice(set, copy->src_process(), copy->dst_process())) continue;
        if (PathOf(set, copy->src_process(), copy->dst_process()) == MESHVK_COPY_PATH_EXTERNAL_MEMORY)
          out[copy->src_process()][copy->src_buffer()] = true;
      }
    }
  }
  // Buffers sharing a reuse slot share one allocation.
  for (uint32_t p = 0; p < processes->size(); ++p) {
    const auto* buffers = processes->Get(p)->buffers();
    std::map<int32_t, bool> slot;
    for (uint32_t b = 0; buffers && b < buffers->size(); ++b)
      if (buffers->Get(b)->reuse_slot() >= 0 && out[p][b]) slot[buffers->Get(b)->reuse_slot()] = true;
    for (uint32_t b = 0; buffers && b < buffers->size(); ++b)
      if (slot.count(buffers->Get(b)->reuse_slot())) out[p][b] = true;
  }
  return out;
}

void CrossDeviceCopies::Init(meshvk_device_set_t* set, uint32_t functions, uint32_t processes) {
  set_ = set;
  bytes_.assign(functions, std::vector<std::array<uint64_t, MESHVK_COPY_PATH_COUNT>>(processes));
}

Status CrossDeviceCopies::SourceFor(uint32_t function, const mvk::Copy* copy, meshvk_buffer_t* src,
                                    const std::string& path, meshvk_buffer_t** out,
                                    std::vector<HostCopy>* host_copies) {
  const uint32_t from = copy->src_process(), to = copy->dst_process();
  meshvk_copy_path_t kind = PathOf(set_, from, to);
  auto& bytes = bytes_[function][to];
  *out = src;
  if (SameVkDevice(set_, from, to)) {
    bytes[kind] += DeliveredBytes(copy);
    return Status();
  }
  const auto key = std::make_tuple(from, static_cast<const meshvk_buffer_t*>(src), to);
  if (kind == MESHVK_COPY_PATH_EXTERNAL_MEMORY && !refused_.count(key)) {
    auto it = views_.find(key);
    if (it == views_.end()) {
      meshvk_buffer_t* view = nullptr;
      meshvk_status_t status = meshvk_buffer_share(src, to, &view);
      if (status && meshvk_status_code(status) == MESHVK_STATUS_UNAVAILABLE) {
        // The driver advertised the handle type but refused this import: the
        // bytes go through the host instead (slower, never wrong).
        notes_.push_back(path + ": " + meshvk_status_message(status) + "; falling back to host staging");
        meshvk_status_free(status);
        refused_[key] = true;
      } else {
        MESHVK_RETURN_IF_ERROR(FromC(status, path + ": importing the source"));
        it = views_.emplace(key, view).first;
      }
    }
    if (it != views_.end()) {
      *out = it->second;
      bytes[MESHVK_COPY_PATH_EXTERNAL_MEMORY] += DeliveredBytes(copy);
      return Status();
    }
  }
  // Host staging: a landing buffer on the destination, as large as the source
  // buffer so the recorded offsets stay as they are; only the span the copy
  // reads moves.
  meshvk_buffer_t* landing = nullptr;
  meshvk_buffer_create_info_t info = MESHVK_BUFFER_CREATE_INFO_INIT;
  info.process = to;
  info.size = meshvk_buffer_size(src);
  info.flags = MESHVK_BUFFER_STAGING_BIT;
  MESHVK_RETURN_IF_ERROR(
      FromC(meshvk_buffer_create_with_info(set_, &info, &landing), path + ": host staging landing buffer"));
  landings_.push_back(landing);
  uint64_t lo = 0, hi = 0;
  SourceSpan(copy, &lo, &hi);
  host_copies->push_back(HostCopy{src, landing, lo, hi - lo});
  bytes[MESHVK_COPY_PATH_HOST_STAGING] += DeliveredBytes(copy);
  *out = landing;
  return Status();
}

Status RunHostCopy(const HostCopy& c, uint64_t timeout_ns) {
  return FromC(meshvk_buffer_copy_host_staged(c.src, c.offset, c.landing, c.offset, c.size, timeout_ns),
               "host-staged copy of " + std::to_string(c.size) + " bytes from process " +
                   std::to_string(meshvk_buffer_process(c.src)) + " to process " +
                   std::to_string(meshvk_buffer_process(c.landing)));
}

}  // namespace meshvk::module
