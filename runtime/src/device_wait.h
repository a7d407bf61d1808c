// Every wait of the runtime on a device, bounded (issue 13): a GPU that stops
// answering must turn into an error naming the device and the operation, and
// the process must then tear down without waiting on that device again.
//
// The bound is the set's device timeout (meshvk_device_timeout_t, 60 s
// without one; LogicalDevice::timeout_ns). A wait
// that runs out that bound or reports VK_ERROR_DEVICE_LOST marks the device
// unresponsive; later waits on it return DEVICE_LOST / DEADLINE_EXCEEDED at
// once, and teardown (command buffer release, device destruction) skips its
// drains. vkQueueWaitIdle / vkDeviceWaitIdle have no timeout parameter, so
// they are only called after a bounded wait on the queue timelines showed
// the device has finished everything submitted.
#ifndef MESHVK_RUNTIME_SRC_DEVICE_WAIT_H_
#define MESHVK_RUNTIME_SRC_DEVICE_WAIT_H_

#include <cstdint>
#include <string>

#include "device_set.h"
#include "status.h"

namespace meshvk {

// vkWaitSemaphores for `wait`, at most min(timeout_ns, device.timeout_ns);
// without `bounded_by_device` (an application's semaphore, which its own
// work signals) at most timeout_ns, and running out never marks the device.
Status WaitSemaphores(LogicalDevice& device, const VkSemaphoreWaitInfo& wait, uint64_t timeout_ns,
                      const std::string& where, bool bounded_by_device = true);
// vkWaitForFences for one fence, at most device.timeout_ns.
Status WaitForFence(LogicalDevice& device, VkFence fence, const std::string& where);
// Waits for everything submitted to `queue` (its timelines, bounded), then
// vkQueueWaitIdle (lavapipe needs it before a command pool is freed: see
// DestroyCommandBuffer; on an application's queue under its lock). Skipped
// on an unresponsive device.
Status DrainQueue(LogicalDevice& device, uint32_t queue, const std::string& where);
// Whether `device` runs on lavapipe, whose queue thread still touches a
// command buffer after signalling its submission (DestroyCommandBuffer then
// drains the queue before freeing the pool). Told by the device name, which
// the emulation layer keeps whatever driver IDs it shows.
bool TouchesCommandBuffersAfterSignal(const meshvk_device_set_t* set, const LogicalDevice& device);
// DrainQueue for every queue, then vkDeviceWaitIdle with all queues locked
// (not on an application's device).
Status DrainDevice(LogicalDevice& device, const std::string& where);

// Teardown on a device that stopped answering: what it was given may still be
// running (a hung GPU keeps reading and writing) or may never finish, so
// destroying any of its objects is undefined and can block inside the
// driver. Such objects are left alive on purpose, never destroyed; the
// process is about to exit (exit 3) and the OS takes the memory back.
// True when `device` is unresponsive: the caller skips destroying its
// `objects` Vulkan objects, which are counted (meshvk_leaked_object_count).
bool LeakIfUnresponsive(const LogicalDevice& device, uint64_t objects);
// Counts `objects` left alive on purpose (LeakIfUnresponsive's counter).
void CountLeaked(uint64_t objects);
// A wait's result on `flag` (the device's unresponsive flag): a timeout of
// the whole device bound (`ran_device_timeout`) or a lost device marks it.
// For waits that do not go through WaitSemaphores/WaitForFence (host
// staging's fences).
void MarkIfUnanswered(std::atomic<bool>* flag, VkResult result, bool ran_device_timeout);

}  // namespace meshvk

#endif  // MESHVK_RUNTIME_SRC_DEVICE_WAIT_H_
