// GPU time per recorded segment (one (process, phase) command buffer) from
// timestamp queries written at the segment's start and end.
#ifndef MESHVK_RUNTIME_MODULE_TIMESTAMPS_H_
#define MESHVK_RUNTIME_MODULE_TIMESTAMPS_H_

#include <cstdint>
#include <vector>

#include "meshvk/command_buffer.h"
#include "status.h"

namespace meshvk::module {

class SegmentTimer {
 public:
  SegmentTimer() = default;
  SegmentTimer(const SegmentTimer&) = delete;
  SegmentTimer& operator=(const SegmentTimer&) = delete;
  ~SegmentTimer() { Release(); }
  // Destroys the query pools (before the device set they live on goes away).
  void Release();

  // Prepares room for up to `segments` segments. Leaves the timer disabled
  // (not an error) when a device of the set has no timestamp support.
  Status Init(meshvk_device_set_t* set, uint32_t segments);
  bool enabled() const { return enabled_; }
  // Record the start/end timestamp of segment `index` into `cb`.
  void Begin(meshvk_command_buffer_t* cb, size_t index);
  void End(meshvk_command_buffer_t* cb, size_t index);
  // Device time of segment `index` of the last completed submission.
  Status Read(size_t index, uint64_t* out_ns);

 private:
  struct Pool;
  meshvk_device_set_t* set_ = nullptr;
  bool enabled_ = false;
  std::vector<Pool*> pools_;               // one per VkDevice of the set
  std::vector<uint32_t> segment_device_;   // VkDevice index of each segment
  std::vector<uint32_t> segment_process_;
};

}  // namespace meshvk::module

#endif  // MESHVK_RUNTIME_MODULE_TIMESTAMPS_H_
