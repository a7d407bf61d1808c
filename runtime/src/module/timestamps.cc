// Timestamp queries around each recorded segment. Each segment owns two
// queries in its VkDevice's pool; the command buffer resets them itself, so a
// replay needs no host-side reset and the recorded buffer stays immutable.
#include "timestamps.h"

#include "command_buffer.h"
#include "device_set.h"
#include "vulkan/vk_status.h"

namespace meshvk::module {

struct SegmentTimer::Pool {
  LogicalDevice* device = nullptr;
  VkQueryPool pool = VK_NULL_HANDLE;
  double period_ns = 1.0;
  uint64_t valid_mask = ~0ull;
};

void SegmentTimer::Release() {
  for (Pool* pool : pools_) {
    if (pool->pool) pool->device->vk.vkDestroyQueryPool(pool->device->device, pool->pool, nullptr);
    delete pool;
  }
  pools_.clear();
  enabled_ = false;
}

Status SegmentTimer::Init(meshvk_device_set_t* set, uint32_t segments) {
  set_ = set;
  enabled_ = false;
  if (segments == 0) return Status();
  for (auto& device : set->devices) {
    const PhysicalDevice* physical = device->physical;
    uint32_t bits = physical->queue_families[device->queue_family].timestampValidBits;
    if (bits == 0 || physical->properties.limits.timestampPeriod <= 0) return Status();  // stays disabled
  }
  for (auto& device : set->devices) {
    auto* pool = new Pool;
    pools_.push_back(pool);
    pool->device = device.get();
    const PhysicalDevice* physical = device->physical;
    pool->period_ns = physical->properties.limits.timestampPeriod;
    uint32_t bits = physical->queue_families[device->queue_family].timestampValidBits;
    pool->valid_mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = 2 * segments;
    VkResult result = device->vk.vkCreateQueryPool(device->device, &info, nullptr, &pool->pool);
    if (result != VK_SUCCESS) return VkResultToStatus(result, "vkCreateQueryPool(timestamps)");
  }
  segment_device_.assign(segments, 0);
  segment_process_.assign(segments, 0);
  enabled_ = true;
  return Status();
}

void SegmentTimer::Begin(meshvk_command_buffer_t* cb, size_t index) {
  if (!enabled_ || index >= segment_device_.size()) return;
  uint32_t device = set_->processes[cb->process].logical_device;
  segment_device_[index] = device;
  segment_process_[index] = cb->process;
  Pool* pool = pools_[device];
  pool->device->vk.vkCmdResetQueryPool(cb->command_buffer, pool->pool, static_cast<uint32_t>(2 * index), 2);
  pool->device->vk.vkCmdWriteTimestamp(cb->command_buffer, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool->pool,
                                       static_cast<uint32_t>(2 * index));
}

void SegmentTimer::End(meshvk_command_buffer_t* cb, size_t index) {
  if (!enabled_ || index >= segment_device_.size()) return;
  Pool* pool = pools_[segment_device_[index]];
  pool->device->vk.vkCmdWriteTimestamp(cb->command_buffer, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool->pool,
                                       static_cast<uint32_t>(2 * index + 1));
}

Status SegmentTimer::Read(size_t index, uint64_t* out_ns) {
  *out_ns = 0;
  if (!enabled_ || index >= segment_device_.size()) return Status();
  Pool* pool = pools_[segment_device_[index]];
  uint64_t values[2] = {0, 0};
  VkResult result = pool->device->vk.vkGetQueryPoolResults(
      pool->device->device, pool->pool, static_cast<uint32_t>(2 * index), 2, sizeof(values), values,
      sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
  if (result != VK_SUCCESS) return VkResultToStatus(result, "vkGetQueryPoolResults(timestamps)");
  uint64_t ticks = ((values[1] & pool->valid_mask) - (values[0] & pool->valid_mask)) & pool->valid_mask;
  *out_ns = static_cast<uint64_t>(ticks * pool->period_ns);
  return Status();
}

}  // namespace meshvk::module
