// Per-device memory instances and peer bindings: every device has its own copy
// of a multi-instance allocation; a peer binding lets one device read another's.
#include <cstring>

#include "layer_fixture.h"
#include "meshvk_layer_test_shaders.h"

namespace meshvk_layer_test {
namespace {

using Memory = LayerTest;
constexpr VkDeviceSize kWords = 256, kBytes = kWords * 4;

const uint32_t* words(const Buffer& host, VkDeviceSize byteOffset) {
  return reinterpret_cast<const uint32_t*>(static_cast<const char*>(host.mapped) + byteOffset);
}

TEST_F(Memory, EachInstanceHoldsItsOwnDevicesData) {
  Buffer x = deviceBuffer(kBytes);
  Buffer host = hostBuffer(kBytes * n_);
  VkCommandBuffer cb = beginCommands();
  for (uint32_t d = 0; d < n_; ++d) {
    vkCmdSetDeviceMask(cb, 1u << d);
    vkCmdFillBuffer(cb, x.buffer, 0, VK_WHOLE_SIZE, 0xA0000000u + d);
    barrier(cb);  // for synchronization validation, which does not know device masks
  }
  vkCmdSetDeviceMask(cb, (1u << n_) - 1);
  barrier(cb);
  copyEachDeviceView(cb, x, host, kBytes);
  endCommands(cb);
  submitAndWait(cb);
  for (uint32_t d = 0; d < n_; ++d)
    for (VkDeviceSize i = 0; i < kWords; ++i)
      ASSERT_EQ(words(host, d * kBytes)[i], 0xA0000000u + d) << "device " << d << " word " << i;
  destroy(host);
  destroy(x);
}

TEST_F(Memory, SubsetAllocationLivesOnItsDevice) {
  const uint32_t last = n_ - 1;
  Buffer x = deviceBuffer(kBytes, 1u << last);
  Buffer host = hostBuffer(kBytes);
  VkCommandBuffer cb = beginCommands();
  vkCmdSetDeviceMask(cb, 1u << last);
  vkCmdFillBuffer(cb, x.buffer, 0, VK_WHOLE_SIZE, 77);
  barrier(cb);
  vkCmdCopyBuffer(cb, x.buffer, host.buffer, 1, std::vector<VkBufferCopy>{{0, 0, kBytes}}.data());
  endCommands(cb);
  submitAndWait(cb, 1u << last);
  for (VkDeviceSize i = 0; i < kWords; ++i) ASSERT_EQ(words(host, 0)[i], 77u);
  destroy(host);
  destroy(x);
}

// Device d reads instance (d + 1) % N through a peer view, by a copy.
TEST_F(Memory, PeerViewCopiesAnotherDevicesInstance) {
  Buffer x = deviceBuffer(kBytes);
  std::vector<uint32_t> next(n_);
  for (uint32_t d = 0; d < n_; ++d) next[d] = (d + 1) % n_;
  Buffer peer = peerView(x, next);
  Buffer host = hostBuffer(kBytes * n_);
  VkCommandBuffer fill = beginCommands();
  for (uint32_t d = 0; d < n_; ++d) {
    vkCmdSetDeviceMask(fill, 1u << d);
    vkCmdFillBuffer(fill, x.buffer, 0, VK_WHOLE_SIZE, 1000 + d);
    barrier(fill);
  }
  endCommands(fill);
  submitAndWait(fill);  // the host wait orders the fills before the peer reads
  VkCommandBuffer read = beginCommands();
  copyEachDeviceView(read, peer, host, kBytes);
  endCommands(read);
  submitAndWait(read);
  for (uint32_t d = 0; d < n_; ++d)
    for (VkDeviceSize i = 0; i < kWords; ++i) ASSERT_EQ(words(host, d * kBytes)[i], 1000 + next[d]) << "device " << d;
  destroy(host);
  destroy(peer);
  destroy(x);
}

VkPeerMemoryFeatureFlags peerFeatures(VkDevice device, const VkPhysicalDeviceMemoryProperties& memory) {
  for (uint32_t h = 0; h < memory.memoryHeapCount; ++h)
    if (memory.memoryHeaps[h].flags & VK_MEMORY_HEAP_MULTI_INSTANCE_BIT) {
      VkPeerMemoryFeatureFlags f = 0;
      vkGetDeviceGroupPeerMemoryFeatures(device, h, 0, 1, &f);
      return f;
    }
  return 0;
}

// A shader on device d adds its own instance and the previous device's (a
// generic peer read through a descriptor).
TEST_F(Memory, ShaderReadsPeerInstance) {
  if (!(peerFeatures(device_, memory_) & VK_PEER_MEMORY_FEATURE_GENERIC_SRC_BIT))
    GTEST_SKIP() << "this emulated group has no GENERIC_SRC peer access";
  Buffer a = deviceBuffer(kBytes);
  std::vector<uint32_t> prev(n_);
  for (uint32_t d = 0; d < n_; ++d) prev[d] = (d + n_ - 1) % n_;
  Buffer b = peerView(a, prev);
  Buffer c = deviceBuffer(kBytes);
  Buffer host = hostBuffer(kBytes * n_);
  Pipeline p = computePipeline(meshvk_layer_test_spirv::add, meshvk_layer_test_spirv::add_word_count, 3, 4);
  VkDescriptorSet set = descriptorSet(p, {a.buffer, b.buffer, c.buffer});

  VkCommandBuffer fill = beginCommands();
  for (uint32_t d = 0; d < n_; ++d) {
    vkCmdSetDeviceMask(fill, 1u << d);
    vkCmdFillBuffer(fill, a.buffer, 0, VK_WHOLE_SIZE, 10 * (d + 1));
    barrier(fill);
  }
  endCommands(fill);
  submitAndWait(fill);

  VkCommandBuffer run = beginCommands();
  vkCmdBindPipeline(run, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
  vkCmdBindDescriptorSets(run, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set, 0, nullptr);
  uint32_t count = kWords;
  vkCmdPushConstants(run, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &count);
  for (uint32_t d = 0; d < n_; ++d) {
    vkCmdSetDeviceMask(run, 1u << d);
    vkCmdDispatch(run, kWords / 64, 1, 1);
    barrier(run);
    VkBufferCopy region{0, d * kBytes, kBytes};
    vkCmdCopyBuffer(run, c.buffer, host.buffer, 1, &region);
    barrier(run);
  }
  endCommands(run);
  submitAndWait(run);
  for (uint32_t d = 0; d < n_; ++d)
    for (VkDeviceSize i = 0; i < kWords; ++i)
      ASSERT_EQ(words(host, d * kBytes)[i], 10 * (d + 1) + 10 * (prev[d] + 1)) << "device " << d;
  destroy(p);
  destroy(host);
  destroy(c);
  destroy(b);
  destroy(a);
}

// On a group without generic peer access, a shader that reads a peer instance
// is reported (the copy path stays allowed).
TEST_F(Memory, ShaderPeerReadWithoutTheFeatureIsReported) {
  if (peerFeatures(device_, memory_) & VK_PEER_MEMORY_FEATURE_GENERIC_SRC_BIT)
    GTEST_SKIP() << "this emulated group grants GENERIC_SRC (set MESHVK_EMULATED_PEER_MEMORY_FEATURES)";
  Buffer a = deviceBuffer(kBytes);
  std::vector<uint32_t> view(n_);
  for (uint32_t d = 0; d < n_; ++d) view[d] = (d + 1) % n_;
  Buffer b = peerView(a, view);
  Buffer c = deviceBuffer(kBytes);
  Pipeline p = computePipeline(meshvk_layer_test_spirv::add, meshvk_layer_test_spirv::add_word_count, 3, 4);
  VkDescriptorSet set = descriptorSet(p, {a.buffer, b.buffer, c.buffer});
  VkCommandBuffer run = beginCommands();
  vkCmdSetDeviceMask(run, 1u);
  vkCmdBindPipeline(run, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
  vkCmdBindDescriptorSets(run, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set, 0, nullptr);
  uint32_t count = kWords;
  vkCmdPushConstants(run, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &count);
  vkCmdDispatch(run, kWords / 64, 1, 1);
  auto reports = takeLayerMessages("MESHVK-peer-memory-feature");
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_NE(reports[0].find("GENERIC_SRC"), std::string::npos) << reports[0];
  endCommands(run);
  destroy(p);
  destroy(c);
  destroy(b);
  destroy(a);
}

// Multi-instance memory cannot be mapped: the validation layer above knows the
// emulated heap is multi-instance and reports it (and does not call down).
TEST_F(Memory, MappingMultiInstanceMemoryIsInvalid) {
  if (n_ < 2) GTEST_SKIP() << "a group of one has no multi-instance heap";
  uint32_t type = UINT32_MAX;
  for (uint32_t t = 0; t < memory_.memoryTypeCount && type == UINT32_MAX; ++t)
    if ((memory_.memoryTypes[t].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) &&
        (memory_.memoryHeaps[memory_.memoryTypes[t].heapIndex].flags & VK_MEMORY_HEAP_MULTI_INSTANCE_BIT))
      type = t;
  ASSERT_NE(type, UINT32_MAX) << "expected a host-visible type in the multi-instance heap";
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mai.allocationSize = kBytes;
  mai.memoryTypeIndex = type;
  VkDeviceMemory memory;
  ASSERT_EQ(vkAllocateMemory(device_, &mai, nullptr, &memory), VK_SUCCESS);
  void* data = nullptr;
  EXPECT_NE(vkMapMemory(device_, memory, 0, VK_WHOLE_SIZE, 0, &data), VK_SUCCESS);
  bool reported = false;
  for (const std::string& m : takeValidationMessages())
    reported |= m.find("VUID-vkMapMemory-memory-00683") != std::string::npos;
  EXPECT_TRUE(reported);
  takeLayerMessages("MESHVK-map-multi-instance");  // if the validation layer called down anyway
  // Allocated on one device, the same type maps.
  VkMemoryAllocateFlagsInfo one{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  one.flags = VK_MEMORY_ALLOCATE_DEVICE_MASK_BIT;
  one.deviceMask = 1u << (n_ - 1);
  mai.pNext = &one;
  VkDeviceMemory single;
  ASSERT_EQ(vkAllocateMemory(device_, &mai, nullptr, &single), VK_SUCCESS);
  EXPECT_EQ(vkMapMemory(device_, single, 0, VK_WHOLE_SIZE, 0, &data), VK_SUCCESS);
  vkUnmapMemory(device_, single);
  vkFreeMemory(device_, single, nullptr);
  vkFreeMemory(device_, memory, nullptr);
}

}  // namespace
}  // namespace meshvk_layer_test
