// The skeleton of meshvk's pass-through test layers (fault_injection,
// host_access): the loader handshake, vkCreateInstance/vkCreateDevice with the
// next layer's functions resolved while the object is created, and the
// vkGet*ProcAddr lookups. A test layer wraps no handle: it names the calls it
// intercepts, and every intercepted call ends by calling the next layer's
// function (Next), so the layers stack with the Khronos validation layer and
// the emulated device-group layer in any order.
//
// One layer per shared library: the layer defines ThisLayer(); the skeleton
// (test_layer.cc, linked into each layer) exports
// vkNegotiateLoaderLayerInterfaceVersion.
#ifndef MESHVK_RUNTIME_LAYER_TEST_LAYER_TEST_LAYER_H_
#define MESHVK_RUNTIME_LAYER_TEST_LAYER_TEST_LAYER_H_

#include <vulkan/vulkan.h>

#include <cstddef>
#include <utility>
#include <vector>

namespace meshvk_test_layer {

struct Entry {
  const char* name;
  PFN_vkVoidFunction function;
};

// The entry point `name` (a function of this layer) as a table row.
#define MESHVK_TEST_LAYER_ENTRY(name, function) \
  meshvk_test_layer::Entry { name, reinterpret_cast<PFN_vkVoidFunction>(&function) }

// A table of rows (an array of Entry, or none).
struct Entries {
  constexpr Entries() = default;
  template <size_t N>
  constexpr Entries(const Entry (&rows)[N]) : rows(rows), count(N) {}  // NOLINT: implicit from an array
  const Entry* rows = nullptr;
  size_t count = 0;
};

// What a test layer adds to the skeleton. Names are Vulkan's ("vkQueueSubmit2");
// a KHR alias ("vkQueueSubmit2KHR") is its own row and calls down to the core
// function (resolved under the core name, else the KHR one).
struct Layer {
  Entries instance_entries;  // instance-level calls besides create/proc-addr
  Entries device_entries;    // device-level calls (VkDevice, VkQueue, VkCommandBuffer)
  // Called at the start of vkCreateInstance / vkCreateDevice, before the next
  // layer: a result other than VK_SUCCESS is returned instead (a fault).
  VkResult (*before_create_instance)() = nullptr;
  VkResult (*before_create_device)() = nullptr;
};

// Defined by the layer.
const Layer& ThisLayer();

// The next layer's function `name` for a dispatchable handle of a device
// (VkDevice, VkQueue, VkCommandBuffer) or of an instance (VkInstance,
// VkPhysicalDevice); null when the next layer lacks it. `name` must be the
// core name of one of the layer's rows.
PFN_vkVoidFunction NextDeviceFunction(const void* device_handle, const char* name);
PFN_vkVoidFunction NextInstanceFunction(const void* instance_handle, const char* name);

template <typename PFN>
PFN Next(const void* device_handle, const char* name) {
  return reinterpret_cast<PFN>(NextDeviceFunction(device_handle, name));
}
template <typename PFN>
PFN NextInstance(const void* instance_handle, const char* name) {
  return reinterpret_cast<PFN>(NextInstanceFunction(instance_handle, name));
}

// The loader's dispatch key of a dispatchable handle: one for a VkDevice and
// its queues and command buffers (and one for an instance and its physical
// devices), so a layer can tell which device a queue belongs to.
void* DispatchKey(const void* dispatchable);

// Every device created through the layer with the next layer's `name`
// (devices whose next layer lacks it are left out).
std::vector<std::pair<VkDevice, PFN_vkVoidFunction>> AllDevices(const char* name);

// Whether the layer answers vkGet*ProcAddr(`name`) with its own function: the
// skeleton's (vkCreateInstance, vkCreateDevice, vkGet*ProcAddr) or a row.
bool Intercepts(const char* name);

}  // namespace meshvk_test_layer

#endif  // MESHVK_RUNTIME_LAYER_TEST_LAYER_TEST_LAYER_H_
