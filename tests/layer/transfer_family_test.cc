// The emulated transfer-only queue family (MESHVK_EMULATED_TRANSFER_FAMILY=1,
// runtime/layer/transfer_family.cc): reported as a real copy engine reports
// itself, and its queue is a queue of its own for the race check. A fill on
// the compute queue and a copy of it on the transfer queue with no semaphore
// between them is a race (a real device runs the two queues side by side);
// with a binary semaphore it is right and silent. Skipped when the option is off.
#include "layer_fixture.h"

namespace meshvk_layer_test {
namespace {

constexpr VkDeviceSize kBytes = 256;
constexpr uint32_t kProduced = 0x5151, kStale = 0;

class TransferFamily : public LayerTest {
 protected:
  void SetUp() override {
    LayerTest::SetUp();
    if (transferFamily_ == UINT32_MAX) GTEST_SKIP() << "no transfer-only family (MESHVK_EMULATED_TRANSFER_FAMILY=1)";
  }

  // Fills x on the compute queue, then copies it to a host buffer on the
  // transfer queue; returns the first word the host reads.
  uint32_t run(bool withSemaphore) {
    Buffer x = deviceBuffer(kBytes);
    Buffer host = hostBuffer(kBytes);
    VkCommandBuffer init = beginCommands();
    vkCmdFillBuffer(init, x.buffer, 0, VK_WHOLE_SIZE, kStale);
    endCommands(init);
    submitAndWait(init, 1);
    VkCommandBuffer produce = beginCommands();
    vkCmdFillBuffer(produce, x.buffer, 0, VK_WHOLE_SIZE, kProduced);
    endCommands(produce);
    VkCommandBuffer copy = beginCommands(transferPool_);
    VkBufferCopy region{0, 0, kBytes};
    vkCmdCopyBuffer(copy, x.buffer, host.buffer, 1, &region);
    endCommands(copy);

    VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    VkSemaphore sem = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateSemaphore(device_, &sci, nullptr, &sem), VK_SUCCESS);
    VkSubmitInfo first{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    first.commandBufferCount = 1;
    first.pCommandBuffers = &produce;
    first.signalSemaphoreCount = withSemaphore ? 1 : 0;
    first.pSignalSemaphores = &sem;
    EXPECT_EQ(vkQueueSubmit(queue_, 1, &first, VK_NULL_HANDLE), VK_SUCCESS);
    const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    VkSubmitInfo second{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    second.waitSemaphoreCount = withSemaphore ? 1 : 0;
    second.pWaitSemaphores = &sem;
    second.pWaitDstStageMask = &stage;
    second.commandBufferCount = 1;
    second.pCommandBuffers = &copy;
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateFence(device_, &fci, nullptr, &fence), VK_SUCCESS);
    EXPECT_EQ(vkQueueSubmit(transferQueue_, 1, &second, fence), VK_SUCCESS);
    EXPECT_EQ(vkWaitForFences(device_, 1, &fence, VK_TRUE, UINT64_MAX), VK_SUCCESS);
    EXPECT_EQ(vkQueueWaitIdle(queue_), VK_SUCCESS);
    const uint32_t value = *static_cast<const uint32_t*>(host.mapped);
    vkDestroyFence(device_, fence, nullptr);
    vkDestroySemaphore(device_, sem, nullptr);
    destroy(x);
    destroy(host);
    return value;
  }
};

TEST_F(TransferFamily, IsReportedAsACopyEngine) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(members_[0], &count, nullptr);
  ASSERT_EQ(transferFamily_, count - 1) << "the extra family comes after the real ones";
  std::vector<VkQueueFamilyProperties2> families(count, {VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2});
  vkGetPhysicalDeviceQueueFamilyProperties2(members_[0], &count, families.data());
  ASSERT_EQ(count, transferFamily_ + 1);
  EXPECT_EQ(families[transferFamily_].queueFamilyProperties.queueFlags, VkQueueFlags{VK_QUEUE_TRANSFER_BIT});
  EXPECT_EQ(families[transferFamily_].queueFamilyProperties.queueCount, 1u);
  EXPECT_NE(transferQueue_, queue_);
}

// A wait at the compute shader stage on the transfer queue is reported: a
// real copy engine has no such stage.
TEST_F(TransferFamily, AWaitAtAComputeStageIsReported) {
  VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  VkSemaphore sem = VK_NULL_HANDLE;
  VK_CHECK(vkCreateSemaphore(device_, &sci, nullptr, &sem));
  VkSubmitInfo signal{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  signal.signalSemaphoreCount = 1;
  signal.pSignalSemaphores = &sem;
  VK_CHECK(vkQueueSubmit(queue_, 1, &signal, VK_NULL_HANDLE));
  const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
  VkSubmitInfo wait{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  wait.waitSemaphoreCount = 1;
  wait.pWaitSemaphores = &sem;
  wait.pWaitDstStageMask = &stage;
  VK_CHECK(vkQueueSubmit(transferQueue_, 1, &wait, VK_NULL_HANDLE));
  VK_CHECK(vkQueueWaitIdle(transferQueue_));
  VK_CHECK(vkQueueWaitIdle(queue_));
  vkDestroySemaphore(device_, sem, nullptr);
  takeValidationMessages();  // the validation layer sees the stage too (VUID-vkQueueSubmit-pWaitDstStageMask)
  EXPECT_EQ(takeLayerMessages("MESHVK-transfer-family").size(), 1u);
}

TEST_F(TransferFamily, WithSemaphoreIsCorrectAndSilent) {
  EXPECT_EQ(run(true), kProduced);
  EXPECT_TRUE(takeLayerMessages("MESHVK-cross-device-race").empty());
}

TEST_F(TransferFamily, MissingSemaphoreBetweenTheQueuesIsARace) {
  run(false);
  // Synchronization validation may see the same hazard between the queues.
  for (const std::string& m : takeValidationMessages())
    EXPECT_NE(m.find("SYNC-HAZARD"), std::string::npos) << "validation message: " << m;
  auto races = takeLayerMessages("MESHVK-cross-device-race");
  ASSERT_EQ(races.size(), 1u) << "the race check must see the transfer queue as a queue of its own";
  EXPECT_NE(races[0].find("vkCmdCopyBuffer on device 0's transfer queue"), std::string::npos) << races[0];
  EXPECT_NE(races[0].find("vkCmdFillBuffer on device 0 "), std::string::npos) << races[0];
}

}  // namespace
}  // namespace meshvk_layer_test
