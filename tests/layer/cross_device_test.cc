// A program with a deliberately missing cross-device semaphore: device 0
// writes its memory instance, device 1 reads it through a peer view. In
// submission order it happens to work; in the layer's reverse order (which a
// real group is free to choose) it gives the stale answer, and the race
// detector reports it in every order. With the semaphore it is right and silent.
#include "layer_fixture.h"
#include "meshvk_layer_test_shaders.h"

namespace meshvk_layer_test {
namespace {

constexpr VkDeviceSize kWords = 64, kBytes = kWords * 4;
constexpr uint32_t kProduced = 0x1234, kStale = 0;

class CrossDevice : public LayerTest {
 protected:
  // Runs the producer/consumer program; returns the value the consumer read.
  // The producer is a fill, or (shaderProducer) a dispatch whose SPIR-V stores
  // to the buffer: the race detector must find that write by analysing it.
  uint32_t run(bool withSemaphore, bool separateSubmits, bool shaderProducer = false) {
    Buffer x = deviceBuffer(kBytes);
    std::vector<uint32_t> view(n_);
    for (uint32_t d = 0; d < n_; ++d) view[d] = d;
    view[1] = 0;  // device 1 sees device 0's instance
    Buffer peer = peerView(x, view);
    Buffer host = hostBuffer(kBytes);
    {
      VkCommandBuffer init = beginCommands();
      vkCmdFillBuffer(init, x.buffer, 0, VK_WHOLE_SIZE, kStale);
      endCommands(init);
      submitAndWait(init);
    }
    Pipeline tag{};
    VkCommandBuffer produce = beginCommands();
    if (shaderProducer) {
      tag = computePipeline(meshvk_layer_test_spirv::tag, meshvk_layer_test_spirv::tag_word_count, 1, 8);
      VkDescriptorSet set = descriptorSet(tag, {x.buffer});
      vkCmdBindPipeline(produce, VK_PIPELINE_BIND_POINT_COMPUTE, tag.pipeline);
      vkCmdBindDescriptorSets(produce, VK_PIPELINE_BIND_POINT_COMPUTE, tag.layout, 0, 1, &set, 0, nullptr);
      const uint32_t push[2] = {0, static_cast<uint32_t>(kWords)};  // tag 0: word i = i
      vkCmdPushConstants(produce, tag.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, push);
      vkCmdDispatch(produce, 1, 1, 1);
    } else {
      vkCmdFillBuffer(produce, x.buffer, 0, VK_WHOLE_SIZE, kProduced);
    }
    endCommands(produce);
    VkCommandBuffer consume = beginCommands();
    VkBufferCopy region{0, 0, kBytes};
    vkCmdCopyBuffer(consume, peer.buffer, host.buffer, 1, &region);
    endCommands(consume);

    VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    VkSemaphore sem;
    EXPECT_EQ(vkCreateSemaphore(device_, &sci, nullptr, &sem), VK_SUCCESS);
    const uint32_t dev0 = 0, dev1 = 1, mask0 = 1, mask1 = 2;
    const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    VkDeviceGroupSubmitInfo g0{VK_STRUCTURE_TYPE_DEVICE_GROUP_SUBMIT_INFO};
    g0.commandBufferCount = 1;
    g0.pCommandBufferDeviceMasks = &mask0;
    g0.signalSemaphoreCount = withSemaphore ? 1 : 0;
    g0.pSignalSemaphoreDeviceIndices = &dev0;
    VkSubmitInfo s0{VK_STRUCTURE_TYPE_SUBMIT_INFO, &g0};
    s0.commandBufferCount = 1;
    s0.pCommandBuffers = &produce;
    s0.signalSemaphoreCount = g0.signalSemaphoreCount;
    s0.pSignalSemaphores = &sem;
    VkDeviceGroupSubmitInfo g1{VK_STRUCTURE_TYPE_DEVICE_GROUP_SUBMIT_INFO};
    g1.waitSemaphoreCount = withSemaphore ? 1 : 0;
    g1.pWaitSemaphoreDeviceIndices = &dev1;
    g1.commandBufferCount = 1;
    g1.pCommandBufferDeviceMasks = &mask1;
    VkSubmitInfo s1{VK_STRUCTURE_TYPE_SUBMIT_INFO, &g1};
    s1.waitSemaphoreCount = g1.waitSemaphoreCount;
    s1.pWaitSemaphores = &sem;
    s1.pWaitDstStageMask = &stage;
    s1.commandBufferCount = 1;
    s1.pCommandBuffers = &consume;
    if (separateSubmits) {
      EXPECT_EQ(vkQueueSubmit(queue_, 1, &s0, VK_NULL_HANDLE), VK_SUCCESS);
      submitAndWait({s1});
    } else {
      submitAndWait({s0, s1});
    }
    // The shader producer writes word i = i: read the last word (kWords - 1).
    const uint32_t value = static_cast<const uint32_t*>(host.mapped)[shaderProducer ? kWords - 1 : 0];
    if (shaderProducer) destroy(tag);
    vkDestroySemaphore(device_, sem, nullptr);
    destroy(host);
    destroy(peer);
    destroy(x);
    return value;
  }

  // The Khronos synchronization validation does not know device masks; it
  // sees a write and a read of the same memory with no barrier between them
  // and may report a hazard in the broken program too. Only such hazards are
  // tolerated here.
  void dropSyncHazards() {
    for (const std::string& m : takeValidationMessages())
      EXPECT_NE(m.find("SYNC-HAZARD"), std::string::npos) << "validation message: " << m;
  }
};

TEST_F(CrossDevice, WithSemaphoreIsCorrectAndSilent) {
  for (bool separate : {false, true}) {
    SCOPED_TRACE(separate ? "two vkQueueSubmit calls" : "one vkQueueSubmit, two batches");
    EXPECT_EQ(run(true, separate), kProduced);
    EXPECT_TRUE(takeLayerMessages("MESHVK-cross-device-race").empty());
  }
}

TEST_F(CrossDevice, MissingSemaphoreIsReportedAndReverseOrderExposesIt) {
  for (bool separate : {false, true}) {
    SCOPED_TRACE(separate ? "two vkQueueSubmit calls" : "one vkQueueSubmit, two batches");
    const uint32_t value = run(false, separate);
    dropSyncHazards();
    auto races = takeLayerMessages("MESHVK-cross-device-race");
    ASSERT_EQ(races.size(), 1u) << "the race detector must report the missing semaphore exactly once";
    EXPECT_NE(races[0].find("vkCmdCopyBuffer on device 1"), std::string::npos) << races[0];
    EXPECT_NE(races[0].find("vkCmdFillBuffer on device 0"), std::string::npos) << races[0];
    if (executionOrder() == "reverse")
      EXPECT_EQ(value, kStale) << "reverse order must run the unordered consumer first";
    else if (executionOrder() == "in-order")
      EXPECT_EQ(value, kProduced) << "submission order hides the bug (which is why the other orders exist)";
  }
}

TEST_F(CrossDevice, MissingSemaphoreAfterAShaderWriteIsReported) {
  const uint32_t value = run(false, false, true);
  dropSyncHazards();
  auto races = takeLayerMessages("MESHVK-cross-device-race");
  ASSERT_EQ(races.size(), 1u);
  EXPECT_NE(races[0].find("vkCmdDispatch on device 0"), std::string::npos) << races[0];
  if (executionOrder() == "reverse") EXPECT_EQ(value, kStale);
  if (executionOrder() == "in-order") EXPECT_EQ(value, kWords - 1);
  EXPECT_EQ(run(true, false, true), kWords - 1);
  EXPECT_TRUE(takeLayerMessages("MESHVK-cross-device-race").empty());
}

// Two devices signalling one timeline semaphore: unless the application orders
// the signals, a real group may run the higher value first.
TEST_F(CrossDevice, UnorderedTimelineSignalsFromTwoDevicesAreReported) {
  for (bool ordered : {false, true}) {
    SCOPED_TRACE(ordered ? "device 1 waits for value 1 before signalling 2" : "no ordering");
    VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &type};
    VkSemaphore sem;
    ASSERT_EQ(vkCreateSemaphore(device_, &sci, nullptr, &sem), VK_SUCCESS);
    VkSemaphoreSubmitInfo signal1{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    signal1.semaphore = sem;
    signal1.value = 1;
    signal1.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    signal1.deviceIndex = 0;
    VkSemaphoreSubmitInfo signal2 = signal1;
    signal2.value = 2;
    signal2.deviceIndex = 1;
    VkSemaphoreSubmitInfo wait1 = signal1;
    wait1.deviceIndex = 1;
    VkSubmitInfo2 s[2] = {{VK_STRUCTURE_TYPE_SUBMIT_INFO_2}, {VK_STRUCTURE_TYPE_SUBMIT_INFO_2}};
    s[0].signalSemaphoreInfoCount = 1;
    s[0].pSignalSemaphoreInfos = &signal1;
    s[1].waitSemaphoreInfoCount = ordered ? 1 : 0;
    s[1].pWaitSemaphoreInfos = &wait1;
    s[1].signalSemaphoreInfoCount = 1;
    s[1].pSignalSemaphoreInfos = &signal2;
    ASSERT_EQ(vkQueueSubmit2(queue_, 2, s, VK_NULL_HANDLE), VK_SUCCESS);
    VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    const uint64_t two = 2;
    wi.semaphoreCount = 1;
    wi.pSemaphores = &sem;
    wi.pValues = &two;
    // Never hangs: a signal that would move the counter back is dropped.
    EXPECT_EQ(vkWaitSemaphores(device_, &wi, 10ull * 1000 * 1000 * 1000), VK_SUCCESS);
    EXPECT_EQ(takeLayerMessages("MESHVK-timeline-signal-order").size(), ordered ? 0u : 1u);
    vkDestroySemaphore(device_, sem, nullptr);
  }
}

// Two devices reading the same instance at once is not a race.
TEST_F(CrossDevice, ConcurrentReadsAreNotReported) {
  Buffer x = deviceBuffer(kBytes);
  Buffer peer = peerView(x, std::vector<uint32_t>(n_, 0));  // every device sees instance 0
  Buffer host = hostBuffer(kBytes * n_);
  {
    VkCommandBuffer init = beginCommands();
    vkCmdFillBuffer(init, x.buffer, 0, VK_WHOLE_SIZE, 3);
    endCommands(init);
    submitAndWait(init);
  }
  VkCommandBuffer cb = beginCommands();
  copyEachDeviceView(cb, peer, host, kBytes);
  endCommands(cb);
  submitAndWait(cb);
  for (uint32_t d = 0; d < n_; ++d) EXPECT_EQ(static_cast<const uint32_t*>(host.mapped)[d * kWords], 3u);
  EXPECT_TRUE(takeLayerMessages("MESHVK-cross-device-race").empty());
  destroy(host);
  destroy(peer);
  destroy(x);
}

}  // namespace
}  // namespace meshvk_layer_test
