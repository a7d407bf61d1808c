// Per-device push constants and vkCmdDispatchBase: each device computes its own
// slice of one index space. (gl_DeviceIndex reads 0 under the layer; kernels
// learn their device from push constants or the dispatch base.)
#include "layer_fixture.h"
#include "meshvk_layer_test_shaders.h"

namespace meshvk_layer_test {
namespace {

using Dispatch = LayerTest;

TEST_F(Dispatch, PushConstantsAndDispatchBaseSplitTheWork) {
  constexpr uint32_t kGroupsPerDevice = 3, kLocal = 64;
  const uint32_t total = n_ * kGroupsPerDevice * kLocal;
  const VkDeviceSize bytes = total * 4;
  Buffer out = deviceBuffer(bytes);  // each device writes its own instance
  Buffer host = hostBuffer(bytes);
  Pipeline p = computePipeline(meshvk_layer_test_spirv::tag, meshvk_layer_test_spirv::tag_word_count, 1, 8,
                               VK_PIPELINE_CREATE_DISPATCH_BASE_BIT);
  VkDescriptorSet set = descriptorSet(p, {out.buffer});

  VkCommandBuffer cb = beginCommands();
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set, 0, nullptr);
  for (uint32_t d = 0; d < n_; ++d) {
    vkCmdSetDeviceMask(cb, 1u << d);
    const uint32_t push[2] = {7 + d, total};
    vkCmdPushConstants(cb, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, push);
    vkCmdDispatchBase(cb, d * kGroupsPerDevice, 0, 0, kGroupsPerDevice, 1, 1);
    barrier(cb);
    // Each device copies only the slice it computed into the shared host buffer.
    const VkDeviceSize slice = kGroupsPerDevice * kLocal * 4;
    VkBufferCopy region{d * slice, d * slice, slice};
    vkCmdCopyBuffer(cb, out.buffer, host.buffer, 1, &region);
    barrier(cb);
  }
  endCommands(cb);
  submitAndWait(cb);

  const uint32_t* result = static_cast<const uint32_t*>(host.mapped);
  for (uint32_t i = 0; i < total; ++i) {
    const uint32_t device = i / (kGroupsPerDevice * kLocal);
    ASSERT_EQ(result[i], (7 + device) * 100000u + i) << "element " << i;
  }
  destroy(p);
  destroy(host);
  destroy(out);
}

// A descriptor set written through a descriptor update template points each
// device at its own instance, like vkUpdateDescriptorSets.
TEST_F(Dispatch, DescriptorUpdateTemplateBindsEachDevicesBuffer) {
  constexpr uint32_t kWords = 128;
  Buffer out = deviceBuffer(kWords * 4);
  Buffer host = hostBuffer(kWords * 4 * n_);
  Pipeline p = computePipeline(meshvk_layer_test_spirv::tag, meshvk_layer_test_spirv::tag_word_count, 1, 8);
  VkDescriptorUpdateTemplateEntry entry{0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0, sizeof(VkDescriptorBufferInfo)};
  VkDescriptorUpdateTemplateCreateInfo tci{VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO};
  tci.descriptorUpdateEntryCount = 1;
  tci.pDescriptorUpdateEntries = &entry;
  tci.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET;
  tci.descriptorSetLayout = p.setLayout;
  VkDescriptorUpdateTemplate t;
  ASSERT_EQ(vkCreateDescriptorUpdateTemplate(device_, &tci, nullptr, &t), VK_SUCCESS);
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  ai.descriptorPool = p.pool;
  ai.descriptorSetCount = 1;
  ai.pSetLayouts = &p.setLayout;
  VkDescriptorSet set;
  ASSERT_EQ(vkAllocateDescriptorSets(device_, &ai, &set), VK_SUCCESS);
  VkDescriptorBufferInfo info{out.buffer, 0, VK_WHOLE_SIZE};
  vkUpdateDescriptorSetWithTemplate(device_, set, t, &info);

  VkCommandBuffer cb = beginCommands();
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set, 0, nullptr);
  for (uint32_t d = 0; d < n_; ++d) {
    vkCmdSetDeviceMask(cb, 1u << d);
    const uint32_t push[2] = {d + 1, kWords};
    vkCmdPushConstants(cb, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, push);
    vkCmdDispatch(cb, kWords / 64, 1, 1);
    barrier(cb);
    VkBufferCopy region{0, d * kWords * 4, kWords * 4};
    vkCmdCopyBuffer(cb, out.buffer, host.buffer, 1, &region);
    barrier(cb);
  }
  endCommands(cb);
  submitAndWait(cb);
  const uint32_t* result = static_cast<const uint32_t*>(host.mapped);
  for (uint32_t d = 0; d < n_; ++d)
    for (uint32_t i = 0; i < kWords; ++i) ASSERT_EQ(result[d * kWords + i], (d + 1) * 100000u + i) << "device " << d;
  vkDestroyDescriptorUpdateTemplate(device_, t, nullptr);
  destroy(p);
  destroy(host);
  destroy(out);
}

}  // namespace
}  // namespace meshvk_layer_test
