// The emulated heap cap (heap_cap.h). Bytes are counted per emulated physical
// device and heap: a memory instance allocated on device i of a group counts
// on device i only, as on a real group where each GPU has its own memory.
// Counts are per VkInstance (the wrappers are): two instances of one process
// each see a full heap.
#include "heap_cap.h"

#include <cctype>
#include <cstring>
#include <mutex>

#include "layer.h"

namespace meshvk_layer {

namespace {

std::mutex gHeapMutex;  // guards EmulatedPhysicalDevice::heapUsed

bool capped(const VkMemoryHeap& heap) {
  return config().heapBytes != 0 && (heap.flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT);
}

// The device holding memory instance `instance` of `d`'s allocations.
EmulatedPhysicalDevice* instanceDevice(DeviceData* d, uint32_t instance) {
  return d->members[instance < d->deviceCount ? instance : 0];
}

}  // namespace

bool parseByteCount(const char* text, uint64_t* out) {
  if (!text || !std::isdigit(static_cast<unsigned char>(*text))) return false;
  uint64_t n = 0;
  const char* s = text;
  for (; std::isdigit(static_cast<unsigned char>(*s)); ++s) {
    const uint64_t digit = static_cast<uint64_t>(*s - '0');
    if (n > (UINT64_MAX - digit) / 10) return false;
    n = n * 10 + digit;
  }
  unsigned shift = 0;
  if (*s) {
    const char* units = "KMGT";
    const char* unit = std::strchr(units, std::toupper(static_cast<unsigned char>(*s)));
    if (!unit) return false;
    shift = 10u * static_cast<unsigned>(unit - units + 1);
    ++s;
    if (std::strcmp(s, "iB") == 0) s += 2;
  }
  if (*s || n == 0 || n > (UINT64_MAX >> shift)) return false;
  *out = n << shift;
  return true;
}

void capDeviceLocalHeaps(VkPhysicalDeviceMemoryProperties* p) {
  for (uint32_t h = 0; h < p->memoryHeapCount; ++h)
    if (capped(p->memoryHeaps[h])) p->memoryHeaps[h].size = config().heapBytes;
}

bool chargeHeap(DeviceData* d, EmulatedMemory* mem) {
  const uint32_t heap = d->memory.emulated.memoryTypes[mem->emulatedType].heapIndex;
  if (!capped(d->memory.emulated.memoryHeaps[heap])) return true;
  const VkDeviceSize cap = config().heapBytes;
  std::lock_guard<std::mutex> lock(gHeapMutex);
  for (uint32_t i = 0; i < kMaxDevices; ++i) {
    if (!(mem->instanceMask & (1u << i))) continue;
    const VkDeviceSize used = instanceDevice(d, i)->heapUsed[heap];
    if (mem->size > cap || used > cap - mem->size) return false;
  }
  for (uint32_t i = 0; i < kMaxDevices; ++i)
    if (mem->instanceMask & (1u << i)) instanceDevice(d, i)->heapUsed[heap] += mem->size;
  mem->heapCharged = true;
  return true;
}

void releaseHeap(DeviceData* d, EmulatedMemory* mem) {
  if (!mem->heapCharged) return;
  const uint32_t heap = d->memory.emulated.memoryTypes[mem->emulatedType].heapIndex;
  std::lock_guard<std::mutex> lock(gHeapMutex);
  for (uint32_t i = 0; i < kMaxDevices; ++i)
    if (mem->instanceMask & (1u << i)) instanceDevice(d, i)->heapUsed[heap] -= mem->size;
  mem->heapCharged = false;
}

void reportHeapBudget(const EmulatedPhysicalDevice* e, const VkPhysicalDeviceMemoryProperties& p,
                      VkPhysicalDeviceMemoryBudgetPropertiesEXT* budget) {
  std::lock_guard<std::mutex> lock(gHeapMutex);
  for (uint32_t h = 0; h < p.memoryHeapCount; ++h) {
    if (!capped(p.memoryHeaps[h])) continue;
    budget->heapBudget[h] = config().heapBytes;
    budget->heapUsage[h] = e->heapUsed[h];
  }
}

}  // namespace meshvk_layer
