// Uneven shards, explicit shard offsets, dynamic grids (issue #12): the
// programs of tests/e2e/uneven_programs/ compiled for every grid they fit (the
// sample samples/programs/batch_rows.mlir runs with the samples), run with
// validation on, on logical devices or (MESHVK_E2E_TOPOLOGY=group, ctest
// e2e.uneven_group_n4) on the emulated device group, and compared with plain
// C++ loops written from each program's comment. i32 results are exact.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "program_runner.h"
#include "samples.h"
#include "vulkan_fixture.h"

namespace meshvk_e2e {
namespace {

using Shape = std::vector<int64_t>;
using Tensors = std::vector<HostTensor>;

HostTensor RandomI32(Shape shape, std::mt19937* rng) {
  HostTensor t = HostTensor::Zeros(std::move(shape), MESHVK_ELEMENT_I32);
  for (int32_t& v : t.i) v = static_cast<int32_t>((*rng)() % 2001) - 1000;
  return t;
}

struct UnevenProgram {
  std::string name;                // tests/e2e/uneven_programs/<name>.mlir
  std::vector<std::string> grids;  // --grid-shape values; "" = as written; "dN": a `?` grid run on N processes
  Tensors (*inputs)(std::mt19937*);
  Tensors (*reference)(const Tensors&);
};

const std::vector<UnevenProgram>& Programs() {
  static const std::vector<UnevenProgram> programs = {
      {"grid7_2x2",
       {"", "1x2", "2x1"},
       [](std::mt19937* r) { return Tensors{RandomI32({7, 7}, r), RandomI32({7, 7}, r)}; },
       [](const Tensors& in) {
         HostTensor c = in[0];
         for (size_t e = 0; e < c.i.size(); ++e) c.i[e] += in[1].i[e];
         HostTensor r = HostTensor::Zeros({7}, MESHVK_ELEMENT_I32);
         for (int64_t i = 0; i < 7; ++i)
           for (int64_t j = 0; j < 7; ++j) r.i[i] += c.i[i * 7 + j];
         return Tensors{c, c, r, c};
       }},
      {"explicit_offsets",
       {""},
       [](std::mt19937* r) { return Tensors{RandomI32({4, 14}, r), RandomI32({4, 14}, r)}; },
       [](const Tensors& in) {
         HostTensor c = in[0];
         for (size_t e = 0; e < c.i.size(); ++e) c.i[e] = in[0].i[e] * in[1].i[e] + in[0].i[e];
         return Tensors{c, c, c};
       }},
      {"dynamic_grid",
       {"d1", "d2", "d3", "d4"},
       [](std::mt19937* r) { return Tensors{RandomI32({10, 6}, r), RandomI32({6}, r)}; },
       [](const Tensors& in) {
         HostTensor y = in[0];
         for (int64_t i = 0; i < 10; ++i)
           for (int64_t j = 0; j < 6; ++j) y.i[i * 6 + j] = 3 * in[0].i[i * 6 + j] + in[1].i[j];
         return Tensors{y, y};
       }},
  };
  return programs;
}

struct Case {
  std::string program, grid;
};

std::vector<Case> AllCases() {
  std::vector<Case> cases;
  for (const UnevenProgram& p : Programs())
    for (const std::string& g : p.grids) cases.push_back({p.name, g});
  return cases;
}

void PrintTo(const Case& c, std::ostream* os) { *os << c.program << " on " << (c.grid.empty() ? "its grid" : c.grid); }

class UnevenTest : public meshvk_test::VulkanTest, public ::testing::WithParamInterface<Case> {};

TEST_P(UnevenTest, MatchesHostLoops) {
  const Case& c = GetParam();
  const UnevenProgram* program = nullptr;
  for (const UnevenProgram& p : Programs())
    if (p.name == c.program) program = &p;
  ASSERT_NE(program, nullptr);
  meshvk::ProgramOptions options;
  options.producer = "meshvk uneven test";
  std::string error;
  if (!c.grid.empty() && c.grid[0] == 'd')
    options.dynamicGridProcesses = std::stoll(c.grid.substr(1));  // as mesh-vk-run --devices=N
  else if (!c.grid.empty())
    ASSERT_TRUE(meshvk::parseGridShape(c.grid, &options.gridShape, &error)) << error;
  meshvk::CompiledProgram compiled;
  ASSERT_EQ(meshvk::compileProgramFile(std::string(MESHVK_UNEVEN_PROGRAMS_DIR) + "/" + c.program + ".mlir", options,
                                       &compiled),
            "");
  const uint32_t processes = static_cast<uint32_t>(compiled.memory.size());
  if (options.dynamicGridProcesses) ASSERT_EQ(processes, options.dynamicGridProcesses);
  std::mt19937 rng(20261201);
  Tensors inputs = program->inputs(&rng);
  Tensors expected = program->reference(inputs);
  std::vector<uint32_t> on_device0(processes, 0);
  meshvk_topology_t topology = TopologyFromEnvironment();
  meshvk_test::DeviceSet set =
      MakeSet(topology, processes, topology == MESHVK_TOPOLOGY_LOGICAL ? on_device0.data() : nullptr);
  ASSERT_TRUE(set);
  ASSERT_EQ(meshvk_device_set_topology(set.get()), topology);
  Tensors outputs;
  ASSERT_EQ(RunOnce(compiled.artifact, set.get(), inputs, &outputs), "");
  ASSERT_EQ(outputs.size(), expected.size());
  for (size_t r = 0; r < outputs.size(); ++r)
    EXPECT_EQ(Compare(outputs[r], expected[r], 1e-4, 1e-5), "") << c.program << " on " << c.grid << ", result " << r;
}

INSTANTIATE_TEST_SUITE_P(Programs, UnevenTest, ::testing::ValuesIn(AllCases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           std::string grid = info.param.grid.empty() ? "asis" : info.param.grid;
                           return info.param.program + "_grid" + grid;
                         });

}  // namespace
}  // namespace meshvk_e2e
