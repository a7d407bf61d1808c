// meshvk_command_buffer_t: built-in kernels against host loops, the ring of
// peer copies over P logical processes, replays, and bad recording calls.
#include <cstring>
#include <vector>

#include "vulkan_fixture.h"

namespace meshvk_test {
namespace {

using CommandBufferTest = VulkanTest;

constexpr uint64_t kSecond = 1000ull * 1000 * 1000;

uint32_t Bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

// Host value of element i of process p's input shard.
float HostInput(uint32_t p, uint32_t i) { return 0.25f * static_cast<float>(i) + 10.0f * p; }

class RingTest : public VulkanTest, public ::testing::WithParamInterface<uint32_t> {};

// For P logical processes: each fills a shard on its own device (vkCmdFillBuffer
// and the fill kernel), sums it with an uploaded input (sum kernel), then in a
// second phase pulls its predecessor's result (ring copy, ordered by timeline
// semaphores). The host checks every shard against its own arithmetic.
TEST_P(RingTest, FillComputeRingCopyGather) {
  const uint32_t processes = GetParam();
  const uint32_t n = 1000;
  const uint64_t bytes = n * 4;
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, processes);
  ASSERT_TRUE(set);
  Executable fill = Builtin(set.get(), MESHVK_BUILTIN_FILL);
  ASSERT_TRUE(fill);
  std::vector<Buffer> input, ones, result, ring;
  std::vector<Semaphore> phase;
  std::vector<CommandBuffer> compute, pull;
  for (uint32_t p = 0; p < processes; ++p) {
    input.push_back(MakeBuffer(set.get(), p, bytes));
    ones.push_back(MakeBuffer(set.get(), p, bytes));
    result.push_back(MakeBuffer(set.get(), p, bytes));
    ring.push_back(MakeBuffer(set.get(), p, bytes));
    meshvk_semaphore_t* raw = nullptr;
    MESHVK_ASSERT_OK(meshvk_semaphore_create(set.get(), p, 0, &raw));
    phase.emplace_back(raw);
    std::vector<float> host(n);
    for (uint32_t i = 0; i < n; ++i) host[i] = HostInput(p, i);
    MESHVK_ASSERT_OK(meshvk_buffer_write(input[p].get(), 0, host.data(), bytes));
  }
  // Phase 1: ones[p] = p + 1 (first half by vkCmdFillBuffer, second half by
  // the fill kernel), result[p] = input[p] + ones[p].
  for (uint32_t p = 0; p < processes; ++p) {
    compute.push_back(MakeCommandBuffer(set.get(), p));
    meshvk_command_buffer_t* cb = compute[p].get();
    ASSERT_TRUE(cb);
    const uint32_t half = n / 2;
    MESHVK_ASSERT_OK(meshvk_command_buffer_fill(cb, ones[p].get(), 0, half * 4, Bits(p + 1.0f)));
    meshvk_binding_t binding = {ones[p].get(), 0, 0, 1};
    uint32_t push[3] = {half, n - half, Bits(p + 1.0f)};
    meshvk_dispatch_info_t dispatch = FillDispatch(fill.get(), &binding, push, 2);
    MESHVK_ASSERT_OK(meshvk_command_buffer_dispatch(cb, &dispatch));
    meshvk_buffer_t* sources[2] = {input[p].get(), ones[p].get()};
    MESHVK_ASSERT_OK(meshvk_command_buffer_sum_f32(cb, sources, 2, result[p].get(), n));
    MESHVK_ASSERT_OK(meshvk_command_buffer_end(cb));
    meshvk_semaphore_value_t signal = {phase[p].get(), 1};
    meshvk_submit_info_t submit = SubmitInfo(cb, nullptr, 0, &signal, 1);
    MESHVK_ASSERT_OK(meshvk_queue_submit(set.get(), &submit));
  }
  // Phase 2: ring[p] <- result[p - 1], recorded on the destination (pull).
  for (uint32_t p = 0; p < processes; ++p) {
    const uint32_t from = (p + processes - 1) % processes;
    pull.push_back(MakeCommandBuffer(set.get(), p));
    meshvk_command_buffer_t* cb = pull[p].get();
    ASSERT_TRUE(cb);
    if (meshvk_device_set_peer_features(set.get(), p, from) & 0x1u) {
      MESHVK_ASSERT_OK(meshvk_command_buffer_copy(cb, result[from].get(), 0, ring[p].get(), 0, bytes));
    } else {
      // Different VkDevices (several physical devices): the runtime says so;
      // this hop goes through the host instead.
      EXPECT_TRUE(HasCode(meshvk_command_buffer_copy(cb, result[from].get(), 0, ring[p].get(), 0, bytes),
                          MESHVK_STATUS_INVALID_ARGUMENT, "different VkDevices"));
      MESHVK_ASSERT_OK(meshvk_semaphore_wait(phase[from].get(), 1, 60 * kSecond));
      std::vector<uint8_t> staged(bytes);
      MESHVK_ASSERT_OK(meshvk_buffer_read(result[from].get(), 0, staged.data(), bytes));
      MESHVK_ASSERT_OK(meshvk_buffer_write(ring[p].get(), 0, staged.data(), bytes));
    }
    MESHVK_ASSERT_OK(meshvk_command_buffer_end(cb));
    std::vector<meshvk_semaphore_value_t> waits = {{phase[p].get(), 1}};
    meshvk_process_info_t mine = MESHVK_PROCESS_INFO_INIT, theirs = MESHVK_PROCESS_INFO_INIT;
    MESHVK_ASSERT_OK(meshvk_device_set_process_info(set.get(), p, &mine));
    MESHVK_ASSERT_OK(meshvk_device_set_process_info(set.get(), from, &theirs));
    if (from != p && mine.logical_device == theirs.logical_device) {
      waits.push_back({phase[from].get(), 1});
    }
    meshvk_semaphore_value_t signal = {phase[p].get(), 2};
    meshvk_submit_info_t submit = SubmitInfo(cb, waits.data(), static_cast<uint32_t>(waits.size()), &signal, 1);
    MESHVK_ASSERT_OK(meshvk_queue_submit(set.get(), &submit));
  }
  // Gather and compare with the host.
  for (uint32_t p = 0; p < processes; ++p) {
    MESHVK_ASSERT_OK(meshvk_semaphore_wait(phase[p].get(), 2, 60 * kSecond));
    const uint32_t from = (p + processes - 1) % processes;
    std::vector<float> own = ReadFloats(result[p].get());
    std::vector<float> pulled = ReadFloats(ring[p].get());
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_EQ(own[i], HostInput(p, i) + (p + 1.0f)) << "process " << p << " element " << i;
      ASSERT_EQ(pulled[i], HostInput(from, i) + (from + 1.0f))
          << "process " << p << " pulled element " << i << " from " << from;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Processes, RingTest, ::testing::Values(1u, 2u, 4u, 8u));

TEST_F(CommandBufferTest, FillKernelIsCorrectForAnyWorkgroupCount) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(set);
  Executable fill = Builtin(set.get(), MESHVK_BUILTIN_FILL);
  const uint32_t n = 3000;
  for (uint32_t workgroups : {1u, 3u, 47u, 1000u}) {
    Buffer buffer = MakeBuffer(set.get(), 0, n * 4);
    CommandBuffer cb = MakeCommandBuffer(set.get(), 0);
    ASSERT_TRUE(buffer && cb && fill);
    MESHVK_ASSERT_OK(meshvk_command_buffer_fill(cb.get(), buffer.get(), 0, n * 4, 0xFFFFFFFFu));
    meshvk_binding_t binding = {buffer.get(), 0, 0, 1};
    uint32_t push[3] = {100, 2500, 0x5A5A0000u + workgroups};
    meshvk_dispatch_info_t dispatch = FillDispatch(fill.get(), &binding, push, workgroups);
    MESHVK_ASSERT_OK(meshvk_command_buffer_dispatch(cb.get(), &dispatch));
    MESHVK_ASSERT_OK(meshvk_command_buffer_end(cb.get()));
    SubmitAndWait(set.get(), 0, cb.get());
    std::vector<uint32_t> words = ReadWords(buffer.get());
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t expected = (i >= 100 && i < 2600) ? 0x5A5A0000u + workgroups : 0xFFFFFFFFu;
      ASSERT_EQ(words[i], expected) << "workgroups " << workgroups << " word " << i;
    }
  }
}

TEST_F(CommandBufferTest, StridedCopyMatchesAHostLoop) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 2);
  ASSERT_TRUE(set);
  const uint32_t src_words = 4096, dst_words = 2048;
  Buffer src = MakeBuffer(set.get(), 0, src_words * 4);
  Buffer dst = MakeBuffer(set.get(), 0, dst_words * 4);
  ASSERT_TRUE(src && dst);
  std::vector<uint32_t> host_src(src_words), host_dst(dst_words, 0xCDCDCDCDu);
  for (uint32_t i = 0; i < src_words; ++i) host_src[i] = i * 2654435761u;
  MESHVK_ASSERT_OK(meshvk_buffer_write(src.get(), 0, host_src.data(), src_words * 4));
  MESHVK_ASSERT_OK(meshvk_buffer_write(dst.get(), 0, host_dst.data(), dst_words * 4));
  // A 5x7x3 slice of a 16x16x16 tensor into a packed 7x5x3 transpose-ish layout.
  meshvk_strided_region_t region = {};
  region.src_offset_words = 3 + 16 * 2 + 256 * 1;
  region.dst_offset_words = 11;
  region.count[0] = 5;
  region.count[1] = 7;
  region.count[2] = 3;
  region.src_stride[0] = 1;
  region.src_stride[1] = 16;
  region.src_stride[2] = 256;
  region.dst_stride[0] = 7;
  region.dst_stride[1] = 1;
  region.dst_stride[2] = 40;
  CommandBuffer cb = MakeCommandBuffer(set.get(), 0);
  ASSERT_TRUE(cb);
  MESHVK_ASSERT_OK(meshvk_command_buffer_copy_strided(cb.get(), src.get(), dst.get(), &region));
  MESHVK_ASSERT_OK(meshvk_command_buffer_end(cb.get()));
  SubmitAndWait(set.get(), 0, cb.get());
  for (uint32_t k = 0; k < 3; ++k) {
    for (uint32_t j = 0; j < 7; ++j) {
      for (uint32_t i = 0; i < 5; ++i) {
        host_dst[11 + i * 7 + j + k * 40] = host_src[region.src_offset_words + i + j * 16 + k * 256];
      }
    }
  }
  EXPECT_EQ(ReadWords(dst.get()), host_dst);
}

// A strided copy covers only the words it copies: process 1 pulls the first
// half of process 0's buffer while process 0 rewrites the second half, with
// nothing ordering the two. On an emulated group the layer's race check fails
// the test if the copy claims the whole buffer (it used to bind all of it).
TEST_F(CommandBufferTest, StridedCopyFromAPeerClaimsOnlyItsWords) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_AUTO, 2);
  ASSERT_TRUE(set);
  if (!(meshvk_device_set_peer_features(set.get(), 1, 0) & 0x1u)) {
    GTEST_SKIP() << "process 1 cannot read process 0's memory (different VkDevices)";
  }
  const uint32_t words = 1024, half = words / 2;
  Buffer shared = MakeBuffer(set.get(), 0, words * 4);
  Buffer pulled = MakeBuffer(set.get(), 1, half * 4);
  ASSERT_TRUE(shared && pulled);
  std::vector<uint32_t> host(words);
  for (uint32_t i = 0; i < words; ++i) host[i] = 0x1000u + i;
  MESHVK_ASSERT_OK(meshvk_buffer_write(shared.get(), 0, host.data(), words * 4));
  // Every other word of the first half, starting at word 5 (not aligned).
  meshvk_strided_region_t region = {};
  region.src_offset_words = 5;
  region.count[0] = (half - 5) / 2;
  region.count[1] = region.count[2] = 1;
  region.src_stride[0] = 2;
  region.dst_stride[0] = 1;
  CommandBuffer pull = MakeCommandBuffer(set.get(), 1);
  CommandBuffer rewrite = MakeCommandBuffer(set.get(), 0);
  ASSERT_TRUE(pull && rewrite);
  MESHVK_ASSERT_OK(meshvk_command_buffer_copy_strided(pull.get(), shared.get(), pulled.get(), &region));
  MESHVK_ASSERT_OK(meshvk_command_buffer_end(pull.get()));
  MESHVK_ASSERT_OK(meshvk_command_buffer_fill(rewrite.get(), shared.get(), half * 4, half * 4, 0xDEADBEEFu));
  MESHVK_ASSERT_OK(meshvk_command_buffer_end(rewrite.get()));
  std::vector<Semaphore> done;
  for (uint32_t p = 0; p < 2; ++p) {
    meshvk_semaphore_t* raw = nullptr;
    MESHVK_ASSERT_OK(meshvk_semaphore_create(set.get(), p, 0, &raw));
    done.emplace_back(raw);
    meshvk_semaphore_value_t signal = {raw, 1};
    meshvk_submit_info_t submit = SubmitInfo(p == 0 ? rewrite.get() : pull.get(), nullptr, 0, &signal, 1);
    MESHVK_ASSERT_OK(meshvk_queue_submit(set.get(), &submit));
  }
  for (auto& semaphore : done) MESHVK_ASSERT_OK(meshvk_semaphore_wait(semaphore.get(), 1, 60 * kSecond));
  std::vector<uint32_t> got = ReadWords(pulled.get());
  for (uint32_t i = 0; i < region.count[0]; ++i) ASSERT_EQ(got[i], 0x1000u + 5 + 2 * i) << "word " << i;
  std::vector<uint32_t> after = ReadWords(shared.get());
  for (uint32_t i = half; i < words; ++i) ASSERT_EQ(after[i], 0xDEADBEEFu) << "word " << i;
}

TEST_F(CommandBufferTest, SumKernelMatchesAHostLoopForOneToEightSources) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(set);
  const uint32_t n = 777;
  std::vector<Buffer> sources;
  std::vector<std::vector<float>> host(8, std::vector<float>(n));
  for (uint32_t s = 0; s < 8; ++s) {
    for (uint32_t i = 0; i < n; ++i) host[s][i] = 1.0f / (1.0f + i + s) - 0.01f * s;
    sources.push_back(MakeBuffer(set.get(), 0, n * 4));
    ASSERT_TRUE(sources.back());
    MESHVK_ASSERT_OK(meshvk_buffer_write(sources[s].get(), 0, host[s].data(), n * 4));
  }
  for (uint32_t k = 1; k <= 8; ++k) {
    Buffer dst = MakeBuffer(set.get(), 0, n * 4);
    CommandBuffer cb = MakeCommandBuffer(set.get(), 0);
    ASSERT_TRUE(dst && cb);
    std::vector<meshvk_buffer_t*> srcs;
    for (uint32_t s = 0; s < k; ++s) srcs.push_back(sources[s].get());
    MESHVK_ASSERT_OK(meshvk_command_buffer_sum_f32(cb.get(), srcs.data(), k, dst.get(), n));
    MESHVK_ASSERT_OK(meshvk_command_buffer_end(cb.get()));
    SubmitAndWait(set.get(), 0, cb.get());
    std::vector<float> got = ReadFloats(dst.get());
    for (uint32_t i = 0; i < n; ++i) {
      float expected = host[0][i];
      for (uint32_t s = 1; s < k; ++s) expected += host[s][i];  // same order as the kernel
      ASSERT_EQ(got[i], expected) << "k " << k << " element " << i;
    }
  }
}

TEST_F(CommandBufferTest, RecordOnceSubmitThreeTimes) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(set);
  const uint32_t n = 512;
  Buffer accumulator = MakeBuffer(set.get(), 0, n * 4);
  Buffer step = MakeBuffer(set.get(), 0, n * 4);
  ASSERT_TRUE(accumulator && step);
  std::vector<float> start(n), increment(n);
  for (uint32_t i = 0; i < n; ++i) {
    start[i] = static_cast<float>(i);
    increment[i] = 0.5f * static_cast<float>(i % 8);
  }
  MESHVK_ASSERT_OK(meshvk_buffer_write(accumulator.get(), 0, start.data(), n * 4));
  MESHVK_ASSERT_OK(meshvk_buffer_write(step.get(), 0, increment.data(), n * 4));
  // accumulator += step, in place (dst aliases source 0).
  CommandBuffer cb = MakeCommandBuffer(set.get(), 0);
  ASSERT_TRUE(cb);
  meshvk_buffer_t* srcs[2] = {accumulator.get(), step.get()};
  MESHVK_ASSERT_OK(meshvk_command_buffer_sum_f32(cb.get(), srcs, 2, accumulator.get(), n));
  MESHVK_ASSERT_OK(meshvk_command_buffer_end(cb.get()));
  meshvk_semaphore_t* raw = nullptr;
  MESHVK_ASSERT_OK(meshvk_semaphore_create(set.get(), 0, 0, &raw));
  Semaphore done(raw);
  for (uint64_t round = 1; round <= 3; ++round) {
    meshvk_semaphore_value_t signal = {done.get(), round};
    meshvk_submit_info_t submit = SubmitInfo(cb.get(), nullptr, 0, &signal, 1);
    MESHVK_ASSERT_OK(meshvk_queue_submit(set.get(), &submit));
  }
  MESHVK_ASSERT_OK(meshvk_semaphore_wait(done.get(), 3, 60 * kSecond));
  std::vector<float> got = ReadFloats(accumulator.get());
  for (uint32_t i = 0; i < n; ++i) {
    float expected = start[i];
    for (int round = 0; round < 3; ++round) expected += increment[i];
    ASSERT_EQ(got[i], expected) << i;
  }
}

TEST_F(CommandBufferTest, BadRecordingCallsReturnErrorsAndLeaveTheBufferUsable) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 2);
  DeviceSet other_set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(set && other_set);
  Buffer a = MakeBuffer(set.get(), 0, 256);
  Buffer b = MakeBuffer(set.get(), 0, 256);
  Buffer theirs = MakeBuffer(set.get(), 1, 256);
  Buffer foreign = MakeBuffer(other_set.get(), 0, 256);
  Executable fill = Builtin(set.get(), MESHVK_BUILTIN_FILL);
  CommandBuffer cb = MakeCommandBuffer(set.get(), 0);
  ASSERT_TRUE(a && b && theirs && foreign && fill && cb);
  meshvk_command_buffer_t* c = cb.get();

  meshvk_command_buffer_t* raw = reinterpret_cast<meshvk_command_buffer_t*>(0x1);
  EXPECT_TRUE(HasCode(meshvk_command_buffer_create(set.get(), 2, &raw), MESHVK_STATUS_OUT_OF_RANGE, "process 2"));
  EXPECT_EQ(raw, nullptr);
  EXPECT_TRUE(HasCode(meshvk_command_buffer_create(nullptr, 0, &raw), MESHVK_STATUS_INVALID_ARGUMENT));
  EXPECT_TRUE(HasCode(meshvk_command_buffer_fill(nullptr, a.get(), 0, 4, 0), MESHVK_STATUS_INVALID_ARGUMENT));
  EXPECT_TRUE(HasCode(meshvk_command_buffer_fill(c, nullptr, 0, 4, 0), MESHVK_STATUS_INVALID_ARGUMENT));
  EXPECT_TRUE(
      HasCode(meshvk_command_buffer_fill(c, a.get(), 2, 4, 0), MESHVK_STATUS_INVALID_ARGUMENT, "multiples of 4"));
  EXPECT_TRUE(HasCode(meshvk_command_buffer_fill(c, a.get(), 0, 260, 0), MESHVK_STATUS_OUT_OF_RANGE));
  EXPECT_TRUE(HasCode(meshvk_command_buffer_fill(c, theirs.get(), 0, 4, 0), MESHVK_STATUS_INVALID_ARGUMENT,
                      "belongs to process 1"));
  // Copies: past the end, overlapping, into another process, across sets.
  EXPECT_TRUE(
      HasCode(meshvk_command_buffer_copy(c, a.get(), 200, b.get(), 0, 100), MESHVK_STATUS_OUT_OF_RANGE, "source"));
  EXPECT_TRUE(
      HasCode(meshvk_command_buffer_copy(c, a.get(), 0, b.get(), 250, 8), MESHVK_STATUS_OUT_OF_RANGE, "destination"));
  EXPECT_TRUE(
      HasCode(meshvk_command_buffer_copy(c, a.get(), 0, a.get(), 64, 128), MESHVK_STATUS_INVALID_ARGUMENT, "overlap"));
  EXPECT_TRUE(
      HasCode(meshvk_command_buffer_copy(c, a.get(), 0, theirs.get(), 0, 8), MESHVK_STATUS_INVALID_ARGUMENT, "pull"));
  EXPECT_TRUE(HasCode(meshvk_command_buffer_copy(c, foreign.get(), 0, a.get(), 0, 8), MESHVK_STATUS_INVALID_ARGUMENT,
                      "another device set"));
  EXPECT_TRUE(HasCode(meshvk_command_buffer_copy(c, a.get(), 0, b.get(), 0, 0), MESHVK_STATUS_INVALID_ARGUMENT));
  // Dispatches: workgroup counts, bindings, push constants.
  meshvk_binding_t binding = {a.get(), 0, 0, 1};
  uint32_t push[3] = {0, 32, 1};
  meshvk_dispatch_info_t dispatch = FillDispatch(fill.get(), &binding, push, 1);
  meshvk_device_limits_t limits = MESHVK_DEVICE_LIMITS_INIT;
  MESHVK_ASSERT_OK(meshvk_device_set_process_limits(set.get(), 0, &limits));
  dispatch.workgroup_count[0] = limits.max_workgroup_count[0] + 1;
  EXPECT_TRUE(HasCode(meshvk_command_buffer_dispatch(c, &dispatch), MESHVK_STATUS_OUT_OF_RANGE, "workgroup count"));
  dispatch.workgroup_count[0] = 0;
  EXPECT_TRUE(HasCode(meshvk_command_buffer_dispatch(c, &dispatch), MESHVK_STATUS_OUT_OF_RANGE));
  dispatch.workgroup_count[0] = 1;
  dispatch.workgroup_base[0] = limits.max_workgroup_count[0];
  EXPECT_TRUE(HasCode(meshvk_command_buffer_dispatch(c, &dispatch), MESHVK_STATUS_OUT_OF_RANGE));
  dispatch.workgroup_base[0] = 0;
  dispatch.binding_count = 2;
  EXPECT_TRUE(HasCode(meshvk_command_buffer_dispatch(c, &dispatch), MESHVK_STATUS_INVALID_ARGUMENT, "binding"));
  dispatch.binding_count = 1;
  dispatch.push_constant_size = 8;
  EXPECT_TRUE(HasCode(meshvk_command_buffer_dispatch(c, &dispatch), MESHVK_STATUS_INVALID_ARGUMENT, "push constant"));
  dispatch.push_constant_size = 12;
  binding.offset = 4;
  EXPECT_TRUE(HasCode(meshvk_command_buffer_dispatch(c, &dispatch), MESHVK_STATUS_INVALID_ARGUMENT, "multiple of"));
  binding.offset = 0;
  binding.range = 512;
  EXPECT_TRUE(HasCode(meshvk_command_buffer_dispatch(c, &dispatch), MESHVK_STATUS_OUT_OF_RANGE));
  binding.range = 0;
  binding.buffer = foreign.get();
  EXPECT_TRUE(
      HasCode(meshvk_command_buffer_dispatch(c, &dispatch), MESHVK_STATUS_INVALID_ARGUMENT, "another device set"));
  binding.buffer = a.get();
  dispatch.executable = nullptr;
  EXPECT_TRUE(HasCode(meshvk_command_buffer_dispatch(c, &dispatch), MESHVK_STATUS_INVALID_ARGUMENT));
  EXPECT_TRUE(HasCode(meshvk_command_buffer_dispatch(c, nullptr), MESHVK_STATUS_INVALID_ARGUMENT));
  dispatch.executable = fill.get();
  // Strided copy and sum.
  meshvk_strided_region_t region = {};
  region.count[0] = 65;
  region.count[1] = region.count[2] = 1;
  region.src_stride[0] = region.dst_stride[0] = 1;
  EXPECT_TRUE(HasCode(meshvk_command_buffer_copy_strided(c, a.get(), b.get(), &region), MESHVK_STATUS_OUT_OF_RANGE,
                      "source word 64"));
  region.count[0] = 8;
  region.count[1] = 0;
  EXPECT_TRUE(HasCode(meshvk_command_buffer_copy_strided(c, a.get(), b.get(), &region), MESHVK_STATUS_INVALID_ARGUMENT,
                      "count[1]"));
  region.count[1] = 1;
  region.dst_offset_words = 4;
  EXPECT_TRUE(HasCode(meshvk_command_buffer_copy_strided(c, a.get(), a.get(), &region), MESHVK_STATUS_INVALID_ARGUMENT,
                      "overlap"));
  EXPECT_TRUE(
      HasCode(meshvk_command_buffer_copy_strided(c, a.get(), b.get(), nullptr), MESHVK_STATUS_INVALID_ARGUMENT));
  std::vector<meshvk_buffer_t*> nine(9, a.get());
  EXPECT_TRUE(
      HasCode(meshvk_command_buffer_sum_f32(c, nine.data(), 9, b.get(), 64), MESHVK_STATUS_INVALID_ARGUMENT, "1..8"));
  EXPECT_TRUE(HasCode(meshvk_command_buffer_sum_f32(c, nine.data(), 2, b.get(), 65), MESHVK_STATUS_OUT_OF_RANGE));
  // Submitting while still recording.
  meshvk_submit_info_t submit = SubmitInfo(c);
  EXPECT_TRUE(HasCode(meshvk_queue_submit(set.get(), &submit), MESHVK_STATUS_FAILED_PRECONDITION, "still recording"));
  EXPECT_TRUE(HasCode(meshvk_queue_submit(other_set.get(), &submit), MESHVK_STATUS_INVALID_ARGUMENT));
  EXPECT_TRUE(HasCode(meshvk_queue_submit(set.get(), nullptr), MESHVK_STATUS_INVALID_ARGUMENT));

  // After all that, the command buffer still records and runs correctly.
  MESHVK_ASSERT_OK(meshvk_command_buffer_fill(c, a.get(), 0, 256, 0x11111111u));
  MESHVK_ASSERT_OK(meshvk_command_buffer_copy(c, a.get(), 0, a.get(), 128, 128));
  MESHVK_ASSERT_OK(meshvk_command_buffer_barrier(c));
  MESHVK_ASSERT_OK(meshvk_command_buffer_dispatch(c, &dispatch));  // words 0..31 = 1
  MESHVK_ASSERT_OK(meshvk_command_buffer_end(c));
  EXPECT_TRUE(HasCode(meshvk_command_buffer_fill(c, a.get(), 0, 4, 0), MESHVK_STATUS_FAILED_PRECONDITION, "ended"));
  EXPECT_TRUE(HasCode(meshvk_command_buffer_end(c), MESHVK_STATUS_FAILED_PRECONDITION));
  SubmitAndWait(set.get(), 0, c);
  std::vector<uint32_t> words = ReadWords(a.get());
  for (uint32_t i = 0; i < 32; ++i) ASSERT_EQ(words[i], 1u) << i;
  for (uint32_t i = 32; i < 64; ++i) ASSERT_EQ(words[i], 0x11111111u) << i;
}

// A command buffer records only what its own VkDevice can reach: another
// VkDevice's buffer comes through meshvk_buffer_share or
// meshvk_buffer_copy_host_staged (cross_device_test.cc). Asking for more is
// the caller's error, not something a later version will do.
TEST_F(CommandBufferTest, CrossVkDeviceCopyIsRefused) {
  if (meshvk_instance_physical_device_count(instance()) < 2) {
    GTEST_SKIP() << "needs 2+ physical devices (one VkDevice each); this machine has "
                 << meshvk_instance_physical_device_count(instance());
  }
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_INDEPENDENT, 2);
  ASSERT_TRUE(set);
  EXPECT_EQ(meshvk_device_set_peer_features(set.get(), 0, 1), 0u);
  Buffer src = MakeBuffer(set.get(), 1, 64);
  Buffer dst = MakeBuffer(set.get(), 0, 64);
  CommandBuffer cb = MakeCommandBuffer(set.get(), 0);
  ASSERT_TRUE(src && dst && cb);
  EXPECT_TRUE(HasCode(meshvk_command_buffer_copy(cb.get(), src.get(), 0, dst.get(), 0, 64),
                      MESHVK_STATUS_INVALID_ARGUMENT, "different VkDevices"));
  // Nor can a submit on process 0 wait for a semaphore living on process 1's VkDevice.
  meshvk_semaphore_t* raw = nullptr;
  MESHVK_ASSERT_OK(meshvk_semaphore_create(set.get(), 1, 0, &raw));
  Semaphore remote(raw);
  MESHVK_ASSERT_OK(meshvk_command_buffer_end(cb.get()));
  meshvk_semaphore_value_t wait = {remote.get(), 1};
  meshvk_submit_info_t submit = SubmitInfo(cb.get(), &wait, 1);
  EXPECT_TRUE(
      HasCode(meshvk_queue_submit(set.get(), &submit), MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_semaphore_share"));
}

}  // namespace
}  // namespace meshvk_test

namespace meshvk_test {
namespace {

// Every command buffer times itself where the queue family has timestamps:
// nothing to read before a submission, a positive time after one that did
// real work (a fill of 16 MiB).
TEST_F(CommandBufferTest, DeviceTimeOfTheLastSubmission) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(set);
  const uint64_t bytes = 16ull << 20;
  Buffer buffer = MakeBuffer(set.get(), 0, bytes);
  CommandBuffer cb = MakeCommandBuffer(set.get(), 0);
  ASSERT_TRUE(cb);
  MESHVK_ASSERT_OK(meshvk_command_buffer_fill(cb.get(), buffer.get(), 0, bytes, 7));
  MESHVK_ASSERT_OK(meshvk_command_buffer_end(cb.get()));
  uint64_t ns = 1;
  meshvk_status_t before = meshvk_command_buffer_device_time(cb.get(), &ns);
  if (meshvk_status_code(before) == MESHVK_STATUS_UNAVAILABLE) {
    meshvk_status_free(before);
    GTEST_SKIP() << "the queue family has no timestamp queries";
  }
  EXPECT_TRUE(HasCode(before, MESHVK_STATUS_FAILED_PRECONDITION, "never submitted"));
  EXPECT_EQ(ns, 0u);
  SubmitAndWait(set.get(), 0, cb.get());
  MESHVK_ASSERT_OK(meshvk_command_buffer_device_time(cb.get(), &ns));
  EXPECT_GT(ns, 0u);
  EXPECT_LT(ns, 60ull * kSecond);
  EXPECT_TRUE(HasCode(meshvk_command_buffer_device_time(nullptr, &ns), MESHVK_STATUS_INVALID_ARGUMENT));
}

}  // namespace
}  // namespace meshvk_test
