// VkResult -> status conversion, the one place Vulkan codes become meshvk's.
#include "vulkan/vk_status.h"

#include <gtest/gtest.h>
#include <volk.h>

namespace meshvk {
namespace {

TEST(VkStatusTest, MapsResultsToCodesAndNamesTheOperation) {
  struct Case {
    VkResult result;
    meshvk_status_code_t code;
  };
  const Case cases[] = {
      {VK_ERROR_OUT_OF_DEVICE_MEMORY, MESHVK_STATUS_RESOURCE_EXHAUSTED},
      {VK_ERROR_OUT_OF_HOST_MEMORY, MESHVK_STATUS_RESOURCE_EXHAUSTED},
      {VK_ERROR_OUT_OF_POOL_MEMORY, MESHVK_STATUS_RESOURCE_EXHAUSTED},
      {VK_ERROR_DEVICE_LOST, MESHVK_STATUS_DEVICE_LOST},
      {VK_TIMEOUT, MESHVK_STATUS_DEADLINE_EXCEEDED},
      {VK_ERROR_LAYER_NOT_PRESENT, MESHVK_STATUS_UNAVAILABLE},
      {VK_ERROR_INCOMPATIBLE_DRIVER, MESHVK_STATUS_UNAVAILABLE},
      {VK_ERROR_FEATURE_NOT_PRESENT, MESHVK_STATUS_UNAVAILABLE},
      {VK_ERROR_MEMORY_MAP_FAILED, MESHVK_STATUS_INTERNAL},
      {VK_ERROR_UNKNOWN, MESHVK_STATUS_INTERNAL},
  };
  for (const Case& c : cases) {
    Status status = VkResultToStatus(c.result, "process 3 (physical device 1): vkQueueSubmit");
    EXPECT_EQ(status.code(), c.code) << VkResultName(c.result);
    EXPECT_EQ(status.message(), std::string("process 3 (physical device 1): vkQueueSubmit: ") + VkResultName(c.result));
  }
}

TEST(VkStatusTest, SuccessAndInformationalResultsAreOk) {
  EXPECT_TRUE(VkResultToStatus(VK_SUCCESS, "x").ok());
  EXPECT_TRUE(VkResultToStatus(VK_INCOMPLETE, "x").ok());
  EXPECT_STREQ(VkResultName(VK_ERROR_DEVICE_LOST), "VK_ERROR_DEVICE_LOST");
  EXPECT_STREQ(VkResultName(static_cast<VkResult>(-12345)), "VkResult(unknown)");
}

TEST(VkStatusTest, ToCHandsOverAnOwnedStatus) {
  meshvk_status_t status = VkResultToStatus(VK_ERROR_DEVICE_LOST, "vkWaitSemaphores").ToC();
  EXPECT_EQ(meshvk_status_code(status), MESHVK_STATUS_DEVICE_LOST);
  EXPECT_STREQ(meshvk_status_message(status), "vkWaitSemaphores: VK_ERROR_DEVICE_LOST");
  meshvk_status_free(status);
  EXPECT_EQ(Status().ToC(), MESHVK_OK);
}

}  // namespace
}  // namespace meshvk
