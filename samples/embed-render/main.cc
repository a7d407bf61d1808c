// embed-render: a small Vulkan application that embeds meshvk.
//
// The application owns its instance, device, queue, buffers, image and
// graphics pipeline. Every frame meshvk evaluates a neural field (an MLP) over
// all pixels, the pixels split over P processes, reading the application's
// coordinate buffer and writing the application's field buffer directly
// (meshvk_buffer_import + meshvk_program_invoke_async, ordered by the
// application's timeline semaphores); the application's fragment shader then
// draws that buffer into an offscreen image. Nothing goes through host memory
// between compute and draw. --round-trip instead runs the host path (results
// read back to the host, then uploaded) to measure what that costs.
//
//   embed-render [--width=W] [--height=H] [--processes=P] [--frames=F]
//                [--round-trip] [--copy-shards] [--device-group]
//                [--validation] [--check] [--out=image.png]
//
// --device-group: the application's VkDevice spans the first device group of
// 2+ physical devices (the emulation layer makes one); its memory lives on
// device 0 (a device mask of one device), every device's view of its buffers
// is bound to that instance (peer memory), meshvk's processes run on the
// group's devices, and the application draws on device 0.
//
// Exit codes: 0 ok, 1 --check found a pixel off by more than the tolerance,
// 2 bad usage, 3 Vulkan/meshvk failure (or a validation message).
#include <png.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "meshvk/meshvk.h"
#include "meshvk/vulkan.h"
#include "neural_field.h"
#include "renderer.h"

namespace {

constexpr int kTolerance = 2;  // 8-bit levels: exp/FMA differences between GPU and host

struct Options {
  uint32_t width = 256, height = 256, processes = 4, frames = 10;
  bool round_trip = false, copy_shards = false, device_group = false, validation = false, check = false;
  std::string out;
};

}  // namespace

// Declared in app.h: the application's error exits.
namespace embed_render {
[[noreturn]] void Fail(int code, const std::string& message) {
  std::fprintf(stderr, "embed-render: %s\n", message.c_str());
  std::exit(code);
}
void Vk(VkResult result, const char* what) {
  if (result != VK_SUCCESS) Fail(3, std::string(what) + " failed: VkResult " + std::to_string(result));
}
}  // namespace embed_render

namespace {

using namespace embed_render;  // NOLINT: the sample's own namespace

void Mvk(meshvk_status_t status, const char* what) {
  if (!status) return;
  std::string text = std::string(what) + ": " + meshvk_status_message(status);
  meshvk_status_free(status);
  Fail(3, text);
}

Options Parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto number = [&](const char* flag, uint32_t* out) {
      std::string prefix = std::string(flag) + "=";
      if (arg.rfind(prefix, 0) != 0) return false;
      char* end = nullptr;
      unsigned long v = std::strtoul(arg.c_str() + prefix.size(), &end, 10);
      if (*end || v == 0 || v > 8192)
        Fail(2, std::string(flag) + ": expected 1..8192, got '" + arg.substr(prefix.size()) + "'");
      *out = static_cast<uint32_t>(v);
      return true;
    };
    if (number("--width", &o.width) || number("--height", &o.height) || number("--processes", &o.processes) ||
        number("--frames", &o.frames))
      continue;
    if (arg == "--round-trip")
      o.round_trip = true;
    else if (arg == "--copy-shards")
      o.copy_shards = true;
    else if (arg == "--device-group")
      o.device_group = true;
    else if (arg == "--validation")
      o.validation = true;
    else if (arg == "--check")
      o.check = true;
    else if (arg.rfind("--out=", 0) == 0)
      o.out = arg.substr(6);
    else
      Fail(2, "unknown flag '" + arg + "' (see the comment at the top of main.cc or samples/embed-render/README.md)");
  }
  if ((uint64_t{o.width} * o.height) % o.processes != 0)
    Fail(2, "--processes=" + std::to_string(o.processes) + " must divide width*height");
  return o;
}

uint32_t g_messages = 0;
VKAPI_ATTR VkBool32 VKAPI_CALL OnMessage(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  std::fprintf(stderr, "embed-render: validation: %s\n", data && data->pMessage ? data->pMessage : "?");
  ++g_messages;
  return VK_FALSE;
}

void CreateDevice(App& app, const Options& o, const meshvk_vulkan_requirements_t& needs) {
  VkApplicationInfo info{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  info.pApplicationName = "embed-render";
  info.apiVersion = needs.api_version;
  const char* layer = "VK_LAYER_KHRONOS_validation";
  const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
  VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messenger.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger.messageType =
      VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger.pfnUserCallback = OnMessage;
  VkValidationFeatureEnableEXT sync = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = &sync;
  features.pNext = &messenger;
  VkInstanceCreateInfo create{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  create.pApplicationInfo = &info;
  if (o.validation) {
    create.pNext = &features;
    create.enabledLayerCount = 1;
    create.ppEnabledLayerNames = &layer;
    create.enabledExtensionCount = 2;
    create.ppEnabledExtensionNames = extensions;
  }
  Vk(vkCreateInstance(&create, nullptr, &app.instance), "vkCreateInstance");
  if (o.validation) {
    auto make = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(app.instance, "vkCreateDebugUtilsMessengerEXT"));
    Vk(make(app.instance, &messenger, nullptr, &app.messenger), "vkCreateDebugUtilsMessengerEXT");
  }
  uint32_t count = 1;
  VkResult result = vkEnumeratePhysicalDevices(app.instance, &count, &app.physical);
  if ((result != VK_SUCCESS && result != VK_INCOMPLETE) || count == 0) Fail(3, "no Vulkan physical device");
  VkDeviceGroupDeviceCreateInfo group_info{VK_STRUCTURE_TYPE_DEVICE_GROUP_DEVICE_CREATE_INFO};
  if (o.device_group) {
    uint32_t groups = 0;
    Vk(vkEnumeratePhysicalDeviceGroups(app.instance, &groups, nullptr), "vkEnumeratePhysicalDeviceGroups");
    std::vector<VkPhysicalDeviceGroupProperties> all(groups, {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GROUP_PROPERTIES});
    Vk(vkEnumeratePhysicalDeviceGroups(app.instance, &groups, all.data()), "vkEnumeratePhysicalDeviceGroups");
    for (const VkPhysicalDeviceGroupProperties& g : all) {
      if (g.physicalDeviceCount >= 2 && app.group.empty())
        app.group.assign(g.physicalDevices, g.physicalDevices + g.physicalDeviceCount);
    }
    if (app.group.empty())
      Fail(3, "--device-group: no device group of 2 or more devices (run on VK_LAYER_MESHVK_emulated_device_group)");
    app.physical = app.group[0];
    group_info.physicalDeviceCount = static_cast<uint32_t>(app.group.size());
    group_info.pPhysicalDevices = app.group.data();
  }
  vkGetPhysicalDeviceMemoryProperties(app.physical, &app.memory);
  uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(app.physical, &families, nullptr);
  std::vector<VkQueueFamilyProperties> family(families);
  vkGetPhysicalDeviceQueueFamilyProperties(app.physical, &families, family.data());
  const VkQueueFlags wanted = needs.queue_flags | VK_QUEUE_GRAPHICS_BIT;
  app.family = UINT32_MAX;
  for (uint32_t f = 0; f < families && app.family == UINT32_MAX; ++f)
    if ((family[f].queueFlags & wanted) == wanted) app.family = f;
  if (app.family == UINT32_MAX) Fail(3, "no queue family with graphics, compute and transfer");
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueFamilyIndex = app.family;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  v12.timelineSemaphore = needs.timeline_semaphore;
  v12.pNext = o.device_group ? &group_info : nullptr;
  VkDeviceCreateInfo device{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device.pNext = &v12;
  device.queueCreateInfoCount = 1;
  device.pQueueCreateInfos = &queue;
  Vk(vkCreateDevice(app.physical, &device, nullptr, &app.device), "vkCreateDevice");
  vkGetDeviceQueue(app.device, app.family, 0, &app.queue);
  // meshvk's processes on devices 1.. write the field into device 0's memory
  // and read the coordinates there: peer memory, generic (shader) access.
  const VkPeerMemoryFeatureFlags generic =
      VK_PEER_MEMORY_FEATURE_GENERIC_SRC_BIT | VK_PEER_MEMORY_FEATURE_GENERIC_DST_BIT;
  for (uint32_t d = 1; d < app.group.size(); ++d) {
    for (uint32_t heap = 0; heap < app.memory.memoryHeapCount; ++heap) {
      VkPeerMemoryFeatureFlags features = 0;
      vkGetDeviceGroupPeerMemoryFeatures(app.device, heap, d, 0, &features);
      if ((features & generic) != generic)
        Fail(3, "--device-group: device " + std::to_string(d) + " cannot read and write device 0's memory (heap " +
                    std::to_string(heap) + ")");
    }
  }
}

// PNG through a temporary file and a rename: no half-written image on failure.
void WritePng(const std::string& path, const std::vector<uint8_t>& rgba, uint32_t width, uint32_t height) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = width;
  image.height = height;
  image.format = PNG_FORMAT_RGBA;
  std::string temporary = path + ".tmp";
  if (!png_image_write_to_file(&image, temporary.c_str(), 0, rgba.data(), 0, nullptr)) {
    std::remove(temporary.c_str());
    Fail(3, path + ": cannot write PNG: " + image.message);
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    Fail(3, path + ": cannot write: " + std::strerror(errno));
  }
}

// meshvk on the application's objects: P logical processes on its device
// (with --device-group the one VkDevice spans the group: process p runs on
// device p % group size), and the field program on them.
struct Meshvk {
  meshvk_instance_t* instance = nullptr;
  meshvk_device_set_t* set = nullptr;
  meshvk_program_t* program = nullptr;
};

Meshvk AdoptApplication(const App& app, const Options& o, const meshvk_vulkan_requirements_t& needs,
                        meshvk_module_t* module) {
  Meshvk m;
  meshvk_instance_import_info_t adopt = MESHVK_INSTANCE_IMPORT_INFO_INIT;
  adopt.instance = app.instance;
  adopt.get_instance_proc_addr = vkGetInstanceProcAddr;
  adopt.api_version = needs.api_version;
  Mvk(meshvk_instance_import(&adopt, &m.instance), "meshvk_instance_import");
  VkPhysicalDevice physical = app.physical;
  VkQueue queue = app.queue;
  meshvk_imported_device_t device{&physical, 1, app.device, needs.api_version, app.family, &queue, 1};
  if (!app.group.empty()) {
    device.physical_devices = app.group.data();
    device.physical_device_count = static_cast<uint32_t>(app.group.size());
  }
  meshvk_device_set_import_info_t set_info = MESHVK_DEVICE_SET_IMPORT_INFO_INIT;
  set_info.process_count = o.processes;
  set_info.devices = &device;
  set_info.device_count = 1;  // single-threaded app: no queue lock needed
  Mvk(meshvk_device_set_import(m.instance, &set_info, &m.set), "meshvk_device_set_import");
  if (!app.group.empty())
    std::printf("embed-render: %u processes on a device group of %zu (process p on device p %% %zu)\n", o.processes,
                app.group.size(), app.group.size());
  Mvk(meshvk_program_create(module, m.set, &m.program), "meshvk_program_create");
  return m;
}

// The application's buffers as meshvk shards: each process's slice of the
// coordinates (argument 0) and of the field (result 0), imported in place.
struct Shards {
  std::vector<meshvk_buffer_t*> imported;
  std::vector<meshvk_shard_buffer_t> coords, field;
};

// The rows of the application's `buffer` (`row_bytes` each) that shard
// `view` covers, as a meshvk buffer of the shard's process.
meshvk_buffer_t* ImportRows(const Meshvk& m, const meshvk_shard_view_t& view, VkBuffer buffer, uint64_t row_bytes) {
  meshvk_buffer_import_info_t info = MESHVK_BUFFER_IMPORT_INFO_INIT;
  info.process = view.process;
  info.buffer = buffer;
  info.offset = view.global_offset[0] * row_bytes;
  info.range = view.shape[0] * row_bytes;
  meshvk_buffer_t* imported = nullptr;
  Mvk(meshvk_buffer_import(m.set, &info, &imported), "meshvk_buffer_import");
  return imported;
}

Shards ImportShards(const Meshvk& m, uint32_t processes, VkBuffer coords, VkBuffer field) {
  Shards shards;
  for (uint32_t s = 0; s < processes; ++s) {
    meshvk_shard_view_t in = MESHVK_SHARD_VIEW_INIT, out = MESHVK_SHARD_VIEW_INIT;
    Mvk(meshvk_program_argument_shard(m.program, 0, 0, s, &in), "meshvk_program_argument_shard");
    Mvk(meshvk_program_result_shard(m.program, 0, 0, s, &out), "meshvk_program_result_shard");
    meshvk_buffer_t* a = ImportRows(m, in, coords, 8);
    meshvk_buffer_t* b = ImportRows(m, out, field, 16);
    shards.imported.push_back(a);
    shards.imported.push_back(b);
    shards.coords.push_back({a, 0});
    shards.field.push_back({b, 0});
  }
  return shards;
}

// What one frame needs: the program, the application's buffers and the two
// timelines that order meshvk's compute and the draw.
struct Frames {
  const Options& o;
  App& app;
  Renderer& renderer;
  const Meshvk& meshvk;
  Shards& shards;
  App::Buffer& field;
  const std::vector<float>& coords;
  std::vector<float> host_field;
  VkSemaphore field_done = VK_NULL_HANDLE, render_done = VK_NULL_HANDLE;
  meshvk_semaphore_t *meshvk_field_done = nullptr, *meshvk_render_done = nullptr;

  // GPU only: meshvk waits until the previous frame's draw has read the
  // field, computes into the application's buffer, signals field_done; the
  // draw waits for it. The host does not wait inside the loop.
  void InvokeOnDevice(uint64_t frame) {
    meshvk_device_tensor_t arguments{shards.coords.data(), o.processes}, results{shards.field.data(), o.processes};
    meshvk_semaphore_value_t previous{meshvk_render_done, frame - 1}, done{meshvk_field_done, frame};
    meshvk_async_invoke_info_t run = MESHVK_ASYNC_INVOKE_INFO_INIT;
    run.arguments = &arguments;
    run.argument_count = 1;
    run.results = &results;
    run.result_count = 1;
    run.waits = &previous;
    run.wait_count = frame > 1 ? 1 : 0;
    run.signals = &done;
    run.signal_count = 1;
    // Default: meshvk binds the application's buffers directly (no copy);
    // --copy-shards makes it copy them into its own, to measure the saving.
    run.flags = o.copy_shards ? MESHVK_ASYNC_INVOKE_COPY_SHARDS_BIT : 0;
    Mvk(meshvk_program_invoke_async(meshvk.program, &run), "meshvk_program_invoke_async");
  }

  // Host round trip: inputs from and results to host memory, then an upload
  // into the field buffer once the previous draw is done with it.
  void InvokeThroughHost(uint64_t frame) {
    const uint64_t pixels = uint64_t{o.width} * o.height;
    meshvk_host_input_t input{coords.data(), pixels * 8};
    meshvk_host_output_t output{host_field.data(), pixels * 16};
    meshvk_invoke_info_t run = MESHVK_INVOKE_INFO_INIT;
    run.inputs = &input;
    run.input_count = 1;
    run.outputs = &output;
    run.output_count = 1;
    Mvk(meshvk_program_invoke(meshvk.program, &run), "meshvk_program_invoke");
    if (frame > 1) app.Wait(render_done, frame - 1);
    std::memcpy(field.mapped, host_field.data(), pixels * 16);
  }

  // The draw of `frame`, signalling render_done = frame; on the device path
  // it waits for field_done = frame.
  void SubmitDraw(uint64_t frame) {
    VkPipelineStageFlags draw_stage = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
    VkTimelineSemaphoreSubmitInfo timeline{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.pNext = &timeline;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &renderer.commands;
    submit.signalSemaphoreCount = 1;
    submit.pSignalSemaphores = &render_done;
    timeline.signalSemaphoreValueCount = 1;
    timeline.pSignalSemaphoreValues = &frame;
    // A device group: the draw and its semaphores are device 0's.
    const uint32_t device0 = 0, mask0 = 1;
    VkDeviceGroupSubmitInfo on_device0{VK_STRUCTURE_TYPE_DEVICE_GROUP_SUBMIT_INFO};
    on_device0.commandBufferCount = 1;
    on_device0.pCommandBufferDeviceMasks = &mask0;
    on_device0.signalSemaphoreCount = 1;
    on_device0.pSignalSemaphoreDeviceIndices = &device0;
    if (!app.group.empty()) timeline.pNext = &on_device0;
    if (!o.round_trip) {
      submit.waitSemaphoreCount = 1;
      submit.pWaitSemaphores = &field_done;
      submit.pWaitDstStageMask = &draw_stage;
      timeline.waitSemaphoreValueCount = 1;
      timeline.pWaitSemaphoreValues = &frame;
      on_device0.waitSemaphoreCount = 1;
      on_device0.pWaitSemaphoreDeviceIndices = &device0;
    }
    Vk(vkQueueSubmit(app.queue, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit");
  }

  // Runs every frame and prints the time per frame.
  void Run() {
    if (o.round_trip) host_field.resize(uint64_t{o.width} * o.height * 4);
    auto start = std::chrono::steady_clock::now();
    for (uint64_t frame = 1; frame <= o.frames; ++frame) {
      if (o.round_trip)
        InvokeThroughHost(frame);
      else
        InvokeOnDevice(frame);
      SubmitDraw(frame);
    }
    app.Wait(render_done, o.frames);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("embed-render: %ux%u pixels, %u processes, %u frames, %s: %.2f ms per frame\n", o.width, o.height,
                o.processes, o.frames,
                o.round_trip ? "host round trip" : (o.copy_shards ? "device only, shards copied" : "device only"),
                1000.0 * seconds / o.frames);
  }
};

// --check: 1 when a channel of the drawn image is off the host's image by
// more than kTolerance, else 0.
int CheckImage(const Options& o, const std::vector<uint8_t>& image, const std::vector<float>& weights) {
  std::vector<uint8_t> expected = embed_render::HostImage(o.width, o.height, weights);
  int worst = 0;
  size_t off = 0;
  for (size_t i = 0; i < image.size(); ++i) {
    int diff = std::abs(int(image[i]) - int(expected[i]));
    if (diff > kTolerance) ++off;
    worst = std::max(worst, diff);
  }
  std::printf("embed-render: check: %zu of %zu channels off by more than %d (largest difference %d)\n", off,
              image.size(), kTolerance, worst);
  return off ? 1 : 0;
}

void DestroyApplication(App& app) {
  vkDestroyDevice(app.device, nullptr);
  if (app.messenger) {
    reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(app.instance, "vkDestroyDebugUtilsMessengerEXT"))(app.instance, app.messenger, nullptr);
  }
  vkDestroyInstance(app.instance, nullptr);
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = Parse(argc, argv);
  const uint64_t pixels = uint64_t{o.width} * o.height;
  const std::vector<float> weights = embed_render::FieldWeights();
  std::vector<uint8_t> program_bytes = embed_render::FieldProgram(o.width, o.height, o.processes, weights);

  // What meshvk needs, asked before the application creates its device.
  meshvk_module_t* module = nullptr;
  Mvk(meshvk_module_load(program_bytes.data(), program_bytes.size(), &module), "meshvk_module_load");
  meshvk_shader_features_t shader = MESHVK_SHADER_FEATURES_INIT;
  Mvk(meshvk_module_shader_features(module, &shader), "meshvk_module_shader_features");
  meshvk_vulkan_requirements_t needs = MESHVK_VULKAN_REQUIREMENTS_INIT;
  Mvk(meshvk_vulkan_requirements(o.device_group ? MESHVK_TOPOLOGY_DEVICE_GROUP : MESHVK_TOPOLOGY_LOGICAL, &shader,
                                 &needs),
      "meshvk_vulkan_requirements");
  App app;
  CreateDevice(app, o, needs);
  Meshvk meshvk = AdoptApplication(app, o, needs, module);
  meshvk_module_release(module);

  // The application's buffers: pixel coordinates (written once) and the field.
  const VkBufferUsageFlags usage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  std::vector<float> coords = embed_render::PixelCoordinates(o.width, o.height);
  App::Buffer coord_buffer = app.NewBuffer(pixels * 8, usage, true);
  std::memcpy(coord_buffer.mapped, coords.data(), pixels * 8);
  // The field lives in device-local memory the host never maps in the device
  // path (in --round-trip it must be host-visible to upload into it).
  App::Buffer field = app.NewBuffer(pixels * 16, usage, o.round_trip);
  Shards shards = ImportShards(meshvk, o.processes, coord_buffer.buffer, field.buffer);

  Renderer renderer;
  renderer.Create(app, o.width, o.height, field.buffer);
  Frames frames{o, app, renderer, meshvk, shards, field, coords};
  frames.field_done = app.Timeline();
  frames.render_done = app.Timeline();
  Mvk(meshvk_semaphore_import(meshvk.set, 0, frames.field_done, &frames.meshvk_field_done), "meshvk_semaphore_import");
  Mvk(meshvk_semaphore_import(meshvk.set, 0, frames.render_done, &frames.meshvk_render_done),
      "meshvk_semaphore_import");
  frames.Run();
  // Why meshvk copied a shard instead of binding the application's buffer.
  for (uint32_t i = 0; i < meshvk_program_note_count(meshvk.program); ++i)
    std::fprintf(stderr, "embed-render: note: %s\n", meshvk_program_note(meshvk.program, i));

  std::vector<uint8_t> image(static_cast<const uint8_t*>(renderer.readback.mapped),
                             static_cast<const uint8_t*>(renderer.readback.mapped) + pixels * 4);
  const int status = o.check ? CheckImage(o, image, weights) : 0;
  if (!o.out.empty()) WritePng(o.out, image, o.width, o.height);

  meshvk_semaphore_release(frames.meshvk_field_done);
  meshvk_semaphore_release(frames.meshvk_render_done);
  for (meshvk_buffer_t* b : shards.imported) meshvk_buffer_release(b);
  meshvk_program_release(meshvk.program);
  meshvk_device_set_release(meshvk.set);
  meshvk_instance_release(meshvk.instance);
  renderer.Destroy(app);
  app.Free(coord_buffer);
  app.Free(field);
  vkDestroySemaphore(app.device, frames.field_done, nullptr);
  vkDestroySemaphore(app.device, frames.render_done, nullptr);
  DestroyApplication(app);
  if (g_messages) Fail(3, std::to_string(g_messages) + " validation message(s)");
  return status;
}
