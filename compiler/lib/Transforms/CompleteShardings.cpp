//===- CompleteShardings.cpp - replicate ops propagation left unsharded ---===//
//
// shard-partition (MLIR 22.1) reads every tensor operand's sharding from a
// `shard.shard ... annotate_for_users` that defines it and every result's from
// the single `shard.shard` that uses it, through unchecked casts: an op that
// sharding-propagation could not annotate (conflicting shardings around it,
// e.g. a matmul whose result is wanted split on rows while its operands split
// the contraction on the same grid axis) makes it segfault (issue #13).
// Later upstream versions refuse such ops; this pass instead runs them
// replicated: their operands are resharded to replicated (gathered, in one
// grid-axis steps after meshvk-decompose-reshards), every process computes the
// whole op, and the results are resharded to whatever their users want. The
// program stays correct at the price of the gathers and the duplicated work,
// which the warning names. Likewise a tensor argument gets exactly one
// annotation, the single use shard-partition types it from.
//
//===----------------------------------------------------------------------===//
#include "ShardingUtils.h"
#include "meshvk/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_COMPLETESHARDINGS
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

namespace {

/// shard-partition needs annotations on ranked tensors of rank >= 1 only.
bool needsSharding(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() > 0;
}

bool isReplicated(shard::ShardOp op) {
  shard::ShardingOp sharding = meshvk::shardingOpOf(op);
  return sharding && llvm::all_of(sharding.getSplitAxes().getAxes(), [](shard::GridAxesAttr axes) {
           return axes.asArrayRef().empty();
         });
}

/// Why shard-partition could not partition `op` as annotated, or "" when it
/// can. Mirrors the checks later upstream versions make before partitioning.
std::string missingSharding(Operation *op) {
  if (op->hasTrait<OpTrait::ConstantLike>())
    return "";
  for (OpOperand &operand : op->getOpOperands()) {
    if (!needsSharding(operand.get().getType()))
      continue;
    auto shardOp = operand.get().getDefiningOp<shard::ShardOp>();
    if (!shardOp || !shardOp.getAnnotateForUsers())
      return "operand #" + std::to_string(operand.getOperandNumber()) + " has no sharding";
  }
  for (OpResult result : op->getResults()) {
    if (!needsSharding(result.getType()))
      continue;
    auto user =
        result.hasOneUse() ? dyn_cast<shard::ShardOp>(*result.user_begin()) : shard::ShardOp();
    if (!user || user.getAnnotateForUsers())
      return "result #" + std::to_string(result.getResultNumber()) + " has no sharding";
  }
  return "";
}

/// "[[0], []]" for a sharding, "none" without one.
void printSplit(llvm::raw_ostream &os, shard::ShardOp shardOp) {
  shard::ShardingOp s = shardOp ? meshvk::shardingOpOf(shardOp) : nullptr;
  if (!s) {
    os << "none";
    return;
  }
  os << "[";
  llvm::interleaveComma(s.getSplitAxes().getAxes(), os, [&](shard::GridAxesAttr axes) {
    os << "[";
    llvm::interleaveComma(axes.asArrayRef(), os);
    os << "]";
  });
  os << "]";
}

/// The shardings around `op`, for the warning: "operands [[0]], [[], [0]];
/// result [[0]]" (tensor operands and results only).
std::string describeShardings(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  SmallVector<Value> tensors;
  for (Value v : op->getOperands())
    if (isa<RankedTensorType>(v.getType()))
      tensors.push_back(v);
  os << "operands ";
  llvm::interleaveComma(tensors, os,
                        [&](Value v) { printSplit(os, v.getDefiningOp<shard::ShardOp>()); });
  os << "; results ";
  llvm::interleaveComma(op->getResults(), os, [&](OpResult r) {
    shard::ShardOp user;
    for (Operation *u : r.getUsers())
      if ((user = dyn_cast<shard::ShardOp>(u)))
        break;
    printSplit(os, user);
  });
  return text;
}

/// shard-partition types each tensor argument from its single use, which
/// must be an annotation. An argument used raw by an op as well as annotated
/// (propagation then adds a second users' annotation with another sharding)
/// gets one producer annotation with the sharding of its first annotation in
/// block order; every other use reshards from there.
void annotateArgumentsOnce(func::FuncOp func, OpBuilder &b) {
  Block &body = func.getBody().front();
  for (BlockArgument arg : body.getArguments()) {
    if (!needsSharding(arg.getType()) || arg.use_empty() ||
        (arg.hasOneUse() && isa<shard::ShardOp>(*arg.user_begin())))
      continue;
    shard::ShardOp first;
    for (Operation &op : body) {
      auto shardOp = dyn_cast<shard::ShardOp>(op);
      if (shardOp && shardOp.getSrc() == arg && meshvk::shardingOpOf(shardOp)) {
        first = shardOp;
        break;
      }
    }
    if (!first)
      continue; // record-abi names the unannotated argument
    shard::ShardingOp sharding = meshvk::shardingOpOf(first);
    if (sharding->getNumOperands() != 0)
      continue; // dynamic halos/offsets: check-sharding refuses them
    // The sharding op must dominate the new annotation: both go first.
    sharding->moveBefore(&body.front());
    b.setInsertionPointAfter(sharding);
    auto produced = shard::ShardOp::create(b, first.getLoc(), arg, sharding,
                                           /*annotate_for_users=*/false);
    arg.replaceAllUsesExcept(produced.getResult(), produced);
  }
}

struct CompleteShardingsPass : meshvk::impl::CompleteShardingsBase<CompleteShardingsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (!func.isExternal() && func.getBody().hasOneBlock()) {
      OpBuilder b(func.getContext());
      annotateArgumentsOnce(func, b);
    }
    // The function's grid: the one of its first annotation (record-abi
    // refuses functions on two grids).
    shard::ShardingOp any;
    func.walk([&](shard::ShardingOp s) {
      any = s;
      return WalkResult::interrupt();
    });
    if (!any || func.isExternal())
      return;

    // Collect first, then rewrite: an op that reads an unannotated result of
    // another incomplete op is itself incomplete, so both run replicated and
    // agree on the tensor between them.
    SmallVector<std::pair<Operation *, std::string>> incomplete;
    for (Operation &op : func.getBody().front()) {
      if (isa<shard::ShardDialect>(op.getDialect()) || op.hasTrait<OpTrait::IsTerminator>())
        continue;
      std::string why = missingSharding(&op);
      if (!why.empty())
        incomplete.emplace_back(&op, why);
    }
    if (incomplete.empty())
      return;

    // At the top: an incomplete op may come before every annotation (a
    // constant written first, or hoisted there by a rewrite driver).
    OpBuilder b(func.getContext());
    b.setInsertionPointToStart(&func.getBody().front());
    auto replicated = shard::ShardingOp::create(
        b, any.getLoc(), any.getGridAttr(),
        ArrayRef<shard::GridAxesAttr>{DenseI16ArrayAttr::get(func.getContext(), {})});
    for (auto &[op, why] : incomplete) {
      // Ops that read no tensor (tensor.empty, fills of a constant: a fill
      // only overwrites its init) cost nothing replicated: no warning.
      if (!isa<linalg::FillOp>(op) &&
          llvm::any_of(op->getOperandTypes(), [](Type t) { return isa<RankedTensorType>(t); }))
        op->emitWarning() << "'" << op->getName()
                          << "' runs replicated on every process: "
                             "sharding-propagation found no consistent "
                             "sharding for it ("
                          << why << "; " << describeShardings(op) << ")";
      replicate(op, replicated, b);
    }
    for (auto &[op, why] : incomplete) {
      std::string still = missingSharding(op);
      if (!still.empty()) {
        op->emitError() << "'" << op->getName() << "' cannot be partitioned: " << still;
        return signalPassFailure();
      }
    }
  }

  /// Reads every tensor operand replicated and produces every result
  /// replicated; users reshard from there.
  static void replicate(Operation *op, shard::ShardingOp replicated, OpBuilder &b) {
    Location loc = op->getLoc();
    for (OpOperand &operand : op->getOpOperands()) {
      Value value = operand.get();
      if (!needsSharding(value.getType()))
        continue;
      auto shardOp = value.getDefiningOp<shard::ShardOp>();
      if (shardOp && shardOp.getAnnotateForUsers() && isReplicated(shardOp))
        continue;
      if (!shardOp) {
        // An unannotated value: it is produced replicated (its producer is
        // incomplete too and replicated by this pass, or a constant).
        b.setInsertionPointAfterValue(value);
        auto produced = shard::ShardOp::create(b, loc, value, replicated,
                                               /*annotate_for_users=*/false);
        value.replaceAllUsesExcept(produced.getResult(), produced);
        value = produced.getResult();
      }
      b.setInsertionPoint(op);
      operand.set(shard::ShardOp::create(b, loc, value, replicated,
                                         /*annotate_for_users=*/true)
                      .getResult());
    }
    for (OpResult result : op->getResults()) {
      if (!needsSharding(result.getType()))
        continue;
      if (result.hasOneUse())
        if (auto user = dyn_cast<shard::ShardOp>(*result.user_begin());
            user && !user.getAnnotateForUsers() && isReplicated(user))
          continue;
      b.setInsertionPointAfter(op);
      auto produced = shard::ShardOp::create(b, loc, result, replicated,
                                             /*annotate_for_users=*/false);
      // Users that are ops (not annotations) read it replicated.
      for (OpOperand &use : llvm::make_early_inc_range(result.getUses())) {
        if (use.getOwner() == produced)
          continue;
        if (isa<shard::ShardOp>(use.getOwner())) {
          use.set(produced.getResult());
          continue;
        }
        b.setInsertionPoint(use.getOwner());
        use.set(shard::ShardOp::create(b, loc, produced.getResult(), replicated,
                                       /*annotate_for_users=*/true)
                    .getResult());
      }
    }
  }
};

} // namespace
