// The two buffer-level rewrites of meshvk-tile-and-distribute that have their
// own files (TileAndDistribute.cpp runs them; see its header comment for the
// whole sequence):
//   * RegisterTiles.cpp (step 5): a thread tile of a contraction / reduction
//     keeps its accumulators in registers;
//   * VectorAccess.cpp (step 8): groups of four scalar buffer accesses become
//     vec4 accesses through a second view of the buffer.
// Internal to MeshVKCodegen.
#ifndef MESHVK_CODEGEN_KERNEL_REWRITES_H_
#define MESHVK_CODEGEN_KERNEL_REWRITES_H_

#include <cstdint>

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace meshvk::codegen {

// Set by tiling on a thread-tiled op: its per-loop register tile caps
// (array<i64>), consumed by registerTile after bufferization.
constexpr llvm::StringLiteral kRegisterTileAttr = "meshvk.register_tile";

// A memref linalg op with reduction loops whose parallel loops are at most
// `caps` long: full tiles become unrolled accumulators carried through the
// reduction loops (loads deduplicated); ragged tiles keep the generic op
// (lowered to loops later). Ops it does not apply to are left unchanged.
mlir::LogicalResult registerTile(mlir::IRRewriter& rw, mlir::linalg::LinalgOp op,
                                 llvm::ArrayRef<int64_t> caps);

// Gives buffers of `f` whose rows are a multiple of 4 elements a vec4 view
// (an extra argument marked meshvk.alias_of = i, the same binding) and turns
// four consecutive 4-aligned loads or stores into one vec4 access.
void vectorizeBuffers(mlir::func::FuncOp f);

}  // namespace meshvk::codegen

#endif  // MESHVK_CODEGEN_KERNEL_REWRITES_H_
