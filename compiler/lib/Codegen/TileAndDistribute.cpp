// meshvk-tile-and-distribute (declared, with before/after IR, in
// meshvk/Codegen/Passes.td): `meshvk.kernel` functions on tensors become
// functions on buffers that hold one gpu.launch, tiled for workgroups and then
// for invocations, with every tile loop distributed CYCLICALLY over the ids
// (grid-stride), so a kernel is correct for any workgroup count the runtime
// picks (the runtime may clamp counts to the device limit).
//
// Steps, in the order lowerKernel runs them (each an upstream MLIR utility
// unless noted; the files are listed in KernelLowering.h):
//  1. wrap: buffer arguments (inputs, then outputs), bufferization.to_tensor /
//     materialize_in_destination at the edges, body moved into a gpu.launch;
//  2. elementwise fusion + canonicalization; elementwise consumers are made
//     to write in place into their producer's tensor (meshvk pattern), then
//     empty-tensor elimination so results are computed straight into outputs;
//  3. per output: tile the root op to scf.forall mapped to #gpu.block and fuse
//     its producers, then tile again to scf.forall mapped to #gpu.thread;
//  4. one-shot bufferization (temporaries in Function memory, space 6);
//  5. contraction / reduction thread tiles get register accumulators
//     (meshvk rewrite: full tiles unrolled with the K loop carrying the
//     accumulators, partial tiles keep the generic loop);
//  6. scf.forall -> cyclic scf.for over the linearised tile index (an scf.if
//     for invocation tiles that provably fit in one workgroup);
//  7. remaining linalg ops -> loops (here);
//  8. vec4 loads/stores on provably 4-aligned columns;
//  9. buffers with dynamic dims -> flat runtime arrays, sizes from push
//     constants.
#include <algorithm>
#include <map>
#include <numeric>

#include "KernelLowering.h"
#include "meshvk/Codegen/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Transforms.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace meshvk::codegen {
#define GEN_PASS_DEF_TILEANDDISTRIBUTE
#include "meshvk/Codegen/Passes.h.inc"

namespace {

using namespace mlir;

// Default workgroup count of a tile loop whose trip count is known only at
// dispatch (dynamic shapes): grid-stride loops make any count correct; this
// many keeps every core busy without thousands of empty workgroups.
constexpr int64_t kDynamicWorkgroupCount = 1024;

// Canonicalization may rebuild the gpu.launch: look it up again after each.
gpu::LaunchOp findLaunch(func::FuncOp f) {
  gpu::LaunchOp launch;
  f.walk([&](gpu::LaunchOp l) { launch = l; });
  return launch;
}

/// Everything that computes must sit inside the thread loops after tiling: an
/// op left at workgroup level would be executed by every invocation.
LogicalResult checkFusedIntoThreads(func::FuncOp f) {
  WalkResult stray = findLaunch(f).walk([&](linalg::LinalgOp op) {
    auto forall = op->getParentOfType<scf::ForallOp>();
    std::optional<ArrayAttr> mapping = forall ? forall.getMapping() : std::nullopt;
    if (!mapping || mapping->empty() || !isa<gpu::GPUThreadMappingAttr>((*mapping)[0])) {
      op->emitError("op could not be fused into the kernel's tiled loop nest");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(stray.wasInterrupted());
}

/// The ops tileRoots marked for register tiles (RegisterTiles.cpp).
LogicalResult applyRegisterTiles(IRRewriter &rw, func::FuncOp f) {
  SmallVector<linalg::LinalgOp> regTiles;
  MeshVKDialect::RegisterTileAttrHelper registerTileCaps(f.getContext());
  f.walk([&](linalg::LinalgOp op) {
    if (registerTileCaps.isAttrPresent(op))
      regTiles.push_back(op);
  });
  for (linalg::LinalgOp op : regTiles) {
    DenseI64ArrayAttr caps = registerTileCaps.getAttr(op);
    if (failed(registerTile(rw, op, caps.asArrayRef())))
      return failure();
  }
  return success();
}

/// The foralls become grid-stride loops over `invocations` threads and the
/// launch's workgroups: one workgroup per tile, clamped to the device limit.
LogicalResult distribute(IRRewriter &rw, func::FuncOp f, const TargetDescription &target,
                         int64_t invocations) {
  int64_t tiles = 1;
  SmallVector<scf::ForallOp> foralls;
  f.walk([&](scf::ForallOp fa) { foralls.push_back(fa); }); // post-order: inner first
  for (scf::ForallOp fa : foralls) {
    std::optional<ArrayAttr> mapping = fa.getMapping();
    bool threads = mapping && !mapping->empty() && isa<gpu::GPUThreadMappingAttr>((*mapping)[0]);
    if (!threads) {
      int64_t t = 1;
      bool unknown = false;
      for (auto [lb, ub, st] :
           llvm::zip(fa.getMixedLowerBound(), fa.getMixedUpperBound(), fa.getMixedStep())) {
        auto l = getConstantIntValue(lb), u = getConstantIntValue(ub), s = getConstantIntValue(st);
        if (l && u && s)
          t *= ceilDiv(*u - *l, *s);
        else
          unknown = true;
      }
      if (unknown)
        t = kDynamicWorkgroupCount;
      tiles = std::max(tiles, t);
    }
    if (failed(distributeCyclically(rw, fa, invocations)))
      return failure();
  }
  tiles = std::max<int64_t>(1, std::min<int64_t>(tiles, target.maxWorkgroupCount));
  gpu::LaunchOp launch = findLaunch(f);
  rw.setInsertionPoint(launch);
  launch.getGridSizeXMutable().assign(arith::ConstantIndexOp::create(rw, launch.getLoc(), tiles));
  launch.getBlockSizeXMutable().assign(
      arith::ConstantIndexOp::create(rw, launch.getLoc(), invocations));
  return success();
}

/// Every dialect's and op's canonicalization patterns (plus `patterns`).
void canonicalize(func::FuncOp f, RewritePatternSet &&patterns) {
  MLIRContext *ctx = f.getContext();
  for (Dialect *d : ctx->getLoadedDialects())
    d->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
  (void)applyPatternsGreedily(f, std::move(patterns));
}

/// In-place results leave copies of a tile onto itself (parallel_insert_slice
/// of the tile that was computed in place): canonicalization (trivial
/// subviews fold away) and CSE make both views one value, and the copy goes.
void dropSelfCopies(IRRewriter &rw, func::FuncOp f) {
  canonicalize(f, RewritePatternSet(f.getContext()));
  DominanceInfo dom(f);
  eliminateCommonSubExpressions(rw, dom, f);
  SmallVector<linalg::CopyOp> copies;
  f.walk([&](linalg::CopyOp c) {
    if (c.getDpsInputOperand(0)->get() == c.getDpsInitOperand(0)->get())
      copies.push_back(c);
  });
  for (auto c : copies)
    rw.eraseOp(c);
}

/// The remaining linalg ops as loops, simplified: identical index
/// computations must be one value for access grouping.
LogicalResult lowerToLoops(IRRewriter &rw, func::FuncOp f) {
  SmallVector<linalg::LinalgOp> rest;
  f.walk([&](linalg::LinalgOp op) { rest.push_back(op); });
  for (linalg::LinalgOp op : rest) {
    rw.setInsertionPoint(op);
    if (failed(linalg::linalgOpToLoops(rw, op)))
      return op->emitError("lowering to loops failed");
    rw.eraseOp(op);
  }
  RewritePatternSet patterns(f.getContext());
  memref::populateFoldMemRefAliasOpPatterns(patterns);
  canonicalize(f, std::move(patterns));
  DominanceInfo dom(f);
  eliminateCommonSubExpressions(rw, dom, f);
  return success();
}

/// The steps of meshvk-tile-and-distribute on one kernel (KernelLowering.h).
LogicalResult lowerKernel(func::FuncOp f, const TargetDescription &target) {
  if (failed(constantsToFills(f)))
    return failure();
  if (failed(simplifyOnTensors(f)))
    return f.emitError("simplification did not converge");
  ensureTileableRoots(f);
  IRRewriter rw(f.getContext());
  if (failed(bufferization::eliminateEmptyTensors(rw, f)))
    return f.emitError("empty tensor elimination failed");
  int64_t invocations = 1;
  if (failed(tileRoots(f, target, &invocations)))
    return failure();
  if (failed(simplifyOnTensors(f)))
    return f.emitError("simplification did not converge");
  // Tiling gives ops whose output is never read a fresh tensor.empty tile;
  // eliminating it again writes those tiles straight into the output.
  if (failed(bufferization::eliminateEmptyTensors(rw, f)))
    return f.emitError("empty tensor elimination failed");
  if (failed(checkFusedIntoThreads(f)) || failed(boundTemporaries(f)) || failed(bufferize(f)) ||
      failed(allocationsToPrivateVariables(f, findLaunch(f))) ||
      failed(applyRegisterTiles(rw, f)) || failed(distribute(rw, f, target, invocations)))
    return failure();
  dropSelfCopies(rw, f);
  if (failed(lowerToLoops(rw, f)))
    return failure();
  vectorizeBuffers(f);
  return passSizesAsPushConstants(f, findLaunch(f));
}

struct TileAndDistributePass : impl::TileAndDistributeBase<TileAndDistributePass> {
  using TileAndDistributeBase::TileAndDistributeBase;
  explicit TileAndDistributePass(const TargetDescription &t) : fixedTarget(t) {}

  void getDependentDialects(DialectRegistry &registry) const override {
    registerCodegenDialects(registry);
  }

  void runOnOperation() override {
    FailureOr<TargetDescription> preset = passTarget(getOperation(), fixedTarget, targetName);
    if (failed(preset))
      return signalPassFailure();
    TargetDescription target = *preset;
    if (workgroupInvocations)
      target.preferredWorkgroupInvocations = workgroupInvocations;
    MLIRContext *ctx = &getContext();
    SmallVector<func::FuncOp> kernels;
    getOperation().walk([&](func::FuncOp f) {
      if (isKernel(f) && !MeshVKDialect::NumInputsAttrHelper(ctx).isAttrPresent(f) &&
          !SymbolTable::lookupNearestSymbolFrom(
              f, StringAttr::get(f.getContext(), f.getName() + kLoweredSuffix)))
        kernels.push_back(f);
    });
    for (func::FuncOp f : kernels) {
      if (!target.supportsF16()) {
        bool usesF16 = false;
        f.walk([&](Operation *op) {
          for (Type t : op->getResultTypes())
            if (getElementTypeOrSelf(t).isF16())
              usesF16 = true;
        });
        for (Type t : f.getArgumentTypes())
          if (getElementTypeOrSelf(t).isF16())
            usesF16 = true;
        if (usesF16) {
          f.emitError() << "kernel uses f16 but target '" << target.name
                        << "' lacks shaderFloat16 + storageBuffer16BitAccess";
          return signalPassFailure();
        }
      }
      inheritUnknownLocations(f);
      bool referenced = !SymbolTable::symbolKnownUseEmpty(f, getOperation());
      FailureOr<func::FuncOp> nf = wrapKernel(f, referenced);
      if (failed(nf) || failed(lowerKernel(*nf, target)))
        return signalPassFailure();
    }
  }

  std::optional<TargetDescription> fixedTarget;
};

} // namespace

std::unique_ptr<mlir::Pass> createTileAndDistributePass(const TargetDescription &target) {
  return std::make_unique<TileAndDistributePass>(target);
}

} // namespace meshvk::codegen
