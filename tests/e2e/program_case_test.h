// The e2e case loop once: a gtest fixture over ProgramCase that makes the
// device set a case runs on, runs the compiled program and compares every
// result with its reference. ops_test, uneven_test, frontend_test and
// e2e_test differ only in their tables and references.
#ifndef MESHVK_TESTS_E2E_PROGRAM_CASE_TEST_H_
#define MESHVK_TESTS_E2E_PROGRAM_CASE_TEST_H_

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "program_runner.h"
#include "samples.h"
#include "vulkan_fixture.h"

namespace meshvk_e2e {

// Running a compiled program and comparing its results; `what` names the
// case in failure messages.
class ProgramRunTest : public meshvk_test::VulkanTest {
 protected:
  // Runs `artifact` on `processes` processes of `topology` (logical ones all
  // on physical device 0, independent ones dealt round robin over the
  // physical devices) and expects each result to match `expected` within
  // atol + rtol * |expected|. Skips a group case wider than device group 0.
  void RunAndCompare(const std::vector<uint8_t>& artifact, uint32_t processes, const std::vector<HostTensor>& inputs,
                     const std::vector<HostTensor>& expected, double atol, double rtol, const std::string& what,
                     meshvk_topology_t topology = TopologyFromEnvironment()) {
    if (topology == MESHVK_TOPOLOGY_DEVICE_GROUP && processes > Group0Size())
      GTEST_SKIP() << processes << " processes, device group 0 has " << Group0Size() << " devices";
    std::vector<uint32_t> on_device0(processes, 0);
    meshvk_test::DeviceSet set =
        MakeSet(topology, processes, topology == MESHVK_TOPOLOGY_LOGICAL ? on_device0.data() : nullptr);
    ASSERT_TRUE(set);
    ASSERT_EQ(meshvk_device_set_topology(set.get()), topology);
    if (topology == MESHVK_TOPOLOGY_INDEPENDENT && processes > 1 &&
        meshvk_instance_physical_device_count(instance()) > 1) {
      meshvk_process_info_t p0 = MESHVK_PROCESS_INFO_INIT, p1 = MESHVK_PROCESS_INFO_INIT;
      ASSERT_EQ(meshvk_device_set_process_info(set.get(), 0, &p0), MESHVK_OK);
      ASSERT_EQ(meshvk_device_set_process_info(set.get(), 1, &p1), MESHVK_OK);
      ASSERT_NE(p0.logical_device, p1.logical_device) << "independent processes 0 and 1 share a VkDevice";
    }
    outputs_.clear();
    ASSERT_EQ(RunOnce(artifact, set.get(), inputs, &outputs_), "");
    ASSERT_EQ(outputs_.size(), expected.size());
    for (size_t r = 0; r < outputs_.size(); ++r) {
      ASSERT_EQ(outputs_[r].shape, expected[r].shape) << "result " << r;
      EXPECT_EQ(Compare(outputs_[r], expected[r], atol, rtol), "") << what << ", result " << r;
    }
  }

  std::vector<HostTensor> outputs_;  // the last RunAndCompare's results
};

// The case loop over a table of programs (CasesOf).
class ProgramCaseTest : public ProgramRunTest, public ::testing::WithParamInterface<ProgramCase> {
 protected:
  // "<program> on <grid>", for failure messages.
  std::string What() const { return GetParam().program + " on " + GetParam().grid; }

  // Compiles this case (<dir>/<program>.mlir for its grid) into *out and
  // expects the process count its grid asks for: N for "dN", the product of
  // a grid shape, `written_processes` for the grid as written (0: any).
  // Returns the process count (0 after a failure).
  uint32_t CompileThisCase(const std::string& dir, const std::string& producer, uint32_t written_processes,
                           meshvk::CompiledProgram* out) {
    const ProgramCase& c = GetParam();
    std::string error = CompileCase(dir, c, producer, out);
    EXPECT_EQ(error, "") << What();
    if (!error.empty()) return 0;
    const uint32_t processes = static_cast<uint32_t>(out->memory.size());
    const uint32_t expected = c.grid.empty()     ? written_processes
                              : c.grid[0] == 'd' ? static_cast<uint32_t>(std::stoul(c.grid.substr(1)))
                                                 : ProcessCount(c.grid);
    if (expected != 0) EXPECT_EQ(processes, expected) << What();
    return expected == 0 || processes == expected ? processes : 0;
  }

  // The whole case for a table whose rows make their inputs from a generator
  // (row.inputs(&rng)) and their reference results from those
  // (row.reference(inputs)): compile (CompileThisCase), run on the case's
  // processes of `topology`, compare.
  template <typename Row>
  void RunTableCase(const std::vector<Row>& programs, const std::string& dir, const std::string& producer,
                    uint32_t written_processes, uint32_t seed, double atol, double rtol,
                    meshvk_topology_t topology = TopologyFromEnvironment()) {
    const Row* program = FindProgram(programs, GetParam().program);
    ASSERT_NE(program, nullptr);
    meshvk::CompiledProgram compiled;
    const uint32_t processes = CompileThisCase(dir, producer, written_processes, &compiled);
    ASSERT_NE(processes, 0u);
    std::mt19937 rng(seed);
    std::vector<HostTensor> inputs = program->inputs(&rng);
    RunAndCompare(compiled.artifact, processes, inputs, program->reference(inputs), atol, rtol, What(), topology);
  }
};

// Instantiates `fixture` as <prefix>/<fixture>.* over every case of `table`
// (a vector of rows with `name` and `grids`), each named
// <program>_grid<grid>.
#define MESHVK_INSTANTIATE_PROGRAM_CASES(prefix, fixture, table)                 \
  INSTANTIATE_TEST_SUITE_P(prefix, fixture, ::testing::ValuesIn(CasesOf(table)), \
                           [](const ::testing::TestParamInfo<ProgramCase>& info) { return CaseName(info.param); })

}  // namespace meshvk_e2e

#endif  // MESHVK_TESTS_E2E_PROGRAM_CASE_TEST_H_
