// Uneven shards, explicit shard offsets, dynamic grids (issue #12): the
// programs of tests/e2e/uneven_programs/ compiled for every grid they fit (the
// sample samples/programs/batch_rows.mlir runs with the samples), run with
// validation on, on logical devices or (MESHVK_E2E_TOPOLOGY=group, ctest
// e2e.uneven_group_n4) on the emulated device group, and compared with plain
// C++ loops written from each program's comment. i32 results are exact.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "program_case_test.h"
#include "samples.h"
#include "vulkan_fixture.h"

namespace meshvk_e2e {
namespace {

using Shape = std::vector<int64_t>;
using Tensors = std::vector<HostTensor>;

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

class UnevenTest : public ProgramCaseTest {};

TEST_P(UnevenTest, MatchesHostLoops) {
  RunTableCase(Programs(), MESHVK_UNEVEN_PROGRAMS_DIR, "meshvk uneven test", 0, 20261201, 1e-4, 1e-5);
}

MESHVK_INSTANTIATE_PROGRAM_CASES(Programs, UnevenTest, Programs());

}  // namespace
}  // namespace meshvk_e2e
