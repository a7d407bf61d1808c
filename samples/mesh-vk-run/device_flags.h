// --devices checked against this machine: a physical device index or a device
// group it does not have is the user's mistake (exit 2), said in the flag's
// words as soon as the devices are enumerated, before the runtime is asked
// for a device set (whose message names its C function and the wrong count).
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_DEVICE_FLAGS_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_DEVICE_FLAGS_H_

#include <cstdint>
#include <string>

#include "meshvk/instance.h"
#include "run_program.h"

namespace meshvk_run {

// "this machine has 1 physical device (0); mesh-vk-run --list-devices shows
// them" for `count` of `noun` ("physical device", "device group").
std::string MachineHas(uint32_t count, const std::string& noun);

// "" when every index of --devices=I,J,... and --devices=group:G names a device
// or group of `instance`, each once; else one line starting with "--devices=...: ".
// Also, under --topology=group, that one device group holds every listed device.
std::string CheckDeviceChoice(meshvk_instance_t* instance, const DeviceChoice& devices);

// "" when one device group of `instance` holds every device of
// --devices=I,J,...; else the line naming each group's members and the way out.
std::string CheckListedDevicesShareAGroup(meshvk_instance_t* instance, const DeviceChoice& devices);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_DEVICE_FLAGS_H_
