// Renderer (renderer.h): created once; main.cc submits the recorded draw
// every frame.
#include "renderer.h"

#include "embed_render_shaders.h"

namespace embed_render {

void Renderer::Create(App& app, uint32_t width, uint32_t height, VkBuffer field) {
  CreateTarget(app, width, height);
  VkDescriptorSet set = CreateFieldDescriptor(app, field);
  CreatePipeline(app, width, height);
  RecordDraw(app, width, height, set);
}

void Renderer::CreateTarget(App& app, uint32_t width, uint32_t height) {
  VkDevice d = app.device;
  VkImageCreateInfo image_info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  image_info.imageType = VK_IMAGE_TYPE_2D;
  image_info.format = VK_FORMAT_R8G8B8A8_UNORM;
  image_info.extent = {width, height, 1};
  image_info.mipLevels = image_info.arrayLayers = 1;
  image_info.samples = VK_SAMPLE_COUNT_1_BIT;
  image_info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  Vk(vkCreateImage(d, &image_info, nullptr, &image), "vkCreateImage");
  VkMemoryRequirements needs;
  vkGetImageMemoryRequirements(d, image, &needs);
  image_memory = app.Allocate(needs, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  Vk(vkBindImageMemory(d, image, image_memory, 0), "vkBindImageMemory");
  VkImageViewCreateInfo view_info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view_info.image = image;
  view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view_info.format = image_info.format;
  view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  Vk(vkCreateImageView(d, &view_info, nullptr, &view), "vkCreateImageView");

  VkAttachmentDescription color{};
  color.format = image_info.format;
  color.samples = VK_SAMPLE_COUNT_1_BIT;
  color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  color.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  color.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  color.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  color.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &ref;
  // The previous frame's copy reads the image before this frame clears it;
  // this frame's copy reads it after the pass.
  VkSubpassDependency deps[2] = {};
  deps[0].srcSubpass = VK_SUBPASS_EXTERNAL;
  deps[0].dstSubpass = 0;
  deps[0].srcStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
  deps[0].srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  deps[0].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  deps[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  deps[1].srcSubpass = 0;
  deps[1].dstSubpass = VK_SUBPASS_EXTERNAL;
  deps[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  deps[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  deps[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
  deps[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  VkRenderPassCreateInfo pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  pass_info.attachmentCount = 1;
  pass_info.pAttachments = &color;
  pass_info.subpassCount = 1;
  pass_info.pSubpasses = &subpass;
  pass_info.dependencyCount = 2;
  pass_info.pDependencies = deps;
  Vk(vkCreateRenderPass(d, &pass_info, nullptr, &pass), "vkCreateRenderPass");
  VkFramebufferCreateInfo fb{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  fb.renderPass = pass;
  fb.attachmentCount = 1;
  fb.pAttachments = &view;
  fb.width = width;
  fb.height = height;
  fb.layers = 1;
  Vk(vkCreateFramebuffer(d, &fb, nullptr, &framebuffer), "vkCreateFramebuffer");
}

VkDescriptorSet Renderer::CreateFieldDescriptor(App& app, VkBuffer field) {
  VkDevice d = app.device;
  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.bindingCount = 1;
  set_info.pBindings = &binding;
  Vk(vkCreateDescriptorSetLayout(d, &set_info, nullptr, &set_layout), "vkCreateDescriptorSetLayout");
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &size;
  Vk(vkCreateDescriptorPool(d, &pool_info, nullptr, &pool), "vkCreateDescriptorPool");
  VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  allocate.descriptorPool = pool;
  allocate.descriptorSetCount = 1;
  allocate.pSetLayouts = &set_layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  Vk(vkAllocateDescriptorSets(d, &allocate, &set), "vkAllocateDescriptorSets");
  VkDescriptorBufferInfo buffer_info{field, 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = &buffer_info;
  vkUpdateDescriptorSets(d, 1, &write, 0, nullptr);

  VkPushConstantRange push{VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &set_layout;
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &push;
  Vk(vkCreatePipelineLayout(d, &layout_info, nullptr, &layout), "vkCreatePipelineLayout");
  return set;
}

void Renderer::RecordDraw(App& app, uint32_t width, uint32_t height, VkDescriptorSet set) {
  VkDevice d = app.device;
  VkCommandPoolCreateInfo command_pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  command_pool_info.queueFamilyIndex = app.family;
  Vk(vkCreateCommandPool(d, &command_pool_info, nullptr, &command_pool), "vkCreateCommandPool");
  VkCommandBufferAllocateInfo cb_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  cb_info.commandPool = command_pool;
  cb_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cb_info.commandBufferCount = 1;
  Vk(vkAllocateCommandBuffers(d, &cb_info, &commands), "vkAllocateCommandBuffers");
  readback = app.NewBuffer(uint64_t{width} * height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);

  // Recorded once: draw, then copy the image into the readback buffer. The
  // next frame is submitted while this one may still be pending.
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT;
  VkDeviceGroupCommandBufferBeginInfo on_device0{VK_STRUCTURE_TYPE_DEVICE_GROUP_COMMAND_BUFFER_BEGIN_INFO};
  on_device0.deviceMask = 1;  // a device group: the draw runs on device 0, where the memory is
  if (!app.group.empty()) begin.pNext = &on_device0;
  Vk(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer");
  VkClearValue clear{};
  VkRenderPassBeginInfo pass_begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  pass_begin.renderPass = pass;
  pass_begin.framebuffer = framebuffer;
  pass_begin.renderArea = {{0, 0}, {width, height}};
  pass_begin.clearValueCount = 1;
  pass_begin.pClearValues = &clear;
  vkCmdBeginRenderPass(commands, &pass_begin, VK_SUBPASS_CONTENTS_INLINE);
  vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, nullptr);
  vkCmdPushConstants(commands, layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4, &width);
  vkCmdDraw(commands, 3, 1, 0, 0);
  vkCmdEndRenderPass(commands);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {width, height, 1};
  vkCmdCopyImageToBuffer(commands, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1, &region);
  VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, nullptr,
                       0, nullptr);
  Vk(vkEndCommandBuffer(commands), "vkEndCommandBuffer");
}

void Renderer::CreatePipeline(App& app, uint32_t width, uint32_t height) {
  namespace shaders = embed_render::shaders;
  VkShaderModule vert = app.Shader(shaders::draw_vert, shaders::draw_vert_word_count);
  VkShaderModule frag = app.Shader(shaders::draw_frag, shaders::draw_frag_word_count);
  VkPipelineShaderStageCreateInfo stages[2] = {{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
                                               {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = vert;
  stages[0].pName = "main";
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = frag;
  stages[1].pName = "main";
  VkPipelineVertexInputStateCreateInfo vertex{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkViewport viewport{0, 0, float(width), float(height), 0, 1};
  VkRect2D scissor{{0, 0}, {width, height}};
  VkPipelineViewportStateCreateInfo viewports{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewports.viewportCount = viewports.scissorCount = 1;
  viewports.pViewports = &viewport;
  viewports.pScissors = &scissor;
  VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask =
      VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  VkPipelineColorBlendStateCreateInfo blending{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blending.attachmentCount = 1;
  blending.pAttachments = &blend;
  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.stageCount = 2;
  info.pStages = stages;
  info.pVertexInputState = &vertex;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewports;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pColorBlendState = &blending;
  info.layout = layout;
  info.renderPass = pass;
  Vk(vkCreateGraphicsPipelines(app.device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline), "vkCreateGraphicsPipelines");
  vkDestroyShaderModule(app.device, vert, nullptr);
  vkDestroyShaderModule(app.device, frag, nullptr);
}

void Renderer::Destroy(App& app) {
  VkDevice d = app.device;
  app.Free(readback);
  vkDestroyCommandPool(d, command_pool, nullptr);
  vkDestroyPipeline(d, pipeline, nullptr);
  vkDestroyPipelineLayout(d, layout, nullptr);
  vkDestroyDescriptorPool(d, pool, nullptr);
  vkDestroyDescriptorSetLayout(d, set_layout, nullptr);
  vkDestroyFramebuffer(d, framebuffer, nullptr);
  vkDestroyRenderPass(d, pass, nullptr);
  vkDestroyImageView(d, view, nullptr);
  vkDestroyImage(d, image, nullptr);
  vkFreeMemory(d, image_memory, nullptr);
}

}  // namespace embed_render
