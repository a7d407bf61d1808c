// Group submission: command buffer device masks choose which devices run a
// command buffer; semaphore device indices say which device waits or signals.
#include "layer_fixture.h"

namespace meshvk_layer_test {
namespace {

constexpr VkDeviceSize kWords = 64, kBytes = kWords * 4;

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
  Buffer x = deviceBuffer(kBytes);
  submitAndWait(fillAll(x, 4));
  VkCommandBuffer cb = fillAll(x, 8);
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cb;
  submitAndWait(std::vector<VkSubmitInfo>{si});
  std::vector<uint32_t> expected(n_, 4);
  expected[0] = 8;
  EXPECT_EQ(readInstances(x), expected);
  destroy(x);
}

TEST_F(SubmitFixture, Submit2DeviceMaskSelectsDevices) {
  Buffer x = deviceBuffer(kBytes);
  submitAndWait(fillAll(x, 1));
  VkCommandBuffer cb = fillAll(x, 2);
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
  std::vector<uint32_t> expected(n_, 1);
  expected[0] = 2;
  EXPECT_EQ(readInstances(x), expected);
  destroy(x);
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

    VkTimelineSemaphoreSubmitInfo signalValue{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
    signalValue.signalSemaphoreValueCount = 1;
    signalValue.pSignalSemaphoreValues = &value;
    VkDeviceGroupSubmitInfo g0{VK_STRUCTURE_TYPE_DEVICE_GROUP_SUBMIT_INFO, timeline ? &signalValue : nullptr};
    g0.commandBufferCount = 1;
    g0.pCommandBufferDeviceMasks = &producerMask;
    g0.signalSemaphoreCount = 1;
    g0.pSignalSemaphoreDeviceIndices = &zero;
    VkSubmitInfo s0{VK_STRUCTURE_TYPE_SUBMIT_INFO, &g0};
    s0.commandBufferCount = 1;
    s0.pCommandBuffers = &produce;
    s0.signalSemaphoreCount = 1;
    s0.pSignalSemaphores = &sem;

    VkTimelineSemaphoreSubmitInfo waitValue{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
    waitValue.waitSemaphoreValueCount = 1;
    waitValue.pWaitSemaphoreValues = &value;
    VkDeviceGroupSubmitInfo g1{VK_STRUCTURE_TYPE_DEVICE_GROUP_SUBMIT_INFO, timeline ? &waitValue : nullptr};
    g1.waitSemaphoreCount = 1;
    g1.pWaitSemaphoreDeviceIndices = &consumer;
    g1.commandBufferCount = 1;
    g1.pCommandBufferDeviceMasks = &consumerMask;
    VkSubmitInfo s1{VK_STRUCTURE_TYPE_SUBMIT_INFO, &g1};
    s1.waitSemaphoreCount = 1;
    s1.pWaitSemaphores = &sem;
    s1.pWaitDstStageMask = &stage;
    s1.commandBufferCount = 1;
    s1.pCommandBuffers = &consume;

    submitAndWait({s0, s1});
    for (VkDeviceSize i = 0; i < kWords; ++i) ASSERT_EQ(static_cast<const uint32_t*>(host.mapped)[i], 0xC0FFEEu);
    vkDestroySemaphore(device_, sem, nullptr);
    destroy(host);
    destroy(peer);
    destroy(x);
  }
}

}  // namespace
}  // namespace meshvk_layer_test
