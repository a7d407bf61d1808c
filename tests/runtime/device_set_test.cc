// meshvk_device_set_t: process -> device/queue mapping for both topologies,
// and the errors for impossible requests.
#include <memory>
#include <vector>

#include "vulkan_fixture.h"

namespace meshvk_test {
namespace {

using DeviceSetTest = VulkanTest;

class LogicalDeviceSetTest : public VulkanTest, public ::testing::WithParamInterface<uint32_t> {};

TEST_P(LogicalDeviceSetTest, MapsProcessesRoundRobinOverPhysicalDevices) {
  const uint32_t processes = GetParam();
  const uint32_t physical = meshvk_instance_physical_device_count(instance());
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, processes);
  ASSERT_TRUE(set);
  EXPECT_EQ(meshvk_device_set_topology(set.get()), MESHVK_TOPOLOGY_LOGICAL);
  EXPECT_EQ(meshvk_device_set_process_count(set.get()), processes);
  for (uint32_t p = 0; p < processes; ++p) {
    meshvk_process_info_t info;
    MESHVK_ASSERT_OK(meshvk_device_set_process_info(set.get(), p, &info));
    EXPECT_EQ(info.physical_device, p % physical);
    EXPECT_EQ(info.device_index, 0u);
    // One VkDevice per physical device used, numbered in first-use order.
    EXPECT_EQ(info.logical_device, p % physical);
    meshvk_physical_device_info_t device;
    MESHVK_ASSERT_OK(meshvk_instance_physical_device_info(instance(), info.physical_device, &device));
    EXPECT_LT(info.queue_family, device.queue_family_count);
    EXPECT_LT(info.queue_index, device.queue_families[info.queue_family].queue_count);
    meshvk_device_limits_t limits;
    MESHVK_ASSERT_OK(meshvk_device_set_process_limits(set.get(), p, &limits));
    EXPECT_EQ(limits.max_workgroup_invocations, device.limits.max_workgroup_invocations);
    for (uint32_t q = 0; q < processes; ++q) {
      meshvk_process_info_t other;
      MESHVK_ASSERT_OK(meshvk_device_set_process_info(set.get(), q, &other));
      uint32_t expected = other.logical_device == info.logical_device ? 0xFu : 0u;
      EXPECT_EQ(meshvk_device_set_peer_features(set.get(), p, q), expected) << p << " -> " << q;
    }
  }
  MESHVK_EXPECT_OK(meshvk_device_set_wait_idle(set.get()));
}

INSTANTIATE_TEST_SUITE_P(Processes, LogicalDeviceSetTest, ::testing::Values(1u, 2u, 4u, 8u));

TEST_F(DeviceSetTest, ProcessesOnOnePhysicalDeviceShareOneVkDevice) {
  const uint32_t mapping[3] = {0, 0, 0};
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 3, mapping);
  ASSERT_TRUE(set);
  for (uint32_t p = 0; p < 3; ++p) {
    meshvk_process_info_t info;
    MESHVK_ASSERT_OK(meshvk_device_set_process_info(set.get(), p, &info));
    EXPECT_EQ(info.logical_device, 0u);
    EXPECT_EQ(info.physical_device, 0u);
  }
}

TEST_F(DeviceSetTest, GroupTopologyCoversTheWholeGroup) {
  const uint32_t d = Group0Size();
  ASSERT_GE(d, 1u);
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_DEVICE_GROUP, 2 * d);
  ASSERT_TRUE(set);
  EXPECT_EQ(meshvk_device_set_topology(set.get()), MESHVK_TOPOLOGY_DEVICE_GROUP);
  auto group = std::make_unique<meshvk_device_group_info_t>();
  MESHVK_ASSERT_OK(meshvk_instance_device_group_info(instance(), 0, group.get()));
  for (uint32_t p = 0; p < 2 * d; ++p) {
    meshvk_process_info_t info;
    MESHVK_ASSERT_OK(meshvk_device_set_process_info(set.get(), p, &info));
    EXPECT_EQ(info.device_index, p % d);
    EXPECT_EQ(info.physical_device, group->physical_devices[p % d]);
    EXPECT_EQ(info.logical_device, 0u) << "a group is one VkDevice";
  }
  for (uint32_t p = 0; p < d; ++p) {
    EXPECT_EQ(meshvk_device_set_peer_features(set.get(), p, p), 0xFu);
    for (uint32_t q = 0; q < d; ++q) {
      if (p == q) continue;
      // The set reports the group's features for the heap buffers live in;
      // every heap's entry comes from vkGetDeviceGroupPeerMemoryFeatures.
      uint32_t features = meshvk_device_set_peer_features(set.get(), p, q);
      bool found = false;
      for (uint32_t h = 0; h < group->heap_count; ++h) {
        found |= group->peer_memory_features[h][p][q] == features;
      }
      EXPECT_TRUE(found) << p << " -> " << q << ": 0x" << std::hex << features;
    }
  }
}

TEST_F(DeviceSetTest, AutoPicksAGroupOfTwoOrMoreElseLogical) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_AUTO, 2);
  ASSERT_TRUE(set);
  bool has_big_group = false;
  auto group = std::make_unique<meshvk_device_group_info_t>();
  for (uint32_t g = 0; g < meshvk_instance_device_group_count(instance()); ++g) {
    MESHVK_ASSERT_OK(meshvk_instance_device_group_info(instance(), g, group.get()));
    has_big_group |= group->device_count >= 2;
  }
  EXPECT_EQ(meshvk_device_set_topology(set.get()),
            has_big_group ? MESHVK_TOPOLOGY_DEVICE_GROUP : MESHVK_TOPOLOGY_LOGICAL);
}

TEST_F(DeviceSetTest, RejectsImpossibleRequests) {
  meshvk_device_set_create_info_t info = {};
  meshvk_device_set_t* set = reinterpret_cast<meshvk_device_set_t*>(0x1);
  info.topology = MESHVK_TOPOLOGY_LOGICAL;
  info.process_count = 0;
  EXPECT_TRUE(HasCode(meshvk_device_set_create(instance(), &info, &set),
                      MESHVK_STATUS_INVALID_ARGUMENT, "process_count"));
  EXPECT_EQ(set, nullptr) << "out pointer is cleared on failure";

  info.process_count = 2;
  const uint32_t bad_physical[2] = {0, meshvk_instance_physical_device_count(instance())};
  info.process_devices = bad_physical;
  EXPECT_TRUE(HasCode(meshvk_device_set_create(instance(), &info, &set),
                      MESHVK_STATUS_INVALID_ARGUMENT, "process 1"));

  info.topology = MESHVK_TOPOLOGY_DEVICE_GROUP;
  const uint32_t bad_index[2] = {0, Group0Size()};
  info.process_devices = bad_index;
  EXPECT_TRUE(HasCode(meshvk_device_set_create(instance(), &info, &set),
                      MESHVK_STATUS_INVALID_ARGUMENT, "device index"));

  info.process_devices = nullptr;
  info.device_group_index = meshvk_instance_device_group_count(instance());
  EXPECT_TRUE(HasCode(meshvk_device_set_create(instance(), &info, &set),
                      MESHVK_STATUS_OUT_OF_RANGE, "device group"));

  info.device_group_index = 0;
  info.topology = static_cast<meshvk_topology_t>(42);
  EXPECT_TRUE(HasCode(meshvk_device_set_create(instance(), &info, &set),
                      MESHVK_STATUS_INVALID_ARGUMENT, "topology"));
  EXPECT_TRUE(HasCode(meshvk_device_set_create(nullptr, &info, &set),
                      MESHVK_STATUS_INVALID_ARGUMENT));
  EXPECT_TRUE(HasCode(meshvk_device_set_create(instance(), nullptr, &set),
                      MESHVK_STATUS_INVALID_ARGUMENT));
}

TEST_F(DeviceSetTest, QueriesRejectOutOfRangeProcesses) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 2);
  ASSERT_TRUE(set);
  meshvk_process_info_t info;
  meshvk_device_limits_t limits;
  EXPECT_TRUE(HasCode(meshvk_device_set_process_info(set.get(), 2, &info),
                      MESHVK_STATUS_OUT_OF_RANGE, "process 2"));
  EXPECT_TRUE(HasCode(meshvk_device_set_process_limits(set.get(), 7, &limits),
                      MESHVK_STATUS_OUT_OF_RANGE, "process 7"));
  EXPECT_TRUE(HasCode(meshvk_device_set_process_info(nullptr, 0, &info),
                      MESHVK_STATUS_INVALID_ARGUMENT));
  EXPECT_EQ(meshvk_device_set_peer_features(set.get(), 0, 9), 0u);
  EXPECT_EQ(meshvk_device_set_process_count(nullptr), 0u);
  EXPECT_TRUE(HasCode(meshvk_device_set_wait_idle(nullptr), MESHVK_STATUS_INVALID_ARGUMENT));
}

}  // namespace
}  // namespace meshvk_test
