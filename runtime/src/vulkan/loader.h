// Loading Vulkan through volk: the loader library once per process, instance
// functions per instance, and one VolkDeviceTable per VkDevice (volk's advice
// for several devices: global device functions would dispatch to the last
// device loaded).
#ifndef MESHVK_RUNTIME_SRC_VULKAN_LOADER_H_
#define MESHVK_RUNTIME_SRC_VULKAN_LOADER_H_

#include <volk.h>

#include "status.h"

namespace meshvk {

// dlopens libvulkan (once; thread-safe). UNAVAILABLE without a loader.
Status LoadVulkanLoader();

// Loads instance-level entry points for `instance`. volk keeps them in
// globals; the loader's instance trampolines dispatch on the handle, so one
// set serves every instance.
void LoadInstanceFunctions(VkInstance instance);

// Fills `table` with `device`'s entry points.
void LoadDeviceTable(VkDevice device, VolkDeviceTable* table);

}  // namespace meshvk

#endif  // MESHVK_RUNTIME_SRC_VULKAN_LOADER_H_
