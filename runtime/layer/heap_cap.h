// MESHVK_EMULATED_HEAP_BYTES=N: every emulated device shows a device-local
// heap of N bytes and refuses allocations past it, as a small GPU would.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

namespace meshvk_layer {

struct DeviceData;
struct EmulatedMemory;
struct EmulatedPhysicalDevice;

// Parses a byte count: decimal digits, optionally followed by K, M, G or T
// (also KiB, MiB, GiB, TiB; powers of 1024). False for anything else, for 0
// and for a count that does not fit in 64 bits.
bool parseByteCount(const char* text, uint64_t* out);

// Sets every device-local heap of `p` to the configured size (no change
// without MESHVK_EMULATED_HEAP_BYTES).
void capDeviceLocalHeaps(VkPhysicalDeviceMemoryProperties* p);

// Counts `mem` (size, type and instance mask set) against the heap of every
// device that holds one of its instances. False, counting nothing, when one
// of them would then hold more than the configured size: the allocation must
// fail with VK_ERROR_OUT_OF_DEVICE_MEMORY. Always true without a cap, for
// heaps that are not device-local and for imported memory (the caller does
// not charge imports: their bytes were counted where they were allocated).
bool chargeHeap(DeviceData* d, EmulatedMemory* mem);
// Gives back what chargeHeap counted for `mem` (freed, or failed below).
void releaseHeap(DeviceData* d, EmulatedMemory* mem);

// VK_EXT_memory_budget for a capped device: budget N, usage what is
// allocated on it now, for each device-local heap.
void reportHeapBudget(const EmulatedPhysicalDevice* e, const VkPhysicalDeviceMemoryProperties& p,
                      VkPhysicalDeviceMemoryBudgetPropertiesEXT* budget);

}  // namespace meshvk_layer
