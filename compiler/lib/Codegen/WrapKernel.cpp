// Steps 1 and 2 of meshvk-tile-and-distribute (the whole sequence is in
// TileAndDistribute.cpp): the tensor kernel becomes a buffer function that
// holds one gpu.launch, and its tensor body is simplified so that results are
// computed straight into the output buffers.
#include <algorithm>
#include <map>
#include <numeric>

#include "KernelLowering.h"
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
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
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

using namespace mlir;

namespace {

// ---------------------------------------------------------------------------
// 2. An elementwise consumer whose fresh (tensor.empty) output has the same
// shape as one of its inputs, computed in this kernel and used only here,
// writes into that input instead. After tiling this keeps e.g. a matmul's
// accumulator tile and its bias+activation epilogue in ONE buffer (no
// temporary, no copy).
// ---------------------------------------------------------------------------
struct ElementwiseInPlace : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op, PatternRewriter &rw) const override {
    if (op.getNumDpsInits() != 1 || !op.hasPureTensorSemantics())
      return failure();
    if (op.getNumParallelLoops() != op.getNumLoops())
      return failure();
    OpOperand *init = op.getDpsInitOperand(0);
    if (!init->get().getDefiningOp<tensor::EmptyOp>())
      return failure();
    if (op.payloadUsesValueFromOperand(init))
      return failure();
    if (!op.getMatchingIndexingMap(init).isIdentity())
      return failure();
    for (OpOperand *in : op.getDpsInputOperands()) {
      Value v = in->get();
      if (v.getType() != init->get().getType() || !v.hasOneUse())
        continue;
      if (!op.getMatchingIndexingMap(in).isIdentity())
        continue;
      if (!isa_and_nonnull<linalg::LinalgOp>(v.getDefiningOp()))
        continue;
      unsigned idx = in->getOperandNumber();
      SmallVector<Value> inputs;
      SmallVector<AffineMap> maps;
      for (OpOperand *other : op.getDpsInputOperands()) {
        if (other == in)
          continue;
        inputs.push_back(other->get());
        maps.push_back(op.getMatchingIndexingMap(other));
      }
      maps.push_back(op.getMatchingIndexingMap(init));
      auto newOp = linalg::GenericOp::create(rw, op.getLoc(), op->getResultTypes(), inputs,
                                             ValueRange{v}, maps, op.getIteratorTypesArray());
      rw.inlineRegionBefore(op.getRegion(), newOp.getRegion(), newOp.getRegion().end());
      Block &blk = newOp.getRegion().front();
      // The old output block argument is unused: it becomes the in-place one.
      rw.replaceAllUsesWith(blk.getArgument(idx), blk.getArgument(op.getNumDpsInputs()));
      blk.eraseArgument(idx);
      rw.replaceOp(op, newOp->getResults());
      return success();
    }
    return failure();
  }
};

// Named elementwise ops (linalg.add, linalg.exp, linalg.transpose, ...) as
// linalg.generic, so that elementwise fusion (which takes generics) makes one
// op of a chain: a fused kernel's epilogue is then one root whose operand is
// its contraction (TileKernel.cpp tiles such a root as the contraction).
struct GeneralizeElementwise : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::LinalgOp op, PatternRewriter &rw) const override {
    if (isa<linalg::GenericOp, linalg::FillOp, linalg::CopyOp>(op) ||
        !op.hasPureTensorSemantics() || op.getNumLoops() != op.getNumParallelLoops())
      return failure();
    return linalg::generalizeNamedOp(rw, op);
  }
};

} // namespace

// ---------------------------------------------------------------------------
// 1. Wrap the tensor function into a buffer function with one gpu.launch.
// ---------------------------------------------------------------------------
// When the tensor function is still referenced (e.g. by meshvk.launch in a
// plan), it stays as is and the buffer function is added as <name>_lowered.

FailureOr<func::FuncOp> wrapKernel(func::FuncOp f, bool keepOriginal) {
  MLIRContext *ctx = f.getContext();
  Location loc = f.getLoc();
  if (f.isExternal())
    return f.emitError("meshvk.kernel function has no body");
  if (!f.getBody().hasOneBlock())
    return f.emitError("meshvk.kernel body must be a single block (no control flow)");
  FunctionType ft = f.getFunctionType();
  SmallVector<Type> bufferTypes;
  auto toBuffer = [&](Type t, StringRef what, unsigned i) -> FailureOr<Type> {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt || rt.getEncoding())
      return f.emitError() << what << " " << i << " has type " << t
                           << "; expected a ranked tensor without encoding";
    // Dynamic dims are allowed: their sizes come in as push constants
    // (passSizesAsPushConstants). A 0-d tensor is a 1-element buffer (same
    // bytes; the tiler needs a dimension to distribute).
    if (rt.getRank() == 0)
      return Type(MemRefType::get({1}, rt.getElementType()));
    return Type(MemRefType::get(rt.getShape(), rt.getElementType()));
  };
  for (auto [i, t] : llvm::enumerate(ft.getInputs())) {
    FailureOr<Type> b = toBuffer(t, "argument", i);
    if (failed(b))
      return failure();
    bufferTypes.push_back(*b);
  }
  if (ft.getNumResults() == 0)
    return f.emitError("meshvk.kernel has no results");
  for (auto [i, t] : llvm::enumerate(ft.getResults())) {
    FailureOr<Type> b = toBuffer(t, "result", i);
    if (failed(b))
      return failure();
    bufferTypes.push_back(*b);
  }

  OpBuilder b(f);
  std::string name = f.getName().str();
  if (keepOriginal) {
    name += kLoweredSuffix.str();
    b.setInsertionPointAfter(f);
  }
  auto nf = func::FuncOp::create(b, loc, name, FunctionType::get(ctx, bufferTypes, {}));
  MeshVKDialect::KernelAttrHelper(ctx).setAttr(nf, UnitAttr::get(ctx));
  MeshVKDialect::NumInputsAttrHelper(ctx).setAttr(nf, b.getI64IntegerAttr(ft.getNumInputs()));
  Block *entry = nf.addEntryBlock();
  b.setInsertionPointToStart(entry);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto launch = gpu::LaunchOp::create(b, loc, one, one, one, one, one, one);
  func::ReturnOp::create(b, loc);

  Block &body = launch.getBody().front();
  b.setInsertionPointToStart(&body);
  IRMapping map;
  for (unsigned i = 0; i < ft.getNumInputs(); ++i) {
    Value arg = entry->getArgument(i);
    Value t = bufferization::ToTensorOp::create(
        b, loc, memref::getTensorTypeFromMemRefType(arg.getType()), arg,
        /*restrict=*/true, /*writable=*/false);
    if (cast<RankedTensorType>(ft.getInput(i)).getRank() == 0)
      t = tensor::CollapseShapeOp::create(b, loc, t, ArrayRef<ReassociationIndices>{});
    map.map(f.getArgument(i), t);
  }
  Block &old = f.getBody().front();
  for (Operation &op : old.without_terminator())
    b.clone(op, map);
  Operation *ret = old.getTerminator();
  for (unsigned j = 0; j < ft.getNumResults(); ++j) {
    Value result = map.lookupOrDefault(ret->getOperand(j));
    Value dest = entry->getArgument(ft.getNumInputs() + j);
    if (cast<RankedTensorType>(result.getType()).getRank() == 0)
      result =
          tensor::ExpandShapeOp::create(b, loc, memref::getTensorTypeFromMemRefType(dest.getType()),
                                        result, ArrayRef<ReassociationIndices>{});
    bufferization::MaterializeInDestinationOp::create(b, loc, TypeRange{}, result, dest,
                                                      /*restrict=*/true, /*writable=*/true);
  }
  gpu::TerminatorOp::create(b, loc);
  if (!keepOriginal)
    f.erase();
  return rankZeroAsOneElement(nf);
}

// A linalg op on 0-d tensors (a full reduction, a scalar update) has no
// dimension to tile and distribute. It becomes a linalg.generic on 1-element
// tensors: a 0-d output gets a new leading parallel loop of extent 1, a 0-d
// input is read at index 0. Reshapes at its edges fold against the 1-element
// kernel buffers (wrapKernel) during simplification. In programs a long full
// reduction never gets here whole: meshvk-split-reductions made it partials
// (many outputs) and a short combine, which is what runs on one invocation.
FailureOr<func::FuncOp> rankZeroAsOneElement(func::FuncOp f) {
  auto isRankZero = [](Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t && t.getRank() == 0;
  };
  SmallVector<linalg::LinalgOp> ops;
  f.walk([&](linalg::LinalgOp op) {
    if (op.hasPureTensorSemantics() && llvm::any_of(op->getOperands(), isRankZero))
      ops.push_back(op);
  });
  IRRewriter rw(f.getContext());
  for (linalg::LinalgOp named : ops) {
    rw.setInsertionPoint(named);
    linalg::GenericOp op = dyn_cast<linalg::GenericOp>(named.getOperation());
    if (!op) {
      FailureOr<linalg::GenericOp> g = linalg::generalizeNamedOp(rw, named);
      if (failed(g))
        return named->emitError("cannot rewrite this op on 0-d tensors as a linalg.generic"),
               failure();
      op = *g;
    }
    Location loc = op.getLoc();
    bool newLoop = llvm::any_of(op.getDpsInits(), isRankZero);
    unsigned loops = op.getNumLoops() + (newLoop ? 1 : 0);
    auto oneElement = [&](Value v) -> Value {
      auto t = cast<RankedTensorType>(v.getType());
      return tensor::ExpandShapeOp::create(rw, loc, RankedTensorType::get({1}, t.getElementType()),
                                           v, ArrayRef<ReassociationIndices>{});
    };
    SmallVector<Value> inputs, inits;
    SmallVector<AffineMap> maps;
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = op.getMatchingIndexingMap(&operand);
      if (newLoop)
        map = map.shiftDims(1);
      bool init = op.isDpsInit(&operand);
      Value v = operand.get();
      if (isRankZero(v)) {
        v = oneElement(v);
        map = AffineMap::get(loops, 0, init ? rw.getAffineDimExpr(0) : rw.getAffineConstantExpr(0),
                             rw.getContext());
      }
      (init ? inits : inputs).push_back(v);
      maps.push_back(map);
    }
    SmallVector<utils::IteratorType> iterators;
    if (newLoop)
      iterators.push_back(utils::IteratorType::parallel);
    llvm::append_range(iterators, op.getIteratorTypesArray());
    SmallVector<Type> resultTypes;
    for (Value init : inits)
      resultTypes.push_back(init.getType());
    auto generic = linalg::GenericOp::create(rw, loc, resultTypes, inputs, inits, maps, iterators);
    rw.inlineRegionBefore(op.getRegion(), generic.getRegion(), generic.getRegion().end());
    if (newLoop) {
      // linalg.index reads loop numbers: they moved by one.
      generic.getRegion().walk([&](linalg::IndexOp index) { index.setDim(index.getDim() + 1); });
    }
    SmallVector<Value> results;
    for (auto [old, now] : llvm::zip(op->getResults(), generic->getResults()))
      results.push_back(isRankZero(old) ? (Value)tensor::CollapseShapeOp::create(
                                              rw, loc, now, ArrayRef<ReassociationIndices>{})
                                        : now);
    rw.replaceOp(op, results);
  }
  return f;
}

// Splat tensor constants (cloned into kernels by the partitioner) become
// fills; other tensor constants have no place in a kernel (no globals yet).
LogicalResult constantsToFills(func::FuncOp f) {
  SmallVector<arith::ConstantOp> constants;
  f.walk([&](arith::ConstantOp c) {
    if (isa<RankedTensorType>(c.getType()))
      constants.push_back(c);
  });
  for (arith::ConstantOp c : constants) {
    auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
    if (!dense || !dense.isSplat())
      return c.emitError("non-splat tensor constant inside a kernel is not supported; "
                         "pass it as a kernel argument");
    auto tt = cast<RankedTensorType>(c.getType());
    OpBuilder b(c);
    Value scalar = arith::ConstantOp::create(b, c.getLoc(), dense.getSplatValue<TypedAttr>());
    Value empty = tensor::EmptyOp::create(b, c.getLoc(), tt.getShape(), tt.getElementType());
    Value filled = linalg::FillOp::create(b, c.getLoc(), scalar, empty).getResult(0);
    c.replaceAllUsesWith(filled);
    c.erase();
  }
  return success();
}

LogicalResult simplifyOnTensors(func::FuncOp f) {
  MLIRContext *ctx = f.getContext();
  RewritePatternSet patterns(ctx);
  linalg::populateElementwiseOpsFusionPatterns(patterns, [](OpOperand *operand) {
    Operation *producer = operand->get().getDefiningOp();
    return producer && producer->hasOneUse();
  });
  patterns.add<ElementwiseInPlace, GeneralizeElementwise>(ctx);
  // A tile of a tensor.empty is an empty tile: a temporary of the tile's size
  // (bounded by boundTemporaries), never one of the whole tensor.
  tensor::populateFoldTensorEmptyPatterns(patterns);
  for (Dialect *d : ctx->getLoadedDialects())
    d->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
  return applyPatternsGreedily(f, std::move(patterns));
}

// Every result must come from a tileable linalg op; anything else (an input
// returned as is, a tensor.extract_slice = slice copy, a reshape) is copied by
// a linalg.copy so that it can be tiled and distributed like the rest.
void ensureTileableRoots(func::FuncOp f) {
  SmallVector<bufferization::MaterializeInDestinationOp> outs;
  f.walk([&](bufferization::MaterializeInDestinationOp m) { outs.push_back(m); });
  for (auto m : outs) {
    Value src = m.getSource();
    // A linalg op used only by this output is computed in place into it.
    if (isa_and_nonnull<linalg::LinalgOp>(src.getDefiningOp()) && src.hasOneUse())
      continue;
    OpBuilder b(m);
    auto tt = cast<RankedTensorType>(src.getType());
    Value empty = tensor::EmptyOp::create(b, m.getLoc(), tt.getShape(), tt.getElementType());
    Value copied = linalg::CopyOp::create(b, m.getLoc(), src, empty).getResult(0);
    m.getSourceMutable().assign(copied);
  }
}

// Named linalg ops build their payload with unknown locations (upstream's
// region builder), so an op that cannot be lowered (math.erf in linalg.erf)
// was reported with no place at all. Every op and block argument without a
// location takes its parent op's: the kernel's ops were cloned from the user's
// program with their locations, so diagnostics point at the user's op.
void inheritUnknownLocations(func::FuncOp f) {
  f.walk<WalkOrder::PreOrder>([](Operation *op) {
    if (isa<UnknownLoc>(op->getLoc()))
      if (Operation *parent = op->getParentOp())
        op->setLoc(parent->getLoc());
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (isa<UnknownLoc>(arg.getLoc()))
            arg.setLoc(op->getLoc());
  });
}

} // namespace meshvk::codegen
