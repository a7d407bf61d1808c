// Queue family ownership of buffers shared between VkDevices (issue 28:
// "correct by the spec, not by lavapipe").
//  * A buffer whose memory another VkDevice imports is EXCLUSIVE: each
//    command buffer acquires it from VK_QUEUE_FAMILY_EXTERNAL before using it
//    and releases it back at its end. The emulation layer's ownership check
//    (MESHVK_EMULATED_OWNERSHIP_CHECK=1, ctest's separate-topology run) reports
//    a use without the acquire; the validation layer (on, any message fails)
//    checks the barriers themselves.
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

class OwnershipTest : public VulkanTest {
 protected:
  void SetUp() override {
    VulkanTest::SetUp();
    if (meshvk_instance_physical_device_count(instance()) < 2)
      GTEST_SKIP() << "needs 2+ physical devices (lavapipe registered twice, or the emulation layer's separate "
                      "topology)";
    set_ = MakeSet(MESHVK_TOPOLOGY_INDEPENDENT, 2);
    ASSERT_TRUE(set_);
    meshvk_copy_path_info_t path = MESHVK_COPY_PATH_INFO_INIT;
    MESHVK_ASSERT_OK(meshvk_device_set_copy_path(set_.get(), 0, 1, &path));
    if (path.path != MESHVK_COPY_PATH_EXTERNAL_MEMORY) GTEST_SKIP() << "no external memory: " << path.reason;
  }
  void TearDown() override {
    set_.reset();
    VulkanTest::TearDown();
  }
  Buffer Make(uint32_t process, uint64_t bytes, meshvk_buffer_flags_t flags) {
    return MakeBuffer(set_.get(), process, bytes, flags);
  }
  DeviceSet set_;
};

// The owner writes, the other VkDevice reads its view, twice over (the
// ownership goes out and comes back): the bytes are the owner's each time and
// no layer reports a thing.
TEST_F(OwnershipTest, AWrittenBufferIsReadOnTheOtherDeviceTwice) {
  const uint64_t bytes = 4096;
  Buffer src = Make(0, bytes, MESHVK_BUFFER_EXPORTABLE_BIT);
  Buffer dst = Make(1, bytes, 0);
  ASSERT_TRUE(src && dst);
  meshvk_buffer_t* raw = nullptr;
  MESHVK_ASSERT_OK(meshvk_buffer_share(src.get(), 1, &raw));
  Buffer view(raw);
  for (uint32_t value : {0x11111111u, 0x2222abcdu}) {
    CommandBuffer write = MakeCommandBuffer(set_.get(), 0);
    MESHVK_ASSERT_OK(meshvk_command_buffer_fill(write.get(), src.get(), 0, bytes, value));
    MESHVK_ASSERT_OK(meshvk_command_buffer_end(write.get()));
    SubmitAndWait(set_.get(), 0, write.get());
    CommandBuffer read = MakeCommandBuffer(set_.get(), 1);
    MESHVK_ASSERT_OK(meshvk_command_buffer_copy(read.get(), view.get(), 0, dst.get(), 0, bytes));
    MESHVK_ASSERT_OK(meshvk_command_buffer_end(read.get()));
    SubmitAndWait(set_.get(), 1, read.get());
    std::vector<uint32_t> got = ReadWords(dst.get());
    ASSERT_EQ(got.size(), bytes / 4);
    for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], value) << "word " << i;
  }
}

// Proves the check above can fail: a copy from the view recorded behind
// meshvk's back, without the acquire, is reported by the emulation layer.
TEST_F(OwnershipTest, TheLayerReportsAUseWithoutTheAcquire) {
  const char* check = std::getenv("MESHVK_EMULATED_OWNERSHIP_CHECK");
  if (!check || std::strcmp(check, "1") != 0)
    GTEST_SKIP() << "the emulation layer's ownership check is off (MESHVK_EMULATED_OWNERSHIP_CHECK=1)";
  Buffer src = Make(0, 256, MESHVK_BUFFER_EXPORTABLE_BIT);
  Buffer dst = Make(1, 256, 0);
  ASSERT_TRUE(src && dst);
  meshvk_buffer_t* raw = nullptr;
  MESHVK_ASSERT_OK(meshvk_buffer_share(src.get(), 1, &raw));
  Buffer view(raw);
  meshvk::LogicalDevice& device = set_->DeviceOf(1);
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.queueFamilyIndex = device.queue_family;
  VkCommandPool pool = VK_NULL_HANDLE;
  ASSERT_EQ(device.vk.vkCreateCommandPool(device.device, &pool_info, nullptr, &pool), VK_SUCCESS);
  VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  allocate.commandPool = pool;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  ASSERT_EQ(device.vk.vkAllocateCommandBuffers(device.device, &allocate, &cb), VK_SUCCESS);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  ASSERT_EQ(device.vk.vkBeginCommandBuffer(cb, &begin), VK_SUCCESS);
  VkBufferCopy region{0, 0, 256};
  device.vk.vkCmdCopyBuffer(cb, view->buffer, dst->buffer, 1, &region);
  ASSERT_EQ(device.vk.vkEndCommandBuffer(cb), VK_SUCCESS);
  device.vk.vkDestroyCommandPool(device.device, pool, nullptr);
  std::vector<std::string> messages = TakeMessages();
  ASSERT_FALSE(messages.empty()) << "the copy without an acquire went unreported";
  EXPECT_NE(messages[0].find("not acquired from VK_QUEUE_FAMILY_EXTERNAL"), std::string::npos) << messages[0];
}

}  // namespace
}  // namespace meshvk_test
