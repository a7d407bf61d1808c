// MESHVK_EMULATED_HEAP_BYTES: each emulated device shows its device-local
// heaps at the cap and refuses allocations past it, counting each memory
// instance on its own device and giving freed bytes back. ctest runs this with
// MESHVK_EMULATED_HEAP_BYTES=1M on a group of 2.
#include <cstdlib>

#include "layer_fixture.h"

namespace meshvk_layer_test {
namespace {

constexpr VkDeviceSize kCap = 1 << 20;

class HeapCap : public LayerTest {
 protected:
  void SetUp() override {
    const char* cap = std::getenv("MESHVK_EMULATED_HEAP_BYTES");
    if (!cap || std::string(cap) != "1M") GTEST_SKIP() << "run through ctest with MESHVK_EMULATED_HEAP_BYTES=1M";
    LayerTest::SetUp();
    for (uint32_t i = 0; i < memory_.memoryTypeCount && type_ == UINT32_MAX; ++i)
      if (memory_.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) type_ = i;
    ASSERT_NE(type_, UINT32_MAX) << "no device-local memory type";
  }

  // Allocates `size` bytes of device-local memory with one instance per
  // device in `deviceMask`; the VkResult of vkAllocateMemory.
  VkResult allocate(VkDeviceSize size, uint32_t deviceMask, VkDeviceMemory* out) {
    VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_MASK_BIT;
    flags.deviceMask = deviceMask;
    VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    info.pNext = &flags;
    info.allocationSize = size;
    info.memoryTypeIndex = type_;
    *out = VK_NULL_HANDLE;
    return vkAllocateMemory(device_, &info, nullptr, out);
  }

  // What VK_EXT_memory_budget says about heap `heap` of member `device`.
  bool budget(uint32_t device, uint32_t heap, VkDeviceSize* budget, VkDeviceSize* usage) {
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(members_[device], nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateDeviceExtensionProperties(members_[device], nullptr, &count, extensions.data());
    bool supported = false;
    for (const auto& e : extensions) supported |= std::string(e.extensionName) == VK_EXT_MEMORY_BUDGET_EXTENSION_NAME;
    if (!supported) return false;
    VkPhysicalDeviceMemoryBudgetPropertiesEXT b{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT};
    VkPhysicalDeviceMemoryProperties2 p{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2};
    p.pNext = &b;
    vkGetPhysicalDeviceMemoryProperties2(members_[device], &p);
    *budget = b.heapBudget[heap];
    *usage = b.heapUsage[heap];
    return true;
  }

  uint32_t heap() const { return memory_.memoryTypes[type_].heapIndex; }
  uint32_t type_ = UINT32_MAX;
};

TEST_F(HeapCap, DeviceLocalHeapsShowTheCap) {
  for (VkPhysicalDevice member : members_) {
    VkPhysicalDeviceMemoryProperties p{};
    vkGetPhysicalDeviceMemoryProperties(member, &p);
    uint32_t capped = 0;
    for (uint32_t h = 0; h < p.memoryHeapCount; ++h) {
      if (!(p.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)) continue;
      EXPECT_EQ(p.memoryHeaps[h].size, kCap) << "heap " << h;
      ++capped;
    }
    EXPECT_GE(capped, 1u);
  }
}

// Each device has its own megabyte: memory on device 0 does not use device
// 1's, an allocation past one device's cap fails with
// VK_ERROR_OUT_OF_DEVICE_MEMORY, and a free gives its bytes back.
TEST_F(HeapCap, RefusesPastTheCapPerDeviceAndCountsFrees) {
  ASSERT_GE(n_, 2u);
  const VkDeviceSize big = 3 * kCap / 4, small = kCap / 4;
  VkDeviceMemory both = VK_NULL_HANDLE, second = VK_NULL_HANDLE, refused = VK_NULL_HANDLE, again = VK_NULL_HANDLE;
  ASSERT_EQ(allocate(big, 0x3, &both), VK_SUCCESS);  // 768 KiB on devices 0 and 1
  ASSERT_EQ(allocate(small, 0x2, &second), VK_SUCCESS) << "device 1 has 256 KiB left";
  EXPECT_EQ(allocate(small + 1, 0x1, &refused), VK_ERROR_OUT_OF_DEVICE_MEMORY) << "device 0 has 256 KiB left";
  EXPECT_EQ(refused, VK_NULL_HANDLE);
  EXPECT_EQ(allocate(1, 0x2, &refused), VK_ERROR_OUT_OF_DEVICE_MEMORY) << "device 1 is full";
  VkDeviceSize budget0 = 0, usage0 = 0, budget1 = 0, usage1 = 0;
  if (budget(0, heap(), &budget0, &usage0) && budget(1, heap(), &budget1, &usage1)) {
    EXPECT_EQ(budget0, kCap);
    EXPECT_EQ(usage0, big);
    EXPECT_EQ(budget1, kCap);
    EXPECT_EQ(usage1, big + small);
  }
  vkFreeMemory(device_, both, nullptr);
  ASSERT_EQ(allocate(kCap, 0x1, &again), VK_SUCCESS) << "the free gave device 0 its megabyte back";
  if (budget(0, heap(), &budget0, &usage0)) EXPECT_EQ(usage0, kCap);
  vkFreeMemory(device_, again, nullptr);
  vkFreeMemory(device_, second, nullptr);
}

}  // namespace
}  // namespace meshvk_layer_test
