// The reshard matrix (issue #12): every pair of shardings of a 2-D tensor over
// a 2x2x2 grid. A sharding assigns each of the 3 grid axes to dimension 0,
// dimension 1 or neither, in any order within a dimension: 49 shardings, 2,401
// pairs. One program per source sharding takes the 8x8 i32 tensor in that
// sharding and returns it resharded to each of the 49 targets; every result,
// gathered by the runtime from its own sharding, must be the input exactly.
// Refusals are counted and listed; there must be none (a crash ends the test).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "program_runner.h"
#include "samples.h"
#include "vulkan_fixture.h"

namespace meshvk_e2e {
namespace {

using Split = std::vector<std::vector<int>>;  // per tensor dimension, the grid axes

std::string SplitText(const Split& split) {
  std::ostringstream os;
  os << "[";
  for (size_t d = 0; d < split.size(); ++d) {
    os << (d ? ", [" : "[");
    for (size_t i = 0; i < split[d].size(); ++i) os << (i ? ", " : "") << split[d][i];
    os << "]";
  }
  os << "]";
  return os.str();
}

// All 49 shardings, in a fixed order.
std::vector<Split> AllShardings() {
  std::set<std::string> seen;
  std::vector<Split> out;
  std::vector<int> axes = {0, 1, 2};
  // Each permutation of the axes, each axis placed in dim 0, dim 1 or none:
  // the order within a dimension follows the permutation.
  do {
    for (int code = 0; code < 27; ++code) {
      Split split(2);
      for (int i = 0, c = code; i < 3; ++i, c /= 3)
        if (c % 3 < 2) split[c % 3].push_back(axes[i]);
      if (seen.insert(SplitText(split)).second) out.push_back(split);
    }
  } while (std::next_permutation(axes.begin(), axes.end()));
  return out;
}

std::string ProgramFor(const Split& source, const std::vector<Split>& targets) {
  std::ostringstream os;
  os << "shard.grid @grid(shape = 2x2x2)\nfunc.func @main(%a: tensor<8x8xi32>) -> (";
  for (size_t t = 0; t < targets.size(); ++t) os << (t ? ", " : "") << "tensor<8x8xi32>";
  os << ") {\n  %src = shard.sharding @grid split_axes = " << SplitText(source) << " : !shard.sharding\n"
     << "  %a0 = shard.shard %a to %src : tensor<8x8xi32>\n";
  for (size_t t = 0; t < targets.size(); ++t)
    os << "  %s" << t << " = shard.sharding @grid split_axes = " << SplitText(targets[t]) << " : !shard.sharding\n  %r"
       << t << " = shard.shard %a0 to %s" << t << " annotate_for_users : tensor<8x8xi32>\n";
  os << "  return ";
  for (size_t t = 0; t < targets.size(); ++t) os << (t ? ", " : "") << "%r" << t;
  os << " : ";
  for (size_t t = 0; t < targets.size(); ++t) os << (t ? ", " : "") << "tensor<8x8xi32>";
  os << "\n}\n";
  return os.str();
}

TEST(ReshardMatrix, ShardingCount) { EXPECT_EQ(AllShardings().size(), 49u); }

class ReshardMatrixTest : public meshvk_test::VulkanTest, public ::testing::WithParamInterface<int> {};

TEST_P(ReshardMatrixTest, EveryTargetGathersToTheInput) {
  const std::vector<Split> shardings = AllShardings();
  const Split& source = shardings[GetParam()];
  meshvk::ProgramOptions options;
  options.producer = "meshvk reshard matrix";
  meshvk::CompiledProgram program;
  std::string error =
      meshvk::compileProgramSource(ProgramFor(source, shardings), "reshard_matrix.mlir", options, &program);
  ASSERT_EQ(error, "") << "source " << SplitText(source);

  HostTensor a = HostTensor::Zeros({8, 8}, MESHVK_ELEMENT_I32);
  for (int64_t e = 0; e < a.elements(); ++e) a.i[e] = static_cast<int32_t>(e * 7919 % 100003 - 50000);
  std::vector<uint32_t> on_device0(8, 0);
  meshvk_test::DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 8, on_device0.data());
  ASSERT_TRUE(set);
  std::vector<HostTensor> outputs;
  ASSERT_EQ(RunOnce(program.artifact, set.get(), {a}, &outputs), "") << "source " << SplitText(source);
  ASSERT_EQ(outputs.size(), shardings.size());
  for (size_t t = 0; t < shardings.size(); ++t)
    EXPECT_EQ(Compare(outputs[t], a, 0, 0), "") << "reshard " << SplitText(source) << " -> " << SplitText(shardings[t]);
}

INSTANTIATE_TEST_SUITE_P(Sources, ReshardMatrixTest, ::testing::Range(0, 49));

}  // namespace
}  // namespace meshvk_e2e
