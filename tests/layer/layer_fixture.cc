#include "layer_fixture.h"

#include <cstdlib>
#include <cstring>

namespace meshvk_layer_test {

uint32_t expectedDeviceCount() {
  const char* v = std::getenv("MESHVK_EMULATED_DEVICE_COUNT");
  return v && *v ? static_cast<uint32_t>(std::atoi(v)) : 2u;
}

bool separateTopology() {
  const char* v = std::getenv("MESHVK_EMULATED_TOPOLOGY");
  return v && !std::strcmp(v, "separate");
}

std::string executionOrder() {
  const char* v = std::getenv("MESHVK_EMULATED_EXECUTION_ORDER");
  return v && *v ? v : "in-order";
}

VKAPI_ATTR VkBool32 VKAPI_CALL LayerTest::onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                    VkDebugUtilsMessageTypeFlagsEXT,
                                                    const VkDebugUtilsMessengerCallbackDataEXT* data, void* self) {
  auto* t = static_cast<LayerTest*>(self);
  std::lock_guard<std::mutex> lock(t->mutex_);
  std::string id = data->pMessageIdName ? data->pMessageIdName : "";
  std::string msg = data->pMessage ? data->pMessage : "";
  if (id.rfind("MESHVK-", 0) == 0)
    t->layer_.emplace_back(id, msg);
  else
    t->validation_.push_back(id + ": " + msg);
  return VK_FALSE;
}

void LayerTest::SetUp() {
  static const VkResult volk = volkInitialize();
  ASSERT_EQ(volk, VK_SUCCESS) << "no Vulkan loader";
  const char* layers = std::getenv("VK_INSTANCE_LAYERS");
  ASSERT_TRUE(layers && std::strstr(layers, "VK_LAYER_KHRONOS_validation") &&
              std::strstr(layers, "VK_LAYER_MESHVK_emulated_device_group"))
      << "run through ctest: VK_INSTANCE_LAYERS must enable the validation and emulation layers";
  n_ = expectedDeviceCount();

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "meshvk_layer_tests";
  app.apiVersion = VK_API_VERSION_1_3;
  // The KHR instance extension exposes the *2KHR query names other layers use.
  const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME,
                              VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME};
  VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = enables;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pNext = &features;
  ici.pApplicationInfo = &app;
  ici.enabledExtensionCount = 2;
  ici.ppEnabledExtensionNames = extensions;
  VK_CHECK(vkCreateInstance(&ici, nullptr, &instance_));
  volkLoadInstance(instance_);

  VkDebugUtilsMessengerCreateInfoEXT mci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                    VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  mci.pfnUserCallback = &LayerTest::onMessage;
  mci.pUserData = this;
  VK_CHECK(vkCreateDebugUtilsMessengerEXT(instance_, &mci, nullptr, &messenger_));

  uint32_t groupCount = 0;
  VK_CHECK(vkEnumeratePhysicalDeviceGroups(instance_, &groupCount, nullptr));
  std::vector<VkPhysicalDeviceGroupProperties> groups(groupCount, {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GROUP_PROPERTIES});
  VK_CHECK(vkEnumeratePhysicalDeviceGroups(instance_, &groupCount, groups.data()));
  for (auto& g : groups)
    if (g.physicalDeviceCount == n_) {
      members_.assign(g.physicalDevices, g.physicalDevices + g.physicalDeviceCount);
      break;
    }
  // MESHVK_EMULATED_TOPOLOGY=separate: the N emulated devices are N groups of
  // one; members_ lists them and device_ is a VkDevice on the first alone.
  const bool separate = separateTopology();
  if (separate) {
    members_.clear();
    for (auto& g : groups)
      if (members_.size() < n_ && g.physicalDeviceCount == 1) members_.push_back(g.physicalDevices[0]);
  }
  ASSERT_EQ(members_.size(), n_) << "no device group of " << n_ << " devices: is the emulation layer active?";

  uint32_t familyCount = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(members_[0], &familyCount, nullptr);
  std::vector<VkQueueFamilyProperties> families(familyCount);
  vkGetPhysicalDeviceQueueFamilyProperties(members_[0], &familyCount, families.data());
  family_ = UINT32_MAX;
  for (uint32_t i = 0; i < familyCount && family_ == UINT32_MAX; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) family_ = i;
  ASSERT_NE(family_, UINT32_MAX);
  // MESHVK_EMULATED_TRANSFER_FAMILY=1: a transfer-only family, with a queue of its own.
  for (uint32_t i = 0; i < familyCount && transferFamily_ == UINT32_MAX; ++i)
    if (families[i].queueFlags == VK_QUEUE_TRANSFER_BIT) transferFamily_ = i;

  float priority = 1.0f;
  VkDeviceQueueCreateInfo qcis[2] = {{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO},
                                     {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO}};
  VkDeviceQueueCreateInfo& qci = qcis[0];
  qci.queueFamilyIndex = family_;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  qcis[1] = qci;
  qcis[1].queueFamilyIndex = transferFamily_;
  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  f13.synchronization2 = VK_TRUE;
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  f12.pNext = &f13;
  f12.timelineSemaphore = VK_TRUE;
  VkDeviceGroupDeviceCreateInfo group{VK_STRUCTURE_TYPE_DEVICE_GROUP_DEVICE_CREATE_INFO};
  group.pNext = &f12;
  group.physicalDeviceCount = separate ? 1 : n_;
  group.pPhysicalDevices = members_.data();
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.pNext = &group;
  dci.queueCreateInfoCount = transferFamily_ == UINT32_MAX ? 1 : 2;
  dci.pQueueCreateInfos = qcis;
  VK_CHECK(vkCreateDevice(members_[0], &dci, nullptr, &device_));
  volkLoadDevice(device_);
  vkGetDeviceQueue(device_, family_, 0, &queue_);
  vkGetPhysicalDeviceMemoryProperties(members_[0], &memory_);

  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pci.queueFamilyIndex = family_;
  VK_CHECK(vkCreateCommandPool(device_, &pci, nullptr, &pool_));
  if (transferFamily_ != UINT32_MAX) {
    vkGetDeviceQueue(device_, transferFamily_, 0, &transferQueue_);
    pci.queueFamilyIndex = transferFamily_;
    VK_CHECK(vkCreateCommandPool(device_, &pci, nullptr, &transferPool_));
  }
}

void LayerTest::TearDown() {
  if (device_) {
    vkDeviceWaitIdle(device_);
    if (pool_) vkDestroyCommandPool(device_, pool_, nullptr);
    if (transferPool_) vkDestroyCommandPool(device_, transferPool_, nullptr);
    vkDestroyDevice(device_, nullptr);
  }
  if (messenger_) vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
  if (instance_) vkDestroyInstance(instance_, nullptr);
  for (auto& m : validation_) ADD_FAILURE() << "validation message: " << m;
  for (auto& [id, m] : layer_) ADD_FAILURE() << "unexpected emulation layer report " << id << ": " << m;
}

std::vector<std::string> LayerTest::takeValidationMessages() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::move(validation_);
}

std::vector<std::string> LayerTest::takeLayerMessages(const std::string& id) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> out;
  for (size_t i = 0; i < layer_.size();) {
    if (layer_[i].first == id) {
      out.push_back(layer_[i].second);
      layer_.erase(layer_.begin() + static_cast<long>(i));
    } else {
      ++i;
    }
  }
  return out;
}

uint32_t LayerTest::memoryType(VkMemoryPropertyFlags required, VkMemoryPropertyFlags forbidden, uint32_t bits) {
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
    VkMemoryPropertyFlags f = memory_.memoryTypes[i].propertyFlags;
    if ((bits & (1u << i)) && (f & required) == required && !(f & forbidden)) return i;
  }
  return UINT32_MAX;
}

static VkBuffer makeBuffer(VkDevice device, VkDeviceSize size, VkBufferUsageFlags extra = 0) {
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = size;
  bci.usage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | extra;
  VkBuffer b = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateBuffer(device, &bci, nullptr, &b), VK_SUCCESS);
  return b;
}

Buffer LayerTest::deviceBuffer(VkDeviceSize size, uint32_t deviceMask) {
  Buffer b;
  b.size = size;
  b.buffer = makeBuffer(device_, size);
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device_, b.buffer, &req);
  uint32_t type =
      memoryType(VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, req.memoryTypeBits);
  EXPECT_NE(type, UINT32_MAX) << "no device-local, not host-visible memory type";
  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_MASK_BIT;
  flags.deviceMask = deviceMask ? deviceMask : (1u << n_) - 1u;
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mai.pNext = &flags;
  mai.allocationSize = req.size;
  mai.memoryTypeIndex = type;
  EXPECT_EQ(vkAllocateMemory(device_, &mai, nullptr, &b.memory), VK_SUCCESS);
  EXPECT_EQ(vkBindBufferMemory(device_, b.buffer, b.memory, 0), VK_SUCCESS);
  return b;
}

Buffer LayerTest::peerView(const Buffer& owner, const std::vector<uint32_t>& instanceOf) {
  Buffer b;
  b.size = owner.size;
  b.buffer = makeBuffer(device_, owner.size);
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device_, b.buffer, &req);  // required before binding
  VkBindBufferMemoryDeviceGroupInfo group{VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_DEVICE_GROUP_INFO};
  group.deviceIndexCount = static_cast<uint32_t>(instanceOf.size());
  group.pDeviceIndices = instanceOf.data();
  VkBindBufferMemoryInfo bind{VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO};
  bind.pNext = &group;
  bind.buffer = b.buffer;
  bind.memory = owner.memory;
  EXPECT_EQ(vkBindBufferMemory2(device_, 1, &bind), VK_SUCCESS);
  return b;  // b.memory stays null: the owner frees it
}

Buffer LayerTest::hostBuffer(VkDeviceSize size) {
  Buffer b;
  b.size = size;
  b.buffer = makeBuffer(device_, size);
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device_, b.buffer, &req);
  uint32_t type = memoryType(VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                             n_ > 1 ? VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT : 0, req.memoryTypeBits);
  EXPECT_NE(type, UINT32_MAX) << "no host memory type";
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mai.allocationSize = req.size;
  mai.memoryTypeIndex = type;
  EXPECT_EQ(vkAllocateMemory(device_, &mai, nullptr, &b.memory), VK_SUCCESS);
  EXPECT_EQ(vkBindBufferMemory(device_, b.buffer, b.memory, 0), VK_SUCCESS);
  EXPECT_EQ(vkMapMemory(device_, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), VK_SUCCESS);
  std::memset(b.mapped, 0, size);
  return b;
}

void LayerTest::destroy(Buffer& b) {
  if (b.buffer) vkDestroyBuffer(device_, b.buffer, nullptr);
  if (b.memory) vkFreeMemory(device_, b.memory, nullptr);
  b = Buffer{};
}

VkCommandBuffer LayerTest::beginCommands(VkCommandPool pool) {
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = pool ? pool : pool_;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  EXPECT_EQ(vkAllocateCommandBuffers(device_, &ai, &cb), VK_SUCCESS);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  EXPECT_EQ(vkBeginCommandBuffer(cb, &bi), VK_SUCCESS);
  return cb;
}

void LayerTest::submitAndWait(const std::vector<VkSubmitInfo>& submits) {
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  VK_CHECK(vkCreateFence(device_, &fci, nullptr, &fence));
  VK_CHECK(vkQueueSubmit(queue_, static_cast<uint32_t>(submits.size()), submits.data(), fence));
  VK_CHECK(vkWaitForFences(device_, 1, &fence, VK_TRUE, UINT64_MAX));
  vkDestroyFence(device_, fence, nullptr);
}

void LayerTest::submitAndWait(VkCommandBuffer cb, uint32_t deviceMask) {
  if (deviceMask == 0) deviceMask = (1u << n_) - 1u;
  VkDeviceGroupSubmitInfo group{VK_STRUCTURE_TYPE_DEVICE_GROUP_SUBMIT_INFO};
  group.commandBufferCount = 1;
  group.pCommandBufferDeviceMasks = &deviceMask;
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.pNext = &group;
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cb;
  submitAndWait(std::vector<VkSubmitInfo>{si});
}

void LayerTest::barrier(VkCommandBuffer cb) {
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  mb.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT |
                     VK_ACCESS_SHADER_WRITE_BIT;
  const VkPipelineStageFlags stages = VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
  vkCmdPipelineBarrier(cb, stages, stages, 0, 1, &mb, 0, nullptr, 0, nullptr);
}

void LayerTest::copyEachDeviceView(VkCommandBuffer cb, const Buffer& src, const Buffer& host, VkDeviceSize bytes) {
  for (uint32_t d = 0; d < n_; ++d) {
    vkCmdSetDeviceMask(cb, 1u << d);
    VkBufferCopy region{0, d * bytes, bytes};
    vkCmdCopyBuffer(cb, src.buffer, host.buffer, 1, &region);
  }
}

LayerTest::Pipeline LayerTest::computePipeline(const uint32_t* words, size_t wordCount, uint32_t bindings,
                                               uint32_t pushBytes, VkPipelineCreateFlags flags) {
  Pipeline p;
  VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  smci.codeSize = wordCount * 4;
  smci.pCode = words;
  EXPECT_EQ(vkCreateShaderModule(device_, &smci, nullptr, &p.module), VK_SUCCESS);
  std::vector<VkDescriptorSetLayoutBinding> b(bindings);
  for (uint32_t i = 0; i < bindings; ++i)
    b[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  dslci.bindingCount = bindings;
  dslci.pBindings = b.data();
  EXPECT_EQ(vkCreateDescriptorSetLayout(device_, &dslci, nullptr, &p.setLayout), VK_SUCCESS);
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes};
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  plci.setLayoutCount = 1;
  plci.pSetLayouts = &p.setLayout;
  plci.pushConstantRangeCount = pushBytes ? 1 : 0;
  plci.pPushConstantRanges = &range;
  EXPECT_EQ(vkCreatePipelineLayout(device_, &plci, nullptr, &p.layout), VK_SUCCESS);
  VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cpci.flags = flags;
  cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                nullptr,
                0,
                VK_SHADER_STAGE_COMPUTE_BIT,
                p.module,
                "main",
                nullptr};
  cpci.layout = p.layout;
  EXPECT_EQ(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &cpci, nullptr, &p.pipeline), VK_SUCCESS);
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 8 * bindings};
  VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  dpci.maxSets = 8;
  dpci.poolSizeCount = 1;
  dpci.pPoolSizes = &size;
  EXPECT_EQ(vkCreateDescriptorPool(device_, &dpci, nullptr, &p.pool), VK_SUCCESS);
  return p;
}

VkDescriptorSet LayerTest::descriptorSet(const Pipeline& p, const std::vector<VkBuffer>& buffers) {
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  ai.descriptorPool = p.pool;
  ai.descriptorSetCount = 1;
  ai.pSetLayouts = &p.setLayout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  EXPECT_EQ(vkAllocateDescriptorSets(device_, &ai, &set), VK_SUCCESS);
  std::vector<VkDescriptorBufferInfo> infos(buffers.size());
  std::vector<VkWriteDescriptorSet> writes(buffers.size());
  for (uint32_t i = 0; i < buffers.size(); ++i) {
    infos[i] = {buffers[i], 0, VK_WHOLE_SIZE};
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[i].dstSet = set;
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &infos[i];
  }
  vkUpdateDescriptorSets(device_, static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
  return set;
}

void LayerTest::destroy(Pipeline& p) {
  vkDestroyDescriptorPool(device_, p.pool, nullptr);
  vkDestroyPipeline(device_, p.pipeline, nullptr);
  vkDestroyPipelineLayout(device_, p.layout, nullptr);
  vkDestroyDescriptorSetLayout(device_, p.setLayout, nullptr);
  vkDestroyShaderModule(device_, p.module, nullptr);
  p = Pipeline{};
}

}  // namespace meshvk_layer_test
