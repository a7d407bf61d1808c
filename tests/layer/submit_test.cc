// Group submission: command buffer device masks choose which devices run a
// command buffer; semaphore device indices say which device waits or signals.
#include <functional>

#include "layer_fixture.h"

namespace meshvk_layer_test {
namespace {

constexpr VkDeviceSize kWords = 64, kBytes = kWords * 4;

// One side of a semaphore hand-off in a group submission: `*cmd` on the
// devices in `*mask`, then signalling `*sem` (signal) or first waiting on it
// at `*stage`, on device `*semDevice`; with `timeline` at value `*value`.
// The structs point at each other: not copyable.
struct GroupSide {
  GroupSide(bool signal, bool timeline, const VkCommandBuffer* cmd, const uint32_t* mask, const VkSemaphore* sem,
            const uint32_t* semDevice, const uint64_t* value, const VkPipelineStageFlags* stage) {
    group.pNext = timeline ? &values : nullptr;
    group.commandBufferCount = 1;
    group.pCommandBufferDeviceMasks = mask;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = cmd;
    if (signal) {
      values.signalSemaphoreValueCount = group.signalSemaphoreCount = submit.signalSemaphoreCount = 1;
      values.pSignalSemaphoreValues = value;
      group.pSignalSemaphoreDeviceIndices = semDevice;
      submit.pSignalSemaphores = sem;
    } else {
      values.waitSemaphoreValueCount = group.waitSemaphoreCount = submit.waitSemaphoreCount = 1;
      values.pWaitSemaphoreValues = value;
      group.pWaitSemaphoreDeviceIndices = semDevice;
      submit.pWaitSemaphores = sem;
      submit.pWaitDstStageMask = stage;
    }
  }
  GroupSide(const GroupSide&) = delete;
  GroupSide& operator=(const GroupSide&) = delete;

  VkTimelineSemaphoreSubmitInfo values{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  VkDeviceGroupSubmitInfo group{VK_STRUCTURE_TYPE_DEVICE_GROUP_SUBMIT_INFO};
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO, &group};
};

class SubmitFixture : public LayerTest {
 protected:
  // Records: fill x with `value` on every device in the command buffer's mask.
  VkCommandBuffer fillAll(const Buffer& x, uint32_t value) {
    VkCommandBuffer cb = beginCommands();
    vkCmdFillBuffer(cb, x.buffer, 0, VK_WHOLE_SIZE, value);
    endCommands(cb);
    return cb;
  }
  // Copies every device's instance of x into the host buffer (region d) and returns word 0 of each.
  std::vector<uint32_t> readInstances(const Buffer& x) {
    Buffer host = hostBuffer(kBytes * n_);
    VkCommandBuffer cb = beginCommands();
    copyEachDeviceView(cb, x, host, kBytes);
    endCommands(cb);
    submitAndWait(cb);
    std::vector<uint32_t> out(n_);
    for (uint32_t d = 0; d < n_; ++d) out[d] = static_cast<const uint32_t*>(host.mapped)[d * kWords];
    destroy(host);
    return out;
  }
  // Fills x with `before` on every device, then hands `submit` a command
  // buffer filling it with `after`, which it must run on device 0 only.
  void ExpectOnlyDeviceZeroRuns(uint32_t before, uint32_t after, const std::function<void(VkCommandBuffer)>& submit) {
    Buffer x = deviceBuffer(kBytes);
    submitAndWait(fillAll(x, before));
    submit(fillAll(x, after));
    std::vector<uint32_t> expected(n_, before);
    expected[0] = after;
    EXPECT_EQ(readInstances(x), expected);
    destroy(x);
  }
};

TEST_F(SubmitFixture, CommandBufferDeviceMaskSelectsDevices) {
  Buffer x = deviceBuffer(kBytes);
  submitAndWait(fillAll(x, 9));  // mask 0 here means every device
  EXPECT_EQ(readInstances(x), std::vector<uint32_t>(n_, 9));
  const uint32_t mask = 1u << (n_ - 1);
  submitAndWait(fillAll(x, 5), mask);
  std::vector<uint32_t> expected(n_, 9);
  expected[n_ - 1] = 5;
  EXPECT_EQ(readInstances(x), expected);
  destroy(x);
}

// A submission without VkDeviceGroupSubmitInfo runs on device index zero only.
TEST_F(SubmitFixture, WithoutGroupInfoOnlyDeviceZeroRuns) {
  ExpectOnlyDeviceZeroRuns(4, 8, [&](VkCommandBuffer cb) {
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb;
    submitAndWait(std::vector<VkSubmitInfo>{si});
  });
}

TEST_F(SubmitFixture, Submit2DeviceMaskSelectsDevices) {
  ExpectOnlyDeviceZeroRuns(1, 2, [&](VkCommandBuffer cb) {
    VkCommandBufferSubmitInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    cbi.commandBuffer = cb;
    cbi.deviceMask = 1u;  // device 0 only
    VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    si.commandBufferInfoCount = 1;
    si.pCommandBufferInfos = &cbi;
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    VK_CHECK(vkCreateFence(device_, &fci, nullptr, &fence));
    VK_CHECK(vkQueueSubmit2(queue_, 1, &si, fence));
    VK_CHECK(vkWaitForFences(device_, 1, &fence, VK_TRUE, UINT64_MAX));
    vkDestroyFence(device_, fence, nullptr);
  });
}

// Device 0 writes its instance and signals; device n-1 waits and reads it
// through a peer view. Binary and timeline semaphores.
TEST_F(SubmitFixture, SemaphoreDeviceIndicesOrderAPeerRead) {
  for (bool timeline : {false, true}) {
    SCOPED_TRACE(timeline ? "timeline semaphore" : "binary semaphore");
    const uint32_t consumer = n_ - 1;
    Buffer x = deviceBuffer(kBytes);
    std::vector<uint32_t> view(n_);
    for (uint32_t d = 0; d < n_; ++d) view[d] = d;
    view[consumer] = 0;
    Buffer peer = peerView(x, view);
    Buffer host = hostBuffer(kBytes);
    submitAndWait(fillAll(x, 0));

    VkCommandBuffer produce = beginCommands();
    vkCmdFillBuffer(produce, x.buffer, 0, VK_WHOLE_SIZE, 0xC0FFEE);
    endCommands(produce);
    VkCommandBuffer consume = beginCommands();
    vkCmdCopyBuffer(consume, peer.buffer, host.buffer, 1, std::vector<VkBufferCopy>{{0, 0, kBytes}}.data());
    endCommands(consume);

    VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, timeline ? &type : nullptr};
    VkSemaphore sem;
    VK_CHECK(vkCreateSemaphore(device_, &sci, nullptr, &sem));
    const uint64_t value = 1;
    const uint32_t zero = 0, producerMask = 1u, consumerMask = 1u << consumer;
    const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;

    const GroupSide s0(true, timeline, &produce, &producerMask, &sem, &zero, &value, nullptr);
    const GroupSide s1(false, timeline, &consume, &consumerMask, &sem, &consumer, &value, &stage);
    submitAndWait({s0.submit, s1.submit});
    for (VkDeviceSize i = 0; i < kWords; ++i) ASSERT_EQ(static_cast<const uint32_t*>(host.mapped)[i], 0xC0FFEEu);
    vkDestroySemaphore(device_, sem, nullptr);
    destroy(host);
    destroy(peer);
    destroy(x);
  }
}

}  // namespace
}  // namespace meshvk_layer_test
