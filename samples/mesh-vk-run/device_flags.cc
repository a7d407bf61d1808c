// --devices against this machine's devices (see device_flags.h).
#include "device_flags.h"

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
  return "";
}

}  // namespace meshvk_run
