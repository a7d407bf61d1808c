// Queue family ownership of buffers shared between VkDevices, and releases
// that wait only for their own work (issue 28: "correct by the spec, not by
// lavapipe").
//  * A buffer whose memory another VkDevice imports is EXCLUSIVE: each
//    command buffer acquires it from VK_QUEUE_FAMILY_EXTERNAL before using it
//    and releases it back at its end. The emulation layer's ownership check
//    (MESHVK_EMULATED_OWNERSHIP_CHECK=1, ctest's separate-topology run) reports
//    a use without the acquire; the validation layer (on, any message fails)
//    checks the barriers themselves.
//  * Releasing a command buffer waits for its own last submission, not for
//    the queue: other work queued behind it (another program's invoke held by
//    an application's semaphore) keeps running.
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

constexpr uint64_t kWait = 60ull * 1000 * 1000 * 1000;

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
    meshvk_buffer_create_info_t info = MESHVK_BUFFER_CREATE_INFO_INIT;
    info.process = process;
    info.size = bytes;
    info.flags = flags;
    meshvk_buffer_t* raw = nullptr;
    MESHVK_EXPECT_OK(meshvk_buffer_create_with_info(set_.get(), &info, &raw));
    return Buffer(raw);
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

class ReleaseTest : public VulkanTest {};

// Two streams on one queue: the second is held by a semaphore only the test
// signals. Releasing the first (finished) command buffer must not wait for
// the queue: it returns while the second is still held, the device stays
// usable, nothing is leaked, and the second then finishes. A release that
// drained the queue would block until the device timeout (2 s here) and
// mark the device unresponsive, failing every check after it.
TEST_F(ReleaseTest, ACommandBufferReleaseWaitsOnlyForItsOwnWork) {
  meshvk_device_timeout_t timeout = MESHVK_DEVICE_TIMEOUT_INIT;
  timeout.timeout = 2ull * 1000 * 1000 * 1000;
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1, nullptr, &timeout);
  ASSERT_TRUE(set);
  Buffer first = MakeBuffer(set.get(), 0, 1024);
  Buffer second = MakeBuffer(set.get(), 0, 1024);
  const uint64_t leaked = meshvk_leaked_object_count();
  CommandBuffer a = MakeCommandBuffer(set.get(), 0);
  MESHVK_ASSERT_OK(meshvk_command_buffer_fill(a.get(), first.get(), 0, 1024, 1));
  MESHVK_ASSERT_OK(meshvk_command_buffer_end(a.get()));
  SubmitAndWait(set.get(), 0, a.get());

  meshvk_semaphore_t* raw = nullptr;
  MESHVK_ASSERT_OK(meshvk_semaphore_create(set.get(), 0, 0, &raw));
  Semaphore gate(raw);
  MESHVK_ASSERT_OK(meshvk_semaphore_create(set.get(), 0, 0, &raw));
  Semaphore done(raw);
  CommandBuffer b = MakeCommandBuffer(set.get(), 0);
  MESHVK_ASSERT_OK(meshvk_command_buffer_fill(b.get(), second.get(), 0, 1024, 2));
  MESHVK_ASSERT_OK(meshvk_command_buffer_end(b.get()));
  meshvk_semaphore_value_t wait = {gate.get(), 1}, signal = {done.get(), 1};
  meshvk_submit_info_t submit = MESHVK_SUBMIT_INFO_INIT;
  submit.command_buffer = b.get();
  submit.waits = &wait;
  submit.wait_count = 1;
  submit.signals = &signal;
  submit.signal_count = 1;
  MESHVK_ASSERT_OK(meshvk_queue_submit(set.get(), &submit));

  a.reset();  // the release under test
  uint64_t value = 99;
  MESHVK_ASSERT_OK(meshvk_semaphore_query(done.get(), &value));
  EXPECT_EQ(value, 0u) << "the held stream ran before its gate opened";
  EXPECT_FALSE(set->devices[0]->unresponsive) << "the release waited for the held stream until the device timeout";
  EXPECT_EQ(meshvk_leaked_object_count(), leaked) << "the release gave up on the device and leaked its pools";
  MESHVK_ASSERT_OK(meshvk_semaphore_signal(gate.get(), 1));
  MESHVK_EXPECT_OK(meshvk_semaphore_wait(done.get(), 1, kWait));
  b.reset();
  EXPECT_EQ(ReadWords(second.get())[0], 2u);
}

}  // namespace
}  // namespace meshvk_test
