#include "race_detector.h"

#include <algorithm>
#include <sstream>

namespace meshvk_layer {

namespace {
constexpr size_t kMaxRecordsPerInstance = 1024;
}

std::string laneName(uint32_t lane) {
  return "device " + std::to_string(lane % kMaxDevices) + (lane >= kMaxDevices ? "'s transfer queue" : "");
}

void RaceDetector::check(InstanceData* instance, const WorkDescription& work, const std::vector<Access>& accesses) {
  const VectorClock& clock = *work.clock;
  for (const Access& a : accesses) {
    if (a.size == 0) continue;
    const VkDeviceSize begin = a.offset, end = a.offset + a.size;
    auto& records = instances_[{a.memoryId, a.instance}];
    for (const Record& r : records) {
      if (r.device == work.device) continue;
      if (!(r.write || a.write)) continue;
      if (r.end <= begin || end <= r.begin) continue;
      if (r.tick <= clock[r.device]) continue;  // ordered by a semaphore/fence chain
      auto key = std::make_tuple(r.seq, work.seq, a.memoryId, a.instance);
      if (!reported_.insert(key).second) continue;
      std::ostringstream m;
      m << "cross-device race on memory instance " << a.instance << " of VkDeviceMemory #" << a.memoryId << ": "
        << a.command << " on " << laneName(work.device) << " (submission " << work.submission << ", batch "
        << work.batch << ") " << (a.write ? "writes" : "reads") << " bytes [" << begin << ", " << end << "), which "
        << r.command << " on " << laneName(r.device) << " (submission " << r.submission << ", batch " << r.batch << ") "
        << (r.write ? "writes" : "reads") << " at [" << r.begin << ", " << r.end
        << "); no semaphore or fence chain orders the two. A real device group may run them in either order.";
      report(instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "MESHVK-cross-device-race", m.str());
    }
    // A write that is ordered after earlier accesses it fully covers supersedes them.
    if (a.write) {
      records.erase(std::remove_if(records.begin(), records.end(),
                                   [&](const Record& r) {
                                     bool ordered = r.device == work.device || r.tick <= clock[r.device];
                                     return ordered && begin <= r.begin && r.end <= end;
                                   }),
                    records.end());
    }
    if (records.size() >= kMaxRecordsPerInstance) records.erase(records.begin());
    records.push_back(
        {begin, end, a.write, work.device, clock[work.device], work.seq, work.submission, work.batch, a.command});
  }
}

void RaceDetector::forget(uint64_t memoryId) {
  for (auto it = instances_.begin(); it != instances_.end();) {
    if (it->first.first == memoryId)
      it = instances_.erase(it);
    else
      ++it;
  }
}

}  // namespace meshvk_layer
