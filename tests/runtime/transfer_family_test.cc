// Copies between VkDevices on a transfer-only queue family (issue 28: "copies
// run on a transfer-only queue family where the device has one"). ctest runs
// these under the emulation layer with MESHVK_EMULATED_TRANSFER_FAMILY=1 (every
// device reports a family with only VK_QUEUE_TRANSFER_BIT, as a discrete GPU's
// copy engines) and discrete memory (nothing host-mappable, so every host
// transfer is staged). The oracle is the layer's count of the copies recorded
// per family (vkGetEmulatedCommandCountsMESHVK), not the runtime's choice.
#include <vulkan/vulkan_core.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "buffer.h"
#include "device_set.h"
#include "vulkan_fixture.h"

namespace meshvk_test {
namespace {

using CommandCounts = VkResult(VKAPI_PTR*)(VkDevice, uint32_t, uint64_t*, uint64_t*);

class TransferFamilyTest : public VulkanTest {
 protected:
  void SetUp() override {
    VulkanTest::SetUp();
    const char* on = std::getenv("MESHVK_EMULATED_TRANSFER_FAMILY");
    if (!on || std::strcmp(on, "1") != 0)
      GTEST_SKIP() << "needs the emulation layer's transfer-only family (MESHVK_EMULATED_TRANSFER_FAMILY=1)";
    if (meshvk_instance_physical_device_count(instance()) < 2) GTEST_SKIP() << "needs 2+ physical devices";
    set_ = MakeSet(MESHVK_TOPOLOGY_INDEPENDENT, 2);
    ASSERT_TRUE(set_);
  }
  void TearDown() override {
    set_.reset();
    VulkanTest::TearDown();
  }

  // Copies recorded so far on process `p`'s VkDevice in the transfer family
  // (`transfer`) or in the others, as the layer counted them.
  uint64_t Copies(uint32_t p, bool transfer) {
    meshvk::LogicalDevice& device = set_->DeviceOf(p);
    auto counts =
        reinterpret_cast<CommandCounts>(vkGetDeviceProcAddr(device.device, "vkGetEmulatedCommandCountsMESHVK"));
    EXPECT_NE(counts, nullptr) << "the emulation layer is not loaded";
    if (!counts) return 0;
    uint64_t copies = 0, dispatches = 0;
    counts(device.device, transfer ? device.transfer_family : device.queue_family, &copies, &dispatches);
    return copies;
  }

  // A raw command buffer of `family` on process `p`'s VkDevice (recording).
  VkCommandBuffer Record(uint32_t p, uint32_t family, VkCommandPool* pool) {
    meshvk::LogicalDevice& device = set_->DeviceOf(p);
    VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool_info.queueFamilyIndex = family;
    EXPECT_EQ(device.vk.vkCreateCommandPool(device.device, &pool_info, nullptr, pool), VK_SUCCESS);
    VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocate.commandPool = *pool;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    EXPECT_EQ(device.vk.vkAllocateCommandBuffers(device.device, &allocate, &cb), VK_SUCCESS);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    EXPECT_EQ(device.vk.vkBeginCommandBuffer(cb, &begin), VK_SUCCESS);
    return cb;
  }

  static std::vector<uint32_t> Pattern(size_t words, uint32_t seed) {
    std::vector<uint32_t> v(words);
    for (size_t i = 0; i < words; ++i) v[i] = static_cast<uint32_t>(i * 2654435761u + seed);
    return v;
  }

  DeviceSet set_;
};

// Host writes, the host-staged copy between the VkDevices and host reads all
// land on the transfer family; the compute family records none of them; the
// bytes arrive. An exported buffer (EXCLUSIVE, acquired from
// VK_QUEUE_FAMILY_EXTERNAL by each staging copy) takes the same path where
// the pair shares memory.
TEST_F(TransferFamilyTest, HostStagedCopiesRunOnTheTransferFamily) {
  for (uint32_t p = 0; p < 2; ++p) {
    ASSERT_NE(set_->DeviceOf(p).transfer_family, UINT32_MAX) << "process " << p << " found no transfer-only family";
    ASSERT_FALSE(set_->DeviceOf(p).storage_host_mappable) << "run with MESHVK_EMULATED_MEMORY=discrete";
  }
  const size_t words = (3u << 20) / 4 + 5;  // several staging chunks
  meshvk_copy_path_info_t path = MESHVK_COPY_PATH_INFO_INIT;
  MESHVK_ASSERT_OK(meshvk_device_set_copy_path(set_.get(), 0, 1, &path));
  std::vector<meshvk_buffer_flags_t> sources = {0};
  if (path.path == MESHVK_COPY_PATH_EXTERNAL_MEMORY) sources.push_back(MESHVK_BUFFER_EXPORTABLE_BIT);
  for (meshvk_buffer_flags_t flags : sources) {
    Buffer src = MakeBuffer(set_.get(), 0, words * 4, flags);
    Buffer dst = MakeBuffer(set_.get(), 1, words * 4, 0);
    ASSERT_TRUE(src && dst);
    const uint64_t compute0 = Copies(0, false), compute1 = Copies(1, false);
    const uint64_t transfer0 = Copies(0, true), transfer1 = Copies(1, true);
    std::vector<uint32_t> a = Pattern(words, flags + 7);
    MESHVK_ASSERT_OK(meshvk_buffer_write(src.get(), 0, a.data(), words * 4));
    const uint64_t written0 = Copies(0, true);
    EXPECT_GT(written0, transfer0) << "the host write of process 0 recorded no copy on the transfer family";
    MESHVK_ASSERT_OK(meshvk_buffer_copy_host_staged(src.get(), 0, dst.get(), 0, words * 4, MESHVK_TIMEOUT_INFINITE));
    EXPECT_GT(Copies(0, true), written0) << "the staged copy out of process 0 was not on its transfer family";
    EXPECT_GT(Copies(1, true), transfer1) << "the staged copy into process 1 was not on its transfer family";
    std::vector<uint32_t> got = ReadWords(dst.get());
    ASSERT_EQ(got.size(), words);
    for (size_t i = 0; i < words; ++i) ASSERT_EQ(got[i], a[i]) << "flags " << flags << ", word " << i;
    EXPECT_EQ(Copies(0, false), compute0) << "a staging copy ran on process 0's compute family";
    EXPECT_EQ(Copies(1, false), compute1) << "a staging copy ran on process 1's compute family";
  }
}

// Proves the layer holds the family to what a real DMA engine does: a dispatch
// recorded from a transfer-only pool is reported.
TEST_F(TransferFamilyTest, TheLayerReportsADispatchOnTheTransferFamily) {
  meshvk::LogicalDevice& device = set_->DeviceOf(0);
  ASSERT_NE(device.transfer_family, UINT32_MAX);
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer cb = Record(0, device.transfer_family, &pool);
  device.vk.vkCmdDispatch(cb, 1, 1, 1);
  ASSERT_EQ(device.vk.vkEndCommandBuffer(cb), VK_SUCCESS);
  device.vk.vkDestroyCommandPool(device.device, pool, nullptr);
  bool reported = false;
  for (const std::string& m : TakeMessages())
    reported |= m.find("supports only VK_QUEUE_TRANSFER_BIT") != std::string::npos;
  EXPECT_TRUE(reported) << "a dispatch on the transfer-only family went unreported";
}

// Proves the ownership check covers the transfer family: a copy there from an
// imported view without the acquire, and an acquire that names the compute
// family in a transfer-family command buffer, are both reported.
TEST_F(TransferFamilyTest, TheLayerReportsAMissingOrMisnamedAcquire) {
  const char* check = std::getenv("MESHVK_EMULATED_OWNERSHIP_CHECK");
  if (!check || std::strcmp(check, "1") != 0) GTEST_SKIP() << "needs MESHVK_EMULATED_OWNERSHIP_CHECK=1";
  meshvk_copy_path_info_t path = MESHVK_COPY_PATH_INFO_INIT;
  MESHVK_ASSERT_OK(meshvk_device_set_copy_path(set_.get(), 0, 1, &path));
  if (path.path != MESHVK_COPY_PATH_EXTERNAL_MEMORY) GTEST_SKIP() << "no external memory: " << path.reason;
  Buffer src = MakeBuffer(set_.get(), 0, 256, MESHVK_BUFFER_EXPORTABLE_BIT);
  Buffer dst = MakeBuffer(set_.get(), 1, 256, 0);
  ASSERT_TRUE(src && dst);
  meshvk_buffer_t* raw = nullptr;
  MESHVK_ASSERT_OK(meshvk_buffer_share(src.get(), 1, &raw));
  Buffer view(raw);
  meshvk::LogicalDevice& device = set_->DeviceOf(1);
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer cb = Record(1, device.transfer_family, &pool);
  VkBufferCopy region{0, 0, 256};
  device.vk.vkCmdCopyBuffer(cb, view->buffer, dst->buffer, 1, &region);
  VkBufferMemoryBarrier acquire{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
  acquire.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  acquire.srcQueueFamilyIndex = VK_QUEUE_FAMILY_EXTERNAL;
  acquire.dstQueueFamilyIndex = device.queue_family;  // the compute family: wrong in this pool
  acquire.buffer = view->buffer;
  acquire.size = VK_WHOLE_SIZE;
  device.vk.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr,
                                 1, &acquire, 0, nullptr);
  ASSERT_EQ(device.vk.vkEndCommandBuffer(cb), VK_SUCCESS);
  device.vk.vkDestroyCommandPool(device.device, pool, nullptr);
  bool unacquired = false, misnamed = false;
  for (const std::string& m : TakeMessages()) {
    unacquired |= m.find("not acquired from VK_QUEUE_FAMILY_EXTERNAL") != std::string::npos;
    misnamed |= m.find("in a command buffer of the transfer-only family") != std::string::npos;
  }
  EXPECT_TRUE(unacquired) << "the copy without an acquire went unreported";
  EXPECT_TRUE(misnamed) << "the acquire naming the compute family went unreported";
}

}  // namespace
}  // namespace meshvk_test
