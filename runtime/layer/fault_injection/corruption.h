// The fault-injection layer's corruption modes (README.md in this directory):
// a driver that answers VK_SUCCESS but gets the work wrong. Unlike the error
// modes, nothing fails: copies drop bytes (MESHVK_FAULT_COPY_SHORT), copies
// from a peer's memory return stale data (MESHVK_FAULT_STALE_PEER_READ), or
// timeline semaphores are signalled before the work they follow has run
// (MESHVK_FAULT_EARLY_SIGNAL). Conformance checks must notice.
//
// The layer must sit ABOVE the emulated device-group layer (its directory
// earlier in VK_LAYER_PATH): below it, a group's peer bindings are already
// per-device real buffers and a peer read cannot be recognised.
#ifndef MESHVK_RUNTIME_LAYER_FAULT_INJECTION_CORRUPTION_H_
#define MESHVK_RUNTIME_LAYER_FAULT_INJECTION_CORRUPTION_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>

#include "test_layer.h"

namespace meshvk_fault_corruption {

struct Modes {
  uint64_t copy_short = 0;       // bytes the last region of every buffer copy loses
  bool stale_peer_read = false;  // copies whose source is a peer's memory do nothing
  bool early_signal = false;     // timeline signals at submit; the work held until a drain point
};

// Reads MESHVK_FAULT_COPY_SHORT / _STALE_PEER_READ / _EARLY_SIGNAL; a bad
// value calls `misconfigured` (which does not return). `report` gets one line
// the first time each mode changes what a call does.
void Configure(void (*misconfigured)(const std::string&), void (*report)(const std::string&));
bool AnyMode();

// Hooks called by the layer's own entry points after their fault check
// passed and before they call down (Before*) or after the call succeeded
// (After*).
void AfterAllocateMemory(VkDevice device, const VkMemoryAllocateInfo* info, VkDeviceMemory memory);
void AfterBindBufferMemory2(uint32_t count, const VkBindBufferMemoryInfo* infos);
void AfterBindBufferMemory(VkBuffer buffer, VkDeviceMemory memory);
void AfterCreateSemaphore(const VkSemaphoreCreateInfo* info, VkSemaphore semaphore);
void BeforeBeginCommandBuffer(VkCommandBuffer cb, const VkCommandBufferBeginInfo* info);
// Early signal: true when the submission was taken (signalled and held; the
// caller returns VK_SUCCESS).
bool HoldSubmit(VkQueue queue, uint32_t count, const VkSubmitInfo* submits, VkFence fence);
// Early signal: submits every held submission of the device behind
// `dispatchable` (VkDevice, VkQueue or VkCommandBuffer) and waits for its
// queues to go idle, so the caller may wait on a fence, reuse or destroy.
void Drain(const void* dispatchable);
// Drain, when a held submission signals one of `fences`.
void DrainForFences(const void* dispatchable, uint32_t count, const VkFence* fences);

// The entry points this file intercepts on its own (copies, device masks,
// destroys that are drain points); rows for the layer's device table.
extern const meshvk_test_layer::Entry kDeviceEntries[];
extern const size_t kDeviceEntryCount;

}  // namespace meshvk_fault_corruption

#endif  // MESHVK_RUNTIME_LAYER_FAULT_INJECTION_CORRUPTION_H_
