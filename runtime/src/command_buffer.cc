// meshvk_command_buffer_t: one process's recorded stream, with barriers
// derived from buffer hazards and its own device timing. Submission: queue.cc.
#include "command_buffer.h"

#include <algorithm>
#include <cstring>

#include "buffer.h"
#include "device_wait.h"
#include "executable.h"
#include "vulkan/vk_status.h"

namespace meshvk {
namespace {

constexpr uint8_t kRead = 1;
constexpr uint8_t kWrite = 2;

Status CheckSameSet(const meshvk_command_buffer_t* cb, const meshvk_buffer_t* buffer, const char* what,
                    const char* role) {
  if (!buffer) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: %s buffer is NULL", what, role);
  if (buffer->set != cb->set) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: %s buffer belongs to another device set", what, role);
  }
  return Status();
}

}  // namespace

void MemoryBarrier(meshvk_command_buffer_t* cb, VkPipelineStageFlags src_stages, VkAccessFlags src_access,
                   VkPipelineStageFlags dst_stages, VkAccessFlags dst_access) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = src_access;
  barrier.dstAccessMask = dst_access;
  DeviceOf(cb).vk.vkCmdPipelineBarrier(cb->command_buffer, src_stages, dst_stages, 0, 1, &barrier, 0, nullptr, 0,
                                       nullptr);
}

namespace {

// Ownership transfers of `buffers` between the recording queue family and
// VK_QUEUE_FAMILY_EXTERNAL (`acquire`: from it, before the first use; else
// to it, after the last). The stages are the work stages on both sides, so
// the transfer chains with the barrier at Begin (earlier submissions on this
// queue) and with the semaphore wait (ALL_COMMANDS) of a consumer on
// another VkDevice; access masks as the spec asks (none on the side that
// does not own the buffer).
void OwnershipTransfer(meshvk_command_buffer_t* cb, const std::vector<const meshvk_buffer_t*>& buffers, bool acquire) {
  if (buffers.empty()) return;
  const uint32_t family = DeviceOf(cb).queue_family;
  std::vector<VkBufferMemoryBarrier> barriers;
  for (const meshvk_buffer_t* buffer : buffers) {
    VkBufferMemoryBarrier b{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
    b.srcAccessMask = acquire ? 0 : kWriteAccess;
    b.dstAccessMask = acquire ? kAnyAccess : 0;
    b.srcQueueFamilyIndex = acquire ? VK_QUEUE_FAMILY_EXTERNAL : family;
    b.dstQueueFamilyIndex = acquire ? family : VK_QUEUE_FAMILY_EXTERNAL;
    b.buffer = buffer->buffer;
    b.offset = buffer->base_offset;
    b.size = VK_WHOLE_SIZE;
    barriers.push_back(b);
  }
  DeviceOf(cb).vk.vkCmdPipelineBarrier(cb->command_buffer, kWorkStages, kWorkStages, 0, 0, nullptr,
                                       static_cast<uint32_t>(barriers.size()), barriers.data(), 0, nullptr);
}

// Acquires the shared buffers among `used` not yet acquired by `cb`.
void AcquireShared(meshvk_command_buffer_t* cb, const std::vector<const meshvk_buffer_t*>& used) {
  std::vector<const meshvk_buffer_t*> fresh;
  for (const meshvk_buffer_t* buffer : used) {
    if (!SharedWithOtherDevices(buffer)) continue;
    if (std::find(cb->acquired.begin(), cb->acquired.end(), buffer) != cb->acquired.end()) continue;
    if (std::find(fresh.begin(), fresh.end(), buffer) != fresh.end()) continue;
    fresh.push_back(buffer);
  }
  OwnershipTransfer(cb, fresh, /*acquire=*/true);
  cb->acquired.insert(cb->acquired.end(), fresh.begin(), fresh.end());
}

}  // namespace

// Records that the next command reads `reads` and writes `writes`, first
// emitting a barrier when that conflicts with work since the last barrier
// (read-after-write, write-after-write, write-after-read). The barrier is
// global, so it clears all pending accesses.
void TrackAccess(meshvk_command_buffer_t* cb, const std::vector<const meshvk_buffer_t*>& reads,
                 const std::vector<const meshvk_buffer_t*>& writes) {
  bool hazard = false;
  for (const auto* buffer : reads) {
    auto it = cb->pending.find(buffer);
    if (it != cb->pending.end() && (it->second & kWrite)) hazard = true;
  }
  for (const auto* buffer : writes) {
    if (cb->pending.count(buffer)) hazard = true;
  }
  if (hazard) {
    MemoryBarrier(cb, kWorkStages, kWriteAccess, kWorkStages, kAnyAccess);
    cb->pending.clear();
  }
  AcquireShared(cb, reads);
  AcquireShared(cb, writes);
  for (const auto* buffer : reads) cb->pending[buffer] |= kRead;
  for (const auto* buffer : writes) cb->pending[buffer] |= kWrite;
}

void Retain(meshvk_command_buffer_t* cb, meshvk_buffer_t* buffer) {
  if (std::find(cb->buffers.begin(), cb->buffers.end(), buffer) != cb->buffers.end()) return;
  meshvk_buffer_retain(buffer);
  cb->buffers.push_back(buffer);
}

void Retain(meshvk_command_buffer_t* cb, meshvk_executable_t* executable) {
  if (std::find(cb->executables.begin(), cb->executables.end(), executable) != cb->executables.end()) {
    return;
  }
  meshvk_executable_retain(executable);
  cb->executables.push_back(executable);
}

Status CheckRecording(const meshvk_command_buffer_t* cb, const char* what) {
  if (!cb) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: command buffer is NULL", what);
  if (cb->broken) {
    return MakeStatus(MESHVK_STATUS_FAILED_PRECONDITION,
                      "%s: %s: an earlier recording call failed; the command buffer is unusable", what,
                      cb->set->Where(cb->process).c_str());
  }
  if (cb->ended) {
    return MakeStatus(MESHVK_STATUS_FAILED_PRECONDITION,
                      "%s: %s: recording has ended (meshvk_command_buffer_end was called)", what,
                      cb->set->Where(cb->process).c_str());
  }
  return Status();
}

Status CheckBufferUse(const meshvk_command_buffer_t* cb, const meshvk_buffer_t* buffer, uint32_t required,
                      const char* what, const char* role) {
  MESHVK_RETURN_IF_ERROR(CheckSameSet(cb, buffer, what, role));
  if (buffer->process == cb->process) return Status();
  return cb->set->CheckPeerAccess(cb->process, buffer->process, required, what);
}

Status CheckOwnBuffer(const meshvk_command_buffer_t* cb, const meshvk_buffer_t* buffer, const char* what) {
  MESHVK_RETURN_IF_ERROR(CheckSameSet(cb, buffer, what, "destination"));
  if (buffer->process != cb->process) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "%s: destination buffer belongs to process %u, not to %s (copies pull "
                      "into the recording process)",
                      what, buffer->process, cb->set->Where(cb->process).c_str());
  }
  return Status();
}

Status Recorded(meshvk_command_buffer_t* cb, Status status) {
  if (!status.ok() && status.code() != MESHVK_STATUS_INVALID_ARGUMENT && status.code() != MESHVK_STATUS_OUT_OF_RANGE) {
    cb->broken = true;
  }
  return status;
}

namespace {

Status Begin(meshvk_command_buffer_t* cb) {
  LogicalDevice& device = DeviceOf(cb);
  const Process& process = cb->set->processes[cb->process];
  const std::string where = cb->set->Where(cb->process);
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.queueFamilyIndex = device.queue_family;
  MESHVK_VK_RETURN_IF_ERROR(device.vk.vkCreateCommandPool(device.device, &pool_info, nullptr, &cb->pool),
                            where + ": vkCreateCommandPool");
  VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  allocate.commandPool = cb->pool;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  MESHVK_VK_RETURN_IF_ERROR(device.vk.vkAllocateCommandBuffers(device.device, &allocate, &cb->command_buffer),
                            where + ": vkAllocateCommandBuffers");
  const uint32_t mask = 1u << process.device_index;
  VkDeviceGroupCommandBufferBeginInfo group_begin{VK_STRUCTURE_TYPE_DEVICE_GROUP_COMMAND_BUFFER_BEGIN_INFO};
  group_begin.deviceMask = mask;
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.pNext = cb->set->is_group() ? &group_begin : nullptr;
  // Replays may be queued back to back while an earlier one is pending.
  begin.flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT;
  MESHVK_VK_RETURN_IF_ERROR(device.vk.vkBeginCommandBuffer(cb->command_buffer, &begin),
                            where + ": vkBeginCommandBuffer");
  if (cb->set->is_group()) device.vk.vkCmdSetDeviceMask(cb->command_buffer, mask);
  // Orders this stream after earlier submissions on the queue (a replay of
  // this very buffer included): the first scope of a barrier reaches back
  // through submission order.
  MemoryBarrier(cb, kWorkStages, kWriteAccess, kWorkStages, kAnyAccess);
  return BeginTimestamps(cb);
}

Status End(meshvk_command_buffer_t* cb) {
  MESHVK_RETURN_IF_ERROR(CheckRecording(cb, "meshvk_command_buffer_end"));
  if (cb->timestamps) {
    DeviceOf(cb).vk.vkCmdWriteTimestamp(cb->command_buffer, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, cb->timestamps, 1);
  }
  // Device writes become visible to host reads (meshvk_buffer_read) once the
  // submission completes.
  MemoryBarrier(cb, kWorkStages, kWriteAccess, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  // Shared buffers go back to the external family: the next user, on this
  // VkDevice or another, acquires them again.
  OwnershipTransfer(cb, cb->acquired, /*acquire=*/false);
  cb->pending.clear();
  MESHVK_VK_RETURN_IF_ERROR(DeviceOf(cb).vk.vkEndCommandBuffer(cb->command_buffer),
                            cb->set->Where(cb->process) + ": vkEndCommandBuffer");
  cb->ended = true;
  return Status();
}

void DestroyCommandBuffer(meshvk_command_buffer_t* cb) {
  meshvk_device_set_t* set = cb->set;
  LogicalDevice& device = DeviceOf(cb);
  if (cb->last_submit_value > 0) {
    // Destroying a pending command buffer is undefined: wait for the last
    // submission (an error here means the device is lost; nothing to wait for).
    const Process& process = set->processes[cb->process];
    VkSemaphore timeline = device.queue_timelines[device.timeline_index(process.queue_index, process.device_index)];
    VkSemaphoreWaitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wait.semaphoreCount = 1;
    wait.pSemaphores = &timeline;
    wait.pValues = &cb->last_submit_value;
    // Bounded; an unanswered device is not waited on (device_wait.h): the
    // release then goes ahead without waiting, as teardown must not hang.
    std::string where = set->Where(cb->process) + ": command buffer release";
    if (WaitSemaphores(device, wait, device.timeout_ns, where + ": vkWaitSemaphores").ok() &&
        TouchesCommandBuffersAfterSignal(set, device)) {
      // Lavapipe (Mesa 22.3) still touches a command buffer on its queue thread
      // after signalling the submission's semaphores: freeing the pool right
      // after the wait crashed its queue thread when 3+ Vulkan processes shared
      // the 2 CPUs (3 of 4 runs of RingTest x15; 0 of 8 with this wait). The
      // spec does not need it, so other drivers skip the queue drain.
      (void)DrainQueue(device, process.queue_index, where);
    }
  }
  // After a timeout or a lost device the submission may still be running
  // (or never end): its pools stay alive (device_wait.h).
  if (!LeakIfUnresponsive(device, cb->descriptor_pools.size() + (cb->pool != VK_NULL_HANDLE) +
                                      (cb->timestamps != VK_NULL_HANDLE) + cb->trace_pools.size())) {
    for (VkDescriptorPool pool : cb->descriptor_pools) {
      device.vk.vkDestroyDescriptorPool(device.device, pool, nullptr);
    }
    if (cb->pool) device.vk.vkDestroyCommandPool(device.device, cb->pool, nullptr);
    if (cb->timestamps) device.vk.vkDestroyQueryPool(device.device, cb->timestamps, nullptr);
    DestroyTraceTimestamps(cb);
  }
  for (auto* buffer : cb->buffers) meshvk_buffer_release(buffer);
  for (auto* executable : cb->executables) meshvk_executable_release(executable);
  delete cb;
  meshvk_device_set_release(set);
}

}  // namespace
}  // namespace meshvk

using meshvk::MakeStatus;
using meshvk::Status;

extern "C" {

meshvk_status_t meshvk_command_buffer_create(meshvk_device_set_t* set, uint32_t process,
                                             meshvk_command_buffer_t** out_command_buffer) {
  Status status = meshvk::CheckProcessCreate(set, process, out_command_buffer, "meshvk_command_buffer_create",
                                             "out_command_buffer");
  if (!status.ok()) return status.ToC();
  auto* cb = new meshvk_command_buffer_t();
  meshvk_device_set_retain(set);
  cb->set = set;
  cb->process = process;
  status = meshvk::Begin(cb);
  if (!status.ok()) {
    meshvk::DestroyCommandBuffer(cb);
    return status.ToC();
  }
  *out_command_buffer = cb;
  return MESHVK_OK;
}

void meshvk_command_buffer_retain(meshvk_command_buffer_t* command_buffer) {
  if (command_buffer) command_buffer->references.fetch_add(1);
}

void meshvk_command_buffer_release(meshvk_command_buffer_t* command_buffer) {
  if (command_buffer && command_buffer->references.fetch_sub(1) == 1) meshvk::DestroyCommandBuffer(command_buffer);
}

meshvk_status_t meshvk_command_buffer_barrier(meshvk_command_buffer_t* cb) {
  Status status = meshvk::CheckRecording(cb, "meshvk_command_buffer_barrier");
  if (!status.ok()) return status.ToC();
  meshvk::MemoryBarrier(cb, meshvk::kWorkStages, meshvk::kWriteAccess, meshvk::kWorkStages, meshvk::kAnyAccess);
  cb->pending.clear();
  return MESHVK_OK;
}

meshvk_status_t meshvk_command_buffer_end(meshvk_command_buffer_t* cb) {
  Status status = meshvk::End(cb);
  if (!status.ok() && cb && !cb->ended && status.code() != MESHVK_STATUS_FAILED_PRECONDITION) {
    cb->broken = true;
  }
  return status.ToC();
}

}  // extern "C"
