// Internal view of meshvk_command_buffer_t (see meshvk/command_buffer.h).
#ifndef MESHVK_RUNTIME_SRC_COMMAND_BUFFER_H_
#define MESHVK_RUNTIME_SRC_COMMAND_BUFFER_H_

#include <volk.h>

#include <unordered_map>
#include <vector>

#include "device_set.h"
#include "meshvk/command_buffer.h"

struct meshvk_command_buffer_s {
  meshvk_device_set_t* set = nullptr;  // retained
  uint32_t process = 0;
  VkCommandPool pool = VK_NULL_HANDLE;  // one per command buffer: no sharing, no locks
  VkCommandBuffer command_buffer = VK_NULL_HANDLE;
  // Descriptor sets are written at record time and never changed, so a replay
  // reuses them; the pools live as long as the command buffer.
  std::vector<VkDescriptorPool> descriptor_pools;
  uint32_t pool_sets_left = 0;
  uint32_t pool_descriptors_left = 0;
  bool ended = false;
  bool broken = false;  // a Vulkan call failed while recording
  // Objects the recorded commands use, retained until release (replays).
  std::vector<meshvk_buffer_t*> buffers;
  std::vector<meshvk_executable_t*> executables;
  // Hazard tracking since the last barrier: bit 0 read, bit 1 written.
  std::unordered_map<const meshvk_buffer_t*, uint8_t> pending;
  // Queue timeline value of the last submission (0: never submitted).
  uint64_t last_submit_value = 0;
  // Two timestamp queries around the recorded work (null where the queue
  // family has no timestamps); see meshvk_command_buffer_device_time.
  VkQueryPool timestamps = VK_NULL_HANDLE;
  uint64_t timestamp_mask = 0;
  double timestamp_period_ns = 0;
  // Trace timestamps (meshvk_command_buffer_write_timestamp), in pools of
  // kTraceQueriesPerPool queries created as they are needed.
  std::vector<VkQueryPool> trace_pools;
  uint32_t trace_timestamp_count = 0;
};

namespace meshvk {
// Destroys the trace timestamp pools (command_buffer_timestamps.cc).
void DestroyTraceTimestamps(meshvk_command_buffer_t* cb);
}  // namespace meshvk

#endif  // MESHVK_RUNTIME_SRC_COMMAND_BUFFER_H_
