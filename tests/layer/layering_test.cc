// The layer stack: the Khronos validation layer sits above the emulation layer
// and checks the application against the emulated group; entry points the
// layer does not wrap stop the process instead of handing emulated handles to
// the driver.
#include "layer_fixture.h"

namespace meshvk_layer_test {
namespace {

using Layering = LayerTest;

TEST_F(Layering, ValidationAboveSeesTheEmulatedGroupSize) {
  VkCommandBuffer cb = beginCommands();
  vkCmdSetDeviceMask(cb, 1u << n_);  // one bit past the group: invalid
  endCommands(cb);
  bool reported = false;
  for (const std::string& m : takeValidationMessages())
    reported |= m.find("VUID-vkCmdSetDeviceMask-deviceMask-00108") != std::string::npos;
  EXPECT_TRUE(reported) << "the validation layer must be active above the emulation layer";
}

void createBufferViewOnEmulatedBuffer(VkDevice device, VkBuffer buffer) {
  VkBufferViewCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
  info.buffer = buffer;
  info.format = VK_FORMAT_R32_UINT;
  info.range = VK_WHOLE_SIZE;
  VkBufferView view;
  vkCreateBufferView(device, &info, nullptr, &view);
}

TEST_F(Layering, UnwrappedEntryPointAbortsWithItsName) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        bci.size = 256;
        bci.usage = VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT;
        VkBuffer b;
        vkCreateBuffer(device_, &bci, nullptr, &b);
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(device_, b, &req);
        uint32_t type = 0;
        while (!(req.memoryTypeBits & (1u << type))) ++type;
        VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        mai.allocationSize = req.size;
        mai.memoryTypeIndex = type;
        VkDeviceMemory m;
        vkAllocateMemory(device_, &mai, nullptr, &m);
        vkBindBufferMemory(device_, b, m, 0);
        createBufferViewOnEmulatedBuffer(device_, b);
      },
      "vkCreateBufferView is not wrapped by the emulation layer");
}

}  // namespace
}  // namespace meshvk_layer_test
