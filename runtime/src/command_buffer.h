// Internal view of meshvk_command_buffer_t (see meshvk/command_buffer.h).
#ifndef MESHVK_RUNTIME_SRC_COMMAND_BUFFER_H_
#define MESHVK_RUNTIME_SRC_COMMAND_BUFFER_H_

#include <volk.h>

#include <atomic>
#include <unordered_map>
#include <vector>

#include "device_set.h"
#include "meshvk/command_buffer.h"
#include "meshvk/executable.h"
#include "status.h"

struct meshvk_command_buffer_s {
  std::atomic<uint32_t> references{1};
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
  // Buffers whose memory other VkDevices share (SharedWithOtherDevices),
  // acquired from VK_QUEUE_FAMILY_EXTERNAL before their first use here and
  // released back to it at End, in first-use order.
  std::vector<const meshvk_buffer_t*> acquired;
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

// What the command buffer's files share. command_buffer.cc: lifetime, hazard
// barriers and the checks every recording call makes;
// command_buffer_dispatch.cc: dispatches and built-in kernels;
// command_buffer_transfer.cc: fill, copy, strided copy, sum;
// command_buffer_timestamps.cc: device timing and trace timestamps.

inline LogicalDevice& DeviceOf(const meshvk_command_buffer_t* cb) { return cb->set->DeviceOf(cb->process); }

// Compute and transfer work, and the writes/accesses a barrier between two
// of them orders.
inline constexpr VkPipelineStageFlags kWorkStages =
    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
inline constexpr VkAccessFlags kWriteAccess = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
inline constexpr VkAccessFlags kAnyAccess =
    VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;

void MemoryBarrier(meshvk_command_buffer_t* cb, VkPipelineStageFlags src_stages, VkAccessFlags src_access,
                   VkPipelineStageFlags dst_stages, VkAccessFlags dst_access);
// Records that the next command reads `reads` and writes `writes`, with a
// barrier first where that is a hazard (command_buffer.cc).
void TrackAccess(meshvk_command_buffer_t* cb, const std::vector<const meshvk_buffer_t*>& reads,
                 const std::vector<const meshvk_buffer_t*>& writes);
// Keeps what a recorded command uses alive until the command buffer goes.
void Retain(meshvk_command_buffer_t* cb, meshvk_buffer_t* buffer);
void Retain(meshvk_command_buffer_t* cb, meshvk_executable_t* executable);

// Checks of a recording call named `what`: the command buffer is still
// recording; a buffer it uses is from its set and reachable with `required`
// peer features; a destination is the recording process's own.
Status CheckRecording(const meshvk_command_buffer_t* cb, const char* what);
Status CheckBufferUse(const meshvk_command_buffer_t* cb, const meshvk_buffer_t* buffer, uint32_t required,
                      const char* what, const char* role);
Status CheckOwnBuffer(const meshvk_command_buffer_t* cb, const meshvk_buffer_t* buffer, const char* what);
// Marks the command buffer unusable when a Vulkan call failed mid-recording.
Status Recorded(meshvk_command_buffer_t* cb, Status status);

// Dispatches (command_buffer_dispatch.cc).
Status CheckDispatch(const meshvk_command_buffer_t* cb, const meshvk_dispatch_info_t& info, const char* what);
Status RecordDispatch(meshvk_command_buffer_t* cb, const meshvk_dispatch_info_t& info);
// Records a 1-D grid-stride built-in over `items` with the given bindings and
// push block (checked like any caller's dispatch).
Status DispatchBuiltin(meshvk_command_buffer_t* cb, meshvk_builtin_t builtin, const meshvk_binding_t* bindings,
                       uint32_t binding_count, const void* push, uint32_t push_size, uint64_t items, const char* what);

// Timing (command_buffer_timestamps.cc): the two queries around the recorded
// work, written at Begin and End.
Status BeginTimestamps(meshvk_command_buffer_t* cb);
// Destroys the trace timestamp pools.
void DestroyTraceTimestamps(meshvk_command_buffer_t* cb);

}  // namespace meshvk

#endif  // MESHVK_RUNTIME_SRC_COMMAND_BUFFER_H_
