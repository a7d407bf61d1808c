// The steps of lowering one kernel, shared by the files of MeshVKCodegen
// (internal). meshvk-tile-and-distribute (TileAndDistribute.cpp) runs them in
// this order, see the header comment there:
//   WrapKernel.cpp         steps 1-2: buffer function + gpu.launch, tensor simplification
//   TileKernel.cpp         steps 3, 4, 6: tile sizes, tiling, bufferization, cyclic loops
//   RegisterTiles.cpp      step 5: accumulators of a thread tile in registers
//   VectorAccess.cpp       step 8: vec4 accesses through a second view of a buffer
//   PushConstantSizes.cpp  step 9: sizes of dynamic buffers from push constants
// DumpKernels.cpp writes a kernel's SPIR-V (the dump pass and compileKernels).
#ifndef MESHVK_LIB_CODEGEN_KERNELLOWERING_H_
#define MESHVK_LIB_CODEGEN_KERNELLOWERING_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "meshvk/Codegen/TargetDescription.h"
#include "meshvk/Dialect/MeshVKDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace meshvk::codegen {

inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The buffer function of a kernel that is still referenced (by a
// meshvk.launch in a plan) is added as <name>_lowered; the tensor one stays.
constexpr llvm::StringLiteral kLoweredSuffix = "_lowered";

// The target a codegen pass runs for: the description it was created with,
// else the preset its `target` option names (one error for an unknown name).
inline mlir::FailureOr<TargetDescription> passTarget(mlir::Operation *at,
                                                     const std::optional<TargetDescription> &fixed,
                                                     const std::string &presetName) {
  TargetDescription target;
  if (fixed)
    return *fixed;
  if (lookupTarget(presetName, &target))
    return target;
  return at->emitError() << "unknown codegen target '" << presetName
                         << "'; expected lavapipe, gpu or generic";
}

// --- WrapKernel.cpp (steps 1-2) ---
// The tensor kernel `f` as a buffer function (inputs, then outputs) holding
// one gpu.launch; `f` itself is erased unless `keepOriginal`.
mlir::FailureOr<mlir::func::FuncOp> wrapKernel(mlir::func::FuncOp f, bool keepOriginal);
// Linalg ops on 0-d tensors become linalg.generic ops on 1-element tensors
// (a 0-d output gets a leading parallel loop of extent 1); wrapKernel runs it.
mlir::FailureOr<mlir::func::FuncOp> rankZeroAsOneElement(mlir::func::FuncOp f);
// Splat tensor constants become fills; any other tensor constant is an error.
mlir::LogicalResult constantsToFills(mlir::func::FuncOp f);
// Elementwise fusion, in-place elementwise consumers, canonicalization.
mlir::LogicalResult simplifyOnTensors(mlir::func::FuncOp f);
// Every result computed by a tileable linalg op (else a linalg.copy).
void ensureTileableRoots(mlir::func::FuncOp f);
// Ops and block arguments without a location take their parent's.
void inheritUnknownLocations(mlir::func::FuncOp f);

// --- TileKernel.cpp (steps 3, 4, 6) ---
// Tiles every result's root op to workgroups and invocations (scf.forall);
// `*invocations` is the workgroup size the tiles need.
mlir::LogicalResult tileRoots(mlir::func::FuncOp f, const TargetDescription &target,
                              int64_t *invocations);
// Dynamic-size temporaries get a static upper bound.
mlir::LogicalResult boundTemporaries(mlir::func::FuncOp f);
// One-shot bufferization, temporaries in Function memory.
mlir::LogicalResult bufferize(mlir::func::FuncOp f);
// Function-memory allocations become variables at the top of the launch.
mlir::LogicalResult allocationsToPrivateVariables(mlir::func::FuncOp f, mlir::gpu::LaunchOp launch);
// A mapped scf.forall on buffers becomes a cyclic (grid-stride) loop over the
// linearised tile index (an scf.if when it provably fits `invocations`).
mlir::LogicalResult distributeCyclically(mlir::IRRewriter &rw, mlir::scf::ForallOp forall,
                                         int64_t invocations);

// --- RegisterTiles.cpp (step 5) ---
// A memref linalg op with reduction loops whose parallel loops are at most
// `caps` long: full tiles become unrolled accumulators carried through the
// reduction loops (loads deduplicated); ragged tiles keep the generic op
// (lowered to loops later). Ops it does not apply to are left unchanged.
mlir::LogicalResult registerTile(mlir::IRRewriter &rw, mlir::linalg::LinalgOp op,
                                 llvm::ArrayRef<int64_t> caps);

// --- VectorAccess.cpp (step 8) ---
// Gives buffers of `f` whose rows are a multiple of 4 elements a vec4 view
// (an extra argument marked meshvk.alias_of = i, the same binding) and turns
// four consecutive 4-aligned loads or stores into one vec4 access.
void vectorizeBuffers(mlir::func::FuncOp f);

// --- PushConstantSizes.cpp (step 9) ---
// Buffers with dynamic dims become flat runtime arrays indexed with sizes read
// from push constants (meshvk.push_constants, meshvk.push_constant_dims).
mlir::LogicalResult passSizesAsPushConstants(mlir::func::FuncOp f, mlir::gpu::LaunchOp launch);

// --- DumpKernels.cpp ---
// Writes <dir>/<name>.spv and <dir>/<name>.spvasm (each atomically).
mlir::LogicalResult dumpKernel(mlir::Operation *at, const std::string &dir, const std::string &name,
                               const std::vector<uint32_t> &words);

} // namespace meshvk::codegen

#endif // MESHVK_LIB_CODEGEN_KERNELLOWERING_H_
