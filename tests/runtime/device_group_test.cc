// The device-group path: per-device allocation (device masks), peer binding,
// vkCmdSetDeviceMask, vkCmdDispatchBase and VkDeviceGroupSubmitInfo, on the
// whole of group 0 (size 1 on lavapipe; 2..8 under meshvk's emulation layer).
// Written for any group size D; tests that only mean something with D >= 2
// skip with the reason below.
#include <cstring>
#include <vector>

#include "vulkan_fixture.h"

namespace meshvk_test {
namespace {

constexpr uint64_t kSecond = 1000ull * 1000 * 1000;
constexpr const char* kNeedsGroup =
    "needs a device group of 2+ physical devices; lavapipe exposes groups of 1 "
    "(run under meshvk's emulation layer: VK_LAYER_PATH / VK_INSTANCE_LAYERS)";

class DeviceGroupTest : public VulkanTest {
 protected:
  void SetUp() override {
    VulkanTest::SetUp();
    group_size_ = Group0Size();
    ASSERT_GE(group_size_, 1u);
  }
  uint32_t group_size_ = 0;
};

TEST_F(DeviceGroupTest, DispatchBaseOnEveryDeviceOfTheGroup) {
  const uint32_t d = group_size_;
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_DEVICE_GROUP, d);
  ASSERT_TRUE(set);
  ASSERT_EQ(meshvk_device_set_topology(set.get()), MESHVK_TOPOLOGY_DEVICE_GROUP);
  Executable fill = Builtin(set.get(), MESHVK_BUILTIN_FILL);
  const uint32_t n = 64 * 9;
  std::vector<Buffer> buffers;
  std::vector<CommandBuffer> cbs;
  std::vector<Semaphore> done;
  for (uint32_t p = 0; p < d; ++p) {
    meshvk_process_info_t info = MESHVK_PROCESS_INFO_INIT;
    MESHVK_ASSERT_OK(meshvk_device_set_process_info(set.get(), p, &info));
    EXPECT_EQ(info.device_index, p);
    buffers.push_back(MakeBuffer(set.get(), p, n * 4));
    cbs.push_back(MakeCommandBuffer(set.get(), p));
    meshvk_semaphore_t* raw = nullptr;
    MESHVK_ASSERT_OK(meshvk_semaphore_create(set.get(), p, 0, &raw));
    done.emplace_back(raw);
    ASSERT_TRUE(buffers[p] && cbs[p] && fill);
    // Memory is allocated for the owner only.
    EXPECT_EQ(meshvk_device_set_allocated_bytes(set.get(), p), meshvk_buffer_allocation_size(buffers[p].get()));
    MESHVK_ASSERT_OK(meshvk_command_buffer_fill(cbs[p].get(), buffers[p].get(), 0, n * 4, 0xEEEEEEEEu));
    // Base 2, count 3: the kernel's global ids start at 2 * 64, so words
    // below 128 keep the sentinel and the grid-stride loop covers the rest.
    meshvk_binding_t binding = {buffers[p].get(), 0, 0, 1};
    uint32_t push[3] = {0, n, 0x100u + p};
    meshvk_dispatch_info_t dispatch = FillDispatch(fill.get(), &binding, push, 3);
    dispatch.workgroup_base[0] = 2;
    MESHVK_ASSERT_OK(meshvk_command_buffer_dispatch(cbs[p].get(), &dispatch));
    MESHVK_ASSERT_OK(meshvk_command_buffer_end(cbs[p].get()));
  }
  for (uint32_t p = 0; p < d; ++p) {
    meshvk_semaphore_value_t signal = {done[p].get(), 1};
    meshvk_submit_info_t submit = SubmitInfo(cbs[p].get(), nullptr, 0, &signal, 1);
    MESHVK_ASSERT_OK(meshvk_queue_submit(set.get(), &submit));
  }
  for (uint32_t p = 0; p < d; ++p) {
    MESHVK_ASSERT_OK(meshvk_semaphore_wait(done[p].get(), 1, 60 * kSecond));
    std::vector<uint32_t> words = ReadWords(buffers[p].get());
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_EQ(words[i], i < 128 ? 0xEEEEEEEEu : 0x100u + p) << "process " << p << " word " << i;
    }
  }
}

// 2D processes on D devices; phase 1 computes on each device, phase 2 has
// process p pull process p-1's result (another device whenever D >= 2),
// ordered by timeline semaphores waited on with the puller's device index.
TEST_F(DeviceGroupTest, PeerRingAcrossTheGroup) {
  const uint32_t d = group_size_;
  const uint32_t processes = 2 * d;
  const uint32_t n = 300;
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_DEVICE_GROUP, processes);
  ASSERT_TRUE(set);
  std::vector<Buffer> input, result, ring;
  std::vector<Semaphore> phase;
  std::vector<CommandBuffer> compute, pull;
  for (uint32_t p = 0; p < processes; ++p) {
    input.push_back(MakeBuffer(set.get(), p, n * 4));
    result.push_back(MakeBuffer(set.get(), p, n * 4));
    ring.push_back(MakeBuffer(set.get(), p, n * 4));
    meshvk_semaphore_t* raw = nullptr;
    MESHVK_ASSERT_OK(meshvk_semaphore_create(set.get(), p, 0, &raw));
    phase.emplace_back(raw);
    std::vector<float> host(n);
    for (uint32_t i = 0; i < n; ++i) host[i] = static_cast<float>(i) * 0.5f + p;
    MESHVK_ASSERT_OK(meshvk_buffer_write(input[p].get(), 0, host.data(), n * 4));
    compute.push_back(MakeCommandBuffer(set.get(), p));
    ASSERT_TRUE(compute[p]);
    // result = input + input
    meshvk_buffer_t* srcs[2] = {input[p].get(), input[p].get()};
    MESHVK_ASSERT_OK(meshvk_command_buffer_sum_f32(compute[p].get(), srcs, 2, result[p].get(), n));
    MESHVK_ASSERT_OK(meshvk_command_buffer_end(compute[p].get()));
    meshvk_semaphore_value_t signal = {phase[p].get(), 1};
    meshvk_submit_info_t submit = SubmitInfo(compute[p].get(), nullptr, 0, &signal, 1);
    MESHVK_ASSERT_OK(meshvk_queue_submit(set.get(), &submit));
  }
  std::vector<bool> pulled(processes, false);
  for (uint32_t p = 0; p < processes; ++p) {
    const uint32_t from = (p + processes - 1) % processes;
    pull.push_back(MakeCommandBuffer(set.get(), p));
    ASSERT_TRUE(pull[p]);
    const bool can_copy = meshvk_device_set_peer_features(set.get(), p, from) & 0x1u;
    meshvk_status_t status = meshvk_command_buffer_copy(pull[p].get(), result[from].get(), 0, ring[p].get(), 0, n * 4);
    if (can_copy) {
      MESHVK_ASSERT_OK(status);
      pulled[p] = true;
    } else {
      EXPECT_TRUE(HasCode(status, MESHVK_STATUS_UNAVAILABLE, "peer memory features"));
    }
    MESHVK_ASSERT_OK(meshvk_command_buffer_end(pull[p].get()));
    meshvk_semaphore_value_t waits[2] = {{phase[p].get(), 1}, {phase[from].get(), 1}};
    meshvk_semaphore_value_t signal = {phase[p].get(), 2};
    meshvk_submit_info_t submit = SubmitInfo(pull[p].get(), waits, from == p ? 1 : 2, &signal, 1);
    MESHVK_ASSERT_OK(meshvk_queue_submit(set.get(), &submit));
  }
  for (uint32_t p = 0; p < processes; ++p) {
    MESHVK_ASSERT_OK(meshvk_semaphore_wait(phase[p].get(), 2, 60 * kSecond));
    const uint32_t from = (p + processes - 1) % processes;
    std::vector<float> own = ReadFloats(result[p].get());
    std::vector<float> got = ReadFloats(ring[p].get());
    for (uint32_t i = 0; i < n; ++i) {
      float mine = static_cast<float>(i) * 0.5f + p;
      float theirs = static_cast<float>(i) * 0.5f + from;
      ASSERT_EQ(own[i], mine + mine) << "process " << p << " element " << i;
      if (pulled[p]) ASSERT_EQ(got[i], theirs + theirs) << "process " << p << " element " << i;
    }
  }
}

TEST_F(DeviceGroupTest, ExplicitMappingPlacesProcesses) {
  const uint32_t d = group_size_;
  std::vector<uint32_t> mapping;
  for (uint32_t p = 0; p < 3; ++p) mapping.push_back(d - 1 - p % d);
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_DEVICE_GROUP, 3, mapping.data());
  ASSERT_TRUE(set);
  for (uint32_t p = 0; p < 3; ++p) {
    meshvk_process_info_t info = MESHVK_PROCESS_INFO_INIT;
    MESHVK_ASSERT_OK(meshvk_device_set_process_info(set.get(), p, &info));
    EXPECT_EQ(info.device_index, mapping[p]);
  }
}

TEST_F(DeviceGroupTest, PeerDispatchReadsAnotherDevicesShard) {
  if (group_size_ < 2) GTEST_SKIP() << kNeedsGroup;
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_DEVICE_GROUP, 2);
  ASSERT_TRUE(set);
  if (!(meshvk_device_set_peer_features(set.get(), 1, 0) & 0x4u)) {
    GTEST_SKIP() << "device 1 has no GENERIC_SRC peer access to device 0 in this group";
  }
  const uint32_t n = 256;
  Buffer remote = MakeBuffer(set.get(), 0, n * 4);
  Buffer local = MakeBuffer(set.get(), 1, n * 4);
  Buffer sum = MakeBuffer(set.get(), 1, n * 4);
  ASSERT_TRUE(remote && local && sum);
  std::vector<float> a(n), b(n);
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = 1.0f + i;
    b[i] = 1000.0f - i;
  }
  MESHVK_ASSERT_OK(meshvk_buffer_write(remote.get(), 0, a.data(), n * 4));
  MESHVK_ASSERT_OK(meshvk_buffer_write(local.get(), 0, b.data(), n * 4));
  CommandBuffer cb = MakeCommandBuffer(set.get(), 1);
  ASSERT_TRUE(cb);
  meshvk_buffer_t* srcs[2] = {remote.get(), local.get()};
  MESHVK_ASSERT_OK(meshvk_command_buffer_sum_f32(cb.get(), srcs, 2, sum.get(), n));
  MESHVK_ASSERT_OK(meshvk_command_buffer_end(cb.get()));
  SubmitAndWait(set.get(), 1, cb.get());
  std::vector<float> got = ReadFloats(sum.get());
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(got[i], a[i] + b[i]) << i;
  EXPECT_EQ(meshvk_device_set_allocated_bytes(set.get(), 0), meshvk_buffer_allocation_size(remote.get()));
}

TEST_F(DeviceGroupTest, MissingPeerFeatureIsUnavailable) {
  if (group_size_ < 2) GTEST_SKIP() << kNeedsGroup;
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_DEVICE_GROUP, 2);
  ASSERT_TRUE(set);
  const uint32_t features = meshvk_device_set_peer_features(set.get(), 1, 0);
  if (features & 0x8u) {
    GTEST_SKIP() << "this group grants GENERIC_DST between devices 1 and 0; nothing to refuse";
  }
  Buffer remote = MakeBuffer(set.get(), 0, 256);
  Buffer local = MakeBuffer(set.get(), 1, 256);
  Executable fill = Builtin(set.get(), MESHVK_BUILTIN_FILL);
  CommandBuffer cb = MakeCommandBuffer(set.get(), 1);
  ASSERT_TRUE(remote && local && fill && cb);
  meshvk_binding_t binding = {remote.get(), 0, 0, 1};  // a peer write
  uint32_t push[3] = {0, 64, 0};
  meshvk_dispatch_info_t dispatch = FillDispatch(fill.get(), &binding, push, 1);
  EXPECT_TRUE(
      HasCode(meshvk_command_buffer_dispatch(cb.get(), &dispatch), MESHVK_STATUS_UNAVAILABLE, "peer memory features"));
}

}  // namespace
}  // namespace meshvk_test
