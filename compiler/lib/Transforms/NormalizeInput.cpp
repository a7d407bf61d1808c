//===- NormalizeInput.cpp - programs as people write them -> propagation --===//
//
// Rewrites that turn what users write into what upstream
// sharding-propagation and shard-partition take without failing:
//  * a public function without any shard op runs replicated on the module's
//    grid, or on a new `shard.grid @meshvk_grid(shape = 1)`;
//  * a producer annotation (`shard.shard %v to %s`, not for users) written
//    after another use of %v moves up to %v's producer, and comes first in
//    %v's use list: propagation otherwise breaks dominance;
//  * a linalg.generic input read through a constant index (a broadcast of a
//    size-1 dimension, `(i, j) -> (0, j)`) reads it through a new loop
//    dimension of extent 1 instead (`(i, j, k) -> (k, j)`, k a reduction that
//    runs once): the sharding interface takes projected permutations only;
//  * a `tensor.empty` used by several ops is cloned per use (one empty init
//    shared by ops of different shardings was partitioned to one shard shape);
//  * a window of a constant tensor.pad (a stencil's shifted operand, a
//    tensor.extract_slice of the unpadded shape) becomes a meshvk.window,
//    which exchanges only the borders it reads; static halo sizes in
//    annotations are checked against the windows and dropped
//    (shard-partition crashes on them); convolutions and poolings (of
//    such a pad or of the input itself) become one generic over windows
//    (ConvWindows.h);
//  * an unused tensor argument of an annotated function is annotated as
//    replicated (shard-partition crashes on an argument without sharding);
//  * scalar arithmetic on constants in the function body is folded
//    (tosa.avg_pool2d's divisor computes `size - 1` on index constants,
//    which propagation would ask a sharding rule of);
//  * dead ops are erased (an unused tensor constant, e.g. tosa.mul's shift,
//    made shard-partition fail without a diagnostic);
//  * a contraction (matmul, batch_matmul, ...) that accumulates into a tensor
//    it reads (`outs(%c)` with %c an argument or another op's result)
//    accumulates into zeros and adds %c after: kernels cannot update their
//    inputs in place. Other ops that read such an init are refused;
//  * an elementwise producer of a tensor the runtime cannot store (an i1
//    mask) is fused into its consumers;
//  * tensor.pad and tensor.concat become a fill (or empty) and insert_slices,
//    which have a sharding rule (SliceSharding.h) and become plan copies;
//  * tensor.reshape to a static shape becomes tensor.collapse_shape and/or
//    expand_shape (ReshapeSharding.h has their sharding rule);
//  * a tensor constant whose elements differ (weights, a table) becomes a
//    meshvk.constant: upstream partitions splat arith.constants only, and
//    the plan keeps such data in constant buffers of the artifact; a splat
//    one becomes a linalg.fill (upstream gives it no static type on uneven
//    shards).
//
//===----------------------------------------------------------------------===//
#include "ConvWindows.h"
#include "ShardingUtils.h"
#include "meshvk/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_NORMALIZEINPUT
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

namespace {

bool hasAnnotations(func::FuncOp func) {
  return func
      .walk([](Operation *op) {
        return isa<shard::ShardDialect>(op->getDialect()) ? WalkResult::interrupt()
                                                          : WalkResult::advance();
      })
      .wasInterrupted();
}

shard::ShardingOp createReplicated(OpBuilder &b, Location loc, FlatSymbolRefAttr grid) {
  return shard::ShardingOp::create(
      b, loc, grid, ArrayRef<shard::GridAxesAttr>{DenseI16ArrayAttr::get(b.getContext(), {})});
}

/// Folds the scalar arith ops of `func`'s body whose operands are all
/// constants (no tensors involved): nothing to shard, and no sharding rule
/// for them. Only arith: annotations must stay as written.
void foldScalarConstants(func::FuncOp func) {
  auto isTensor = [](Type t) { return isa<ShapedType>(t); };
  SmallVector<Operation *> ops;
  for (Operation &op : func.getBody().front().without_terminator())
    if (isa<arith::ArithDialect>(op.getDialect()) && op.getNumOperands() > 0 && isPure(&op) &&
        llvm::none_of(op.getOperandTypes(), isTensor) &&
        llvm::none_of(op.getResultTypes(), isTensor) &&
        llvm::all_of(op.getOperands(), [](Value v) { return matchPattern(v, m_Constant()); }))
      ops.push_back(&op);
  if (!ops.empty())
    (void)applyOpPatternsGreedily(ops, FrozenRewritePatternSet());
}

/// Annotates every tensor argument and result of `func` as replicated.
void annotateReplicated(func::FuncOp func, FlatSymbolRefAttr grid, OpBuilder &b) {
  Block &body = func.getBody().front();
  b.setInsertionPointToStart(&body);
  shard::ShardingOp replicated = createReplicated(b, func.getLoc(), grid);
  for (BlockArgument arg : body.getArguments()) {
    if (!isa<RankedTensorType>(arg.getType()) || arg.use_empty())
      continue;
    auto annotated = shard::ShardOp::create(b, arg.getLoc(), arg, replicated,
                                            /*annotate_for_users=*/true);
    arg.replaceAllUsesExcept(annotated.getResult(), annotated);
  }
  Operation *ret = body.getTerminator();
  b.setInsertionPoint(ret);
  for (OpOperand &operand : ret->getOpOperands())
    if (isa<RankedTensorType>(operand.get().getType()))
      operand.set(shard::ShardOp::create(b, ret->getLoc(), operand.get(), replicated,
                                         /*annotate_for_users=*/false)
                      .getResult());
}

/// Gives every unused tensor argument of an annotated function a replicated
/// annotation on the function's grid: shard-partition crashes on an argument
/// without any (MLIR 22.1, null sharding), and propagation never reaches one
/// that nothing uses.
void annotateUnusedArguments(func::FuncOp func, OpBuilder &b) {
  shard::ShardingOp any;
  func.walk([&](shard::ShardingOp op) {
    any = op;
    return WalkResult::interrupt();
  });
  if (!any || func.getBody().empty())
    return;
  Block &body = func.getBody().front();
  b.setInsertionPointToStart(&body);
  shard::ShardingOp replicated;
  for (BlockArgument arg : body.getArguments()) {
    if (!isa<RankedTensorType>(arg.getType()) || !arg.use_empty())
      continue;
    if (!replicated)
      replicated = createReplicated(b, func.getLoc(), any.getGridAttr());
    shard::ShardOp::create(b, arg.getLoc(), arg, replicated, /*annotate_for_users=*/true);
  }
}

/// `tensor.extract_slice` of a `tensor.pad` with a constant pad value that
/// reads a window of the unpadded tensor's own shape (unit strides, static
/// offsets) -> `meshvk.window %x shifts [offset - low]`: a stencil's shifted
/// operand. Partitioned, a window moves only the borders its shifts reach
/// (meshvk-lower-collectives); as a pad + slice the slice would not take the
/// split dimension whole and ran replicated (the whole dimension gathered).
/// A window of shift 0 is the tensor itself. The pad stays for its other
/// users (decomposed below), if any.
void rewriteWindows(func::FuncOp func, OpBuilder &b) {
  SmallVector<tensor::PadOp> pads;
  func.walk([&](tensor::PadOp pad) { pads.push_back(pad); });
  for (tensor::PadOp pad : pads) {
    TypedAttr padValue;
    Value padding = pad.getConstantPaddingValue();
    RankedTensorType source = pad.getSourceType();
    if (!padding || !matchPattern(padding, m_Constant(&padValue)) || !source.hasStaticShape() ||
        llvm::any_of(pad.getStaticLow(), ShapedType::isDynamic))
      continue;
    for (Operation *user : llvm::make_early_inc_range(pad->getUsers())) {
      auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
      if (!slice || slice.getType() != source || !slice.hasUnitStride() ||
          llvm::any_of(slice.getStaticOffsets(), ShapedType::isDynamic))
        continue;
      SmallVector<int64_t> shifts;
      for (auto [offset, low] : llvm::zip(slice.getStaticOffsets(), pad.getStaticLow()))
        shifts.push_back(offset - low);
      Value window = pad.getSource();
      if (llvm::any_of(shifts, [](int64_t s) { return s != 0; })) {
        b.setInsertionPoint(slice);
        window = meshvk::WindowOp::create(b, slice.getLoc(), source, pad.getSource(),
                                          b.getDenseI64ArrayAttr(shifts), padValue, nullptr,
                                          nullptr, nullptr, nullptr);
      }
      slice.replaceAllUsesWith(window);
      slice.erase();
    }
    if (pad->use_empty())
      pad.erase();
  }
}

/// Static halo sizes in a global program's annotations declare the border
/// each shard reads from its neighbours. meshvk exchanges the borders the
/// program's windows (meshvk.window, above) actually read, so the sizes are
/// checked against them and then dropped: upstream shard-partition crashes
/// on ops whose operands carry halos (MLIR 22.1), and halo shards would
/// overlap in the function ABI. A warning when a window reads further than
/// declared (the exchange follows the program) or when no window reads the
/// tensor (nothing to exchange). Dynamic halo sizes stay for check-sharding.
void checkAndDropStaticHalos(func::FuncOp func) {
  func.walk([](shard::ShardingOp sharding) {
    ArrayRef<int64_t> halo = sharding.getStaticHaloSizes();
    if (halo.empty() || !sharding.getDynamicHaloSizes().empty())
      return;
    auto declared = [&](int64_t d, bool upper) -> int64_t {
      return 2 * d + 1 < (int64_t)halo.size() ? halo[2 * d + (upper ? 1 : 0)] : 0;
    };
    ArrayRef<shard::GridAxesAttr> split = sharding.getSplitAxes().getAxes();
    bool anyWindow = false;
    for (Operation *user : sharding->getUsers()) {
      auto annotation = dyn_cast<shard::ShardOp>(user);
      if (!annotation)
        continue;
      for (Operation *reader : annotation->getUsers()) {
        auto window = dyn_cast<meshvk::WindowOp>(reader);
        if (!window)
          continue;
        anyWindow = true;
        for (auto [d, shift] : llvm::enumerate(window.getShifts())) {
          if ((int64_t)d >= (int64_t)split.size() || split[d].empty() || shift == 0)
            continue;
          bool upper = shift > 0;
          if (std::abs(shift) <= declared(d, upper))
            continue;
          window.emitWarning() << "this window reads " << std::abs(shift) << " element(s) "
                               << (upper ? "above" : "below") << " each shard of dimension " << d
                               << ", beyond the " << (upper ? "upper" : "lower") << " halo of "
                               << declared(d, upper)
                               << " its annotation declares: meshvk exchanges the border the "
                                  "window reads";
        }
      }
    }
    if (!anyWindow) {
      auto diag = sharding.emitWarning("halo_sizes = [");
      llvm::interleaveComma(halo, diag);
      diag << "] has no effect: no shifted window (tensor.extract_slice of a constant "
              "tensor.pad) reads a tensor annotated with it, so there is no border to exchange "
              "(same results; each process keeps its shard without borders)";
    }
    sharding.setStaticHaloSizes(ArrayRef<int64_t>{});
  });
}

/// Moves producer annotations that follow another use of their value up to
/// the value's producer.
void hoistProducerAnnotations(func::FuncOp func) {
  SmallVector<shard::ShardOp> late;
  func.walk([&](shard::ShardOp op) {
    auto result = dyn_cast<OpResult>(op.getSrc());
    if (op.getAnnotateForUsers() || !result || result.getOwner()->getBlock() != op->getBlock())
      return;
    for (Operation *user : result.getUsers())
      if (user != op && user->getBlock() == op->getBlock() && user->isBeforeInBlock(op)) {
        late.push_back(op);
        return;
      }
  });
  for (shard::ShardOp op : late) {
    Operation *producer = op.getSrc().getDefiningOp();
    auto sharding = op.getSharding().getDefiningOp<shard::ShardingOp>();
    // Static shardings have no operands and move freely; others stay.
    if (!sharding || sharding->getNumOperands() != 0 || sharding->getBlock() != op->getBlock())
      continue;
    if (producer->isBeforeInBlock(sharding))
      sharding->moveAfter(producer);
    op->moveAfter(sharding->isBeforeInBlock(producer) ? producer : sharding.getOperation());
  }
}

/// Puts the producer annotations of every op result first in its use list.
/// Upstream sharding-propagation visits a result's uses in use-list order and
/// builds its for-users annotation after the producer; when another use comes
/// before a producer annotation of another sharding, that annotation lands
/// ahead of the ops it reads and breaks dominance ("operand #0 does not
/// dominate this use" on an activation both consumed and returned resharded).
/// The order depends only on how earlier rewrites replaced uses, so it is set
/// here, after every rewrite of this pass.
void putProducerAnnotationsFirst(func::FuncOp func) {
  auto isProducerAnnotation = [](OpOperand &use) {
    auto shard = dyn_cast<shard::ShardOp>(use.getOwner());
    return shard && !shard.getAnnotateForUsers();
  };
  func.walk([&](Operation *op) {
    for (OpResult result : op->getResults()) {
      SmallVector<OpOperand *> uses =
          llvm::map_to_vector(result.getUses(), [](OpOperand &u) { return &u; });
      // indices[i]: the new position of the i-th use.
      SmallVector<unsigned> indices(uses.size());
      unsigned next = 0;
      for (bool annotations : {true, false})
        for (auto [i, use] : llvm::enumerate(uses))
          if (isProducerAnnotation(*use) == annotations)
            indices[i] = next++;
      if (!llvm::is_sorted(indices))
        result.shuffleUseList(indices);
    }
  });
}

/// `(i, j) -> (0, j)` on a 1xN input becomes `(i, j, k) -> (k, j)` with k a
/// new reduction dimension of extent 1 (the body runs once per (i, j)).
void rewriteBroadcastMaps(linalg::GenericOp op, OpBuilder &b) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  unsigned numDims = op.getNumLoops(), extra = 0;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = maps[input->getOperandNumber()];
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    for (auto [i, expr] : llvm::enumerate(map.getResults())) {
      auto c = dyn_cast<AffineConstantExpr>(expr);
      if (!c)
        continue;
      if (!type || c.getValue() != 0 || type.getDimSize(i) != 1)
        return; // not a broadcast: check-sharding names the map
      ++extra;
    }
  }
  if (extra == 0)
    return;
  unsigned next = numDims;
  SmallVector<AffineMap> rewritten;
  for (auto [operandNumber, map] : llvm::enumerate(maps)) {
    SmallVector<AffineExpr> results;
    bool isInput = operandNumber < op.getNumDpsInputs();
    for (AffineExpr expr : map.getResults())
      results.push_back(isInput && isa<AffineConstantExpr>(expr) ? b.getAffineDimExpr(next++)
                                                                 : expr);
    rewritten.push_back(AffineMap::get(numDims + extra, 0, results, op.getContext()));
  }
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators.append(extra, utils::IteratorType::reduction);
  b.setInsertionPoint(op);
  auto replacement = linalg::GenericOp::create(b, op.getLoc(), op.getResultTypes(), op.getInputs(),
                                               op.getOutputs(), rewritten, iterators);
  replacement.getRegion().takeBody(op.getRegion());
  replacement->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  op.replaceAllUsesWith(replacement.getResults());
  op.erase();
}

/// One `tensor.empty` per use.
void cloneSharedEmpties(func::FuncOp func, OpBuilder &b) {
  SmallVector<tensor::EmptyOp> empties;
  func.walk([&](tensor::EmptyOp op) { empties.push_back(op); });
  for (tensor::EmptyOp op : empties) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : op->getUses())
      uses.push_back(&use);
    b.setInsertionPoint(op);
    for (OpOperand *use : llvm::drop_begin(uses))
      use->set(b.clone(*op)->getResult(0));
  }
}

/// Tensor constants of element types the runtime stores: non-splat ones
/// become meshvk.constant; splat ones a linalg.fill of a tensor.empty per
/// use (upstream partitions a splat constant to a type with `?` on uneven
/// shards, which nothing can make static again; a fill's empty gets each
/// process's size, and the fill is fused into its consumer's kernel). Other
/// element types stay and check-sharding names them.
void bakeConstants(func::FuncOp func, OpBuilder &b) {
  SmallVector<arith::ConstantOp> constants;
  func.walk([&](arith::ConstantOp op) {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (type && type.hasStaticShape() && meshvk::isStorableElementType(type.getElementType()))
      constants.push_back(op);
  });
  for (arith::ConstantOp op : constants) {
    b.setInsertionPoint(op);
    auto type = cast<RankedTensorType>(op.getType());
    if (auto dense = dyn_cast<DenseElementsAttr>(op.getValue()); dense && dense.isSplat()) {
      Value scalar = arith::ConstantOp::create(b, op.getLoc(), dense.getSplatValue<TypedAttr>());
      for (OpOperand &use : llvm::make_early_inc_range(op->getUses())) {
        Value empty =
            tensor::EmptyOp::create(b, op.getLoc(), type.getShape(), type.getElementType());
        use.set(linalg::FillOp::create(b, op.getLoc(), scalar, empty).getResult(0));
      }
      op.erase();
      continue;
    }
    auto baked = meshvk::ConstantOp::create(
        b, op.getLoc(), op.getType(), cast<ElementsAttr>(op.getValue()), nullptr, nullptr, nullptr);
    op.replaceAllUsesWith(baked.getResult());
    op.erase();
  }
}

void eraseDeadOps(func::FuncOp func);

/// tensor.reshape between static shapes -> one collapse_shape or
/// expand_shape when the shapes allow it, else a collapse to 1-D and an
/// expand. Dynamic ones stay (check-sharding names them).
void rewriteStaticReshapes(func::FuncOp func, OpBuilder &b) {
  SmallVector<tensor::ReshapeOp> reshapes;
  func.walk([&](tensor::ReshapeOp op) { reshapes.push_back(op); });
  for (tensor::ReshapeOp op : reshapes) {
    auto source = dyn_cast<RankedTensorType>(op.getSource().getType());
    auto result = dyn_cast<RankedTensorType>(op.getResult().getType());
    if (!source || !result || !source.hasStaticShape() || !result.hasStaticShape())
      continue;
    b.setInsertionPoint(op);
    Location loc = op.getLoc();
    Value reshaped;
    if (source.getRank() > result.getRank()) {
      if (auto groups = getReassociationIndicesForCollapse(source.getShape(), result.getShape()))
        reshaped = tensor::CollapseShapeOp::create(b, loc, result, op.getSource(), *groups);
    } else if (source.getRank() < result.getRank()) {
      if (auto groups = getReassociationIndicesForCollapse(result.getShape(), source.getShape()))
        reshaped = tensor::ExpandShapeOp::create(b, loc, result, op.getSource(), *groups);
    } else if (source == result) {
      reshaped = op.getSource();
    }
    if (!reshaped) {
      auto flat = RankedTensorType::get({source.getNumElements()}, source.getElementType());
      auto all = [](int64_t rank) {
        ReassociationIndices group;
        for (int64_t d = 0; d < rank; ++d)
          group.push_back(d);
        return SmallVector<ReassociationIndices>{group};
      };
      reshaped = op.getSource();
      if (source.getRank() != 1)
        reshaped = tensor::CollapseShapeOp::create(b, loc, flat, reshaped, all(source.getRank()));
      if (result.getRank() != 1)
        reshaped = tensor::ExpandShapeOp::create(b, loc, result, reshaped, all(result.getRank()));
    }
    op.replaceAllUsesWith(reshaped);
    op.erase();
  }
  eraseDeadOps(func); // the shape operands
}

void eraseDeadOps(func::FuncOp func) {
  for (Block &block : func.getBody())
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
      if (isOpTriviallyDead(&op) && !isa<shard::ShardDialect>(op.getDialect()))
        op.erase();
}

/// Whether `init` starts from values nobody wrote before (tensor.empty or a
/// fill, which the kernel outliner recomputes inside the kernel), looking
/// through annotations.
bool isFreshInit(Value init) {
  Operation *def = init.getDefiningOp();
  while (auto shardOp = dyn_cast_or_null<shard::ShardOp>(def))
    def = shardOp.getSrc().getDefiningOp();
  return isa_and_nonnull<tensor::EmptyOp, linalg::FillOp>(def);
}

/// `D = contraction(A, B) outs(C)` with C read -> `D = contraction(A, B)
/// outs(fill(0)) + C`. Other ops reading a non-fresh init are refused.
LogicalResult rewriteReadInits(func::FuncOp func, OpBuilder &b) {
  SmallVector<linalg::LinalgOp> ops;
  func.walk([&](linalg::LinalgOp op) {
    if (op.hasPureTensorSemantics())
      ops.push_back(op);
  });
  for (linalg::LinalgOp op : ops) {
    for (OpOperand &init : op.getDpsInitsMutable()) {
      if (!op.payloadUsesValueFromOperand(&init) || isFreshInit(init.get()))
        continue;
      auto type = dyn_cast<RankedTensorType>(init.get().getType());
      if (!type || !linalg::isaContractionOpInterface(op) || op->getNumResults() != 1 ||
          !type.hasStaticShape())
        return op->emitError() << "'" << op->getName() << "' reads its init (outs operand #"
                               << init.getOperandNumber() - op.getNumDpsInputs()
                               << "), which is not a tensor.empty or linalg.fill: meshvk "
                                  "kernels cannot update an input in place; start from a "
                                  "linalg.fill and combine with the old value in a separate "
                                  "elementwise op";
      Location loc = op.getLoc();
      Value old = init.get();
      b.setInsertionPoint(op);
      Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
      Value empty = tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
      init.set(linalg::FillOp::create(b, loc, zero, empty).getResult(0));
      b.setInsertionPointAfter(op);
      Value sumInit = tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
      Value product = op->getResult(0);
      auto sum = linalg::AddOp::create(b, loc, TypeRange{type}, ValueRange{product, old},
                                       ValueRange{sumInit});
      product.replaceAllUsesExcept(sum->getResult(0), sum);
    }
  }
  return success();
}

/// tensor.pad -> empty + fill + insert_slice; tensor.concat -> empty +
/// insert_slices (upstream's rewrites, applied without folding anything else).
LogicalResult decomposePadAndConcat(func::FuncOp func) {
  WalkResult positional = func.walk([](tensor::PadOp pad) {
    if (pad.getConstantPaddingValue())
      return WalkResult::advance();
    pad.emitError("'tensor.pad' whose padding value depends on the position is not supported: "
                  "yield a value defined outside its region (a constant)");
    return WalkResult::interrupt();
  });
  if (positional.wasInterrupted())
    return failure();
  RewritePatternSet patterns(func.getContext());
  patterns.add<linalg::DecomposePadOpPattern>(func.getContext());
  tensor::populateDecomposeTensorConcatPatterns(patterns);
  walkAndApplyPatterns(func, std::move(patterns));
  return success();
}

/// A tensor of an element type the runtime has no buffers for (the i1 mask
/// of a comparison feeding a select, as tosa.greater + tosa.select lower)
/// must not become a buffer between two kernels: its elementwise producer is
/// fused into each consumer (upstream's elementwise fusion, restricted to
/// such values).
void fuseUnstorableProducers(func::FuncOp func) {
  auto unstorable = [](OpOperand *operand) {
    auto shaped = dyn_cast<ShapedType>(operand->get().getType()); // not a scalar input
    return shaped && !meshvk::isStorableElementType(shaped.getElementType());
  };
  auto pending = [&] {
    return func
        .walk([&](linalg::GenericOp op) {
          for (OpOperand &operand : op->getOpOperands())
            if (unstorable(&operand) && linalg::areElementwiseOpsFusable(&operand))
              return WalkResult::interrupt();
          return WalkResult::advance();
        })
        .wasInterrupted();
  };
  FrozenRewritePatternSet patterns = [&] {
    RewritePatternSet set(func.getContext());
    linalg::populateElementwiseOpsFusionPatterns(set, unstorable);
    return FrozenRewritePatternSet(std::move(set));
  }();
  // The walk driver: no folding and no dead-code removal (a greedy driver
  // would also erase unused annotations). One fusion per consumer per walk,
  // so a chain of masks (cmp, not, and, select) takes a few rounds; a mask
  // of several levels is short, the bound only guards against no progress.
  for (int round = 0; round < 16 && pending(); ++round)
    walkAndApplyPatterns(func, patterns);
  eraseDeadOps(func); // producers whose every consumer absorbed them
}

struct NormalizeInputPass : meshvk::impl::NormalizeInputBase<NormalizeInputPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(module.getContext());

    SmallVector<func::FuncOp> unannotated;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && func.isPublic() && !meshvk::isKernel(func) &&
          !hasAnnotations(func) && func.getBody().hasOneBlock())
        unannotated.push_back(func);
    auto grids = llvm::to_vector(module.getOps<shard::GridOp>());
    // With several grids the choice is the user's: check-sharding asks.
    if (!unannotated.empty() && grids.size() <= 1) {
      shard::GridOp grid = grids.empty() ? shard::GridOp() : grids.front();
      if (!grid) {
        b.setInsertionPointToStart(module.getBody());
        std::string name = "meshvk_grid";
        for (int i = 0; SymbolTable::lookupSymbolIn(module, name); ++i)
          name = "meshvk_grid_" + std::to_string(i);
        grid = shard::GridOp::create(b, module.getLoc(), StringRef(name), ArrayRef<int64_t>{1});
      }
      for (func::FuncOp func : unannotated)
        annotateReplicated(func, FlatSymbolRefAttr::get(grid.getSymNameAttr()), b);
    }

    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal() || meshvk::isKernel(func))
        continue;
      foldScalarConstants(func);
      eraseDeadOps(func);
      rewriteStaticReshapes(func, b);
      bakeConstants(func, b);
      if (failed(meshvk::decomposeWindowedOps(func)))
        return signalPassFailure();
      rewriteWindows(func, b);
      checkAndDropStaticHalos(func);
      if (failed(decomposePadAndConcat(func)) || failed(rewriteReadInits(func, b)))
        return signalPassFailure();
      fuseUnstorableProducers(func);
      cloneSharedEmpties(func, b);
      hoistProducerAnnotations(func);
      annotateUnusedArguments(func, b);
      SmallVector<linalg::GenericOp> generics;
      func.walk([&](linalg::GenericOp op) { generics.push_back(op); });
      for (linalg::GenericOp op : generics)
        rewriteBroadcastMaps(op, b);
      putProducerAnnotationsFirst(func);
    }
  }
};

} // namespace
