//===- DecomposeTosa.cpp - tosa ops tosa-to-linalg has no lowering for ----===//
//
// meshvk-decompose-tosa (Passes.td): tosa.transpose_conv2d becomes a
// tosa.conv2d of the input padded between its pixels and the reversed
// filter (upstream's pattern, tosa-optional-decompositions'), which
// meshvk's window rewrite then runs like any convolution.
//
//===----------------------------------------------------------------------===//
#include "meshvk/Transforms/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_DECOMPOSETOSA
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

namespace {

struct DecomposeTosaPass : meshvk::impl::DecomposeTosaBase<DecomposeTosaPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    tosa::populateTosaDecomposeTransposeConv(&getContext(), patterns);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
