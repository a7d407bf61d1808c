// embed-render's drawing: an offscreen RGBA8 image, a graphics pipeline whose
// fragment shader reads the field buffer, and a readback buffer for the PNG.
#ifndef MESHVK_SAMPLES_EMBED_RENDER_RENDERER_H_
#define MESHVK_SAMPLES_EMBED_RENDER_RENDERER_H_

#include <vulkan/vulkan.h>

#include <cstdint>

#include "app.h"

namespace embed_render {

struct Renderer {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory image_memory = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
  VkRenderPass pass = VK_NULL_HANDLE;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkCommandPool command_pool = VK_NULL_HANDLE;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  App::Buffer readback;

  // Everything above, and the command buffer that draws `field` (W*H RGBA
  // f32) and copies the image into `readback`, recorded once.
  void Create(App& app, uint32_t width, uint32_t height, VkBuffer field);
  // The steps of Create: the image, its render pass and framebuffer; the
  // descriptor set of `field` and the pipeline layout; the pipeline; the
  // command buffer and readback buffer.
  void CreateTarget(App& app, uint32_t width, uint32_t height);
  VkDescriptorSet CreateFieldDescriptor(App& app, VkBuffer field);
  void CreatePipeline(App& app, uint32_t width, uint32_t height);
  void RecordDraw(App& app, uint32_t width, uint32_t height, VkDescriptorSet set);
  void Destroy(App& app);
};

}  // namespace embed_render

#endif  // MESHVK_SAMPLES_EMBED_RENDER_RENDERER_H_
