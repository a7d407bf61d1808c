// .mvk files holding one plan per process count (a dynamic grid, format_version
// 2, meshvk/artifact/variants.h): the loader's API for choosing a plan, and one
// broken-file test per rule of the verifier for such files (as
// verifier_test.cc does for plans). No Vulkan: loading must not need a device.
#include "meshvk/artifact/variants.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "meshvk/artifact/integrity.h"
#include "meshvk/artifact/mvk_generated.h"
#include "meshvk/meshvk.h"
#include "meshvk/module.h"
#include "programs.h"
#include "verifier_test_util.h"

namespace meshvk_test {
namespace {

// c = a + 2 b on 4x8 f32, rows split over a 1-D grid of `processes`.
std::vector<uint8_t> Plan(uint32_t processes) { return Elementwise({processes}, {{0}, {}}, 4, 8, 2.0f); }

std::vector<uint8_t> Counts124() { return BuildVariantsArtifact({{1, Plan(1)}, {2, Plan(2)}, {4, Plan(4)}}); }

TEST(GridVariants, ListsCountsAndSelectsAPlan) {
  std::vector<uint8_t> file = Counts124();
  meshvk_module_t* set = nullptr;
  ASSERT_EQ(meshvk_module_load(file.data(), file.size(), &set), nullptr);
  ASSERT_EQ(meshvk_module_variant_count(set), 3u);
  EXPECT_EQ(meshvk_module_variant_process_count(set, 0), 1u);
  EXPECT_EQ(meshvk_module_variant_process_count(set, 1), 2u);
  EXPECT_EQ(meshvk_module_variant_process_count(set, 2), 4u);
  EXPECT_EQ(meshvk_module_variant_process_count(set, 3), 0u);

  // A set of plans is not a plan: no grid, no functions, a clear status.
  meshvk_grid_info_t grid = MESHVK_GRID_INFO_INIT;
  meshvk_status_free(meshvk_module_grid_info(set, &grid));
  EXPECT_EQ(grid.process_count, 0u);
  EXPECT_EQ(grid.rank, 0u);
  EXPECT_EQ(meshvk_module_function_count(set), 0u);
  uint32_t function = 7;
  EXPECT_EQ(CodeAndMessage(meshvk_module_find_function(set, nullptr, &function)),
            "FAILED_PRECONDITION: the module holds plans for 1, 2 and 4 processes (a dynamic grid): choose one with "
            "meshvk_module_select_process_count");
  meshvk_process_summary_t summary = MESHVK_PROCESS_SUMMARY_INIT;
  EXPECT_NE(CodeAndMessage(meshvk_module_process_summary(set, 0, &summary)), "");
  EXPECT_EQ(meshvk_module_phase_count(set), 0u);

  meshvk_module_t* two = nullptr;
  ASSERT_EQ(meshvk_module_select_process_count(set, 2, &two), nullptr);
  meshvk_module_t* missing = reinterpret_cast<meshvk_module_t*>(&function);
  EXPECT_EQ(CodeAndMessage(meshvk_module_select_process_count(set, 3, &missing)),
            "OUT_OF_RANGE: no plan for 3 processes: the module holds plans for 1, 2 and 4 processes (a dynamic grid)");
  EXPECT_EQ(missing, nullptr);
  EXPECT_NE(CodeAndMessage(meshvk_module_select_process_count(set, 0, &missing)).find("INVALID_ARGUMENT: "),
            std::string::npos);
  // The chosen plan outlives the set it came from.
  meshvk_module_release(set);
  meshvk_status_free(meshvk_module_grid_info(two, &grid));
  EXPECT_EQ(grid.process_count, 2u);
  EXPECT_EQ(meshvk_module_variant_count(two), 0u);
  ASSERT_EQ(meshvk_module_find_function(two, nullptr, &function), nullptr);
  EXPECT_EQ(function, 0u);
  meshvk_module_release(two);
}

TEST(GridVariants, APlanAnswersTheSameCalls) {
  std::vector<uint8_t> file = Plan(2);
  meshvk_module_t* plan = nullptr;
  ASSERT_EQ(meshvk_module_load(file.data(), file.size(), &plan), nullptr);
  EXPECT_EQ(meshvk_module_variant_count(plan), 0u);
  for (uint32_t count : {0u, 2u}) {
    meshvk_module_t* same = nullptr;
    ASSERT_EQ(meshvk_module_select_process_count(plan, count, &same), nullptr);
    EXPECT_EQ(same, plan);
    meshvk_module_release(same);
  }
  meshvk_module_t* other = nullptr;
  EXPECT_EQ(CodeAndMessage(meshvk_module_select_process_count(plan, 4, &other)),
            "OUT_OF_RANGE: the module is compiled for 2 processes, not 4");
  meshvk_module_release(plan);
}

TEST(GridVariants, EachPlanIsAWholeAlignedFile) {
  std::vector<uint8_t> plan = Plan(4), file = BuildVariantsArtifact({{4, plan}});
  const auto* root = meshvk::mvk::GetArtifact(file.data());
  ASSERT_NE(root->variants(), nullptr);
  const auto* bytes = root->variants()->Get(0)->artifact();
  EXPECT_EQ((bytes->data() - file.data()) % 16, 0);
  EXPECT_EQ(std::vector<uint8_t>(bytes->begin(), bytes->end()), plan);
  EXPECT_EQ(root->format_version(), kVariantsFormatVersion);
}

TEST(GridVariants, BrokenPlansAreRefusedWithTheirVariant) {
  std::vector<uint8_t> truncated = Plan(2);
  truncated.resize(truncated.size() / 2);
  EXPECT_REFUSED(BuildVariantsArtifact({{1, Plan(1)}, {2, truncated}}),
                 "variants[1].artifact: no integrity trailer at the end of the file");
  std::vector<uint8_t> garbage(200, 0xab);
  EXPECT_REFUSED(BuildVariantsArtifact({{2, garbage}}), "variants[0].artifact: not a .mvk artifact");
  // A sound checksum over bytes the FlatBuffers verifier refuses.
  std::vector<uint8_t> corrupt = Plan(2);
  corrupt.resize(corrupt.size() - kTrailerSize);
  for (size_t i = 8; i < corrupt.size(); i += 7) corrupt[i] ^= 0x5a;
  Reseal(&corrupt);
  EXPECT_REFUSED(BuildVariantsArtifact({{2, corrupt}}), "variants[0].artifact: ");
  // A plan that breaks a semantic rule is named by its path inside the plan.
  ArtifactBuilder wrong = ElementwiseBuilder({2}, {{0}, {}}, 4, 8, 2.0f);
  wrong.set_format_version(0);
  EXPECT_REFUSED(BuildVariantsArtifact({{2, wrong.Finish()}}),
                 "variants[0].artifact: format_version: 0 is older than this runtime's version 1");
  EXPECT_REFUSED(BuildVariantsArtifact({{1, Plan(1)}, {2, {}}}), "variants[1].artifact: truncated: 0 bytes");
}

TEST(GridVariants, CountsMustMatchTheirGridsAndBeDistinct) {
  EXPECT_REFUSED(BuildVariantsArtifact({{1, Plan(1)}, {3, Plan(2)}}),
                 "variants[1].process_count: 3, but its plan's grid has 2 processes");
  EXPECT_REFUSED(BuildVariantsArtifact({{0, Plan(1)}}), "variants[0].process_count: 0, but its plan's grid has 1");
  EXPECT_REFUSED(BuildVariantsArtifact({{2, Plan(2)}, {4, Plan(4)}, {2, Plan(2)}}),
                 "variants[2].process_count: 2 repeated (variants[0])");
}

TEST(GridVariants, VariantsDoNotNest) {
  EXPECT_REFUSED(BuildVariantsArtifact({{1, Plan(1)}, {2, BuildVariantsArtifact({{2, Plan(2)}})}}),
                 "variants[1].artifact: format_version: 2 (a set of plans) inside variants: variants do not nest");
}

TEST(GridVariants, TheRootHoldsVariantsOrAPlanNotBoth) {
  EXPECT_REFUSED(BuildVariantsArtifact({}), "variants: empty (a format_version 2 file holds at least one plan)");
  EXPECT_REFUSED(BuildVariantsArtifact({{2, Plan(2)}}, "test", kFormatVersion),
                 "variants: only a format_version 2 file holds variants (this one is version 1)");
  EXPECT_REFUSED(BuildVariantsArtifact({{2, Plan(2)}}, "test", 3), "format_version: 3 is newer");
  // A version-2 root with a grid (or any other part of a plan) next to its
  // variants: which would run is ambiguous.
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<uint8_t> plan = Plan(2);
  auto bytes = fbb.CreateVector(plan);
  std::vector<flatbuffers::Offset<meshvk::mvk::GridVariant>> list = {meshvk::mvk::CreateGridVariant(fbb, 2, bytes)};
  std::vector<uint32_t> shape = {2};
  auto grid = meshvk::mvk::CreateGrid(fbb, fbb.CreateVector(shape));
  auto root = meshvk::mvk::CreateArtifact(fbb, kVariantsFormatVersion, fbb.CreateString("test"), grid, 0, 0, 0,
                                          fbb.CreateVector(list));
  meshvk::mvk::FinishArtifactBuffer(fbb, root);
  std::vector<uint8_t> both(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
  AppendTrailer(&both);
  EXPECT_REFUSED(both, "grid: a format_version 2 file holds its plans in variants only");
}

TEST(GridVariants, TheOuterChecksumCoversThePlans) {
  std::vector<uint8_t> file = Counts124();
  file[file.size() / 2] ^= 1;
  EXPECT_REFUSED(file, "checksum mismatch: the file is corrupt");
}

}  // namespace
}  // namespace meshvk_test
