// meshvk_instance_t: creation, discovery, and that validation is really on.
#include <volk.h>

#include <cstring>
#include <memory>

#include "device_set.h"  // internal: reaches a VkDevice to provoke a message
#include "meshvk_environment.h"
#include "vulkan_fixture.h"

namespace meshvk_test {
namespace {

using InstanceTest = VulkanTest;

TEST_F(InstanceTest, EnumeratesPhysicalDevicesWithLimits) {
  uint32_t count = meshvk_instance_physical_device_count(instance());
  ASSERT_GE(count, 1u);
  for (uint32_t i = 0; i < count; ++i) {
    meshvk_physical_device_info_t info = MESHVK_PHYSICAL_DEVICE_INFO_INIT;
    MESHVK_ASSERT_OK(meshvk_instance_physical_device_info(instance(), i, &info));
    EXPECT_GT(std::strlen(info.name), 0u);
    EXPECT_GE(info.api_version, (1u << 22) | (2u << 12)) << "Vulkan 1.2+";
    EXPECT_GE(info.queue_family_count, 1u);
    EXPECT_GE(info.heap_count, 1u);
    // Vulkan's required minimums for compute.
    EXPECT_GE(info.limits.max_workgroup_invocations, 128u);
    EXPECT_GE(info.limits.max_workgroup_count[0], 65535u);
    EXPECT_GE(info.limits.max_shared_memory_bytes, 16384u);
    EXPECT_GE(info.limits.max_push_constants_bytes, 128u);
    EXPECT_GE(info.limits.subgroup_size, 1u);
    EXPECT_GT(info.limits.max_memory_allocation_size, 0u);
  }
}

// The names are the VkPhysicalDeviceType values' own (Vulkan spec, "Device
// Types"); lavapipe is a CPU device.
TEST_F(InstanceTest, NamesPhysicalDeviceTypes) {
  EXPECT_STREQ(meshvk_physical_device_type_name(VK_PHYSICAL_DEVICE_TYPE_OTHER), "other");
  EXPECT_STREQ(meshvk_physical_device_type_name(VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU), "integrated-gpu");
  EXPECT_STREQ(meshvk_physical_device_type_name(VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU), "discrete-gpu");
  EXPECT_STREQ(meshvk_physical_device_type_name(VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU), "virtual-gpu");
  EXPECT_STREQ(meshvk_physical_device_type_name(VK_PHYSICAL_DEVICE_TYPE_CPU), "cpu");
  EXPECT_STREQ(meshvk_physical_device_type_name(5), "other");
  EXPECT_STREQ(meshvk_physical_device_type_name(UINT32_MAX), "other");
  meshvk_physical_device_info_t info = MESHVK_PHYSICAL_DEVICE_INFO_INIT;
  MESHVK_ASSERT_OK(meshvk_instance_physical_device_info(instance(), 0, &info));
  if (std::strstr(info.name, "llvmpipe")) EXPECT_STREQ(meshvk_physical_device_type_name(info.device_type), "cpu");
}

TEST_F(InstanceTest, PhysicalDeviceQueriesRejectBadArguments) {
  meshvk_physical_device_info_t info = MESHVK_PHYSICAL_DEVICE_INFO_INIT;
  uint32_t count = meshvk_instance_physical_device_count(instance());
  EXPECT_TRUE(HasCode(meshvk_instance_physical_device_info(instance(), count, &info), MESHVK_STATUS_OUT_OF_RANGE,
                      "physical device"));
  EXPECT_TRUE(HasCode(meshvk_instance_physical_device_info(instance(), 0, nullptr), MESHVK_STATUS_INVALID_ARGUMENT));
  EXPECT_EQ(meshvk_instance_physical_device_count(nullptr), 0u);
  EXPECT_TRUE(HasCode(meshvk_instance_create(nullptr, nullptr), MESHVK_STATUS_INVALID_ARGUMENT));
}

TEST_F(InstanceTest, DeviceGroupsHaveAPeerMatrix) {
  uint32_t groups = meshvk_instance_device_group_count(instance());
  ASSERT_GE(groups, 1u);
  meshvk_device_group_info_t info = MESHVK_DEVICE_GROUP_INFO_INIT;
  for (uint32_t g = 0; g < groups; ++g) {
    MESHVK_ASSERT_OK(meshvk_instance_device_group_info(instance(), g, &info));
    ASSERT_GE(info.device_count, 1u);
    ASSERT_GE(info.heap_count, 1u);
    for (uint32_t d = 0; d < info.device_count; ++d) {
      EXPECT_LT(info.physical_devices[d], meshvk_instance_physical_device_count(instance()));
      for (uint32_t h = 0; h < info.heap_count; ++h) {
        uint32_t features = 0;
        MESHVK_ASSERT_OK(meshvk_instance_device_group_peer_features(instance(), g, h, d, d, &features));
        EXPECT_EQ(features, 0xFu) << "a device reaches itself fully";
      }
    }
  }
  EXPECT_TRUE(HasCode(meshvk_instance_device_group_info(instance(), groups, &info), MESHVK_STATUS_OUT_OF_RANGE,
                      "device group"));
}

TEST_F(InstanceTest, ValidationLayerReportsMisuse) {
  // Proves the fixture's "no validation message" check can fail: an invalid
  // Vulkan call made behind meshvk's back must reach the callback.
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(set);
  meshvk::LogicalDevice& device = *set->devices[0];
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = 0;  // VUID-VkBufferCreateInfo-size-00912
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkResult result = device.vk.vkCreateBuffer(device.device, &info, nullptr, &buffer);
  if (result == VK_SUCCESS && buffer) device.vk.vkDestroyBuffer(device.device, buffer, nullptr);
  EXPECT_GE(meshvk_instance_message_count(instance()), 1u);
  std::vector<std::string> messages = TakeMessages();
  ASSERT_FALSE(messages.empty());
  EXPECT_NE(messages[0].find("size"), std::string::npos) << messages[0];
}

TEST(InstanceEnvironmentTest, AMisspelledValidationValueIsRefused) {
  // A typo in MESHVK_VALIDATION must not silently run without validation.
  ::setenv("MESHVK_VALIDATION", "yes", 1);
  meshvk_instance_t* instance = nullptr;
  meshvk_status_t status = meshvk_environment_create_instance(&instance);
  ::unsetenv("MESHVK_VALIDATION");
  EXPECT_EQ(instance, nullptr);
  EXPECT_TRUE(
      HasCode(status, MESHVK_STATUS_INVALID_ARGUMENT, "MESHVK_VALIDATION='yes' is invalid; expected 0, 1 or sync"));
}

}  // namespace
}  // namespace meshvk_test
