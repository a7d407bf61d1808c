// Device timing of a command buffer: the two queries around its recorded work
// (meshvk_command_buffer_device_time), and trace timestamps
// (meshvk_command_buffer_write_timestamp): one query per call, in pools
// created as needed. Each pool is reset by the
// command buffer itself (vkCmdResetQueryPool when its first query is
// recorded), so replays of the recorded buffer stay valid without host work.
#include "command_buffer.h"
#include "status.h"
#include "vulkan/vk_status.h"

namespace meshvk {
namespace {

constexpr uint32_t kTraceQueriesPerPool = 256;

// The bits of a timestamp that count on this queue family.
uint64_t TimestampMask(uint32_t valid_bits) { return valid_bits >= 64 ? ~0ull : ((1ull << valid_bits) - 1); }

Status WriteTimestamp(meshvk_command_buffer_t* cb, meshvk_timestamp_point_t point, uint32_t* out_index) {
  const char* what = "meshvk_command_buffer_write_timestamp";
  if (!cb || !out_index)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: command buffer or out_index is NULL", what);
  MESHVK_RETURN_IF_ERROR(CheckRecording(cb, what));  // ended, or broken by an earlier call
  LogicalDevice& device = DeviceOf(cb);
  if (device.physical->queue_families[device.queue_family].timestampValidBits == 0)
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: %s: the queue family has no timestamps", what,
                      cb->set->Where(cb->process).c_str());
  uint32_t index = cb->trace_timestamp_count;
  uint32_t slot = index % kTraceQueriesPerPool;
  if (slot == 0) {
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = kTraceQueriesPerPool;
    VkQueryPool pool = VK_NULL_HANDLE;
    MESHVK_VK_RETURN_IF_ERROR(device.vk.vkCreateQueryPool(device.device, &info, nullptr, &pool),
                              cb->set->Where(cb->process) + ": vkCreateQueryPool(trace timestamps)");
    cb->trace_pools.push_back(pool);
    device.vk.vkCmdResetQueryPool(cb->command_buffer, pool, 0, kTraceQueriesPerPool);
  }
  device.vk.vkCmdWriteTimestamp(cb->command_buffer,
                                point == MESHVK_TIMESTAMP_AFTER_PREVIOUS ? VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT
                                                                         : VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                                cb->trace_pools.back(), slot);
  cb->trace_timestamp_count = index + 1;
  *out_index = index;
  return Status();
}

Status DeviceTime(const meshvk_command_buffer_t* cb, uint64_t* out_ns) {
  const char* what = "meshvk_command_buffer_device_time";
  if (!cb || !out_ns) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: command buffer or out_ns is NULL", what);
  }
  *out_ns = 0;
  if (!cb->timestamps) {
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: %s: the queue family has no timestamps", what,
                      cb->set->Where(cb->process).c_str());
  }
  if (cb->last_submit_value == 0) {
    return MakeStatus(MESHVK_STATUS_FAILED_PRECONDITION, "%s: %s: never submitted", what,
                      cb->set->Where(cb->process).c_str());
  }
  LogicalDevice& device = DeviceOf(cb);
  uint64_t values[2] = {0, 0};
  MESHVK_VK_RETURN_IF_ERROR(
      device.vk.vkGetQueryPoolResults(device.device, cb->timestamps, 0, 2, sizeof(values), values, sizeof(uint64_t),
                                      VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
      cb->set->Where(cb->process) + ": vkGetQueryPoolResults(timestamps)");
  const uint64_t mask = cb->timestamp_mask;
  uint64_t ticks = ((values[1] & mask) - (values[0] & mask)) & mask;
  *out_ns = static_cast<uint64_t>(ticks * cb->timestamp_period_ns);
  return Status();
}

Status ReadTimestamps(const meshvk_command_buffer_t* cb, uint64_t* out_ns, uint32_t count) {
  const char* what = "meshvk_command_buffer_read_timestamps";
  if (!cb || (count && !out_ns)) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: NULL argument", what);
  if (count > cb->trace_timestamp_count)
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "%s: %u timestamps asked, %u written", what, count,
                      cb->trace_timestamp_count);
  if (cb->last_submit_value == 0)
    return MakeStatus(MESHVK_STATUS_FAILED_PRECONDITION, "%s: %s: never submitted", what,
                      cb->set->Where(cb->process).c_str());
  LogicalDevice& device = DeviceOf(cb);
  const uint32_t bits = device.physical->queue_families[device.queue_family].timestampValidBits;
  const uint64_t mask = TimestampMask(bits);
  const double period = device.physical->properties.limits.timestampPeriod;
  for (uint32_t first = 0; first < count; first += kTraceQueriesPerPool) {
    uint32_t n = std::min(kTraceQueriesPerPool, count - first);
    MESHVK_VK_RETURN_IF_ERROR(
        device.vk.vkGetQueryPoolResults(device.device, cb->trace_pools[first / kTraceQueriesPerPool], 0, n,
                                        n * sizeof(uint64_t), out_ns + first, sizeof(uint64_t),
                                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
        cb->set->Where(cb->process) + ": vkGetQueryPoolResults(trace timestamps)");
    for (uint32_t i = 0; i < n; ++i)
      out_ns[first + i] = static_cast<uint64_t>(static_cast<double>(out_ns[first + i] & mask) * period);
  }
  return Status();
}

}  // namespace

// Every command buffer measures itself where the queue family has timestamps:
// two queries, reset by the command buffer itself, so a replay needs no
// host-side reset and the recorded buffer stays immutable. The first is
// written after the opening barrier, the second before the closing one.
Status BeginTimestamps(meshvk_command_buffer_t* cb) {
  LogicalDevice& device = DeviceOf(cb);
  const PhysicalDevice* physical = device.physical;
  uint32_t bits = physical->queue_families[device.queue_family].timestampValidBits;
  if (bits == 0 || physical->properties.limits.timestampPeriod <= 0) return Status();
  cb->timestamp_mask = TimestampMask(bits);
  cb->timestamp_period_ns = physical->properties.limits.timestampPeriod;
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = 2;
  MESHVK_VK_RETURN_IF_ERROR(device.vk.vkCreateQueryPool(device.device, &info, nullptr, &cb->timestamps),
                            cb->set->Where(cb->process) + ": vkCreateQueryPool(timestamps)");
  device.vk.vkCmdResetQueryPool(cb->command_buffer, cb->timestamps, 0, 2);
  device.vk.vkCmdWriteTimestamp(cb->command_buffer, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, cb->timestamps, 0);
  return Status();
}

void DestroyTraceTimestamps(meshvk_command_buffer_t* cb) {
  LogicalDevice& device = DeviceOf(cb);
  for (VkQueryPool pool : cb->trace_pools) device.vk.vkDestroyQueryPool(device.device, pool, nullptr);
  cb->trace_pools.clear();
}

}  // namespace meshvk

extern "C" {

meshvk_status_t meshvk_command_buffer_device_time(const meshvk_command_buffer_t* cb, uint64_t* out_ns) {
  return meshvk::DeviceTime(cb, out_ns).ToC();
}

meshvk_status_t meshvk_command_buffer_write_timestamp(meshvk_command_buffer_t* cb, meshvk_timestamp_point_t point,
                                                      uint32_t* out_index) {
  return meshvk::WriteTimestamp(cb, point, out_index).ToC();
}

meshvk_status_t meshvk_command_buffer_read_timestamps(const meshvk_command_buffer_t* cb, uint64_t* out_ns,
                                                      uint32_t count) {
  return meshvk::ReadTimestamps(cb, out_ns, count).ToC();
}

}  // extern "C"
