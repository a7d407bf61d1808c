// The emulated group as the application sees it: N physical devices, one group
// holding them, stable handles, and every physical-device query answered.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

#include "layer_fixture.h"

namespace meshvk_layer_test {
namespace {

using Enumeration = LayerTest;

std::vector<VkPhysicalDevice> enumerate(VkInstance instance) {
  uint32_t count = 0;
  EXPECT_EQ(vkEnumeratePhysicalDevices(instance, &count, nullptr), VK_SUCCESS);
  std::vector<VkPhysicalDevice> out(count);
  EXPECT_EQ(vkEnumeratePhysicalDevices(instance, &count, out.data()), VK_SUCCESS);
  out.resize(count);
  return out;
}

TEST_F(Enumeration, GroupMembersAreListedAndStable) {
  std::vector<VkPhysicalDevice> first = enumerate(instance_);
  ASSERT_GE(first.size(), n_);
  for (VkPhysicalDevice m : members_)
    EXPECT_NE(std::find(first.begin(), first.end(), m), first.end()) << "group member missing from the device list";
  EXPECT_EQ(std::set<VkPhysicalDevice>(members_.begin(), members_.end()).size(), n_) << "members must be distinct";
  EXPECT_EQ(enumerate(instance_), first) << "handles must not change between calls";

  // (No VK_INCOMPLETE probe here: loader 1.3.239 rebuilds its physical-device
  // list from a short enumeration and frees the objects of the devices left out.)
  uint32_t groupCount = 0;
  ASSERT_EQ(vkEnumeratePhysicalDeviceGroups(instance_, &groupCount, nullptr), VK_SUCCESS);
  std::vector<VkPhysicalDeviceGroupProperties> groups(groupCount, {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GROUP_PROPERTIES});
  ASSERT_EQ(vkEnumeratePhysicalDeviceGroups(instance_, &groupCount, groups.data()), VK_SUCCESS);
  bool found = false;
  for (auto& g : groups)
    if (g.physicalDeviceCount == n_ && std::equal(members_.begin(), members_.end(), g.physicalDevices)) {
      found = true;
      EXPECT_EQ(g.subsetAllocation, n_ > 1 ? VK_TRUE : VK_FALSE);
    }
  EXPECT_TRUE(found) << "the group's members changed between calls";
}

TEST_F(Enumeration, EveryMemberReportsItsIndexAndAUniqueUuid) {
  std::set<std::string> names, uuids;
  for (uint32_t i = 0; i < n_; ++i) {
    VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
    VkPhysicalDeviceProperties2 p{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &id};
    vkGetPhysicalDeviceProperties2(members_[i], &p);
    std::string name = p.properties.deviceName;
    EXPECT_NE(name.find("/" + std::to_string(n_) + "]"), std::string::npos) << name;
    names.insert(name);
    uuids.insert(std::string(reinterpret_cast<const char*>(id.deviceUUID), VK_UUID_SIZE));
    VkPhysicalDeviceProperties p1;
    vkGetPhysicalDeviceProperties(members_[i], &p1);
    EXPECT_STREQ(p1.deviceName, p.properties.deviceName);
  }
  EXPECT_EQ(names.size(), n_);
  EXPECT_EQ(uuids.size(), n_);
}

TEST_F(Enumeration, MemoryHeapsModelADeviceGroup) {
  bool multiInstanceDeviceLocal = false, hostHeap = false;
  for (uint32_t t = 0; t < memory_.memoryTypeCount; ++t) {
    const VkMemoryType& type = memory_.memoryTypes[t];
    const VkMemoryHeap& heap = memory_.memoryHeaps[type.heapIndex];
    if ((type.propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) && (heap.flags & VK_MEMORY_HEAP_MULTI_INSTANCE_BIT))
      multiInstanceDeviceLocal = true;
    if ((type.propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) && !(heap.flags & VK_MEMORY_HEAP_MULTI_INSTANCE_BIT))
      hostHeap = true;
  }
  EXPECT_EQ(multiInstanceDeviceLocal, n_ > 1);
  EXPECT_TRUE(hostHeap);
  VkPhysicalDeviceMemoryProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2};
  vkGetPhysicalDeviceMemoryProperties2(members_[n_ - 1], &p2);
  ASSERT_EQ(p2.memoryProperties.memoryTypeCount, memory_.memoryTypeCount);
  ASSERT_EQ(p2.memoryProperties.memoryHeapCount, memory_.memoryHeapCount);
  for (uint32_t t = 0; t < memory_.memoryTypeCount; ++t) {
    EXPECT_EQ(p2.memoryProperties.memoryTypes[t].propertyFlags, memory_.memoryTypes[t].propertyFlags);
    EXPECT_EQ(p2.memoryProperties.memoryTypes[t].heapIndex, memory_.memoryTypes[t].heapIndex);
  }
  for (uint32_t h = 0; h < memory_.memoryHeapCount; ++h)
    EXPECT_EQ(p2.memoryProperties.memoryHeaps[h].flags, memory_.memoryHeaps[h].flags);
}

// MESHVK_EMULATED_PEER_MEMORY_FEATURES (a number here) or all four bits.
TEST_F(Enumeration, PeerMemoryFeaturesFollowTheConfiguration) {
  const char* env = std::getenv("MESHVK_EMULATED_PEER_MEMORY_FEATURES");
  const VkPeerMemoryFeatureFlags expected = env && *env ? static_cast<VkPeerMemoryFeatureFlags>(std::atoi(env)) : 0xFu;
  for (uint32_t h = 0; h < memory_.memoryHeapCount; ++h) {
    if (!(memory_.memoryHeaps[h].flags & VK_MEMORY_HEAP_MULTI_INSTANCE_BIT)) continue;
    for (uint32_t a = 0; a < n_; ++a)
      for (uint32_t b = 0; b < n_; ++b) {
        if (a == b) continue;
        VkPeerMemoryFeatureFlags f = 0;
        vkGetDeviceGroupPeerMemoryFeatures(device_, h, a, b, &f);
        EXPECT_EQ(f, expected) << "heap " << h << " local " << a << " remote " << b;
      }
  }
}

// Queries other layers call through *2 / KHR names reach the real device.
TEST_F(Enumeration, QueriesAreAnsweredOnEveryMember) {
  auto features2KHR = reinterpret_cast<PFN_vkGetPhysicalDeviceFeatures2KHR>(
      vkGetInstanceProcAddr(instance_, "vkGetPhysicalDeviceFeatures2KHR"));
  ASSERT_NE(features2KHR, nullptr);
  VkQueueFamilyProperties q0{};
  uint32_t one = 1;
  vkGetPhysicalDeviceQueueFamilyProperties(members_[0], &one, &q0);
  for (VkPhysicalDevice m : members_) {
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f12};
    features2KHR(m, &f);
    EXPECT_EQ(f12.bufferDeviceAddressMultiDevice, VK_FALSE);
    EXPECT_EQ(f12.timelineSemaphore, VK_TRUE);
    VkFormatProperties fp{};
    vkGetPhysicalDeviceFormatProperties(m, VK_FORMAT_R32_SFLOAT, &fp);
    EXPECT_NE(fp.bufferFeatures, 0u);
    VkQueueFamilyProperties2 q{VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2};
    uint32_t count = 1;
    vkGetPhysicalDeviceQueueFamilyProperties2(m, &count, &q);
    EXPECT_EQ(q.queueFamilyProperties.queueFlags, q0.queueFlags);
    VkPhysicalDeviceExternalBufferInfo ebi{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO};
    ebi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    ebi.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkExternalBufferProperties ebp{VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
    vkGetPhysicalDeviceExternalBufferProperties(m, &ebi, &ebp);
    uint32_t extCount = 0;
    EXPECT_EQ(vkEnumerateDeviceExtensionProperties(m, nullptr, &extCount, nullptr), VK_SUCCESS);
    EXPECT_GT(extCount, 0u);
    EXPECT_EQ(vkEnumerateDeviceExtensionProperties(m, "VK_LAYER_MESHVK_emulated_device_group", &extCount, nullptr),
              VK_SUCCESS);
    EXPECT_EQ(extCount, 0u);
  }
}

}  // namespace
}  // namespace meshvk_layer_test
