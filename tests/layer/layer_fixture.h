// Fixture of the emulation layer's tests: raw Vulkan (volk) on lavapipe, the
// Khronos validation layer (synchronization validation on) ABOVE
// VK_LAYER_MESHVK_emulated_device_group. ctest sets VK_LAYER_PATH,
// VK_INSTANCE_LAYERS and MESHVK_EMULATED_DEVICE_COUNT. Any validation message
// fails the test; the layer's own reports (message ids "MESHVK-...") are kept
// apart so tests can expect them.
#pragma once

#include <gtest/gtest.h>
#include <volk.h>

#include <mutex>
#include <string>
#include <vector>

namespace meshvk_layer_test {

#define VK_CHECK(expr) ASSERT_EQ((expr), VK_SUCCESS) << #expr

uint32_t expectedDeviceCount();  // MESHVK_EMULATED_DEVICE_COUNT, default 2
std::string executionOrder();    // MESHVK_EMULATED_EXECUTION_ORDER, default in-order
bool separateTopology();         // MESHVK_EMULATED_TOPOLOGY=separate: N groups of one

struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize size = 0;
  void* mapped = nullptr;  // host buffers only
};

class LayerTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Device-local buffer with one memory instance per device in `deviceMask`
  // (0: all devices), bound with each device seeing its own instance.
  Buffer deviceBuffer(VkDeviceSize size, uint32_t deviceMask = 0);
  // Buffer over another buffer's memory, bound so that device d sees instance
  // instanceOf[d] (VkBindBufferMemoryDeviceGroupInfo): a peer binding.
  Buffer peerView(const Buffer& memoryOwner, const std::vector<uint32_t>& instanceOf);
  // Host-visible buffer in the host heap: one instance shared by all devices.
  Buffer hostBuffer(VkDeviceSize size);
  void destroy(Buffer& b);

  // From `pool` (pool_ when VK_NULL_HANDLE).
  VkCommandBuffer beginCommands(VkCommandPool pool = VK_NULL_HANDLE);
  void endCommands(VkCommandBuffer cb) { ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS); }
  // Submits and waits on a fence.
  void submitAndWait(const std::vector<VkSubmitInfo>& submits);
  // One command buffer on the devices in `deviceMask` (0: all) through VkDeviceGroupSubmitInfo.
  void submitAndWait(VkCommandBuffer cb, uint32_t deviceMask = 0);
  // A pipeline barrier making transfer/compute writes visible to later transfer/compute work.
  void barrier(VkCommandBuffer cb);
  // Records, for every device d, a copy of the first `bytes` of its view of
  // `src` into bytes [d * bytes, (d + 1) * bytes) of `host`: what each device
  // sees, side by side. Leaves the device mask at the last device.
  void copyEachDeviceView(VkCommandBuffer cb, const Buffer& src, const Buffer& host, VkDeviceSize bytes);

  // Compute pipeline from SPIR-V words; `bindings` storage buffers in set 0,
  // push constants of `pushBytes`.
  struct Pipeline {
    VkShaderModule module = VK_NULL_HANDLE;
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkDescriptorPool pool = VK_NULL_HANDLE;
  };
  Pipeline computePipeline(const uint32_t* words, size_t wordCount, uint32_t bindings, uint32_t pushBytes,
                           VkPipelineCreateFlags flags = 0);
  VkDescriptorSet descriptorSet(const Pipeline& p, const std::vector<VkBuffer>& buffers);
  void destroy(Pipeline& p);

  std::vector<std::string> takeValidationMessages();
  std::vector<std::string> takeLayerMessages(const std::string& id);

  uint32_t n_ = 0;  // devices in the group
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  std::vector<VkPhysicalDevice> members_;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t family_ = 0;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  // The transfer-only family's (MESHVK_EMULATED_TRANSFER_FAMILY=1), when there is one.
  uint32_t transferFamily_ = UINT32_MAX;
  VkQueue transferQueue_ = VK_NULL_HANDLE;
  VkCommandPool transferPool_ = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties memory_{};

 private:
  static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                  VkDebugUtilsMessageTypeFlagsEXT,
                                                  const VkDebugUtilsMessengerCallbackDataEXT*, void*);
  uint32_t memoryType(VkMemoryPropertyFlags required, VkMemoryPropertyFlags forbidden, uint32_t bits);
  std::mutex mutex_;
  std::vector<std::string> validation_;
  std::vector<std::pair<std::string, std::string>> layer_;  // (id, message)
};

}  // namespace meshvk_layer_test
