// meshvk/queue.h — submitting recorded work to a process's queue.
//
// Each process of a device set submits to its own queue (meshvk_process_info_t
// says which); processes multiplexed onto one queue share it. meshvk locks a
// queue around every vkQueueSubmit it makes, so submissions from several
// threads are safe.
#ifndef MESHVK_QUEUE_H_
#define MESHVK_QUEUE_H_

#include "meshvk/command_buffer.h"
#include "meshvk/semaphore.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct meshvk_submit_info_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_SUBMIT_INFO
  const void* next;
  meshvk_command_buffer_t* command_buffer;  // ended
  const meshvk_semaphore_value_t* waits;
  uint32_t wait_count;
  const meshvk_semaphore_value_t* signals;
  uint32_t signal_count;
} meshvk_submit_info_t;
#define MESHVK_SUBMIT_INFO_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_SUBMIT_INFO)

// Submits to the command buffer's process queue (vkQueueSubmit with
// VkTimelineSemaphoreSubmitInfo, and VkDeviceGroupSubmitInfo on a device group
// with the process's device index for the command buffer and semaphores).
// Waits happen before any command of the buffer (ALL_COMMANDS). Thread-safe
// (queues are locked). FAILED_PRECONDITION unless recording has ended, or
// when a recording call failed (the command buffer is unusable);
// INVALID_ARGUMENT for NULL set/info/command buffer, another structure type,
// a command buffer or semaphore of another set, a NULL semaphore or list, or
// a semaphore on another VkDevice (wait on a view of it:
// meshvk_semaphore_share); a vkQueueSubmit error (DEVICE_LOST) names the
// process and device.
meshvk_status_t meshvk_queue_submit(meshvk_device_set_t* set, const meshvk_submit_info_t* info);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MESHVK_QUEUE_H_
