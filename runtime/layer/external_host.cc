// VK_EXT_external_memory_host under the emulation layer: a host allocation
// imported as device memory. The real driver answers which of its memory types
// can hold the host pointer; the application must hear emulated type indices,
// and only host-visible ones: on a discrete GPU imported host memory is
// system memory, never the device-local heap. (Importing then goes through
// vkAllocateMemory, whose import struct the layer passes down unchanged.)
#include "layer.h"

namespace meshvk_layer {
namespace {

VKAPI_ATTR VkResult VKAPI_CALL GetMemoryHostPointerPropertiesEXT(VkDevice device,
                                                                 VkExternalMemoryHandleTypeFlagBits handleType,
                                                                 const void* hostPointer,
                                                                 VkMemoryHostPointerPropertiesEXT* props) {
  DeviceData* d = deviceFromHandle(device);
  auto next = reinterpret_cast<PFN_vkGetMemoryHostPointerPropertiesEXT>(
      d->next.GetDeviceProcAddr(device, "vkGetMemoryHostPointerPropertiesEXT"));
  if (!next) fatal("vkGetMemoryHostPointerPropertiesEXT", "is not available below the layer");
  VkResult r = next(device, handleType, hostPointer, props);
  if (r != VK_SUCCESS) return r;
  uint32_t bits = emulatedTypeBits(d->memory, props->memoryTypeBits);
  for (uint32_t t = 0; t < d->memory.emulated.memoryTypeCount; ++t)
    if (!(d->memory.emulated.memoryTypes[t].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) bits &= ~(1u << t);
  props->memoryTypeBits = bits;
  return VK_SUCCESS;
}
MESHVK_INTERCEPT(kDevice, GetMemoryHostPointerPropertiesEXT)

}  // namespace
}  // namespace meshvk_layer
