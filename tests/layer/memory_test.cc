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
  for (uint32_t d = 0; d < n_; ++d) {
    vkCmdSetDeviceMask(cb, 1u << d);
    VkBufferCopy region{0, d * kBytes, kBytes};
    vkCmdCopyBuffer(cb, x.buffer, host.buffer, 1, &region);
  }
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
  for (uint32_t d = 0; d < n_; ++d) {
    vkCmdSetDeviceMask(read, 1u << d);
    VkBufferCopy region{0, d * kBytes, kBytes};
    vkCmdCopyBuffer(read, peer.buffer, host.buffer, 1, &region);
  }
  endCommands(read);
  submitAndWait(read);
  for (uint32_t d = 0; d < n_; ++d)
    for (VkDeviceSize i = 0; i < kWords; ++i)
      ASSERT_EQ(words(host, d * kBytes)[i], 1000 + next[d]) << "device " << d;
  destroy(host);
  destroy(peer);
  destroy(x);
}

// A shader on device d adds its own instance and the previous device's (a
// generic peer read through a descriptor).
TEST_F(Memory, ShaderReadsPeerInstance) {
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

}  // namespace
}  // namespace meshvk_layer_test
