// meshvk_queue_submit: a recorded command buffer onto its process's queue,
// with timeline waits/signals, and the queue's own timeline that lets a
// command buffer be released only after its last submission finished.
#include "meshvk/queue.h"

#include <mutex>
#include <string>
#include <vector>

#include "base/structure.h"
#include "command_buffer.h"
#include "semaphore.h"
#include "vulkan/vk_status.h"

namespace meshvk {
namespace {

Status CheckSemaphores(const meshvk_device_set_t* set, uint32_t process, const meshvk_semaphore_value_t* values,
                       uint32_t count, const char* role) {
  if (count > 0 && !values) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_queue_submit: %s list is NULL", role);
  }
  for (uint32_t i = 0; i < count; ++i) {
    const meshvk_semaphore_t* semaphore = values[i].semaphore;
    if (!semaphore || semaphore->set != set) {
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_queue_submit: %s %u is NULL or from another device set",
                        role, i);
    }
    if (set->processes[semaphore->process].logical_device != set->processes[process].logical_device) {
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                        "meshvk_queue_submit: %s: %s semaphore %u lives on the VkDevice of %s; "
                        "wait on a view of it on this VkDevice (meshvk_semaphore_share)",
                        set->Where(process).c_str(), role, i, set->Where(semaphore->process).c_str());
    }
  }
  return Status();
}

Status Submit(meshvk_device_set_t* set, const meshvk_submit_info_t* info) {
  if (!set) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_queue_submit: set is NULL");
  MESHVK_RETURN_IF_ERROR(CheckStructure(info, MESHVK_STRUCTURE_TYPE_SUBMIT_INFO, "meshvk_queue_submit: info"));
  if (!info->command_buffer) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_queue_submit: info->command_buffer is NULL");
  }
  meshvk_command_buffer_t* cb = info->command_buffer;
  if (cb->set != set) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "meshvk_queue_submit: command buffer belongs to another device set");
  }
  if (!cb->ended || cb->broken) {
    return MakeStatus(MESHVK_STATUS_FAILED_PRECONDITION, "meshvk_queue_submit: %s: the command buffer is %s",
                      set->Where(cb->process).c_str(), cb->broken ? "unusable (recording failed)" : "still recording");
  }
  MESHVK_RETURN_IF_ERROR(CheckSemaphores(set, cb->process, info->waits, info->wait_count, "wait"));
  MESHVK_RETURN_IF_ERROR(CheckSemaphores(set, cb->process, info->signals, info->signal_count, "signal"));

  LogicalDevice& device = set->DeviceOf(cb->process);
  const Process& process = set->processes[cb->process];
  std::vector<VkSemaphore> waits, signals;
  std::vector<uint64_t> wait_values, signal_values;
  std::vector<VkPipelineStageFlags> wait_stages;
  for (uint32_t i = 0; i < info->wait_count; ++i) {
    waits.push_back(info->waits[i].semaphore->semaphore);
    wait_values.push_back(info->waits[i].value);
    wait_stages.push_back(VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
  }
  for (uint32_t i = 0; i < info->signal_count; ++i) {
    signals.push_back(info->signals[i].semaphore->semaphore);
    signal_values.push_back(info->signals[i].value);
  }
  // After every copy submitted so far to the device's transfer queue
  // (device_set.h): the order one queue gave copies and kernels.
  if (device.transfer_queue) {
    std::lock_guard<std::mutex> transfer_lock(device.transfer_queue_lock);
    waits.push_back(device.transfer_timeline);
    wait_values.push_back(device.transfer_timeline_value);
    wait_stages.push_back(VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
  }
  // Last signal: the queue's own timeline, so release can wait for this run.
  const uint32_t queue_timeline = device.timeline_index(process.queue_index, process.device_index);
  signals.push_back(device.queue_timelines[queue_timeline]);
  signal_values.push_back(0);  // filled under the queue lock

  const uint32_t mask = 1u << process.device_index;
  std::vector<uint32_t> wait_indices(waits.size(), process.device_index);
  std::vector<uint32_t> signal_indices(signals.size(), process.device_index);
  VkDeviceGroupSubmitInfo group{VK_STRUCTURE_TYPE_DEVICE_GROUP_SUBMIT_INFO};
  group.waitSemaphoreCount = static_cast<uint32_t>(waits.size());
  group.pWaitSemaphoreDeviceIndices = wait_indices.data();
  group.commandBufferCount = 1;
  group.pCommandBufferDeviceMasks = &mask;
  group.signalSemaphoreCount = static_cast<uint32_t>(signals.size());
  group.pSignalSemaphoreDeviceIndices = signal_indices.data();
  VkTimelineSemaphoreSubmitInfo timeline{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  timeline.pNext = set->is_group() ? &group : nullptr;
  timeline.waitSemaphoreValueCount = static_cast<uint32_t>(wait_values.size());
  timeline.pWaitSemaphoreValues = wait_values.data();
  timeline.signalSemaphoreValueCount = static_cast<uint32_t>(signal_values.size());
  timeline.pSignalSemaphoreValues = signal_values.data();
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.pNext = &timeline;
  submit.waitSemaphoreCount = static_cast<uint32_t>(waits.size());
  submit.pWaitSemaphores = waits.data();
  submit.pWaitDstStageMask = wait_stages.data();
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb->command_buffer;
  submit.signalSemaphoreCount = static_cast<uint32_t>(signals.size());
  submit.pSignalSemaphores = signals.data();

  QueueLock lock(device, process.queue_index);
  uint64_t value = device.queue_timeline_values[queue_timeline] + 1;
  signal_values.back() = value;
  MESHVK_VK_RETURN_IF_ERROR(
      device.vk.vkQueueSubmit(device.queues[process.queue_index], 1, &submit, VK_NULL_HANDLE),
      set->Where(cb->process) + ": vkQueueSubmit (queue " + std::to_string(process.queue_index) + ")");
  device.queue_timeline_values[queue_timeline] = value;
  cb->last_submit_value = value;
  return Status();
}

}  // namespace
}  // namespace meshvk

extern "C" {

meshvk_status_t meshvk_queue_submit(meshvk_device_set_t* set, const meshvk_submit_info_t* info) {
  return meshvk::Submit(set, info).ToC();
}

}  // extern "C"
