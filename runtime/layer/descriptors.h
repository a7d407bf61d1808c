// Descriptor translation shared by vkUpdateDescriptorSets and vkCmdPushDescriptorSetKHR.
#pragma once

#include "layer.h"

namespace meshvk_layer {

bool isBufferDescriptor(VkDescriptorType type);

// Records which buffer each written buffer descriptor points at.
void recordBufferWrites(const DescriptorSetLayoutInfo* layout, const VkWriteDescriptorSet& write,
                        std::map<uint32_t, std::vector<BufferDescriptor>>& table, const char* function);

struct RealWrites;
// Device `device`'s copy of the writes: its real sets (unless push descriptors) and real buffers.
void translateWrites(uint32_t device, uint32_t count, const VkWriteDescriptorSet* writes, bool pushDescriptor,
                     RealWrites& out, const char* function);

// Descriptor update templates (vkUpdateDescriptorSetWithTemplate, vkCmdPushDescriptorSetWithTemplateKHR).
std::vector<VkDescriptorUpdateTemplateEntry> templateEntries(DeviceData* d, VkDescriptorUpdateTemplate t,
                                                             const char* function);
std::vector<uint8_t> translateTemplateData(uint32_t device, const std::vector<VkDescriptorUpdateTemplateEntry>& entries,
                                           const void* data, const char* function);
void recordTemplateWrites(const DescriptorSetLayoutInfo* layout,
                          const std::vector<VkDescriptorUpdateTemplateEntry>& entries, const void* data,
                          std::map<uint32_t, std::vector<BufferDescriptor>>& table, const char* function);

struct RealWrites {
  std::vector<VkWriteDescriptorSet> writes;
  std::vector<std::vector<VkDescriptorBufferInfo>> bufferInfos;
};

}  // namespace meshvk_layer
