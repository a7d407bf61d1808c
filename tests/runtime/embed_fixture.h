// The embedding tests' application (meshvk/vulkan.h): a fixture that owns its
// Vulkan instance (validation + synchronization validation, any message
// fails), one or two VkDevices, queues, buffers and timeline semaphores,
// created with the Vulkan loader directly, as an embedder would.
#ifndef MESHVK_TESTS_RUNTIME_EMBED_FIXTURE_H_
#define MESHVK_TESTS_RUNTIME_EMBED_FIXTURE_H_

#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstring>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "meshvk/meshvk.h"
#include "meshvk/vulkan.h"

namespace meshvk_embed {

inline constexpr uint64_t kSecond = 1000ull * 1000 * 1000;

inline std::string Text(meshvk_status_t status) {
  if (!status) return "";
  std::string text =
      std::string(meshvk_status_code_name(meshvk_status_code(status))) + ": " + meshvk_status_message(status);
  meshvk_status_free(status);
  return text;
}
#define EXPECT_MESHVK_OK(expr) EXPECT_EQ(Text(expr), "")
#define ASSERT_MESHVK_OK(expr) ASSERT_EQ(Text(expr), "")
#define ASSERT_VK_OK(expr) ASSERT_EQ((expr), VK_SUCCESS)

// meshvk_buffer_import of bytes [offset, offset + range) of the app's `buffer`.
inline meshvk_status_t ImportAppBuffer(meshvk_device_set_t* set, uint32_t process, VkBuffer buffer, VkDeviceSize offset,
                                       VkDeviceSize range, meshvk_buffer_t** out) {
  meshvk_buffer_import_info_t info = MESHVK_BUFFER_IMPORT_INFO_INIT;
  info.process = process;
  info.buffer = buffer;
  info.offset = offset;
  info.range = range;
  return meshvk_buffer_import(set, &info, out);
}

inline meshvk_status_code_t CodeOf(meshvk_status_t status) {
  meshvk_status_code_t code = meshvk_status_code(status);
  meshvk_status_free(status);
  return code;
}

// The application: its own Vulkan objects, and a mutex for the one queue it
// shares with meshvk.
class EmbedTest : public ::testing::Test {
 protected:
  static VKAPI_ATTR VkBool32 VKAPI_CALL OnMessage(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                  VkDebugUtilsMessageTypeFlagsEXT,
                                                  const VkDebugUtilsMessengerCallbackDataEXT* data, void* self) {
    auto* test = static_cast<EmbedTest*>(self);
    std::lock_guard<std::mutex> lock(test->messages_mutex_);
    const char* text = data && data->pMessageIdName ? data->pMessageIdName : "";
    if (!test->tolerated_id_.empty() && test->tolerated_id_ == text) {
      ++test->tolerated_count_;
      return VK_FALSE;
    }
    test->messages_.push_back(data && data->pMessage ? data->pMessage : "(no message)");
    return VK_FALSE;
  }
  static void LockQueue(void* self, VkQueue) { static_cast<EmbedTest*>(self)->queue_mutex_.lock(); }
  static void UnlockQueue(void* self, VkQueue) { static_cast<EmbedTest*>(self)->queue_mutex_.unlock(); }

  void SetUp() override {
    meshvk_vulkan_requirements_t needs = MESHVK_VULKAN_REQUIREMENTS_INIT;
    ASSERT_MESHVK_OK(meshvk_vulkan_requirements(MESHVK_TOPOLOGY_LOGICAL, nullptr, &needs));
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "meshvk_embed_tests";
    app.apiVersion = needs.api_version;
    const char* layer = "VK_LAYER_KHRONOS_validation";
    const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
    VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messenger.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger.messageType =
        VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger.pfnUserCallback = &EmbedTest::OnMessage;
    messenger.pUserData = this;
    VkValidationFeatureEnableEXT sync = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = &sync;
    features.pNext = &messenger;
    VkInstanceCreateInfo create{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    create.pNext = &features;
    create.pApplicationInfo = &app;
    create.enabledLayerCount = 1;
    create.ppEnabledLayerNames = &layer;
    create.enabledExtensionCount = 2;
    create.ppEnabledExtensionNames = extensions;
    ASSERT_VK_OK(vkCreateInstance(&create, nullptr, &instance_));
    auto create_messenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
    ASSERT_VK_OK(create_messenger(instance_, &messenger, nullptr, &messenger_));

    uint32_t count = 1;
    VkResult result = vkEnumeratePhysicalDevices(instance_, &count, &physical_);
    ASSERT_TRUE(result == VK_SUCCESS || result == VK_INCOMPLETE);
    ASSERT_EQ(count, 1u);
    CreateDevice(physical_, &family_, &device_, &queue_);
  }

  // The application's VkDevice on `physical`: one queue of a family with what
  // meshvk needs, timeline semaphores on.
  void CreateDevice(VkPhysicalDevice physical, uint32_t* out_family, VkDevice* out_device, VkQueue* out_queue) {
    meshvk_vulkan_requirements_t needs = MESHVK_VULKAN_REQUIREMENTS_INIT;
    ASSERT_MESHVK_OK(meshvk_vulkan_requirements(MESHVK_TOPOLOGY_LOGICAL, nullptr, &needs));
    uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, nullptr);
    std::vector<VkQueueFamilyProperties> family(families);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, family.data());
    *out_family = UINT32_MAX;
    for (uint32_t f = 0; f < families && *out_family == UINT32_MAX; ++f)
      if ((family[f].queueFlags & needs.queue_flags) == needs.queue_flags) *out_family = f;
    ASSERT_NE(*out_family, UINT32_MAX);

    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueFamilyIndex = *out_family;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    v12.timelineSemaphore = needs.timeline_semaphore;
    VkDeviceCreateInfo device{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    device.pNext = &v12;
    device.queueCreateInfoCount = 1;
    device.pQueueCreateInfos = &queue;
    ASSERT_VK_OK(vkCreateDevice(physical, &device, nullptr, out_device));
    vkGetDeviceQueue(*out_device, *out_family, 0, out_queue);
  }

  // A second VkDevice of the application, on its second physical device (two
  // lavapipe ICDs, or the emulation layer's separate topology). False when the
  // instance has only one physical device.
  bool CreateSecondDevice() {
    uint32_t count = 0;
    EXPECT_EQ(vkEnumeratePhysicalDevices(instance_, &count, nullptr), VK_SUCCESS);
    if (count < 2) return false;
    std::vector<VkPhysicalDevice> all(count);
    EXPECT_EQ(vkEnumeratePhysicalDevices(instance_, &count, all.data()), VK_SUCCESS);
    if (all[0] != physical_) return false;
    physical2_ = all[1];
    CreateDevice(physical2_, &family2_, &device2_, &queue2_);
    return device2_ != VK_NULL_HANDLE;
  }
  VkDevice DeviceAt(int d) const { return d ? device2_ : device_; }
  VkPhysicalDevice PhysicalAt(int d) const { return d ? physical2_ : physical_; }

  void TearDown() override {
    // meshvk objects are gone by now; everything below is the application's
    // and must still be alive (meshvk destroyed nothing of it) and must be
    // the only objects left (meshvk leaked nothing: the layer reports leaks).
    for (auto& [device, buffer, memory] : buffers_) {
      vkDestroyBuffer(device, buffer, nullptr);
      vkFreeMemory(device, memory, nullptr);
    }
    for (auto& [device, s] : semaphores_) vkDestroySemaphore(device, s, nullptr);
    if (device_) vkDestroyDevice(device_, nullptr);
    if (device2_) vkDestroyDevice(device2_, nullptr);
    if (messenger_) {
      auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
          vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
      destroy(instance_, messenger_, nullptr);
    }
    if (instance_) vkDestroyInstance(instance_, nullptr);
    for (const std::string& message : messages_) ADD_FAILURE() << "validation: " << message;
  }

  // meshvk on the application's objects: P processes on its one device.
  void Adopt(uint32_t processes) {
    meshvk_instance_import_info_t instance = MESHVK_INSTANCE_IMPORT_INFO_INIT;
    instance.instance = instance_;
    instance.get_instance_proc_addr = vkGetInstanceProcAddr;
    instance.api_version = VK_API_VERSION_1_2;
    ASSERT_MESHVK_OK(meshvk_instance_import(&instance, &meshvk_instance_));
    meshvk_imported_device_t device{};
    device.physical_devices = &physical_;
    device.physical_device_count = 1;
    device.device = device_;
    device.api_version = VK_API_VERSION_1_2;
    device.queue_family = family_;
    device.queues = &queue_;
    device.queue_count = 1;
    meshvk_device_set_import_info_t info = MESHVK_DEVICE_SET_IMPORT_INFO_INIT;
    info.process_count = processes;
    info.devices = &device;
    info.device_count = 1;
    info.queue_lock = {&EmbedTest::LockQueue, &EmbedTest::UnlockQueue, this};
    ASSERT_MESHVK_OK(meshvk_device_set_import(meshvk_instance_, &info, &set_));
  }
  // program_ from the artifact `bytes` on set_; the module is released (the
  // program keeps what it needs). Callers wrap it in ASSERT_NO_FATAL_FAILURE.
  void CreateProgram(const std::vector<uint8_t>& bytes) {
    meshvk_module_t* module = nullptr;
    ASSERT_MESHVK_OK(meshvk_module_load(bytes.data(), bytes.size(), &module));
    ASSERT_MESHVK_OK(meshvk_program_create(module, set_, &program_));
    meshvk_module_release(module);
  }
  void ReleaseMeshvk() {
    meshvk_program_release(program_);
    program_ = nullptr;
    meshvk_device_set_release(set_);
    set_ = nullptr;
    meshvk_instance_release(meshvk_instance_);
    meshvk_instance_ = nullptr;
  }

  // A host-visible storage buffer of the application's; returns its mapping.
  VkBuffer AppBuffer(uint64_t bytes, float** mapped, int d = 0) {
    const VkDevice device = DeviceAt(d);
    const VkPhysicalDevice physical = PhysicalAt(d);
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = bytes;
    info.usage =
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkBuffer buffer = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateBuffer(device, &info, nullptr, &buffer), VK_SUCCESS);
    VkMemoryRequirements needs;
    vkGetBufferMemoryRequirements(device, buffer, &needs);
    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(physical, &memory);
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = 0;
    while (type < memory.memoryTypeCount &&
           !((needs.memoryTypeBits & (1u << type)) && (memory.memoryTypes[type].propertyFlags & want) == want))
      ++type;
    VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocate.allocationSize = needs.size;
    allocate.memoryTypeIndex = type;
    VkDeviceMemory bound = VK_NULL_HANDLE;
    EXPECT_EQ(vkAllocateMemory(device, &allocate, nullptr, &bound), VK_SUCCESS);
    EXPECT_EQ(vkBindBufferMemory(device, buffer, bound, 0), VK_SUCCESS);
    EXPECT_EQ(vkMapMemory(device, bound, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(mapped)), VK_SUCCESS);
    buffers_.push_back({device, buffer, bound});
    return buffer;
  }
  VkSemaphore AppTimeline(int d = 0) {
    const VkDevice device = DeviceAt(d);
    VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    info.pNext = &type;
    VkSemaphore semaphore = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateSemaphore(device, &info, nullptr, &semaphore), VK_SUCCESS);
    semaphores_.push_back({device, semaphore});
    return semaphore;
  }
  uint64_t Counter(VkSemaphore semaphore, int d = 0) {
    const VkDevice device = DeviceAt(d);
    uint64_t value = 0;
    EXPECT_EQ(vkGetSemaphoreCounterValue(device, semaphore, &value), VK_SUCCESS);
    return value;
  }
  bool Wait(VkSemaphore semaphore, uint64_t value, int d = 0) {
    const VkDevice device = DeviceAt(d);
    VkSemaphoreWaitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wait.semaphoreCount = 1;
    wait.pSemaphores = &semaphore;
    wait.pValues = &value;
    return vkWaitSemaphores(device, &wait, 60 * kSecond) == VK_SUCCESS;
  }
  void HostSignal(VkSemaphore semaphore, uint64_t value, int d = 0) {
    const VkDevice device = DeviceAt(d);
    VkSemaphoreSignalInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
    signal.semaphore = semaphore;
    signal.value = value;
    EXPECT_EQ(vkSignalSemaphore(device, &signal), VK_SUCCESS);
  }

  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  uint32_t family_ = 0;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::mutex queue_mutex_;
  std::vector<std::tuple<VkDevice, VkBuffer, VkDeviceMemory>> buffers_;
  std::vector<std::pair<VkDevice, VkSemaphore>> semaphores_;
  VkPhysicalDevice physical2_ = VK_NULL_HANDLE;  // CreateSecondDevice
  VkDevice device2_ = VK_NULL_HANDLE;
  uint32_t family2_ = 0;
  VkQueue queue2_ = VK_NULL_HANDLE;
  std::mutex messages_mutex_;
  std::vector<std::string> messages_;
  // A validation-layer bug a test may tolerate (its message ID; see where set).
  std::string tolerated_id_;
  uint32_t tolerated_count_ = 0;
  meshvk_instance_t* meshvk_instance_ = nullptr;
  meshvk_device_set_t* set_ = nullptr;
  meshvk_program_t* program_ = nullptr;
};

// An async invoke's info: `arguments` in, `results` out, after `waits`,
// signalling `signals` (NULL and 0: none).
inline meshvk_async_invoke_info_t AsyncInvoke(const meshvk_device_tensor_t* arguments, uint32_t argument_count,
                                              const meshvk_device_tensor_t* results, uint32_t result_count,
                                              const meshvk_semaphore_value_t* waits = nullptr, uint32_t wait_count = 0,
                                              const meshvk_semaphore_value_t* signals = nullptr,
                                              uint32_t signal_count = 0) {
  return {MESHVK_STRUCTURE_TYPE_ASYNC_INVOKE_INFO,
          nullptr,
          /*function=*/0,
          arguments,
          argument_count,
          results,
          result_count,
          waits,
          wait_count,
          signals,
          signal_count,
          /*flags=*/0};
}

}  // namespace meshvk_embed

#endif  // MESHVK_TESTS_RUNTIME_EMBED_FIXTURE_H_
