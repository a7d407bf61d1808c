// meshvk_device_set_t: process -> device/queue mapping for both topologies,
// and the errors for impossible requests.
#include <memory>
#include <vector>

#include "vulkan_fixture.h"

namespace meshvk_test {
namespace {

using DeviceSetTest = VulkanTest;

class LogicalDeviceSetTest : public VulkanTest, public ::testing::WithParamInterface<uint32_t> {};

// LOGICAL multiplexes every process onto the first physical device (one
// VkDevice); INDEPENDENT deals them round robin over the physical devices,
// one VkDevice each, numbered in first-use order.
TEST_P(LogicalDeviceSetTest, MapsProcessesOntoPhysicalDevices) {
  const uint32_t processes = GetParam();
  const uint32_t physical = meshvk_instance_physical_device_count(instance());
  for (meshvk_topology_t topology : {MESHVK_TOPOLOGY_LOGICAL, MESHVK_TOPOLOGY_INDEPENDENT}) {
    const bool independent = topology == MESHVK_TOPOLOGY_INDEPENDENT;
    DeviceSet set = MakeSet(topology, processes);
    ASSERT_TRUE(set);
    EXPECT_EQ(meshvk_device_set_topology(set.get()), topology);
    EXPECT_EQ(meshvk_device_set_process_count(set.get()), processes);
    for (uint32_t p = 0; p < processes; ++p) {
      meshvk_process_info_t info = MESHVK_PROCESS_INFO_INIT;
      MESHVK_ASSERT_OK(meshvk_device_set_process_info(set.get(), p, &info));
      EXPECT_EQ(info.physical_device, independent ? p % physical : 0u);
      EXPECT_EQ(info.device_index, 0u);
      EXPECT_EQ(info.logical_device, independent ? p % physical : 0u);
      meshvk_physical_device_info_t device = MESHVK_PHYSICAL_DEVICE_INFO_INIT;
      MESHVK_ASSERT_OK(meshvk_instance_physical_device_info(instance(), info.physical_device, &device));
      EXPECT_LT(info.queue_family, device.queue_family_count);
      EXPECT_LT(info.queue_index, device.queue_families[info.queue_family].queue_count);
      meshvk_device_limits_t limits = MESHVK_DEVICE_LIMITS_INIT;
      MESHVK_ASSERT_OK(meshvk_device_set_process_limits(set.get(), p, &limits));
      EXPECT_EQ(limits.max_workgroup_invocations, device.limits.max_workgroup_invocations);
      for (uint32_t q = 0; q < processes; ++q) {
        meshvk_process_info_t other = MESHVK_PROCESS_INFO_INIT;
        MESHVK_ASSERT_OK(meshvk_device_set_process_info(set.get(), q, &other));
        uint32_t expected = other.logical_device == info.logical_device ? 0xFu : 0u;
        EXPECT_EQ(meshvk_device_set_peer_features(set.get(), p, q), expected) << p << " -> " << q;
        // Across VkDevices the set's path is the pair's (external memory or host staging).
        meshvk_copy_path_info_t path = MESHVK_COPY_PATH_INFO_INIT, pair = MESHVK_COPY_PATH_INFO_INIT;
        MESHVK_ASSERT_OK(meshvk_device_set_copy_path(set.get(), q, p, &path));
        if (other.logical_device == info.logical_device) {
          EXPECT_EQ(path.path, MESHVK_COPY_PATH_SAME_DEVICE) << q << " -> " << p;
        } else {
          MESHVK_ASSERT_OK(meshvk_instance_copy_path(instance(), other.physical_device, info.physical_device, &pair));
          EXPECT_EQ(path.path, pair.path) << q << " -> " << p << ": " << path.reason;
          EXPECT_NE(path.path, MESHVK_COPY_PATH_SAME_DEVICE);
          EXPECT_STRNE(path.reason, "");
        }
      }
    }
    MESHVK_EXPECT_OK(meshvk_device_set_wait_idle(set.get()));
  }
}

INSTANTIATE_TEST_SUITE_P(Processes, LogicalDeviceSetTest, ::testing::Values(1u, 2u, 4u, 8u));

TEST_F(DeviceSetTest, ProcessesOnOnePhysicalDeviceShareOneVkDevice) {
  const uint32_t mapping[3] = {0, 0, 0};
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 3, mapping);
  ASSERT_TRUE(set);
  for (uint32_t p = 0; p < 3; ++p) {
    meshvk_process_info_t info = MESHVK_PROCESS_INFO_INIT;
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
  meshvk_device_group_info_t group = MESHVK_DEVICE_GROUP_INFO_INIT;
  MESHVK_ASSERT_OK(meshvk_instance_device_group_info(instance(), 0, &group));
  for (uint32_t p = 0; p < 2 * d; ++p) {
    meshvk_process_info_t info = MESHVK_PROCESS_INFO_INIT;
    MESHVK_ASSERT_OK(meshvk_device_set_process_info(set.get(), p, &info));
    EXPECT_EQ(info.device_index, p % d);
    EXPECT_EQ(info.physical_device, group.physical_devices[p % d]);
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
      for (uint32_t h = 0; h < group.heap_count; ++h) {
        uint32_t reported = 0;
        MESHVK_ASSERT_OK(meshvk_instance_device_group_peer_features(instance(), 0, h, p, q, &reported));
        found |= reported == features;
      }
      EXPECT_TRUE(found) << p << " -> " << q << ": 0x" << std::hex << features;
    }
  }
}

// A chosen list of physical devices: processes are dealt over it in order.
TEST_F(DeviceSetTest, PhysicalDeviceListChoosesTheDevices) {
  const uint32_t physical = meshvk_instance_physical_device_count(instance());
  const uint32_t last = physical - 1;
  meshvk_device_set_create_info_t info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
  info.topology = MESHVK_TOPOLOGY_INDEPENDENT;
  info.process_count = 3;
  info.physical_devices = &last;
  info.physical_device_count = 1;
  meshvk_device_set_t* raw = nullptr;
  MESHVK_ASSERT_OK(meshvk_device_set_create(instance(), &info, &raw));
  DeviceSet set(raw);
  for (uint32_t p = 0; p < 3; ++p) {
    meshvk_process_info_t process = MESHVK_PROCESS_INFO_INIT;
    MESHVK_ASSERT_OK(meshvk_device_set_process_info(set.get(), p, &process));
    EXPECT_EQ(process.physical_device, last);
  }
  const uint32_t twice[2] = {0, 0};
  info.physical_devices = twice;
  info.physical_device_count = 2;
  EXPECT_TRUE(
      HasCode(meshvk_device_set_create(instance(), &info, &raw), MESHVK_STATUS_INVALID_ARGUMENT, "listed twice"));
  const uint32_t missing = physical;
  info.physical_devices = &missing;
  info.physical_device_count = 1;
  EXPECT_TRUE(
      HasCode(meshvk_device_set_create(instance(), &info, &raw), MESHVK_STATUS_OUT_OF_RANGE, "physical device"));
}

TEST_F(DeviceSetTest, AutoPicksAGroupOfTwoOrMoreElseLogical) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_AUTO, 2);
  ASSERT_TRUE(set);
  bool has_big_group = false;
  meshvk_device_group_info_t group = MESHVK_DEVICE_GROUP_INFO_INIT;
  for (uint32_t g = 0; g < meshvk_instance_device_group_count(instance()); ++g) {
    MESHVK_ASSERT_OK(meshvk_instance_device_group_info(instance(), g, &group));
    has_big_group |= group.device_count >= 2;
  }
  const bool several = meshvk_instance_physical_device_count(instance()) > 1;
  EXPECT_EQ(meshvk_device_set_topology(set.get()), has_big_group ? MESHVK_TOPOLOGY_DEVICE_GROUP
                                                   : several     ? MESHVK_TOPOLOGY_INDEPENDENT
                                                                 : MESHVK_TOPOLOGY_LOGICAL);
}

TEST_F(DeviceSetTest, RejectsImpossibleRequests) {
  meshvk_device_set_create_info_t info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
  meshvk_device_set_t* set = reinterpret_cast<meshvk_device_set_t*>(0x1);
  info.topology = MESHVK_TOPOLOGY_LOGICAL;
  info.process_count = 0;
  EXPECT_TRUE(
      HasCode(meshvk_device_set_create(instance(), &info, &set), MESHVK_STATUS_INVALID_ARGUMENT, "process_count"));
  EXPECT_EQ(set, nullptr) << "out pointer is cleared on failure";

  info.process_count = 2;
  const uint32_t bad_physical[2] = {0, meshvk_instance_physical_device_count(instance())};
  info.process_devices = bad_physical;
  EXPECT_TRUE(HasCode(meshvk_device_set_create(instance(), &info, &set), MESHVK_STATUS_INVALID_ARGUMENT, "process 1"));

  info.topology = MESHVK_TOPOLOGY_DEVICE_GROUP;
  const uint32_t bad_index[2] = {0, Group0Size()};
  info.process_devices = bad_index;
  EXPECT_TRUE(
      HasCode(meshvk_device_set_create(instance(), &info, &set), MESHVK_STATUS_INVALID_ARGUMENT, "device index"));

  info.process_devices = nullptr;
  info.device_group_index = meshvk_instance_device_group_count(instance());
  EXPECT_TRUE(HasCode(meshvk_device_set_create(instance(), &info, &set), MESHVK_STATUS_OUT_OF_RANGE, "device group"));

  info.device_group_index = 0;
  info.topology = static_cast<meshvk_topology_t>(42);
  EXPECT_TRUE(HasCode(meshvk_device_set_create(instance(), &info, &set), MESHVK_STATUS_INVALID_ARGUMENT, "topology"));
  EXPECT_TRUE(HasCode(meshvk_device_set_create(nullptr, &info, &set), MESHVK_STATUS_INVALID_ARGUMENT));
  EXPECT_TRUE(HasCode(meshvk_device_set_create(instance(), nullptr, &set), MESHVK_STATUS_INVALID_ARGUMENT));
}

TEST_F(DeviceSetTest, QueriesRejectOutOfRangeProcesses) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 2);
  ASSERT_TRUE(set);
  meshvk_process_info_t info = MESHVK_PROCESS_INFO_INIT;
  meshvk_device_limits_t limits = MESHVK_DEVICE_LIMITS_INIT;
  EXPECT_TRUE(HasCode(meshvk_device_set_process_info(set.get(), 2, &info), MESHVK_STATUS_OUT_OF_RANGE, "process 2"));
  EXPECT_TRUE(
      HasCode(meshvk_device_set_process_limits(set.get(), 7, &limits), MESHVK_STATUS_OUT_OF_RANGE, "process 7"));
  EXPECT_TRUE(HasCode(meshvk_device_set_process_info(nullptr, 0, &info), MESHVK_STATUS_INVALID_ARGUMENT));
  EXPECT_EQ(meshvk_device_set_peer_features(set.get(), 0, 9), 0u);
  EXPECT_EQ(meshvk_device_set_process_count(nullptr), 0u);
  EXPECT_TRUE(HasCode(meshvk_device_set_wait_idle(nullptr), MESHVK_STATUS_INVALID_ARGUMENT));
}

}  // namespace
}  // namespace meshvk_test
