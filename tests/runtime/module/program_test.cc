// Runs builder-made artifacts on P in {1, 2, 4} logical devices with the
// validation layer (and synchronization validation) on; any message fails.
// Oracles are host loops over the same inputs, never the runtime's output.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "meshvk/artifact/variants.h"
#include "program_fixture.h"
#include "programs.h"

namespace meshvk_test {
namespace {

class ProgramTest : public VulkanTest {};

std::vector<float> Iota(size_t n, float start, float step) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = start + step * static_cast<float>(i % 97);
  return v;
}

struct Split {
  std::vector<uint32_t> grid;
  std::vector<std::vector<uint32_t>> axes;
};

class ElementwiseTest : public ProgramTest, public ::testing::WithParamInterface<Split> {};

TEST_P(ElementwiseTest, MatchesHostLoopOverSeveralInvokes) {
  const Split& split = GetParam();
  uint32_t P = 1;
  for (uint32_t e : split.grid) P *= e;
  const uint64_t rows = 8, cols = 12;
  Module module = LoadModule(Elementwise(split.grid, split.axes, rows, cols, 0.5f));
  ASSERT_TRUE(module);
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, P);
  ASSERT_TRUE(set);
  Program program = MakeProgram(module.get(), set.get());
  ASSERT_TRUE(program);
  // Recorded once; each invoke replays with new inputs.
  for (int run = 0; run < 3; ++run) {
    std::vector<float> a = Iota(rows * cols, 1.0f + run, 0.25f), b = Iota(rows * cols, -3.0f, 1.5f + run);
    std::vector<float> c(rows * cols, -1.0f);
    HostInvoke invoke({HostIn(a), HostIn(b)}, {HostOut(c)});
    MESHVK_ASSERT_OK(meshvk_program_invoke(program.get(), &invoke.info));
    for (size_t i = 0; i < c.size(); ++i) ASSERT_EQ(c[i], a[i] + 0.5f * b[i]) << "run " << run << " element " << i;
  }
  meshvk_program_stats_t stats = MESHVK_PROGRAM_STATS_INIT;
  meshvk_status_free(meshvk_program_stats(program.get(), &stats));
  EXPECT_EQ(stats.command_buffer_count, P);  // one phase, one command buffer per process
  EXPECT_EQ(stats.command_count, P);
}

INSTANTIATE_TEST_SUITE_P(Shardings, ElementwiseTest,
                         ::testing::Values(Split{{1}, {{0}, {}}}, Split{{2}, {{0}, {}}}, Split{{4}, {{0}, {}}},
                                           // columns: each shard is a strided slice of the host tensor
                                           Split{{2}, {{}, {0}}}, Split{{4}, {{}, {0}}}, Split{{2, 2}, {{0}, {1}}},
                                           Split{{2, 2}, {{1}, {0}}},
                                           // replicated: every process computes the whole tensor
                                           Split{{2}, {{}, {}}}));

class AllGatherTest : public ProgramTest, public ::testing::WithParamInterface<uint32_t> {};

TEST_P(AllGatherTest, EveryReplicaHoldsAllBlocks) {
  const uint32_t P = GetParam();
  const uint64_t n = 40;
  Module module = LoadModule(RingAllGather(P, n));
  ASSERT_TRUE(module);
  EXPECT_EQ(meshvk_module_function_phase_count(module.get(), 0), P);
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, P);
  ASSERT_TRUE(set);
  Program program = MakeProgram(module.get(), set.get());
  ASSERT_TRUE(program);
  for (int run = 0; run < 2; ++run) {
    std::vector<float> x = Iota(P * n, 10.0f * run, 1.0f);
    HostInvoke invoke({HostIn(x)}, {});
    meshvk_invoke_info_t& info = invoke.info;
    info.flags = MESHVK_INVOKE_KEEP_RESULTS_SHARDED_BIT | MESHVK_INVOKE_TIMESTAMPS_BIT;
    MESHVK_ASSERT_OK(meshvk_program_invoke(program.get(), &info));
    for (uint32_t p = 0; p < P; ++p) {
      meshvk_shard_view_t view = MESHVK_SHARD_VIEW_INIT;
      MESHVK_ASSERT_OK(meshvk_program_result_shard(program.get(), 0, 0, p, &view));
      EXPECT_EQ(view.process, p);
      ASSERT_EQ(view.shape[0], P * n);
      std::vector<float> y(P * n);
      MESHVK_ASSERT_OK(meshvk_buffer_read(view.buffer, view.offset, y.data(), y.size() * 4));
      for (size_t i = 0; i < y.size(); ++i) ASSERT_EQ(y[i], x[i]) << "process " << p << " element " << i;
    }
    // Gathered the normal way too.
    std::vector<float> y(P * n, -1.0f);
    meshvk_host_output_t output = {y.data(), y.size() * 4};
    info.flags = 0;
    info.outputs = &output;
    info.output_count = 1;
    MESHVK_ASSERT_OK(meshvk_program_invoke(program.get(), &info));
    EXPECT_EQ(y, x);
  }
  std::vector<meshvk_phase_timing_t> timings(64, meshvk_phase_timing_t MESHVK_PHASE_TIMING_INIT);
  uint32_t count = 0;
  meshvk_status_t status = meshvk_program_phase_timings(program.get(), timings.data(), 64, &count);
  EXPECT_NE(status, MESHVK_OK);  // the last invoke did not ask for timestamps
  meshvk_status_free(status);
}

INSTANTIATE_TEST_SUITE_P(Processes, AllGatherTest, ::testing::Values(1u, 2u, 4u));

// The same programs on a device group: one VkDevice, processes on device
// index p % D, peer copies, semaphores within the group. On lavapipe the group
// has one device; under the emulation layer (see CMakeLists.txt) 2 or 4, with
// out-of-order execution and the cross-device race check.
class GroupTest : public ProgramTest, public ::testing::WithParamInterface<uint32_t> {};

TEST_P(GroupTest, AllGatherAndElementwiseOnTheDeviceGroup) {
  const uint32_t P = GetParam();
  const uint64_t n = 24;
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_DEVICE_GROUP, P);
  ASSERT_TRUE(set);
  Module gather = LoadModule(RingAllGather(P, n));
  Program gather_program = MakeProgram(gather.get(), set.get());
  ASSERT_TRUE(gather_program);
  Module add = LoadModule(Elementwise({P}, {{}, {0}}, 4, 4 * P, -1.0f));
  Program add_program = MakeProgram(add.get(), set.get());
  ASSERT_TRUE(add_program);
  for (int run = 0; run < 2; ++run) {
    std::vector<float> x = Iota(P * n, 3.0f * run, 2.0f);
    HostInvoke invoke({HostIn(x)}, {});
    meshvk_invoke_info_t& info = invoke.info;
    info.flags = MESHVK_INVOKE_KEEP_RESULTS_SHARDED_BIT;
    MESHVK_ASSERT_OK(meshvk_program_invoke(gather_program.get(), &info));
    for (uint32_t p = 0; p < P; ++p) {
      meshvk_shard_view_t view = MESHVK_SHARD_VIEW_INIT;
      MESHVK_ASSERT_OK(meshvk_program_result_shard(gather_program.get(), 0, 0, p, &view));
      std::vector<float> replica(P * n);
      MESHVK_ASSERT_OK(meshvk_buffer_read(view.buffer, view.offset, replica.data(), replica.size() * 4));
      ASSERT_EQ(replica, x) << "process " << p;
    }
    std::vector<float> a = Iota(16 * P, 1.0f, 1.0f), b = Iota(16 * P, 0.5f, run + 1.0f), c(16 * P);
    HostInvoke add_invoke({HostIn(a), HostIn(b)}, {HostOut(c)});
    MESHVK_ASSERT_OK(meshvk_program_invoke(add_program.get(), &add_invoke.info));
    for (size_t i = 0; i < c.size(); ++i) ASSERT_EQ(c[i], a[i] - b[i]) << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Processes, GroupTest, ::testing::Values(1u, 2u, 4u));

// The negative control for the emulated-group runs: the same all-gather with
// its cross-process dependencies left out is one phase with no waits, so on
// out-of-order emulated devices a replica misses a block or the race check
// reports the unordered peer access. (A single real device runs the
// submissions in order, so there the broken program happens to work.)
TEST_F(ProgramTest, GroupMissingDependencyIsCaught) {
  const uint32_t D = Group0Size();
  if (D < 2) GTEST_SKIP() << "needs a device group of 2+ (the emulation layer)";
  const uint32_t P = 4;
  const uint64_t n = 24;
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_DEVICE_GROUP, P);
  ASSERT_TRUE(set);
  Module broken = LoadModule(RingAllGather(P, n, meshvk::artifact::ElementType::kF32, /*with_deps=*/false));
  ASSERT_TRUE(broken);
  EXPECT_EQ(meshvk_module_function_phase_count(broken.get(), 0), 1u);
  Program program = MakeProgram(broken.get(), set.get());
  ASSERT_TRUE(program);
  std::vector<float> x = Iota(P * n, 1.0f, 1.0f);
  HostInvoke invoke({HostIn(x)}, {});
  meshvk_invoke_info_t& info = invoke.info;
  info.flags = MESHVK_INVOKE_KEEP_RESULTS_SHARDED_BIT;
  bool wrong = false;
  meshvk_status_t status = meshvk_program_invoke(program.get(), &info);
  if (status) {
    wrong = true;  // e.g. the layer refusing the racy work
    meshvk_status_free(status);
  } else {
    for (uint32_t p = 0; p < P && !wrong; ++p) {
      meshvk_shard_view_t view = MESHVK_SHARD_VIEW_INIT;
      MESHVK_ASSERT_OK(meshvk_program_result_shard(program.get(), 0, 0, p, &view));
      std::vector<float> replica(P * n);
      MESHVK_ASSERT_OK(meshvk_buffer_read(view.buffer, view.offset, replica.data(), replica.size() * 4));
      wrong = replica != x;
    }
  }
  program.reset();
  std::vector<std::string> messages = TakeMessages();  // expected here; not a failure of this test
  EXPECT_TRUE(wrong || !messages.empty()) << "a racy program went unnoticed";
}

TEST_F(ProgramTest, DispatchChainAndPhaseTimings) {
  const uint64_t n = 256;
  const uint32_t dispatches = 9;
  Module module = LoadModule(DispatchChain(dispatches, n));
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  Program program = MakeProgram(module.get(), set.get());
  ASSERT_TRUE(program);
  std::vector<float> x = Iota(n, 0.0f, 0.5f), z(n);
  HostInvoke invoke({HostIn(x)}, {HostOut(z)});
  invoke.info.flags = MESHVK_INVOKE_TIMESTAMPS_BIT;
  MESHVK_ASSERT_OK(meshvk_program_invoke(program.get(), &invoke.info));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(z[i], x[i] + dispatches) << i;
  std::vector<meshvk_phase_timing_t> timings(8, meshvk_phase_timing_t MESHVK_PHASE_TIMING_INIT);
  uint32_t count = 0;
  MESHVK_ASSERT_OK(meshvk_program_phase_timings(program.get(), timings.data(), 8, &count));
  ASSERT_EQ(count, 1u);
  EXPECT_EQ(timings[0].phase, 0u);
  EXPECT_GT(timings[0].device_ns, 0u);
}

// Two functions over the same buffers, each with its own command streams:
// invoking one runs only its commands.
TEST_F(ProgramTest, EachFunctionRunsItsOwnCommands) {
  meshvk::artifact::FunctionDesc add;
  meshvk::artifact::ArtifactBuilder b = ElementwiseBuilder({2}, {{0}, {}}, 4, 4, 2.0f, &add);
  b.AddFunction(add);  // takes the dispatches ElementwiseBuilder emitted
  meshvk::artifact::FunctionDesc sub = add;
  sub.name = "sub";
  for (uint32_t p = 0; p < 2; ++p) {
    meshvk::artifact::DispatchDesc d;
    d.executable = 0;
    d.bindings = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
    d.push_constants = ScaledAddPush(8, -1.0f);
    b.AddDispatch(p, d);
  }
  b.AddFunction(sub);
  Module module = LoadModule(b.Finish());
  ASSERT_TRUE(module);
  uint32_t sub_index = 0;
  MESHVK_ASSERT_OK(meshvk_module_find_function(module.get(), "sub", &sub_index));
  EXPECT_EQ(sub_index, 1u);
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 2);
  Program program = MakeProgram(module.get(), set.get());
  ASSERT_TRUE(program);
  std::vector<float> a = Iota(16, 1.0f, 1.0f), bv = Iota(16, 0.25f, 0.5f);
  meshvk_host_input_t inputs[2] = {{a.data(), 64}, {bv.data(), 64}};
  for (uint32_t f : {1u, 0u, 1u}) {
    std::vector<float> c(16);
    meshvk_host_output_t output = {c.data(), 64};
    meshvk_invoke_info_t info = MESHVK_INVOKE_INFO_INIT;
    info.function = f;
    info.inputs = inputs;
    info.input_count = 2;
    info.outputs = &output;
    info.output_count = 1;
    MESHVK_ASSERT_OK(meshvk_program_invoke(program.get(), &info));
    for (size_t i = 0; i < 16; ++i) ASSERT_EQ(c[i], a[i] + (f == 0 ? 2.0f : -1.0f) * bv[i]) << f << " " << i;
  }
  meshvk_program_stats_t stats = MESHVK_PROGRAM_STATS_INIT;
  meshvk_status_free(meshvk_program_stats(program.get(), &stats));
  EXPECT_EQ(stats.command_buffer_count, 4u);  // 2 functions x 2 processes x 1 phase
}

// The program retains its module and device set: the caller may drop both.
TEST_F(ProgramTest, ProgramKeepsItsModuleAndDeviceSetAlive) {
  Module module = LoadModule(RingAllGather(2, 8));
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 2);
  Program program = MakeProgram(module.get(), set.get());
  ASSERT_TRUE(program);
  module.reset();
  set.reset();
  std::vector<float> x = Iota(16, 2.0f, 1.0f), y(16);
  HostInvoke invoke({HostIn(x)}, {HostOut(y)});
  invoke.info.flags = MESHVK_INVOKE_TIMESTAMPS_BIT;
  MESHVK_ASSERT_OK(meshvk_program_invoke(program.get(), &invoke.info));
  EXPECT_EQ(y, x);
  program.reset();  // last reference to the set: pools, buffers, devices go in order
}

TEST_F(ProgramTest, WrongInputsAreRefusedByName) {
  Module module = LoadModule(Elementwise({2}, {{0}, {}}, 4, 4, 1.0f));
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 2);
  Program program = MakeProgram(module.get(), set.get());
  ASSERT_TRUE(program);
  std::vector<float> a(16), c(16);
  HostInvoke invoke({{a.data(), 64}, {a.data(), 60}}, {HostOut(c)});
  meshvk_invoke_info_t& info = invoke.info;
  info.input_count = 1;
  EXPECT_TRUE(HasCode(meshvk_program_invoke(program.get(), &info), MESHVK_STATUS_INVALID_ARGUMENT,
                      "function 'main' takes 2 inputs, got 1"));
  info.input_count = 2;
  EXPECT_TRUE(HasCode(meshvk_program_invoke(program.get(), &info), MESHVK_STATUS_INVALID_ARGUMENT,
                      "input 1 of 'main': 60 bytes given, the f32 tensor needs 64"));
  invoke.inputs[1].size = 64;
  invoke.outputs[0].size = 32;
  EXPECT_TRUE(HasCode(meshvk_program_invoke(program.get(), &info), MESHVK_STATUS_INVALID_ARGUMENT,
                      "output 0 of 'main': 32 bytes given, the result needs 64"));
}

TEST_F(ProgramTest, ShardViewsRefuseBadIndicesByName) {
  Module module = LoadModule(Elementwise({2}, {{0}, {}}, 4, 4, 1.0f));
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 2);
  Program program = MakeProgram(module.get(), set.get());
  ASSERT_TRUE(program);
  meshvk_shard_view_t view = MESHVK_SHARD_VIEW_INIT;
  // 4x4 rows split over 2 processes: shard 1 is process 1's, from row 2.
  MESHVK_ASSERT_OK(meshvk_program_argument_shard(program.get(), 0, 0, 1, &view));
  EXPECT_EQ(view.process, 1u);
  EXPECT_EQ(view.global_offset[0], 2u);
  EXPECT_TRUE(HasCode(meshvk_program_argument_shard(nullptr, 0, 0, 0, &view), MESHVK_STATUS_INVALID_ARGUMENT,
                      "meshvk_program_argument_shard: program is NULL"));
  EXPECT_TRUE(HasCode(meshvk_program_result_shard(nullptr, 0, 0, 0, &view), MESHVK_STATUS_INVALID_ARGUMENT,
                      "meshvk_program_result_shard: program is NULL"));
  EXPECT_TRUE(HasCode(meshvk_program_result_shard(program.get(), 0, 0, 0, nullptr), MESHVK_STATUS_INVALID_ARGUMENT,
                      "meshvk_program_result_shard: out_view is NULL"));
  meshvk_shard_view_t untyped{};  // no initializer: its type is 0
  EXPECT_TRUE(HasCode(meshvk_program_result_shard(program.get(), 0, 0, 0, &untyped), MESHVK_STATUS_INVALID_ARGUMENT,
                      "initialize it with MESHVK_SHARD_VIEW_INIT"));
  EXPECT_TRUE(HasCode(meshvk_program_argument_shard(program.get(), 0, 2, 0, &view), MESHVK_STATUS_OUT_OF_RANGE,
                      "function 0 has no argument 2"));
  EXPECT_TRUE(HasCode(meshvk_program_result_shard(program.get(), 1, 0, 0, &view), MESHVK_STATUS_OUT_OF_RANGE,
                      "function 1 has no result 0"));
  EXPECT_TRUE(HasCode(meshvk_program_result_shard(program.get(), 0, 0, 2, &view), MESHVK_STATUS_OUT_OF_RANGE,
                      "shard 2 out of range (2 shards)"));
}

TEST_F(ProgramTest, ProcessCountMustMatchTheGrid) {
  Module module = LoadModule(Elementwise({4}, {{0}, {}}, 4, 4, 1.0f));
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 2);
  meshvk_program_t* program = nullptr;
  EXPECT_TRUE(HasCode(meshvk_program_create(module.get(), set.get(), &program), MESHVK_STATUS_INVALID_ARGUMENT,
                      "the program's grid has 4 processes but the device set has 2"));
  EXPECT_EQ(program, nullptr);
}

// A file of plans for several process counts (a dynamic grid) is not a
// program: creating one from it names the counts; the chosen plan runs.
TEST_F(ProgramTest, ASetOfPlansIsChosenFromBeforeCreatingAProgram) {
  Module plans = LoadModule(meshvk::artifact::BuildVariantsArtifact(
      {{1, Elementwise({1}, {{0}, {}}, 4, 4, 1.0f)}, {2, Elementwise({2}, {{0}, {}}, 4, 4, 1.0f)}}));
  ASSERT_TRUE(plans);
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 2);
  meshvk_program_t* program = nullptr;
  EXPECT_TRUE(HasCode(meshvk_program_create(plans.get(), set.get(), &program), MESHVK_STATUS_FAILED_PRECONDITION,
                      "the module holds plans for 1 and 2 processes (a dynamic grid): choose one with "
                      "meshvk_module_select_process_count"));
  EXPECT_EQ(program, nullptr);
  meshvk_module_t* two = nullptr;
  ASSERT_EQ(StatusText(meshvk_module_select_process_count(plans.get(), 2, &two)), "");
  Module chosen(two);
  Program run = MakeProgram(chosen.get(), set.get());
  ASSERT_TRUE(run);
  std::vector<float> a = Iota(16, 1.0f, 0.5f), b = Iota(16, -2.0f, 1.0f), c(16, -1.0f);
  HostInvoke invoke({HostIn(a), HostIn(b)}, {HostOut(c)});
  ASSERT_EQ(StatusText(meshvk_program_invoke(run.get(), &invoke.info)), "");
  for (size_t i = 0; i < c.size(); ++i) EXPECT_EQ(c[i], a[i] + 1.0f * b[i]) << i;
}

TEST_F(ProgramTest, WorkgroupCountsBeyondTheDeviceLimitAreRefusedBeforeAllocation) {
  meshvk::artifact::ArtifactBuilder b = ElementwiseBuilder({1}, {{0}, {}}, 4, 4, 1.0f);
  meshvk::artifact::DispatchDesc d;
  d.executable = 0;
  d.workgroup_count[0] = 1u << 31;  // past lavapipe's (and the spec minimum's) 65535
  d.bindings = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
  d.push_constants = ScaledAddPush(16, 1.0f);
  b.AddDispatch(0, d);
  Module module = LoadModule(b.Finish());  // loads: limits are per device
  ASSERT_TRUE(module);
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  uint64_t before = meshvk_device_set_allocated_bytes(set.get(), 0);
  meshvk_program_t* program = nullptr;
  EXPECT_TRUE(HasCode(meshvk_program_create(module.get(), set.get(), &program), MESHVK_STATUS_OUT_OF_RANGE,
                      "functions[0].streams[0].commands[1].dispatch.workgroup_count[0]: 2147483648 > the device's "
                      "maxComputeWorkGroupCount"));
  EXPECT_EQ(meshvk_device_set_allocated_bytes(set.get(), 0), before);
}

}  // namespace
}  // namespace meshvk_test
