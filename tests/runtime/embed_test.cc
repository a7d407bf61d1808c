// meshvk/vulkan.h: meshvk inside an application that owns Vulkan. The test is
// the application: it creates its own instance (validation + synchronization
// validation, any message fails), device, queue, buffers and timeline
// semaphores with the Vulkan loader directly, hands them to meshvk, and checks
// results against host arithmetic. It links the shared runtime, as an
// embedder would (the static library's volk globals would shadow the loader's
// vk* functions).
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "embed_fixture.h"
#include "host_invoke.h"
#include "meshvk/meshvk.h"
#include "meshvk/vulkan.h"
#include "programs.h"

namespace {

using namespace meshvk_embed;  // NOLINT: the fixture and its helpers

// c = a + scale * b, rows split over P processes, run on the application's
// buffers: arguments and result imported shard by shard (one VkBuffer each,
// the shards at their row offsets), ordered by the application's timeline
// semaphores, nothing through meshvk's host path.
struct AppTensors {
  VkBuffer a, b, c;
  float *host_a, *host_b, *host_c;
  std::vector<meshvk_buffer_t*> imported;
  std::vector<meshvk_shard_buffer_t> shards[3];
  meshvk_device_tensor_t arguments[2], results[1];
  ~AppTensors() {
    for (meshvk_buffer_t* b : imported) meshvk_buffer_release(b);
  }
};

constexpr uint32_t kRows = 64, kCols = 32;
constexpr float kScale = 0.5f;

// How the application hands its buffers over, and so how meshvk uses them.
enum class Handover {
  kPerShard,     // one import per shard range, offset 0: every shard bound directly, no copy
  kCopyFlag,     // the same, with MESHVK_ASYNC_INVOKE_COPY_SHARDS_BIT: every shard copied
  kWholeBuffer,  // one import of the whole VkBuffer per process, shards at their offsets:
                 // shard 0 (offset 0) bound directly, shard 1 copied (offset not 0)
};

class EmbedAsyncTest : public EmbedTest {
 protected:
  void RunFrames(Handover handover);
};

TEST_F(EmbedAsyncTest, ProgramRunsAsynchronouslyOnTheApplicationsBuffersAndSemaphores) {
  RunFrames(Handover::kPerShard);
}
TEST_F(EmbedAsyncTest, ShardsAreCopiedWhenAsked) { RunFrames(Handover::kCopyFlag); }
TEST_F(EmbedAsyncTest, ShardsThatCannotBeBoundAreCopied) { RunFrames(Handover::kWholeBuffer); }

void EmbedAsyncTest::RunFrames(Handover handover) {
  const uint32_t P = 2;
  Adopt(P);
  ASSERT_TRUE(set_);
  ASSERT_NO_FATAL_FAILURE(CreateProgram(meshvk_test::Elementwise({P}, {{0}, {}}, kRows, kCols, kScale)));

  AppTensors t;
  const uint64_t total = uint64_t{kRows} * kCols * 4;
  t.a = AppBuffer(total, &t.host_a);
  t.b = AppBuffer(total, &t.host_b);
  t.c = AppBuffer(total, &t.host_c);
  for (uint32_t i = 0; i < kRows * kCols; ++i) {
    t.host_a[i] = 0.25f * i;
    t.host_b[i] = 3.0f - 0.125f * i;
    t.host_c[i] = -1.0f;
  }
  VkBuffer app[3] = {t.a, t.b, t.c};
  for (uint32_t k = 0; k < 3; ++k) {
    std::vector<meshvk_buffer_t*> whole(P, nullptr);  // kWholeBuffer: per process
    for (uint32_t s = 0; s < P; ++s) {
      meshvk_shard_view_t view = MESHVK_SHARD_VIEW_INIT;
      ASSERT_MESHVK_OK(k < 2 ? meshvk_program_argument_shard(program_, 0, k, s, &view)
                             : meshvk_program_result_shard(program_, 0, 0, s, &view));
      uint64_t offset = view.global_offset[0] * kCols * 4, range = view.shape[0] * view.shape[1] * 4;
      if (handover == Handover::kWholeBuffer) {
        if (!whole[view.process]) {
          ASSERT_MESHVK_OK(ImportAppBuffer(set_, view.process, app[k], 0, total, &whole[view.process]));
          t.imported.push_back(whole[view.process]);
        }
        t.shards[k].push_back({whole[view.process], offset});
        continue;
      }
      meshvk_buffer_t* imported = nullptr;
      ASSERT_MESHVK_OK(ImportAppBuffer(set_, view.process, app[k], offset, range, &imported));
      t.imported.push_back(imported);
      VkDeviceSize where = 1;
      EXPECT_EQ(meshvk_buffer_vk_buffer(imported, &where), app[k]);
      EXPECT_EQ(where, offset);
      t.shards[k].push_back({imported, 0});
    }
  }
  t.arguments[0] = {t.shards[0].data(), P};
  t.arguments[1] = {t.shards[1].data(), P};
  t.results[0] = {t.shards[2].data(), P};

  VkSemaphore ready = AppTimeline(), done = AppTimeline();
  meshvk_semaphore_t *meshvk_ready = nullptr, *meshvk_done = nullptr;
  ASSERT_MESHVK_OK(meshvk_semaphore_import(set_, 0, ready, &meshvk_ready));
  ASSERT_MESHVK_OK(meshvk_semaphore_import(set_, 0, done, &meshvk_done));
  EXPECT_EQ(meshvk_semaphore_vk_semaphore(meshvk_done), done);

  for (uint64_t frame = 1; frame <= 3; ++frame) {
    meshvk_semaphore_value_t wait{meshvk_ready, frame}, signal{meshvk_done, frame};
    meshvk_async_invoke_info_t info = AsyncInvoke(t.arguments, 2, t.results, 1, &wait, 1, &signal, 1);
    info.flags = handover == Handover::kCopyFlag ? MESHVK_ASYNC_INVOKE_COPY_SHARDS_BIT : 0;
    // `ready` is not signalled yet: a blocking invoke would never return.
    ASSERT_MESHVK_OK(meshvk_program_invoke_async(program_, &info));
    EXPECT_EQ(Counter(done), frame - 1) << "the program ran before the application's semaphore";
    for (uint32_t i = 0; i < kRows * kCols; ++i) t.host_b[i] = 3.0f - 0.125f * i + frame;
    HostSignal(ready, frame);
    ASSERT_TRUE(Wait(done, frame));
    for (uint32_t i = 0; i < kRows * kCols; ++i) {
      float expected = 0.25f * i + kScale * (3.0f - 0.125f * i + frame);
      ASSERT_FLOAT_EQ(t.host_c[i], expected) << "frame " << frame << " element " << i;
    }
  }
  // Every shard bound directly leaves no note; each tensor with a copied
  // shard says why (once).
  uint32_t notes = meshvk_program_note_count(program_);
  EXPECT_EQ(notes, handover == Handover::kPerShard ? 0u : 3u);
  for (uint32_t i = 0; i < notes; ++i) {
    std::string note = meshvk_program_note(program_, i);
    EXPECT_NE(note.find(handover == Handover::kCopyFlag ? "MESHVK_ASYNC_INVOKE_COPY_SHARDS_BIT"
                                                        : "the given offset is not 0"),
              std::string::npos)
        << note;
  }
  // The host-tensor invoke still works after async ones (and waits for them).
  std::vector<float> a(kRows * kCols, 1.0f), b(kRows * kCols, 2.0f), c(kRows * kCols, 0.0f);
  meshvk_test::HostInvoke host({meshvk_test::HostIn(a), meshvk_test::HostIn(b)}, {meshvk_test::HostOut(c)});
  ASSERT_MESHVK_OK(meshvk_program_invoke(program_, &host.info));
  EXPECT_FLOAT_EQ(c[17], 1.0f + kScale * 2.0f);

  meshvk_semaphore_release(meshvk_ready);
  meshvk_semaphore_release(meshvk_done);
  for (meshvk_buffer_t* b : t.imported) meshvk_buffer_release(b);
  t.imported.clear();
  ReleaseMeshvk();
  // The application's device, buffers and semaphores are still its own.
  EXPECT_EQ(vkDeviceWaitIdle(device_), VK_SUCCESS);
  EXPECT_EQ(Counter(done), 3u);
}

// A program that writes its argument (a = b, then c = a + scale * b): binding
// the application's `a` directly would change the application's input, so
// that shard is copied (with a note) while `b` and `c` are bound. The
// application's `a` must come out untouched.
TEST_F(EmbedTest, AnArgumentTheProgramWritesIsCopiedNotBound) {
  const uint32_t P = 2, n = kRows * kCols / P;
  Adopt(P);
  ASSERT_TRUE(set_);
  namespace art = meshvk::artifact;
  art::ArtifactBuilder builder({P});
  uint32_t kernel = builder.AddExecutable(meshvk_test::ScaledAddKernel());
  art::TensorDesc a, b, c;
  a.shape = b.shape = c.shape = {uint64_t{P} * n};
  a.element_type = b.element_type = c.element_type = art::ElementType::kF32;
  a.split_axes = b.split_axes = c.split_axes = {{0}};
  for (uint32_t p = 0; p < P; ++p) {
    uint32_t ba = builder.AddBuffer(p, {n * 4, art::BufferKind::kArgumentShard});
    uint32_t bb = builder.AddBuffer(p, {n * 4, art::BufferKind::kArgumentShard});
    uint32_t bc = builder.AddBuffer(p, {n * 4, art::BufferKind::kResultShard});
    art::CopyDesc overwrite;  // a = b: writes the argument
    overwrite.src_process = p;
    overwrite.src_buffer = bb;
    overwrite.dst_buffer = ba;
    overwrite.size = n * 4;
    builder.AddCopy(p, overwrite);
    art::DispatchDesc add;
    add.executable = kernel;
    add.workgroup_count[0] = n / 64;
    add.bindings = {{ba, 0, 0}, {bb, 0, 0}, {bc, 0, 0}};
    add.push_constants = meshvk_test::ScaledAddPush(n, kScale);
    builder.AddDispatch(p, add);
    a.shards.push_back({p, ba, 0, {uint64_t{p} * n}, {n}});
    b.shards.push_back({p, bb, 0, {uint64_t{p} * n}, {n}});
    c.shards.push_back({p, bc, 0, {uint64_t{p} * n}, {n}});
  }
  builder.AddFunction({"accumulate", {a, b}, {c}});
  ASSERT_NO_FATAL_FAILURE(CreateProgram(builder.Finish()));

  float* host[3] = {};
  VkBuffer app[3];
  for (int k = 0; k < 3; ++k) app[k] = AppBuffer(uint64_t{P} * n * 4, &host[k]);
  std::vector<meshvk_buffer_t*> imported;
  std::vector<meshvk_shard_buffer_t> shards[3];
  for (int k = 0; k < 3; ++k) {
    for (uint32_t p = 0; p < P; ++p) {
      meshvk_buffer_t* view = nullptr;
      ASSERT_MESHVK_OK(ImportAppBuffer(set_, p, app[k], uint64_t{p} * n * 4, n * 4, &view));
      imported.push_back(view);
      shards[k].push_back({view, 0});
    }
  }
  meshvk_device_tensor_t arguments[2] = {{shards[0].data(), P}, {shards[1].data(), P}}, result{shards[2].data(), P};
  VkSemaphore done = AppTimeline();
  meshvk_semaphore_t* meshvk_done = nullptr;
  ASSERT_MESHVK_OK(meshvk_semaphore_import(set_, 0, done, &meshvk_done));
  for (uint64_t frame = 1; frame <= 2; ++frame) {
    for (uint32_t i = 0; i < P * n; ++i) {
      host[0][i] = 0.5f * i + frame;
      host[1][i] = 2.0f - 0.25f * i;
    }
    meshvk_semaphore_value_t signal{meshvk_done, frame};
    meshvk_async_invoke_info_t info = AsyncInvoke(arguments, 2, &result, 1, nullptr, 0, &signal, 1);
    ASSERT_MESHVK_OK(meshvk_program_invoke_async(program_, &info));
    ASSERT_TRUE(Wait(done, frame));
    for (uint32_t i = 0; i < P * n; ++i) {
      ASSERT_FLOAT_EQ(host[0][i], 0.5f * i + frame) << "the application's argument changed, element " << i;
      ASSERT_FLOAT_EQ(host[2][i], (1.0f + kScale) * (2.0f - 0.25f * i)) << "element " << i;
    }
  }
  ASSERT_EQ(meshvk_program_note_count(program_), 1u);
  std::string note = meshvk_program_note(program_, 0);
  EXPECT_NE(note.find("argument 0"), std::string::npos) << note;
  EXPECT_NE(note.find("the program writes it"), std::string::npos) << note;
  meshvk_semaphore_release(meshvk_done);
  for (meshvk_buffer_t* view : imported) meshvk_buffer_release(view);
  ReleaseMeshvk();
}

// The application keeps submitting its own work to the queue it shares with
// meshvk from another thread (taking the same lock meshvk takes through
// meshvk_queue_lock_t) while the program runs, host and async invokes mixed.
// The validation layer's thread-safety checks report unsynchronized queue use.
TEST_F(EmbedTest, ProgramRunsWhileTheApplicationSubmitsOnTheSameQueue) {
  const uint32_t P = 2;
  Adopt(P);
  ASSERT_TRUE(set_);
  ASSERT_NO_FATAL_FAILURE(CreateProgram(meshvk_test::Elementwise({P}, {{0}, {}}, kRows, kCols, kScale)));

  float* scratch_host = nullptr;
  VkBuffer scratch = AppBuffer(1 << 20, &scratch_host);
  VkSemaphore app_timeline = AppTimeline();
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.queueFamilyIndex = family_;
  ASSERT_VK_OK(vkCreateCommandPool(device_, &pool_info, nullptr, &pool));
  VkCommandBuffer cb = VK_NULL_HANDLE;
  VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  allocate.commandPool = pool;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  ASSERT_VK_OK(vkAllocateCommandBuffers(device_, &allocate, &cb));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT;
  ASSERT_VK_OK(vkBeginCommandBuffer(cb, &begin));
  vkCmdFillBuffer(cb, scratch, 0, 1 << 20, 0x3f800000u);  // 1.0f
  ASSERT_VK_OK(vkEndCommandBuffer(cb));

  std::atomic<bool> stop{false};
  std::atomic<uint64_t> submitted{0};
  std::thread app_thread([&] {
    for (uint64_t value = 1; !stop.load() || value <= 20; ++value) {
      // At most 8 of its own submissions in flight.
      if (value > 8 && !Wait(app_timeline, value - 8)) {
        ADD_FAILURE() << "the application's work did not finish";
        return;
      }
      VkTimelineSemaphoreSubmitInfo timeline{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
      uint64_t wait_value = value - 1;
      timeline.waitSemaphoreValueCount = 1;
      timeline.pWaitSemaphoreValues = &wait_value;
      timeline.signalSemaphoreValueCount = 1;
      timeline.pSignalSemaphoreValues = &value;
      VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
      VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      submit.pNext = &timeline;
      submit.waitSemaphoreCount = 1;  // orders the fills among themselves
      submit.pWaitSemaphores = &app_timeline;
      submit.pWaitDstStageMask = &stage;
      submit.commandBufferCount = 1;
      submit.pCommandBuffers = &cb;
      submit.signalSemaphoreCount = 1;
      submit.pSignalSemaphores = &app_timeline;
      VkResult result;
      {
        std::lock_guard<std::mutex> lock(queue_mutex_);
        result = vkQueueSubmit(queue_, 1, &submit, VK_NULL_HANDLE);
      }
      if (result != VK_SUCCESS) {
        ADD_FAILURE() << "vkQueueSubmit: " << result;
        return;
      }
      submitted = value;
    }
  });

  std::vector<float> a(kRows * kCols), b(kRows * kCols), c(kRows * kCols);
  for (uint32_t round = 0; round < 12; ++round) {
    for (uint32_t i = 0; i < a.size(); ++i) {
      a[i] = float(i % 97) + round;
      b[i] = float(i % 13);
    }
    meshvk_test::HostInvoke host({meshvk_test::HostIn(a), meshvk_test::HostIn(b)}, {meshvk_test::HostOut(c)});
    ASSERT_MESHVK_OK(meshvk_program_invoke(program_, &host.info));
    for (uint32_t i = 0; i < a.size(); ++i) ASSERT_FLOAT_EQ(c[i], a[i] + kScale * b[i]) << "round " << round;
    // And an async one on the program's own buffers (results left there).
    meshvk_async_invoke_info_t async = MESHVK_ASYNC_INVOKE_INFO_INIT;
    ASSERT_MESHVK_OK(meshvk_program_invoke_async(program_, &async));
  }
  stop = true;
  app_thread.join();
  ASSERT_TRUE(Wait(app_timeline, submitted.load()));
  EXPECT_GE(submitted.load(), 20u);
  EXPECT_EQ(scratch_host[12345], 1.0f);
  ReleaseMeshvk();
  vkDestroyCommandPool(device_, pool, nullptr);
}

TEST_F(EmbedTest, NativeHandlesAreTheApplications) {
  Adopt(3);
  ASSERT_TRUE(set_);
  EXPECT_EQ(meshvk_instance_vk_instance(meshvk_instance_), instance_);
  EXPECT_EQ(meshvk_device_set_topology(set_), MESHVK_TOPOLOGY_LOGICAL);
  for (uint32_t p = 0; p < 3; ++p) {
    meshvk_process_vulkan_t native = MESHVK_PROCESS_VULKAN_INIT;
    ASSERT_MESHVK_OK(meshvk_device_set_process_vulkan(set_, p, &native));
    EXPECT_EQ(native.device, device_);
    EXPECT_EQ(native.queue, queue_);
    EXPECT_EQ(native.physical_device, physical_);
    EXPECT_EQ(native.queue_family, family_);
  }
  meshvk_process_vulkan_t native = MESHVK_PROCESS_VULKAN_INIT;
  EXPECT_EQ(CodeOf(meshvk_device_set_process_vulkan(set_, 3, &native)), MESHVK_STATUS_OUT_OF_RANGE);
  // meshvk's own buffers and semaphores have handles on the application's device too.
  meshvk_buffer_t* own = nullptr;
  ASSERT_MESHVK_OK(meshvk_buffer_create(set_, 1, 256, &own));
  VkDeviceSize offset = 7;
  EXPECT_NE(meshvk_buffer_vk_buffer(own, &offset), VK_NULL_HANDLE);
  EXPECT_EQ(offset, 0u);
  meshvk_semaphore_t* semaphore = nullptr;
  ASSERT_MESHVK_OK(meshvk_semaphore_create(set_, 2, 5, &semaphore));
  uint64_t value = 0;
  EXPECT_EQ(vkGetSemaphoreCounterValue(device_, meshvk_semaphore_vk_semaphore(semaphore), &value), VK_SUCCESS);
  EXPECT_EQ(value, 5u);
  meshvk_semaphore_release(semaphore);
  meshvk_buffer_release(own);
  ReleaseMeshvk();
}

TEST_F(EmbedTest, BadEmbeddingInputIsRefused) {
  Adopt(1);
  ASSERT_TRUE(set_);
  meshvk_device_set_t* other = nullptr;
  meshvk_imported_device_t device{};
  meshvk_device_set_import_info_t info = MESHVK_DEVICE_SET_IMPORT_INFO_INIT;
  info.process_count = 1;
  info.devices = &device;
  info.device_count = 1;
  EXPECT_EQ(CodeOf(meshvk_device_set_import(meshvk_instance_, &info, &other)),
            MESHVK_STATUS_INVALID_ARGUMENT);  // no device
  EXPECT_EQ(other, nullptr);
  VkPhysicalDevice stranger = reinterpret_cast<VkPhysicalDevice>(uintptr_t{0x1234});
  device = {&stranger, 1, device_, VK_API_VERSION_1_2, family_, &queue_, 1};
  EXPECT_EQ(CodeOf(meshvk_device_set_import(meshvk_instance_, &info, &other)),
            MESHVK_STATUS_INVALID_ARGUMENT);  // not the instance's physical device
  device = {&physical_, 1, device_, VK_API_VERSION_1_1, family_, &queue_, 1};
  EXPECT_EQ(CodeOf(meshvk_device_set_import(meshvk_instance_, &info, &other)),
            MESHVK_STATUS_UNAVAILABLE);          // below 1.2
  info.queue_lock.lock = &EmbedTest::LockQueue;  // unlock missing
  device.api_version = VK_API_VERSION_1_2;
  EXPECT_EQ(CodeOf(meshvk_device_set_import(meshvk_instance_, &info, &other)), MESHVK_STATUS_INVALID_ARGUMENT);
  float* host = nullptr;
  VkBuffer buffer = AppBuffer(4096, &host);
  meshvk_buffer_t* imported = nullptr;
  EXPECT_EQ(CodeOf(ImportAppBuffer(set_, 0, buffer, 3, 64, &imported)), MESHVK_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(CodeOf(ImportAppBuffer(set_, 1, buffer, 0, 64, &imported)), MESHVK_STATUS_OUT_OF_RANGE);
  EXPECT_EQ(imported, nullptr);

  ASSERT_NO_FATAL_FAILURE(CreateProgram(meshvk_test::Elementwise({1}, {{0}, {}}, 4, 4, 1.0f)));
  meshvk_async_invoke_info_t async = MESHVK_ASYNC_INVOKE_INFO_INIT;
  meshvk_device_tensor_t one{};
  async.arguments = &one;
  async.argument_count = 1;  // the function takes 2
  EXPECT_EQ(CodeOf(meshvk_program_invoke_async(program_, &async)), MESHVK_STATUS_INVALID_ARGUMENT);
  meshvk_device_tensor_t two[2] = {};
  async.arguments = two;
  async.argument_count = 2;  // with 0 shard buffers each; the tensors have 1 shard
  EXPECT_EQ(CodeOf(meshvk_program_invoke_async(program_, &async)), MESHVK_STATUS_INVALID_ARGUMENT);
  ReleaseMeshvk();
}

// What an application must enable, before it creates its device.
TEST(EmbedRequirements, VersionFeaturesAndShaderCapabilities) {
  EXPECT_EQ(meshvk_version(), MESHVK_VERSION);
  meshvk_vulkan_requirements_t needs = MESHVK_VULKAN_REQUIREMENTS_INIT;
  ASSERT_MESHVK_OK(meshvk_vulkan_requirements(MESHVK_TOPOLOGY_DEVICE_GROUP, nullptr, &needs));
  EXPECT_EQ(needs.api_version, VK_API_VERSION_1_2);
  EXPECT_EQ(needs.timeline_semaphore, 1u);
  EXPECT_EQ(needs.device_extension_count, 0u);
  EXPECT_EQ(needs.queue_flags & VK_QUEUE_COMPUTE_BIT, unsigned{VK_QUEUE_COMPUTE_BIT});
  EXPECT_EQ(CodeOf(meshvk_vulkan_requirements(static_cast<meshvk_topology_t>(9), nullptr, &needs)),
            MESHVK_STATUS_INVALID_ARGUMENT);
  // A module header and OpCapability Shader, Float16, Int64, StorageBuffer16BitAccess.
  const uint32_t spirv[] = {
      0x07230203, 0x00010300,      0,   10, 0, (2u << 16) | 17, 1, (2u << 16) | 17, 9, (2u << 16) | 17,
      11,         (2u << 16) | 17, 4433};
  meshvk_shader_features_t features = MESHVK_SHADER_FEATURES_INIT;
  ASSERT_MESHVK_OK(meshvk_executable_spirv_features(spirv, sizeof(spirv), &features));
  EXPECT_EQ(features.shader_float16, 1u);
  EXPECT_EQ(features.shader_int64, 1u);
  EXPECT_EQ(features.storage_buffer_16bit_access, 1u);
  EXPECT_EQ(features.shader_int8, 0u);
  // The elementwise test module's kernel (GLSL scaled_add) needs none of them.
  std::vector<uint8_t> bytes = meshvk_test::Elementwise({2}, {{0}, {}}, 8, 8, 1.0f);
  meshvk_module_t* module = nullptr;
  ASSERT_MESHVK_OK(meshvk_module_load(bytes.data(), bytes.size(), &module));
  meshvk_shader_features_t module_features = MESHVK_SHADER_FEATURES_INIT;
  ASSERT_MESHVK_OK(meshvk_module_shader_features(module, &module_features));
  EXPECT_EQ(module_features.shader_float16 + module_features.shader_int64 + module_features.shader_int8, 0u);
  meshvk_module_release(module);
}

}  // namespace
