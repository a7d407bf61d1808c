// End to end: every sample program compiled for every grid it allows, run on
// that many logical devices (Khronos validation + synchronization validation
// on: any message fails), and compared with two independent references:
//   * plain C++ host loops (samples.cc), numpy-isclose style;
//   * the same program compiled for a grid of one process (every shard is the
//     whole tensor: the unsharded program on one device), exact for i32.
#include <gtest/gtest.h>

#include <chrono>

#include "program_case_test.h"
#include "samples.h"
#include "vulkan_fixture.h"

namespace meshvk_e2e {
namespace {

constexpr uint32_t kSeed = 20261130;
constexpr double kAtol = 1e-3, kRtol = 1e-4;

// The one-process grid of a sample: "1" or "1x1".
std::string OneProcessGrid(const Sample& s) { return s.grids.front(); }

class SampleTest : public ProgramCaseTest {};

TEST_P(SampleTest, MatchesHostLoopsAndTheOneDeviceProgram) {
  const ProgramCase& c = GetParam();
  const Sample& sample = SampleNamed(c.program);
  const meshvk::CompiledProgram* program = nullptr;
  ASSERT_EQ(CompileSample(c.program, c.grid, &program), "");
  uint32_t processes = ProcessCount(c.grid);
  ASSERT_EQ(program->memory.size(), processes);
  std::vector<HostTensor> inputs = sample.make_inputs(kSeed);
  RunAndCompare(program->artifact, processes, inputs, sample.reference(inputs), kAtol, kRtol, What());
  if (HasFatalFailure() || IsSkipped()) return;

  // The unsharded program on one device.
  const meshvk::CompiledProgram* single = nullptr;
  ASSERT_EQ(CompileSample(c.program, OneProcessGrid(sample), &single), "");
  uint32_t device0 = 0;
  meshvk_test::DeviceSet one = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1, &device0);
  ASSERT_TRUE(one);
  std::vector<HostTensor> unsharded;
  ASSERT_EQ(RunOnce(single->artifact, one.get(), inputs, &unsharded), "");
  for (size_t r = 0; r < outputs_.size(); ++r)
    EXPECT_EQ(Compare(outputs_[r], unsharded[r], 1e-5, 1e-5), "")
        << c.program << " on " << c.grid << " vs one device, result " << r;
}

MESHVK_INSTANTIATE_PROGRAM_CASES(Samples, SampleTest, Samples());

// Gathers of boxes that are strided in 2 and 3 dimensions (and need several
// regions in 4-D) assemble the right tensor: c = a + b in i32, exact.
class StridedGatherTest : public meshvk_test::VulkanTest, public ::testing::WithParamInterface<std::string> {};

TEST_P(StridedGatherTest, AssemblesTheWholeTensor) {
  meshvk::ProgramOptions options;
  meshvk::CompiledProgram program;
  ASSERT_EQ(
      meshvk::compileProgramFile(std::string(MESHVK_E2E_PROGRAMS_DIR) + "/" + GetParam() + ".mlir", options, &program),
      "");
  std::vector<int64_t> shape =
      GetParam() == "gather_last_dim_3d" ? std::vector<int64_t>{4, 8, 8} : std::vector<int64_t>{2, 3, 4, 8};
  HostTensor a = HostTensor::Zeros(shape, MESHVK_ELEMENT_I32), b = a, expected = a;
  for (int64_t e = 0; e < a.elements(); ++e) {
    a.i[e] = static_cast<int32_t>(e * 7919 % 100003);
    b.i[e] = static_cast<int32_t>(-e * 31);
    expected.i[e] = a.i[e] + b.i[e];
  }
  meshvk_test::DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 4);
  ASSERT_TRUE(set);
  std::vector<HostTensor> outputs;
  ASSERT_EQ(RunOnce(program.artifact, set.get(), {a, b}, &outputs), "");
  EXPECT_EQ(Compare(outputs[0], expected, 0, 0), "");
}

INSTANTIATE_TEST_SUITE_P(Programs, StridedGatherTest, ::testing::Values("gather_last_dim_3d", "gather_last_dim_4d"));

// The partitioned programs really are partitioned: on P processes each
// process's argument bytes are below the global bytes of the split arguments.
TEST(SamplePlans, ShardedArgumentsAreSmallerThanGlobalOnes) {
  const meshvk::CompiledProgram* one = nullptr;
  const meshvk::CompiledProgram* four = nullptr;
  ASSERT_EQ(CompileSample("mlp_megatron", "1", &one), "");
  ASSERT_EQ(CompileSample("mlp_megatron", "4", &four), "");
  // x (32x64) replicated, W1 (64x256) and W2 (256x64) split in 4: per process
  // 32*64*4 + 2 * 64*64*4 bytes, against 32*64*4 + 2 * 64*256*4 on one.
  EXPECT_EQ(one->memory[0].argumentBytes, 32u * 64 * 4 + 2u * 64 * 256 * 4);
  for (const auto& m : four->memory) EXPECT_EQ(m.argumentBytes, 32u * 64 * 4 + 2u * 64 * 64 * 4);
}

}  // namespace
}  // namespace meshvk_e2e
