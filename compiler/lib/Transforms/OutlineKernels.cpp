//===- OutlineKernels.cpp - local compute -> deduplicated kernel functions ===//
//
// Each tensor-producing compute op of a plan becomes a launch of an outlined
// `func.func private @kernel_N {meshvk.kernel}` (the contract with codegen,
// compiler/README.md). A `linalg.fill` used only as the init of one consumer is
// fused into the consumer's kernel, constants and tensor.empty are cloned in,
// so a kernel's inputs are exactly the buffers it reads. Processes running the
// same computation share one kernel function (compared as printed IR).
//
//===----------------------------------------------------------------------===//
#include "LinalgPatterns.h"
#include "meshvk/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

#include <map>

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_OUTLINEKERNELS
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

namespace {

bool isFree(Operation *op) {
  return op && (op->hasTrait<OpTrait::ConstantLike>() || isa<tensor::EmptyOp>(op));
}

/// A fill consumed only by compute ops of its own process is recomputed inside
/// each consumer's kernel (it is cheap) instead of becoming a buffer; so is a
/// broadcast that only initializes the accumulators of such ops (its input
/// becomes the kernel's: the bias vector is read instead of a whole tensor).
bool fusesIntoItsUsers(Operation *op) {
  bool broadcast = meshvk::isBroadcast(op);
  if ((!isa<linalg::FillOp>(op) && !broadcast) || op->use_empty())
    return false;
  return llvm::all_of(op->getUses(), [&](OpOperand &use) {
    Operation *user = use.getOwner();
    if (broadcast) {
      auto consumer = dyn_cast<linalg::LinalgOp>(user);
      if (!consumer || !consumer.isDpsInit(&use))
        return false;
    }
    return !isa<meshvk::MeshVKDialect>(user->getDialect()) && !isa<func::ReturnOp>(user) &&
           meshvk::getProcess(user) == meshvk::getProcess(op);
  });
}

struct OutlineKernelsPass : meshvk::impl::OutlineKernelsBase<OutlineKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto func : module.getOps<func::FuncOp>())
      if (meshvk::isKernel(func))
        kernelCount++;
    SmallVector<func::FuncOp> plans;
    for (auto func : module.getOps<func::FuncOp>())
      if (meshvk::getPlan(func))
        plans.push_back(func);
    for (func::FuncOp plan : plans)
      if (failed(outline(plan)))
        return signalPassFailure();
  }

  /// Empty shards (3 rows over 4 processes: the last holds 0): a linalg op
  /// with a loop of 0 iterations leaves its inits as they are (a reduction
  /// over 0 rows is its fill), so its results are its inits, and a value of 0
  /// elements that needs a buffer (returned, copied) is a meshvk.empty: no
  /// kernel ever works on 0 elements (the tiler cannot).
  void dropEmptyWork(func::FuncOp plan) {
    auto isEmpty = [](Type t) {
      auto tensor = dyn_cast<RankedTensorType>(t);
      return tensor && tensor.hasStaticShape() && tensor.getNumElements() == 0;
    };
    SmallVector<linalg::LinalgOp> idle;
    for (Operation &op : plan.getBody().front())
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
          linalgOp && linalgOp.hasPureTensorSemantics() &&
          llvm::is_contained(linalgOp.getStaticLoopRanges(), 0))
        idle.push_back(linalgOp);
    for (linalg::LinalgOp op : idle) {
      for (auto [result, init] : llvm::zip(op->getResults(), op.getDpsInits()))
        result.replaceAllUsesWith(init);
      op->erase();
    }
    OpBuilder b(plan.getContext());
    for (Operation &op : llvm::make_early_inc_range(plan.getBody().front())) {
      if (op.getNumResults() != 1 || !isEmpty(op.getResult(0).getType()) ||
          isa<meshvk::MeshVKDialect>(op.getDialect()) || meshvk::getProcess(&op) < 0)
        continue;
      b.setInsertionPoint(&op);
      auto empty = meshvk::EmptyOp::create(b, op.getLoc(), op.getResult(0).getType(),
                                           b.getI64IntegerAttr(meshvk::getProcess(&op)));
      op.getResult(0).replaceAllUsesWith(empty.getResult());
      if (isOpTriviallyDead(&op))
        op.erase();
    }
  }

  LogicalResult outline(func::FuncOp plan) {
    dropEmptyWork(plan);
    SmallVector<Operation *> compute;
    for (Operation &op : plan.getBody().front()) {
      // A tensor constant (or empty) that is copied or returned needs a buffer:
      // a kernel that writes it. Used only by kernels, it is cloned into them.
      bool needsBuffer = isFree(&op) && op.getNumResults() == 1 &&
                         isa<RankedTensorType>(op.getResult(0).getType()) &&
                         llvm::any_of(op.getUsers(), [](Operation *user) {
                           return isa<meshvk::CopyOp, func::ReturnOp>(user);
                         });
      if (needsBuffer && meshvk::getProcess(&op) >= 0) {
        compute.push_back(&op);
        continue;
      }
      if (isFree(&op) || isa<meshvk::MeshVKDialect>(op.getDialect()) || isa<func::ReturnOp>(op) ||
          fusesIntoItsUsers(&op))
        continue;
      if (meshvk::getProcess(&op) < 0)
        return op.emitError("plan op without a ")
               << meshvk::MeshVKDialect::ProcessAttrHelper::getNameStr() << " (not unrolled?)";
      if (!llvm::all_of(op.getResultTypes(),
                        [](Type t) {
                          auto tensor = dyn_cast<RankedTensorType>(t);
                          return tensor && tensor.hasStaticShape();
                        }) ||
          op.getNumResults() == 0)
        return op.emitError("'") << op.getName()
                                 << "' in a plan must produce statically "
                                    "shaped tensors to become a kernel";
      compute.push_back(&op);
    }
    for (Operation *op : compute)
      if (failed(outlineOne(plan, op)))
        return failure();
    // Drop what the kernels absorbed (fused fills and broadcasts, unused
    // constants/empties).
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(plan.getBody().front())))
      if (op.use_empty() && (isFree(&op) || isa<linalg::FillOp>(op) || meshvk::isBroadcast(&op)))
        op.erase();
    return success();
  }

  LogicalResult outlineOne(func::FuncOp plan, Operation *op) {
    MLIRContext *ctx = op->getContext();
    int64_t process = meshvk::getProcess(op);
    meshvk::MeshVKDialect::ProcessAttrHelper processTag(ctx);
    OpBuilder b(ctx);
    // Kernel body in a detached block; arguments are added as inputs appear.
    auto body = std::make_unique<Block>();
    b.setInsertionPointToStart(body.get());
    IRMapping map;
    SmallVector<Value> inputs;
    bool failedMaterialize = false;

    std::function<void(Value)> materialize = [&](Value v) {
      if (map.contains(v))
        return;
      Operation *def = v.getDefiningOp();
      if (def && (isFree(def) || fusesIntoItsUsers(def))) {
        for (Value operand : def->getOperands())
          materialize(operand);
        llvm::SetVector<Value> above;
        getUsedValuesDefinedAbove(def->getRegions(), above);
        for (Value a : above)
          materialize(a);
        Operation *clone = b.clone(*def, map);
        clone->walk([&](Operation *nested) { nested->removeAttr(processTag.getName()); });
        return;
      }
      if (!isa<RankedTensorType>(v.getType())) {
        failedMaterialize = true;
        op->emitError("kernel operand of type ")
            << v.getType() << " is not a tensor nor a constant";
        return;
      }
      map.map(v, body->addArgument(v.getType(), v.getLoc()));
      inputs.push_back(v);
    };
    for (Value operand : op->getOperands())
      materialize(operand);
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(op->getRegions(), above);
    for (Value a : above)
      materialize(a);
    if (failedMaterialize)
      return failure();
    Operation *clone = b.clone(*op, map);
    clone->walk([&](Operation *nested) {
      nested->removeAttr(processTag.getName());
      nested->removeAttr(meshvk::MeshVKDialect::CollectiveIdAttrHelper::getNameStr());
    });
    func::ReturnOp::create(b, op->getLoc(), clone->getResults());

    // Deduplicate: the same body (printed generically) is the same kernel.
    auto kernelType = FunctionType::get(ctx, body->getArgumentTypes(), op->getResultTypes());
    OpBuilder moduleBuilder(plan);
    moduleBuilder.setInsertionPointAfter(plan);
    auto candidate = func::FuncOp::create(op->getLoc(), "kernel", kernelType);
    candidate.getBody().push_back(body.release());
    std::string key;
    {
      llvm::raw_string_ostream os(key);
      candidate.print(os, OpPrintingFlags().printGenericOpForm().elideLargeElementsAttrs(1 << 30));
    }
    StringAttr name;
    auto it = kernels.find(key);
    if (it != kernels.end()) {
      name = it->second;
      candidate.erase();
    } else {
      // A fresh name: the user's module may already own a @kernel_N.
      ModuleOp module = plan->getParentOfType<ModuleOp>();
      do {
        name = StringAttr::get(ctx, "kernel_" + std::to_string(kernelCount++));
      } while (SymbolTable::lookupSymbolIn(module, name));
      candidate.setSymName(name);
      candidate.setPrivate();
      meshvk::MeshVKDialect::KernelAttrHelper(ctx).setAttr(candidate, UnitAttr::get(ctx));
      moduleBuilder.getBlock()->getOperations().insert(
          std::next(Block::iterator(lastKernel ? lastKernel.getOperation() : plan.getOperation())),
          candidate);
      lastKernel = candidate;
      kernels[key] = name;
    }
    OpBuilder at(op);
    auto launch = meshvk::LaunchOp::create(at, op->getLoc(), op->getResultTypes(),
                                           FlatSymbolRefAttr::get(name),
                                           at.getI64IntegerAttr(process), inputs);
    // A collective's reduction stays tagged (the emitter reads the tag).
    if (Attribute id = meshvk::MeshVKDialect::CollectiveIdAttrHelper(ctx).getAttr(op))
      launch->setAttr(meshvk::MeshVKDialect::CollectiveIdAttrHelper::getNameStr(), id);
    op->replaceAllUsesWith(launch.getResults());
    op->erase();
    return success();
  }

  std::map<std::string, StringAttr> kernels;
  func::FuncOp lastKernel;
  int64_t kernelCount = 0;
};

} // namespace
