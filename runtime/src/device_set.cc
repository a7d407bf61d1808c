// meshvk_device_set_t: maps P processes onto VkDevices and queues.
#include "device_set.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>

#include "base/structure.h"
#include "copy_path.h"
#include "device_wait.h"
#include "executable.h"
#include "external_memory.h"
#include "host_staging.h"
#include "pipeline_cache.h"
#include "vulkan/loader.h"
#include "vulkan/vk_status.h"

namespace meshvk {
namespace {

Status CreateGroupSet(const meshvk_device_set_create_info_t& info, meshvk_device_set_t* set) {
  meshvk_instance_t* instance = set->instance;
  uint32_t group = info.device_group_index;
  if (group >= instance->groups.size()) {
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "meshvk_device_set_create: device group %u of %zu", group,
                      instance->groups.size());
  }
  const std::vector<uint32_t>& members = instance->groups[group];
  uint32_t d = static_cast<uint32_t>(members.size());
  for (uint32_t p = 0; p < info.process_count; ++p) {
    uint32_t index = info.process_devices ? info.process_devices[p] : p % d;
    if (index >= d) {
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                        "meshvk_device_set_create: process %u mapped to device index %u, "
                        "group %u has %u device(s)",
                        p, index, group, d);
    }
    set->processes[p].device_index = index;
    set->processes[p].physical_device = members[index];
    set->processes[p].logical_device = 0;
  }
  auto device = std::make_unique<LogicalDevice>();
  Status status = CreateLogicalDevice(set, members, /*as_group=*/true, info.process_count, {}, device.get());
  set->devices.push_back(std::move(device));
  MESHVK_RETURN_IF_ERROR(status);
  // Queues of one VkDevice are shared by all devices of the group (a submit
  // picks the device through its mask), so processes just round-robin them.
  uint32_t queues = static_cast<uint32_t>(set->devices[0]->queues.size());
  for (uint32_t p = 0; p < info.process_count; ++p) set->processes[p].queue_index = p % queues;
  return Status();
}

// LOGICAL (every process on chosen[0]) or INDEPENDENT (round robin over
// `chosen`): one VkDevice per physical device used.
Status CreateLogicalSet(const meshvk_device_set_create_info_t& info, const std::vector<uint32_t>& chosen,
                        meshvk_device_set_t* set) {
  uint32_t n = static_cast<uint32_t>(set->instance->physical_devices.size());
  if (n == 0) {
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "meshvk_device_set_create: no physical device");
  }
  const bool independent = info.topology == MESHVK_TOPOLOGY_INDEPENDENT;
  // physical device -> processes on it, in process order.
  std::map<uint32_t, std::vector<uint32_t>> users;
  for (uint32_t p = 0; p < info.process_count; ++p) {
    uint32_t physical = info.process_devices ? info.process_devices[p]
                        : independent        ? chosen[p % chosen.size()]
                                             : chosen[0];
    if (physical >= n) {
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                        "meshvk_device_set_create: process %u mapped to physical device %u, "
                        "there are %u",
                        p, physical, n);
    }
    users[physical].push_back(p);
  }
  // Several VkDevices share memory through external memory where they can:
  // enable the extensions each device has for it.
  const bool sharing = users.size() > 1;
  for (const auto& [physical, processes] : users) {
    auto device = std::make_unique<LogicalDevice>();
    std::vector<const char*> extensions;
    SharingCapabilities caps;
    if (sharing) caps = QuerySharing(set->instance, physical), extensions = SharingExtensions(caps);
    Status status = CreateLogicalDevice(set, {physical}, /*as_group=*/false, static_cast<uint32_t>(processes.size()),
                                        extensions, device.get());
    if (status.ok() && caps.memory_host_extension) {
      device->host_pointer_alignment = caps.host_pointer_alignment;
      device->host_memory_shards =
          caps.memory_is_host && caps.host_allocation_import && ShardMemoryTakesHostPointers(*device);
    }
    uint32_t logical = static_cast<uint32_t>(set->devices.size());
    uint32_t queues = static_cast<uint32_t>(device->queues.size());
    set->devices.push_back(std::move(device));
    MESHVK_RETURN_IF_ERROR(status);
    for (uint32_t j = 0; j < processes.size(); ++j) {
      Process& process = set->processes[processes[j]];
      process.physical_device = physical;
      process.device_index = 0;
      process.logical_device = logical;
      process.queue_index = j % queues;  // own queue where the family has enough
    }
  }
  return Status();
}

// The physical devices a set uses, in dealing order: the caller's list, or
// every device (without CPU devices such as llvmpipe when a GPU is present:
// spreading a program onto the CPU next to a GPU is never what was meant).
Status ChosenDevices(const meshvk_device_set_create_info_t& info, const meshvk_instance_t* instance,
                     std::vector<uint32_t>* out) {
  const uint32_t n = static_cast<uint32_t>(instance->physical_devices.size());
  out->clear();
  if (info.physical_device_count > 0) {
    if (!info.physical_devices) {
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                        "meshvk_device_set_create: physical_device_count %u with a NULL list",
                        info.physical_device_count);
    }
    for (uint32_t i = 0; i < info.physical_device_count; ++i) {
      uint32_t d = info.physical_devices[i];
      if (d >= n) {
        return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "meshvk_device_set_create: physical device %u of %u", d, n);
      }
      if (std::find(out->begin(), out->end(), d) != out->end()) {
        return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_device_set_create: physical device %u listed twice",
                          d);
      }
      out->push_back(d);
    }
    return Status();
  }
  bool gpu = false;
  for (uint32_t d = 0; d < n; ++d)
    gpu |= instance->physical_devices[d].properties.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU;
  for (uint32_t d = 0; d < n; ++d) {
    if (!gpu || instance->physical_devices[d].properties.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU) out->push_back(d);
  }
  if (out->empty()) out->push_back(0);
  return Status();
}

// The device group holding every device of `chosen` (-1: none), and the
// process -> device index mapping that deals processes over them.
int GroupHolding(const meshvk_instance_t* instance, const std::vector<uint32_t>& chosen) {
  for (size_t g = 0; g < instance->groups.size(); ++g) {
    const auto& members = instance->groups[g];
    bool all = true;
    for (uint32_t d : chosen) all &= std::find(members.begin(), members.end(), d) != members.end();
    if (all) return static_cast<int>(g);
  }
  return -1;
}

Status CreateSet(const meshvk_device_set_create_info_t& info, meshvk_device_set_t* set) {
  if (info.process_count == 0) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_device_set_create: process_count must be >= 1");
  }
  set->processes.resize(info.process_count);
  set->allocated_bytes.reset(new std::atomic<uint64_t>[info.process_count]);
  for (uint32_t p = 0; p < info.process_count; ++p) set->allocated_bytes[p] = 0;
  meshvk_device_set_create_info_t resolved = info;
  std::vector<uint32_t> chosen;
  MESHVK_RETURN_IF_ERROR(ChosenDevices(info, set->instance, &chosen));
  const bool listed = info.physical_device_count > 0;
  // Group members dealt in the listed order: process p -> index of
  // chosen[p % n] in the group.
  std::vector<uint32_t> group_mapping;
  auto use_group = [&](int g) {
    resolved.topology = MESHVK_TOPOLOGY_DEVICE_GROUP;
    resolved.device_group_index = static_cast<uint32_t>(g);
    if (!listed || info.process_devices) return;
    const auto& members = set->instance->groups[g];
    for (uint32_t p = 0; p < info.process_count; ++p) {
      uint32_t d = chosen[p % chosen.size()];
      group_mapping.push_back(static_cast<uint32_t>(std::find(members.begin(), members.end(), d) - members.begin()));
    }
    resolved.process_devices = group_mapping.data();
  };
  switch (info.topology) {
    case MESHVK_TOPOLOGY_AUTO: {
      // A group of 2+ covering the chosen devices; else independent devices
      // when there are several; else one device.
      int g = -1;
      if (listed) {
        g = GroupHolding(set->instance, chosen);
        if (g >= 0 && set->instance->groups[g].size() < 2) g = -1;
      } else {
        for (uint32_t i = 0; i < set->instance->groups.size() && g < 0; ++i)
          if (set->instance->groups[i].size() >= 2) g = static_cast<int>(i);
      }
      if (g >= 0) {
        use_group(g);
      } else {
        resolved.topology = chosen.size() > 1 ? MESHVK_TOPOLOGY_INDEPENDENT : MESHVK_TOPOLOGY_LOGICAL;
      }
      break;
    }
    case MESHVK_TOPOLOGY_DEVICE_GROUP:
      if (listed) {
        int g = GroupHolding(set->instance, chosen);
        if (g < 0) {
          return MakeStatus(MESHVK_STATUS_UNAVAILABLE,
                            "meshvk_device_set_create: no device group holds all of the %zu "
                            "listed physical devices",
                            chosen.size());
        }
        use_group(g);
      }
      break;
    case MESHVK_TOPOLOGY_LOGICAL:
    case MESHVK_TOPOLOGY_INDEPENDENT:
      break;
    default:
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_device_set_create: unknown topology %d",
                        static_cast<int>(info.topology));
  }
  set->topology = resolved.topology;
  if (set->is_group()) return CreateGroupSet(resolved, set);
  MESHVK_RETURN_IF_ERROR(CreateLogicalSet(resolved, chosen, set));
  ChooseSetPairPaths(set);
  return Status();
}

}  // namespace

void DestroySet(meshvk_device_set_t* set) {
  for (auto*& builtin : set->builtins) {
    if (builtin) DestroyExecutable(builtin);
    builtin = nullptr;
  }
  for (auto& device : set->devices) DestroyLogicalDevice(device.get());
  meshvk_instance_t* instance = set->instance;
  delete set;
  meshvk_instance_release(instance);
}

Status TakeChainedOptions(const void* info, meshvk_device_set_t* set) {
  const auto* chained = FindChained<meshvk_device_timeout_t>(info, MESHVK_STRUCTURE_TYPE_DEVICE_TIMEOUT);
  if (chained && chained->timeout == 0)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "meshvk_device_timeout_t: timeout 0 would take every device as unresponsive at its first wait");
  set->device_timeout_ns = chained ? chained->timeout : kDefaultDeviceTimeoutNs;
  const auto* cache = FindChained<meshvk_pipeline_cache_t>(info, MESHVK_STRUCTURE_TYPE_PIPELINE_CACHE);
  set->pipeline_cache_directory = !cache ? DefaultPipelineCacheDirectory() : cache->directory ? cache->directory : "";
  return Status();
}

void ApplyDeviceTimeout(meshvk_device_set_t* set) {
  for (auto& device : set->devices) device->timeout_ns = set->device_timeout_ns;
}

}  // namespace meshvk

using meshvk::MakeStatus;
using meshvk::Status;

std::string meshvk_device_set_s::Where(uint32_t process) const {
  if (process >= processes.size()) return "process " + std::to_string(process);
  const meshvk::Process& p = processes[process];
  std::string text = "process " + std::to_string(process) + " (" + instance->DeviceName(p.physical_device);
  if (is_group()) text += ", device index " + std::to_string(p.device_index);
  return text + ")";
}

Status meshvk_device_set_s::CheckProcess(uint32_t process, const char* what) const {
  if (process < processes.size()) return Status();
  return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "%s: process %u, the device set has %zu", what, process,
                    processes.size());
}

meshvk_copy_path_info_t meshvk_device_set_s::CopyPath(uint32_t src, uint32_t dst) const {
  meshvk_copy_path_info_t out = MESHVK_COPY_PATH_INFO_INIT;
  const meshvk::Process& s = processes[src];
  const meshvk::Process& d = processes[dst];
  if (s.logical_device != d.logical_device) return pair_paths[s.logical_device * devices.size() + d.logical_device];
  if (s.device_index == d.device_index) {
    out.path = MESHVK_COPY_PATH_SAME_DEVICE;
    meshvk::SetReason(&out, s.physical_device == d.physical_device && !is_group() ? "one VkDevice: the same memory"
                                                                                  : "the same device of the group");
  } else {
    out.path = MESHVK_COPY_PATH_GROUP_PEER;
    meshvk::SetReason(
        &out, "peer memory of one device group (features 0x" + [&] {
          char hex[16];
          std::snprintf(hex, sizeof hex, "%x", PeerFeatures(dst, src));
          return std::string(hex);
        }() + ")");
  }
  return out;
}

uint32_t meshvk_device_set_s::PeerFeatures(uint32_t local, uint32_t remote) const {
  if (local >= processes.size() || remote >= processes.size()) return 0;
  const meshvk::Process& l = processes[local];
  const meshvk::Process& r = processes[remote];
  if (l.logical_device != r.logical_device) return 0;  // needs external memory
  const meshvk::LogicalDevice& device = *devices[l.logical_device];
  return device.peer[l.device_index * device.group_size() + r.device_index];
}

Status meshvk_device_set_s::CheckPeerAccess(uint32_t local, uint32_t remote, uint32_t required,
                                            const char* what) const {
  if (processes[local].logical_device != processes[remote].logical_device) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "%s: %s cannot reach memory of %s: they are on different VkDevices "
                      "(share it with meshvk_buffer_share, or copy it with "
                      "meshvk_buffer_copy_host_staged)",
                      what, Where(local).c_str(), Where(remote).c_str());
  }
  uint32_t have = PeerFeatures(local, remote);
  if ((have & required) != required) {
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: %s lacks peer memory features 0x%x on memory of %s (has 0x%x)",
                      what, Where(local).c_str(), required, Where(remote).c_str(), have);
  }
  return Status();
}

extern "C" {

meshvk_status_t meshvk_device_set_create(meshvk_instance_t* instance, const meshvk_device_set_create_info_t* info,
                                         meshvk_device_set_t** out_set) {
  if (!out_set) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_device_set_create: out_set is NULL").ToC();
  }
  *out_set = nullptr;
  if (!instance) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_device_set_create: instance is NULL").ToC();
  }
  Status status =
      meshvk::CheckStructure(info, MESHVK_STRUCTURE_TYPE_DEVICE_SET_CREATE_INFO, "meshvk_device_set_create: info");
  if (!status.ok()) return status.ToC();
  auto* set = new meshvk_device_set_t();
  meshvk_instance_retain(instance);
  set->instance = instance;
  status = meshvk::TakeChainedOptions(info, set);
  if (status.ok()) status = meshvk::CreateSet(*info, set);
  if (!status.ok()) {
    meshvk::DestroySet(set);
    return status.ToC();
  }
  meshvk::ApplyDeviceTimeout(set);
  *out_set = set;
  return MESHVK_OK;
}

void meshvk_device_set_retain(meshvk_device_set_t* set) {
  if (set) set->refs.fetch_add(1);
}

void meshvk_device_set_release(meshvk_device_set_t* set) {
  if (set && set->refs.fetch_sub(1) == 1) meshvk::DestroySet(set);
}

const char* meshvk_topology_name(meshvk_topology_t topology) {
  switch (topology) {
    case MESHVK_TOPOLOGY_AUTO:
      return "auto";
    case MESHVK_TOPOLOGY_DEVICE_GROUP:
      return "group";
    case MESHVK_TOPOLOGY_LOGICAL:
      return "logical";
    case MESHVK_TOPOLOGY_INDEPENDENT:
      return "independent";
    default:
      return "unknown";
  }
}

uint64_t meshvk_device_set_staging_bytes(const meshvk_device_set_t* set, uint32_t process) {
  if (!set || process >= set->processes.size()) return 0;
  return set->DeviceOf(process).staging_bytes.load();
}

uint64_t meshvk_device_set_peak_staging_bytes(const meshvk_device_set_t* set, uint32_t process) {
  if (!set || process >= set->processes.size()) return 0;
  return set->DeviceOf(process).peak_staging_bytes.load();
}

meshvk_topology_t meshvk_device_set_topology(const meshvk_device_set_t* set) {
  return set ? set->topology : MESHVK_TOPOLOGY_AUTO;
}

uint32_t meshvk_device_set_process_count(const meshvk_device_set_t* set) {
  return set ? static_cast<uint32_t>(set->processes.size()) : 0;
}

meshvk_status_t meshvk_device_set_process_info(const meshvk_device_set_t* set, uint32_t process,
                                               meshvk_process_info_t* out_info) {
  if (!set) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_device_set_process_info: set is NULL").ToC();
  }
  Status status =
      meshvk::CheckStructure(out_info, MESHVK_STRUCTURE_TYPE_PROCESS_INFO, "meshvk_device_set_process_info: out_info");
  if (status.ok()) status = set->CheckProcess(process, "meshvk_device_set_process_info");
  if (!status.ok()) return status.ToC();
  const meshvk::Process& p = set->processes[process];
  meshvk_process_info_t info = MESHVK_PROCESS_INFO_INIT;
  info.physical_device = p.physical_device;
  info.device_index = p.device_index;
  info.logical_device = p.logical_device;
  info.queue_family = set->devices[p.logical_device]->queue_family;
  info.queue_index = p.queue_index;
  meshvk::FillKeepingHeader(out_info, info);
  return MESHVK_OK;
}

meshvk_status_t meshvk_device_set_process_limits(const meshvk_device_set_t* set, uint32_t process,
                                                 meshvk_device_limits_t* out_limits) {
  if (!set) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_device_set_process_limits: set is NULL").ToC();
  }
  Status status = meshvk::CheckStructure(out_limits, MESHVK_STRUCTURE_TYPE_DEVICE_LIMITS,
                                         "meshvk_device_set_process_limits: out_limits");
  if (status.ok()) status = set->CheckProcess(process, "meshvk_device_set_process_limits");
  if (!status.ok()) return status.ToC();
  meshvk::FillKeepingHeader(out_limits,
                            set->instance->physical_devices[set->processes[process].physical_device].info.limits);
  return MESHVK_OK;
}

uint32_t meshvk_device_set_peer_features(const meshvk_device_set_t* set, uint32_t local, uint32_t remote) {
  return set ? set->PeerFeatures(local, remote) : 0;
}

meshvk_status_t meshvk_device_set_wait_idle(meshvk_device_set_t* set) {
  if (!set) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_device_set_wait_idle: set is NULL").ToC();
  }
  for (auto& device : set->devices) {
    Status status = meshvk::DrainDevice(
        *device, set->instance->DeviceName(device->physical_indices[0]) + ": meshvk_device_set_wait_idle");
    if (!status.ok()) return status.ToC();
  }
  return MESHVK_OK;
}

uint64_t meshvk_device_set_allocated_bytes(const meshvk_device_set_t* set, uint32_t process) {
  if (!set || process >= set->processes.size()) return 0;
  return set->allocated_bytes[process].load();
}

meshvk_status_t meshvk_device_set_process_memory(const meshvk_device_set_t* set, uint32_t process,
                                                 meshvk_process_memory_t* out_memory) {
  if (!set) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_device_set_process_memory: set is NULL").ToC();
  Status status = meshvk::CheckStructure(out_memory, MESHVK_STRUCTURE_TYPE_PROCESS_MEMORY,
                                         "meshvk_device_set_process_memory: out_memory");
  if (status.ok()) status = set->CheckProcess(process, "meshvk_device_set_process_memory");
  if (!status.ok()) return status.ToC();
  const meshvk::Process& p = set->processes[process];
  const meshvk::LogicalDevice& device = *set->devices[p.logical_device];
  meshvk_process_memory_t memory = MESHVK_PROCESS_MEMORY_INIT;
  memory.physical_device = p.physical_device;
  memory.heap_index = device.storage_heap;
  memory.heap_bytes = set->instance->physical_devices[p.physical_device].memory.memoryHeaps[device.storage_heap].size;
  for (uint32_t q = 0; q < set->processes.size(); ++q)
    if (set->processes[q].physical_device == p.physical_device) memory.allocated_bytes += set->allocated_bytes[q];
  std::string name = set->instance->DeviceName(p.physical_device);
  if (set->is_group()) name += ", device index " + std::to_string(p.device_index);
  std::snprintf(memory.device, sizeof(memory.device), "%s", name.c_str());
  meshvk::FillKeepingHeader(out_memory, memory);
  return MESHVK_OK;
}

}  // extern "C"
