// Graphics on an emulated device group: what an application that draws needs
// (images bound to emulated memory, render passes, dynamic rendering, draws,
// copies between images and emulated buffers).
//
// Images are NOT emulated per device: one real image serves the group, bound
// to one memory instance. So an image must live on memory with a single
// instance (allocated with a VkMemoryAllocateFlagsInfo device mask of one
// device; the layer aborts otherwise), and the application should draw with a
// device mask of that one device: two emulated devices writing the one real
// image would write the same bytes, which a real group keeps apart. Commands
// are recorded, like every other vkCmd*, once per device in the current device
// mask, with that device's real buffers. The race detector does not see draws
// or image copies (it tracks buffers written by dispatches and copies).
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "layer.h"

namespace meshvk_layer {
namespace {

// The next layer's graphics entry points, looked up once per device.
// clang-format off
#define MESHVK_GRAPHICS_NEXT(X) \
  X(BindImageMemory) \
  X(BindImageMemory2) \
  X(CmdBeginRenderPass) \
  X(CmdNextSubpass) \
  X(CmdEndRenderPass) \
  X(CmdBeginRenderPass2) \
  X(CmdNextSubpass2) \
  X(CmdEndRenderPass2) \
  X(CmdBeginRendering) \
  X(CmdEndRendering) \
  X(CmdSetViewport) \
  X(CmdSetScissor) \
  X(CmdDraw) \
  X(CmdDrawIndexed) \
  X(CmdDrawIndirect) \
  X(CmdDrawIndexedIndirect) \
  X(CmdBindVertexBuffers) \
  X(CmdBindIndexBuffer) \
  X(CmdCopyImageToBuffer) \
  X(CmdCopyBufferToImage) \
  X(CmdCopyImage) \
  X(CmdBlitImage) \
  X(CmdClearColorImage) \
  X(CmdClearAttachments)
// clang-format on

struct GraphicsDispatch {
  VkDevice device = VK_NULL_HANDLE;  // whose (a DeviceData address may be reused)
#define MESHVK_MEMBER(name) PFN_vk##name name = nullptr;
  MESHVK_GRAPHICS_NEXT(MESHVK_MEMBER)
#undef MESHVK_MEMBER
};

const GraphicsDispatch& graphics(DeviceData* d) {
  static std::mutex mutex;
  static std::unordered_map<DeviceData*, GraphicsDispatch> tables;  // a few devices per process
  std::lock_guard<std::mutex> lock(mutex);
  auto it = tables.find(d);
  if (it != tables.end() && it->second.device == d->device) return it->second;
  GraphicsDispatch& t = tables[d];
  t.device = d->device;
  auto lookup = [&](const char* name) {
    PFN_vkVoidFunction f = d->next.GetDeviceProcAddr(d->device, name);
    if (!f) f = d->next.GetDeviceProcAddr(d->device, (std::string(name) + "KHR").c_str());
    return f;
  };
#define MESHVK_LOOKUP(name) t.name = reinterpret_cast<PFN_vk##name>(lookup("vk" #name));
  MESHVK_GRAPHICS_NEXT(MESHVK_LOOKUP)
#undef MESHVK_LOOKUP
  return t;
}

template <typename F>
void forEachDevice(EmulatedCommandBuffer* cb, F&& f) {
  for (uint32_t d = 0; d < cb->device->deviceCount; ++d)
    if (cb->deviceMask & (1u << d)) f(d, cb->real[d]);
}

const GraphicsDispatch& graphics(EmulatedCommandBuffer* cb) { return graphics(cb->device); }

// ---- image memory ---------------------------------------------------------------

// The one real allocation an image binds to: its memory's only instance.
VkDeviceMemory imageMemory(VkDeviceMemory handle, const char* fn) {
  EmulatedMemory* mem = emulatedMemory(handle, fn);
  if (__builtin_popcount(mem->instanceMask) != 1)
    fatal(fn,
          "binds an image to memory with several instances; images are not emulated per device "
          "(allocate image memory with a VkMemoryAllocateFlagsInfo device mask of one device)");
  return mem->real[__builtin_ctz(mem->instanceMask)];
}

VKAPI_ATTR VkResult VKAPI_CALL BindImageMemory(VkDevice device, VkImage image, VkDeviceMemory memory,
                                               VkDeviceSize offset) {
  DeviceData* d = deviceFromHandle(device);
  return graphics(d).BindImageMemory(device, image, imageMemory(memory, "vkBindImageMemory"), offset);
}
MESHVK_INTERCEPT(kDevice, BindImageMemory)

VKAPI_ATTR VkResult VKAPI_CALL BindImageMemory2(VkDevice device, uint32_t count, const VkBindImageMemoryInfo* infos) {
  const char* fn = "vkBindImageMemory2";
  DeviceData* d = deviceFromHandle(device);
  std::vector<VkBindImageMemoryInfo> real(infos, infos + count);
  for (VkBindImageMemoryInfo& info : real) {
    if (findInChain<VkBindImageMemoryDeviceGroupInfo>(info.pNext,
                                                      VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_DEVICE_GROUP_INFO))
      fatal(fn, "peer bindings of images (VkBindImageMemoryDeviceGroupInfo) are not emulated");
    info.memory = imageMemory(info.memory, fn);
  }
  return graphics(d).BindImageMemory2(device, count, real.data());
}
MESHVK_INTERCEPT(kDevice, BindImageMemory2)
MESHVK_INTERCEPT_ALIAS(kDevice, BindImageMemory2, BindImageMemory2KHR)

// ---- render passes and dynamic rendering ------------------------------------------

VKAPI_ATTR void VKAPI_CALL CmdBeginRenderPass(VkCommandBuffer handle, const VkRenderPassBeginInfo* info,
                                              VkSubpassContents contents) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdBeginRenderPass");
  // Per-device render areas name emulated devices: the real device is a group of one.
  ChainUnlink unlink(info, VK_STRUCTURE_TYPE_DEVICE_GROUP_RENDER_PASS_BEGIN_INFO);
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) { graphics(cb).CmdBeginRenderPass(r, info, contents); });
}
MESHVK_INTERCEPT(kDevice, CmdBeginRenderPass)

VKAPI_ATTR void VKAPI_CALL CmdNextSubpass(VkCommandBuffer handle, VkSubpassContents contents) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdNextSubpass");
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) { graphics(cb).CmdNextSubpass(r, contents); });
}
MESHVK_INTERCEPT(kDevice, CmdNextSubpass)

VKAPI_ATTR void VKAPI_CALL CmdEndRenderPass(VkCommandBuffer handle) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdEndRenderPass");
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) { graphics(cb).CmdEndRenderPass(r); });
}
MESHVK_INTERCEPT(kDevice, CmdEndRenderPass)

VKAPI_ATTR void VKAPI_CALL CmdBeginRenderPass2(VkCommandBuffer handle, const VkRenderPassBeginInfo* info,
                                               const VkSubpassBeginInfo* subpass) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdBeginRenderPass2");
  ChainUnlink unlink(info, VK_STRUCTURE_TYPE_DEVICE_GROUP_RENDER_PASS_BEGIN_INFO);
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) { graphics(cb).CmdBeginRenderPass2(r, info, subpass); });
}
MESHVK_INTERCEPT(kDevice, CmdBeginRenderPass2)
MESHVK_INTERCEPT_ALIAS(kDevice, CmdBeginRenderPass2, CmdBeginRenderPass2KHR)

VKAPI_ATTR void VKAPI_CALL CmdNextSubpass2(VkCommandBuffer handle, const VkSubpassBeginInfo* begin,
                                           const VkSubpassEndInfo* end) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdNextSubpass2");
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) { graphics(cb).CmdNextSubpass2(r, begin, end); });
}
MESHVK_INTERCEPT(kDevice, CmdNextSubpass2)
MESHVK_INTERCEPT_ALIAS(kDevice, CmdNextSubpass2, CmdNextSubpass2KHR)

VKAPI_ATTR void VKAPI_CALL CmdEndRenderPass2(VkCommandBuffer handle, const VkSubpassEndInfo* end) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdEndRenderPass2");
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) { graphics(cb).CmdEndRenderPass2(r, end); });
}
MESHVK_INTERCEPT(kDevice, CmdEndRenderPass2)
MESHVK_INTERCEPT_ALIAS(kDevice, CmdEndRenderPass2, CmdEndRenderPass2KHR)

VKAPI_ATTR void VKAPI_CALL CmdBeginRendering(VkCommandBuffer handle, const VkRenderingInfo* info) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdBeginRendering");
  ChainUnlink unlink(info, VK_STRUCTURE_TYPE_DEVICE_GROUP_RENDER_PASS_BEGIN_INFO);
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) { graphics(cb).CmdBeginRendering(r, info); });
}
MESHVK_INTERCEPT(kDevice, CmdBeginRendering)
MESHVK_INTERCEPT_ALIAS(kDevice, CmdBeginRendering, CmdBeginRenderingKHR)

VKAPI_ATTR void VKAPI_CALL CmdEndRendering(VkCommandBuffer handle) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdEndRendering");
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) { graphics(cb).CmdEndRendering(r); });
}
MESHVK_INTERCEPT(kDevice, CmdEndRendering)
MESHVK_INTERCEPT_ALIAS(kDevice, CmdEndRendering, CmdEndRenderingKHR)

// ---- state and draws --------------------------------------------------------------

VKAPI_ATTR void VKAPI_CALL CmdSetViewport(VkCommandBuffer handle, uint32_t first, uint32_t count,
                                          const VkViewport* viewports) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdSetViewport");
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) { graphics(cb).CmdSetViewport(r, first, count, viewports); });
}
MESHVK_INTERCEPT(kDevice, CmdSetViewport)

VKAPI_ATTR void VKAPI_CALL CmdSetScissor(VkCommandBuffer handle, uint32_t first, uint32_t count,
                                         const VkRect2D* scissors) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdSetScissor");
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) { graphics(cb).CmdSetScissor(r, first, count, scissors); });
}
MESHVK_INTERCEPT(kDevice, CmdSetScissor)

VKAPI_ATTR void VKAPI_CALL CmdDraw(VkCommandBuffer handle, uint32_t vertices, uint32_t instances, uint32_t firstVertex,
                                   uint32_t firstInstance) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdDraw");
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) {
    graphics(cb).CmdDraw(r, vertices, instances, firstVertex, firstInstance);
  });
}
MESHVK_INTERCEPT(kDevice, CmdDraw)

VKAPI_ATTR void VKAPI_CALL CmdDrawIndexed(VkCommandBuffer handle, uint32_t indices, uint32_t instances,
                                          uint32_t firstIndex, int32_t vertexOffset, uint32_t firstInstance) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdDrawIndexed");
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) {
    graphics(cb).CmdDrawIndexed(r, indices, instances, firstIndex, vertexOffset, firstInstance);
  });
}
MESHVK_INTERCEPT(kDevice, CmdDrawIndexed)

VKAPI_ATTR void VKAPI_CALL CmdDrawIndirect(VkCommandBuffer handle, VkBuffer buffer, VkDeviceSize offset, uint32_t count,
                                           uint32_t stride) {
  const char* fn = "vkCmdDrawIndirect";
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, fn);
  EmulatedBuffer* b = emulatedBuffer(buffer, fn);
  forEachDevice(
      cb, [&](uint32_t d, VkCommandBuffer r) { graphics(cb).CmdDrawIndirect(r, b->real[d], offset, count, stride); });
}
MESHVK_INTERCEPT(kDevice, CmdDrawIndirect)

VKAPI_ATTR void VKAPI_CALL CmdDrawIndexedIndirect(VkCommandBuffer handle, VkBuffer buffer, VkDeviceSize offset,
                                                  uint32_t count, uint32_t stride) {
  const char* fn = "vkCmdDrawIndexedIndirect";
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, fn);
  EmulatedBuffer* b = emulatedBuffer(buffer, fn);
  forEachDevice(cb, [&](uint32_t d, VkCommandBuffer r) {
    graphics(cb).CmdDrawIndexedIndirect(r, b->real[d], offset, count, stride);
  });
}
MESHVK_INTERCEPT(kDevice, CmdDrawIndexedIndirect)

VKAPI_ATTR void VKAPI_CALL CmdBindVertexBuffers(VkCommandBuffer handle, uint32_t first, uint32_t count,
                                                const VkBuffer* buffers, const VkDeviceSize* offsets) {
  const char* fn = "vkCmdBindVertexBuffers";
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, fn);
  forEachDevice(cb, [&](uint32_t d, VkCommandBuffer r) {
    std::vector<VkBuffer> real(count);
    for (uint32_t i = 0; i < count; ++i) real[i] = buffers[i] ? emulatedBuffer(buffers[i], fn)->real[d] : nullptr;
    graphics(cb).CmdBindVertexBuffers(r, first, count, real.data(), offsets);
  });
}
MESHVK_INTERCEPT(kDevice, CmdBindVertexBuffers)

VKAPI_ATTR void VKAPI_CALL CmdBindIndexBuffer(VkCommandBuffer handle, VkBuffer buffer, VkDeviceSize offset,
                                              VkIndexType type) {
  const char* fn = "vkCmdBindIndexBuffer";
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, fn);
  EmulatedBuffer* b = emulatedBuffer(buffer, fn);
  forEachDevice(cb,
                [&](uint32_t d, VkCommandBuffer r) { graphics(cb).CmdBindIndexBuffer(r, b->real[d], offset, type); });
}
MESHVK_INTERCEPT(kDevice, CmdBindIndexBuffer)

VKAPI_ATTR void VKAPI_CALL CmdClearAttachments(VkCommandBuffer handle, uint32_t count,
                                               const VkClearAttachment* attachments, uint32_t rects,
                                               const VkClearRect* rect) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdClearAttachments");
  forEachDevice(
      cb, [&](uint32_t, VkCommandBuffer r) { graphics(cb).CmdClearAttachments(r, count, attachments, rects, rect); });
}
MESHVK_INTERCEPT(kDevice, CmdClearAttachments)

// ---- image transfers ----------------------------------------------------------------

VKAPI_ATTR void VKAPI_CALL CmdCopyImageToBuffer(VkCommandBuffer handle, VkImage image, VkImageLayout layout,
                                                VkBuffer buffer, uint32_t count, const VkBufferImageCopy* regions) {
  const char* fn = "vkCmdCopyImageToBuffer";
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, fn);
  EmulatedBuffer* b = emulatedBuffer(buffer, fn);
  forEachDevice(cb, [&](uint32_t d, VkCommandBuffer r) {
    graphics(cb).CmdCopyImageToBuffer(r, image, layout, b->real[d], count, regions);
  });
}
MESHVK_INTERCEPT(kDevice, CmdCopyImageToBuffer)

VKAPI_ATTR void VKAPI_CALL CmdCopyBufferToImage(VkCommandBuffer handle, VkBuffer buffer, VkImage image,
                                                VkImageLayout layout, uint32_t count,
                                                const VkBufferImageCopy* regions) {
  const char* fn = "vkCmdCopyBufferToImage";
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, fn);
  EmulatedBuffer* b = emulatedBuffer(buffer, fn);
  forEachDevice(cb, [&](uint32_t d, VkCommandBuffer r) {
    graphics(cb).CmdCopyBufferToImage(r, b->real[d], image, layout, count, regions);
  });
}
MESHVK_INTERCEPT(kDevice, CmdCopyBufferToImage)

VKAPI_ATTR void VKAPI_CALL CmdCopyImage(VkCommandBuffer handle, VkImage src, VkImageLayout srcLayout, VkImage dst,
                                        VkImageLayout dstLayout, uint32_t count, const VkImageCopy* regions) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdCopyImage");
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) {
    graphics(cb).CmdCopyImage(r, src, srcLayout, dst, dstLayout, count, regions);
  });
}
MESHVK_INTERCEPT(kDevice, CmdCopyImage)

VKAPI_ATTR void VKAPI_CALL CmdBlitImage(VkCommandBuffer handle, VkImage src, VkImageLayout srcLayout, VkImage dst,
                                        VkImageLayout dstLayout, uint32_t count, const VkImageBlit* regions,
                                        VkFilter filter) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdBlitImage");
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) {
    graphics(cb).CmdBlitImage(r, src, srcLayout, dst, dstLayout, count, regions, filter);
  });
}
MESHVK_INTERCEPT(kDevice, CmdBlitImage)

VKAPI_ATTR void VKAPI_CALL CmdClearColorImage(VkCommandBuffer handle, VkImage image, VkImageLayout layout,
                                              const VkClearColorValue* color, uint32_t count,
                                              const VkImageSubresourceRange* ranges) {
  EmulatedCommandBuffer* cb = emulatedCommandBuffer(handle, "vkCmdClearColorImage");
  forEachDevice(cb, [&](uint32_t, VkCommandBuffer r) {
    graphics(cb).CmdClearColorImage(r, image, layout, color, count, ranges);
  });
}
MESHVK_INTERCEPT(kDevice, CmdClearColorImage)

}  // namespace
}  // namespace meshvk_layer
