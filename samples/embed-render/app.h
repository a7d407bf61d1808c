// embed-render's application objects: its Vulkan instance, device, memory
// and buffers (the part of the application that knows nothing of meshvk but
// the requirements it was asked to meet).
#ifndef MESHVK_SAMPLES_EMBED_RENDER_APP_H_
#define MESHVK_SAMPLES_EMBED_RENDER_APP_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

namespace embed_render {

inline constexpr uint64_t kSecond = 1000ull * 1000 * 1000;

// Prints "embed-render: <message>" and exits with `code` (main.cc).
[[noreturn]] void Fail(int code, const std::string& message);
// Fails with exit 3 unless `result` is VK_SUCCESS.
void Vk(VkResult result, const char* what);

// The application's Vulkan objects.
struct App {
  VkInstance instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;  // device 0 of the group with --device-group
  std::vector<VkPhysicalDevice> group;         // --device-group: the group's members, else empty
  VkPhysicalDeviceMemoryProperties memory{};
  uint32_t family = 0;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;

  struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* mapped = nullptr;
  };
  Buffer NewBuffer(uint64_t bytes, VkBufferUsageFlags usage, bool map) {
    Buffer b;
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = bytes;
    info.usage = usage;
    Vk(vkCreateBuffer(device, &info, nullptr, &b.buffer), "vkCreateBuffer");
    VkMemoryRequirements needs;
    vkGetBufferMemoryRequirements(device, b.buffer, &needs);
    b.memory = Allocate(needs, map ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                                   : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    BindOnDevice0(b.buffer, b.memory);
    if (map) Vk(vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
    return b;
  }
  // In a device group, each device's view of a buffer reads and writes device
  // 0's memory instance (the only one: see Allocate).
  void BindOnDevice0(VkBuffer buffer, VkDeviceMemory bound) {
    std::vector<uint32_t> indices(group.size(), 0);
    VkBindBufferMemoryDeviceGroupInfo peers{VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_DEVICE_GROUP_INFO};
    peers.deviceIndexCount = static_cast<uint32_t>(indices.size());
    peers.pDeviceIndices = indices.data();
    VkBindBufferMemoryInfo bind{VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO};
    bind.pNext = group.empty() ? nullptr : &peers;
    bind.buffer = buffer;
    bind.memory = bound;
    Vk(vkBindBufferMemory2(device, 1, &bind), "vkBindBufferMemory2");
  }
  VkDeviceMemory Allocate(const VkMemoryRequirements& needs, VkMemoryPropertyFlags want) {
    for (uint32_t t = 0; t < memory.memoryTypeCount; ++t) {
      if ((needs.memoryTypeBits & (1u << t)) && (memory.memoryTypes[t].propertyFlags & want) == want) {
        // A device group: one instance, on device 0 (the others reach it as peers).
        VkMemoryAllocateFlagsInfo on_device0{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
        on_device0.flags = VK_MEMORY_ALLOCATE_DEVICE_MASK_BIT;
        on_device0.deviceMask = 1;
        VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        allocate.pNext = group.empty() ? nullptr : &on_device0;
        allocate.allocationSize = needs.size;
        allocate.memoryTypeIndex = t;
        VkDeviceMemory out = VK_NULL_HANDLE;
        Vk(vkAllocateMemory(device, &allocate, nullptr, &out), "vkAllocateMemory");
        return out;
      }
    }
    Fail(3, "no memory type with the properties needed");
  }
  void Free(Buffer& b) {
    vkDestroyBuffer(device, b.buffer, nullptr);
    vkFreeMemory(device, b.memory, nullptr);
  }
  VkSemaphore Timeline() {
    VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    info.pNext = &type;
    VkSemaphore s = VK_NULL_HANDLE;
    Vk(vkCreateSemaphore(device, &info, nullptr, &s), "vkCreateSemaphore");
    return s;
  }
  void Wait(VkSemaphore s, uint64_t value) {
    VkSemaphoreWaitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wait.semaphoreCount = 1;
    wait.pSemaphores = &s;
    wait.pValues = &value;
    Vk(vkWaitSemaphores(device, &wait, 60 * kSecond), "vkWaitSemaphores");
  }
  VkShaderModule Shader(const uint32_t* words, size_t count) {
    VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = count * 4;
    info.pCode = words;
    VkShaderModule m = VK_NULL_HANDLE;
    Vk(vkCreateShaderModule(device, &info, nullptr, &m), "vkCreateShaderModule");
    return m;
  }
};

}  // namespace embed_render

#endif  // MESHVK_SAMPLES_EMBED_RENDER_APP_H_
