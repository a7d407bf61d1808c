// Artifacts built with the C++ builder for the artifact, runner, fuzz and
// benchmark tests: the programs a compiler would emit, written by hand.
#ifndef MESHVK_TESTS_ARTIFACT_PROGRAMS_H_
#define MESHVK_TESTS_ARTIFACT_PROGRAMS_H_

#include <cstdint>
#include <vector>

#include "meshvk/artifact/builder.h"

namespace meshvk_test {

// The scaled_add kernel: bindings {a, b, c (written)}, push {uint count, float scale}.
meshvk::artifact::ExecutableDesc ScaledAddKernel();
std::vector<uint8_t> ScaledAddPush(uint32_t count, float scale);

// main(a, b) -> c = a + scale * b on a global rows x cols f32 tensor; grid
// `grid_shape`, dimension d split over grid axes split_axes[d]. With
// `function`, the signature is returned there instead of added (tests break it).
meshvk::artifact::ArtifactBuilder ElementwiseBuilder(const std::vector<uint32_t>& grid_shape,
                                                     const std::vector<std::vector<uint32_t>>& split_axes,
                                                     uint64_t rows, uint64_t cols, float scale,
                                                     meshvk::artifact::FunctionDesc* function = nullptr);
std::vector<uint8_t> Elementwise(const std::vector<uint32_t>& grid_shape,
                                 const std::vector<std::vector<uint32_t>>& split_axes, uint64_t rows, uint64_t cols,
                                 float scale);

// all_gather(x) -> y: x is f32[P*n] (or i32/f16; n*element size must be a
// multiple of 4) split over a peered 1-D grid of P; y is
// replicated on every process. Each process fills y with NaN, copies its own
// block in, then pulls the other P-1 blocks around a ring from its left
// neighbour (each pull depends on the neighbour's previous step: P phases).
// `with_deps` false leaves out the cross-process deps (a broken program the
// verifier cannot tell from a correct one; tests show the race is caught).
std::vector<uint8_t> RingAllGather(uint32_t processes, uint64_t n,
                                   meshvk::artifact::ElementType type = meshvk::artifact::ElementType::kF32,
                                   bool with_deps = true);

// A 2-D strided copy region: count0 x count1 words, unit stride along rows,
// rows `src_row` words apart in the source and `dst_row` in the destination.
meshvk::artifact::StridedRegionDesc StridedRows(uint32_t count0, uint32_t count1, uint32_t src_row, uint32_t dst_row);

// chain(x) -> z = x + dispatches: `dispatches` scaled_add dispatches on one
// process, each depending on the previous one through its buffers.
std::vector<uint8_t> DispatchChain(uint32_t dispatches, uint64_t n);

}  // namespace meshvk_test

#endif  // MESHVK_TESTS_ARTIFACT_PROGRAMS_H_
