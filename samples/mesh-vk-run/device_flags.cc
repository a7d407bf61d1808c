// --devices against this machine's devices (see device_flags.h).
#include "device_flags.h"

#include <algorithm>
#include <memory>

namespace meshvk_run {

std::string MachineHas(uint32_t count, const std::string& noun) {
  if (count == 0) return "this machine has no " + noun;
  std::string indices = "0";
  if (count == 2) indices = "0, 1";
  if (count > 2) indices = "0.." + std::to_string(count - 1);
  return "this machine has " + std::to_string(count) + " " + noun + (count == 1 ? "" : "s") + " (" + indices +
         "); mesh-vk-run --list-devices shows them";
}

std::string CheckDeviceChoice(meshvk_instance_t* instance, const DeviceChoice& devices) {
  const std::string flag = "--devices=" + devices.devices_text + ": ";
  const uint32_t count = meshvk_instance_physical_device_count(instance);
  for (size_t i = 0; i < devices.physical_devices.size(); ++i) {
    const uint32_t d = devices.physical_devices[i];
    if (d >= count) return flag + MachineHas(count, "physical device");
    for (size_t j = 0; j < i; ++j) {
      if (devices.physical_devices[j] == d) return flag + "physical device " + std::to_string(d) + " listed twice";
    }
  }
  const uint32_t groups = meshvk_instance_device_group_count(instance);
  if (devices.group >= 0 && static_cast<uint32_t>(devices.group) >= groups)
    return flag + MachineHas(groups, "device group");
  if (devices.topology == MESHVK_TOPOLOGY_DEVICE_GROUP && devices.physical_devices.size() > 1)
    return CheckListedDevicesShareAGroup(instance, devices);
  return "";
}

std::string CheckListedDevicesShareAGroup(meshvk_instance_t* instance, const DeviceChoice& devices) {
  const uint32_t groups = meshvk_instance_device_group_count(instance);
  std::string membership;
  // The group info is large (peer features of every pair): heap-allocated.
  meshvk_device_group_info_t info = MESHVK_DEVICE_GROUP_INFO_INIT;
  for (uint32_t g = 0; g < groups; ++g) {
    if (meshvk_status_t status = meshvk_instance_device_group_info(instance, g, &info)) {
      meshvk_status_free(status);
      return "";  // creating the device set will report why the group cannot be read
    }
    const uint32_t* begin = info.physical_devices;
    const uint32_t* end = begin + info.device_count;
    bool all = true;
    for (uint32_t d : devices.physical_devices) all &= std::find(begin, end, d) != end;
    if (all) return "";
    membership += (g ? ", group " : "group ") + std::to_string(g) + " holds [";
    for (const uint32_t* d = begin; d != end; ++d) membership += (d == begin ? "" : ",") + std::to_string(*d);
    membership += "]";
  }
  return "--devices=" + devices.devices_text +
         " with --topology=group: no device group holds all of these physical devices (" + membership +
         "); list devices of one group, or use --topology=independent for one VkDevice per device";
}

}  // namespace meshvk_run
