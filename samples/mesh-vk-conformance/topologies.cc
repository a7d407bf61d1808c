#include "topologies.h"

#include <memory>

#include "meshvk_environment.h"

namespace meshvk_conformance {
namespace {

std::string DeviceName(meshvk_instance_t* instance, uint32_t index) {
  meshvk_physical_device_info_t info = MESHVK_PHYSICAL_DEVICE_INFO_INIT;
  Status s(meshvk_instance_physical_device_info(instance, index, &info));
  if (!s.ok()) return "device " + std::to_string(index);
  return std::to_string(index) + " '" + info.name + "' (" + meshvk_physical_device_type_name(info.device_type) + ")";
}

std::string Join(meshvk_instance_t* instance, const std::vector<uint32_t>& devices, const char* sep) {
  std::string out;
  for (size_t i = 0; i < devices.size(); ++i) out += (i ? sep : "") + DeviceName(instance, devices[i]);
  return out;
}

Topology Logical(meshvk_instance_t* instance, uint32_t device) {
  Topology t;
  t.name = "logical:" + std::to_string(device);
  t.description = "every process on physical device " + DeviceName(instance, device);
  t.kind = MESHVK_TOPOLOGY_LOGICAL;
  t.physical_devices = {device};
  return t;
}

Topology Independent(meshvk_instance_t* instance, const std::vector<uint32_t>& devices) {
  Topology t;
  t.name = "independent:";
  for (size_t i = 0; i < devices.size(); ++i) t.name += (i ? "," : "") + std::to_string(devices[i]);
  t.description = "one VkDevice per physical device: " + Join(instance, devices, ", ");
  t.kind = MESHVK_TOPOLOGY_INDEPENDENT;
  t.physical_devices = devices;
  return t;
}

void AddGroups(meshvk_instance_t* instance, std::vector<Topology>& out) {
  meshvk_device_group_info_t info = MESHVK_DEVICE_GROUP_INFO_INIT;
  for (uint32_t g = 0; g < meshvk_instance_device_group_count(instance); ++g) {
    Status s(meshvk_instance_device_group_info(instance, g, &info));
    if (!s.ok() || info.device_count < 2) continue;
    Topology t;
    t.name = "group:" + std::to_string(g);
    std::vector<uint32_t> members(info.physical_devices, info.physical_devices + info.device_count);
    t.description = "device group of " + std::to_string(info.device_count) + ": " + Join(instance, members, ", ");
    t.kind = MESHVK_TOPOLOGY_DEVICE_GROUP;
    t.group_index = g;
    out.push_back(t);
  }
}

}  // namespace

std::vector<Topology> DiscoverTopologies(meshvk_instance_t* instance) {
  std::vector<Topology> out;
  uint32_t n = meshvk_instance_physical_device_count(instance);
  for (uint32_t d = 0; d < n; ++d) out.push_back(Logical(instance, d));
  AddGroups(instance, out);
  for (uint32_t a = 0; a < n; ++a)
    for (uint32_t b = a + 1; b < n; ++b) out.push_back(Independent(instance, {a, b}));
  if (n > 2) {
    std::vector<uint32_t> all;
    for (uint32_t d = 0; d < n; ++d) all.push_back(d);
    out.push_back(Independent(instance, all));
  }
  return out;
}

meshvk_device_set_t* CreateDeviceSet(meshvk_instance_t* instance, const Topology& topology, uint32_t process_count,
                                     uint64_t device_timeout_ns, meshvk_status_t* out_status) {
  // --timeout-ms's device timeout, then MESHVK_PIPELINE_CACHE as the other
  // tools take it (the first chained timeout counts).
  meshvk_environment_set_chain_t environment;
  meshvk_device_timeout_t timeout = MESHVK_DEVICE_TIMEOUT_INIT;
  timeout.timeout = device_timeout_ns;
  timeout.next = meshvk_environment_set_chain(&environment, nullptr);
  meshvk_device_set_create_info_t info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
  info.next = &timeout;
  info.topology = topology.kind;
  info.process_count = process_count;
  info.device_group_index = topology.group_index;
  info.physical_devices = topology.physical_devices.empty() ? nullptr : topology.physical_devices.data();
  info.physical_device_count = static_cast<uint32_t>(topology.physical_devices.size());
  meshvk_device_set_t* set = nullptr;
  *out_status = meshvk_device_set_create(instance, &info, &set);
  return set;
}

}  // namespace meshvk_conformance
