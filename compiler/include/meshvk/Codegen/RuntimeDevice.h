//===- RuntimeDevice.h - the runtime's device as codegen input --*- C++ -*-===//
//
// Header-only bridge for tools and tests that link meshvk::runtime (the
// compiler libraries never include it, so they stay free of the runtime and
// of Vulkan): the runtime's description of a physical device as the
// compiler's DeviceProperties, and from there THE codegen target.
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_CODEGEN_RUNTIMEDEVICE_H_
#define MESHVK_CODEGEN_RUNTIMEDEVICE_H_

#include "meshvk/Codegen/TargetDescription.h"
#include "meshvk/instance.h"

namespace meshvk::codegen {

inline DeviceProperties devicePropertiesOf(const meshvk_physical_device_info_t &info) {
  DeviceProperties device;
  device.name = info.name;
  device.deviceType = info.device_type;
  for (int i = 0; i < 3; ++i) {
    device.maxWorkgroupSize[i] = info.limits.max_workgroup_size[i];
    device.maxWorkgroupCount[i] = info.limits.max_workgroup_count[i];
  }
  device.maxWorkgroupInvocations = info.limits.max_workgroup_invocations;
  device.maxSharedMemoryBytes = info.limits.max_shared_memory_bytes;
  device.subgroupSize = info.limits.subgroup_size;
  device.shaderFloat16 = info.shader_float16 != 0;
  device.storageBuffer16BitAccess = info.storage_buffer_16bit != 0;
  device.shaderFloat64 = info.shader_float64 != 0;
  return device;
}

// The codegen target for a device the runtime discovered.
inline TargetDescription targetForDevice(const meshvk_physical_device_info_t &info) {
  return targetForDevice(devicePropertiesOf(info));
}

} // namespace meshvk::codegen

#endif // MESHVK_CODEGEN_RUNTIMEDEVICE_H_
