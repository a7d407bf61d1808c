//===- FuseKernels.cpp - elementwise work into its producer's kernel ------===//
//
// meshvk-outline-kernels makes one kernel per compute op; a matmul's bias and
// activation, a convolution's tap sums, bias, activation and residual add,
// and every step of an elementwise chain then write and re-read whole
// tensors. This pass merges a launch into the launch that consumes its
// results when
//   * both run on the same process and neither is a collective's kernel;
//   * the consumer reads each result of the producer it takes once, and
//     inside its body by one linalg op that reads it through a permutation
//     (no broadcast: a broadcast read would recompute the producer per
//     repeated element); a result that other ops read too (after the
//     consumer) stays a result of the merged kernel;
//   * the consumer reads it in an elementwise op (every linalg op of an
//     elementwise kernel is all-parallel), the producer is elementwise or a
//     contraction kernel (matmul, batch matmul, a window sum of a
//     convolution, with elementwise work around it), and the merged kernel
//     holds at most one contraction;
//   * no copy, collective or other non-launch plan op lies between the two:
//     fusion moves the producer's work down to the consumer and never across
//     data movement (the plans are per-process after partitioning).
// The merged kernel is deduplicated like outlined ones; kernels left without
// launches are erased. Codegen (meshvk-tile-and-distribute) tiles such a
// kernel by its contraction and computes the elementwise work per tile.
//
//===----------------------------------------------------------------------===//
#include "meshvk/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <map>

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_FUSEKERNELS
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

namespace {

enum class KernelKind { Elementwise, Contraction, Other };

bool isElementwise(linalg::LinalgOp op) {
  return op.getNumLoops() == op.getNumParallelLoops() &&
         llvm::all_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
           return op.getMatchingIndexingMap(&init).isPermutation();
         });
}

/// What codegen tiles as a contraction (TileKernel.cpp, planTiles): reduction
/// loops and at least two parallel loops in the one output.
bool isContraction(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInits() != 1)
    return false;
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  return out.isProjectedPermutation() && out.getNumResults() >= 2;
}

KernelKind classify(func::FuncOp kernel, int *contractionCount = nullptr) {
  int contractions = 0;
  for (Operation &op : kernel.getBody().front().without_terminator()) {
    if (op.hasTrait<OpTrait::ConstantLike>() || isa<tensor::EmptyOp>(op))
      continue;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || !linalgOp.hasPureTensorSemantics())
      return KernelKind::Other;
    if (isa<linalg::FillOp>(op) || isElementwise(linalgOp))
      continue;
    if (!isContraction(linalgOp))
      return KernelKind::Other;
    ++contractions;
  }
  if (contractionCount)
    *contractionCount = contractions;
  return contractions ? KernelKind::Contraction : KernelKind::Elementwise;
}

/// Argument `index` of `kernel` is read by one elementwise linalg op, through
/// a permutation (never by a contraction: no prologues yet).
bool readOnceElementwise(func::FuncOp kernel, unsigned index) {
  Value arg = kernel.getArgument(index);
  if (!arg.hasOneUse())
    return false;
  OpOperand &use = *arg.getUses().begin();
  auto user = dyn_cast<linalg::LinalgOp>(use.getOwner());
  return user && isElementwise(user) && user.getMatchingIndexingMap(&use).isPermutation();
}

struct FuseKernelsPass : meshvk::impl::FuseKernelsBase<FuseKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable table(module);
    symbols = &table;
    kernels.clear();
    outlined.clear();
    nextKernel = 0;
    for (auto func : module.getOps<func::FuncOp>())
      if (meshvk::isKernel(func)) {
        kernels[keyOf(func)] = func.getSymNameAttr();
        if (func.isPrivate())
          outlined.insert(func);
      }
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>()))
      if (meshvk::getPlan(func))
        fuseInPlan(func);
    eraseUnusedKernels(module);
    symbols = nullptr;
  }

  /// The body and signature, printed (meshvk-outline-kernels' key): the
  /// same text is the same kernel whatever its name.
  static std::string keyOf(func::FuncOp f) {
    StringAttr name = f.getSymNameAttr();
    f.setSymName("kernel");
    std::string key;
    llvm::raw_string_ostream os(key);
    f.print(os, OpPrintingFlags().printGenericOpForm().elideLargeElementsAttrs(1 << 30));
    f.setSymNameAttr(name);
    return key;
  }

  func::FuncOp kernelOf(meshvk::LaunchOp launch) {
    return symbols->lookup<func::FuncOp>(launch.getKernel());
  }

  void fuseInPlan(func::FuncOp plan) {
    SmallVector<meshvk::LaunchOp> launches;
    plan.walk([&](meshvk::LaunchOp l) { launches.push_back(l); });
    for (meshvk::LaunchOp consumer : launches) {
      // Each merge gives a new consumer launch; fuse into it until none fits.
      while (meshvk::LaunchOp producer = fusibleProducer(consumer))
        consumer = merge(producer, consumer);
    }
  }

  meshvk::LaunchOp fusibleProducer(meshvk::LaunchOp consumer) {
    auto collectiveId = meshvk::MeshVKDialect::CollectiveIdAttrHelper::getNameStr();
    if (consumer->hasAttr(collectiveId))
      return {};
    func::FuncOp consumerKernel = kernelOf(consumer);
    int consumerContractions = 0;
    if (!consumerKernel || classify(consumerKernel, &consumerContractions) == KernelKind::Other)
      return {};
    for (auto [index, input] : llvm::enumerate(consumer.getInputs())) {
      auto producer = input.getDefiningOp<meshvk::LaunchOp>();
      if (!producer || producer->hasAttr(collectiveId) ||
          producer.getProcess() != consumer.getProcess() ||
          producer->getBlock() != consumer->getBlock())
        continue;
      func::FuncOp producerKernel = kernelOf(producer);
      int producerContractions = 0;
      if (!producerKernel || classify(producerKernel, &producerContractions) == KernelKind::Other)
        continue;
      // One contraction per kernel: a second one (a convolution's other tap
      // sums) would be computed per tile into invocation-private temporaries,
      // which measured 2.3x slower than apart on ragged channel tiles
      // (pytorch-operator test_operator_conv, 13 output channels).
      if (consumerContractions + producerContractions > 1)
        continue;
      if (!resultsFuse(producer, consumer, consumerKernel) ||
          dataMovementBetween(producer, consumer))
        continue;
      return producer;
    }
    return {};
  }

  /// The consumer reads each producer result it takes once, elementwise,
  /// through a permutation; a result also used elsewhere (a block's output
  /// that is both transposed for the next convolution and added back as the
  /// residual) stays a result of the merged kernel, as long as those other
  /// uses come after the consumer (the merged launch is where it was).
  static bool resultsFuse(meshvk::LaunchOp producer, meshvk::LaunchOp consumer,
                          func::FuncOp consumerKernel) {
    return llvm::all_of(producer.getResults(), [&](Value r) {
      int reads = 0;
      for (OpOperand &use : r.getUses()) {
        Operation *user = use.getOwner();
        if (user == consumer.getOperation()) {
          if (++reads > 1 || !readOnceElementwise(consumerKernel, use.getOperandNumber()))
            return false;
        } else if (user->getBlock() != consumer->getBlock() || !consumer->isBeforeInBlock(user)) {
          return false;
        }
      }
      return true;
    });
  }

  /// The producer's results used by others than the consumer: the merged
  /// kernel returns them after the consumer's.
  static SmallVector<Value> keptResults(meshvk::LaunchOp producer, meshvk::LaunchOp consumer) {
    SmallVector<Value> kept;
    for (Value r : producer.getResults())
      if (llvm::any_of(r.getUsers(), [&](Operation *u) { return u != consumer.getOperation(); }))
        kept.push_back(r);
    return kept;
  }

  /// Copies, collectives, empties: anything but compute and constants.
  static bool dataMovementBetween(Operation *from, Operation *to) {
    for (Operation *op = from->getNextNode(); op && op != to; op = op->getNextNode())
      if (isa<meshvk::MeshVKDialect>(op->getDialect()) &&
          !isa<meshvk::LaunchOp, meshvk::ConstantOp>(op))
        return true;
    return false;
  }

  /// One kernel: the producer's body, then the consumer's reading its
  /// results; launched where the consumer was.
  meshvk::LaunchOp merge(meshvk::LaunchOp producer, meshvk::LaunchOp consumer) {
    MLIRContext *ctx = consumer.getContext();
    func::FuncOp pk = kernelOf(producer), ck = kernelOf(consumer);
    auto body = std::make_unique<Block>();
    OpBuilder b(ctx);
    b.setInsertionPointToStart(body.get());
    SmallVector<Value> inputs;
    llvm::DenseMap<Value, Value> argFor; // plan value -> kernel argument
    auto argumentFor = [&](Value v) {
      auto [it, inserted] = argFor.try_emplace(v, Value());
      if (inserted) {
        it->second = body->addArgument(v.getType(), v.getLoc());
        inputs.push_back(v);
      }
      return it->second;
    };
    IRMapping map;
    for (auto [arg, v] : llvm::zip(pk.getArguments(), producer.getInputs()))
      map.map(arg, argumentFor(v));
    for (Operation &op : pk.getBody().front().without_terminator())
      b.clone(op, map);
    Operation *producerReturn = pk.getBody().front().getTerminator();
    // A mapping of its own: the two kernels may be one function (exp(exp(x))).
    IRMapping consumerMap;
    for (auto [arg, v] : llvm::zip(ck.getArguments(), consumer.getInputs())) {
      if (v.getDefiningOp() == producer.getOperation()) {
        unsigned r = cast<OpResult>(v).getResultNumber();
        consumerMap.map(arg, map.lookup(producerReturn->getOperand(r)));
      } else {
        consumerMap.map(arg, argumentFor(v));
      }
    }
    for (Operation &op : ck.getBody().front().without_terminator())
      b.clone(op, consumerMap);
    SmallVector<Value> kept = keptResults(producer, consumer);
    SmallVector<Value> returned;
    for (Value v : ck.getBody().front().getTerminator()->getOperands())
      returned.push_back(consumerMap.lookupOrDefault(v));
    SmallVector<Type> resultTypes(consumer.getResultTypes());
    for (Value r : kept) {
      returned.push_back(
          map.lookup(producerReturn->getOperand(cast<OpResult>(r).getResultNumber())));
      resultTypes.push_back(r.getType());
    }
    func::ReturnOp::create(b, consumer.getLoc(), returned);

    auto type = FunctionType::get(ctx, body->getArgumentTypes(), resultTypes);
    auto candidate = func::FuncOp::create(consumer.getLoc(), "kernel_fused", type);
    candidate.getBody().push_back(body.release());
    candidate.setPrivate();
    meshvk::MeshVKDialect::KernelAttrHelper(ctx).setAttr(candidate, UnitAttr::get(ctx));
    StringAttr name = intern(candidate, ck);

    OpBuilder at(consumer);
    auto launch =
        meshvk::LaunchOp::create(at, consumer.getLoc(), resultTypes, FlatSymbolRefAttr::get(name),
                                 at.getI64IntegerAttr(consumer.getProcess()), inputs);
    unsigned numConsumerResults = consumer->getNumResults();
    consumer->replaceAllUsesWith(launch.getResults().take_front(numConsumerResults));
    for (auto [r, merged] : llvm::zip(kept, launch.getResults().drop_front(numConsumerResults)))
      r.replaceAllUsesWith(merged);
    consumer->erase();
    producer->erase();
    return launch;
  }

  /// The name of the kernel with `candidate`'s body: an existing one, or
  /// `candidate` itself inserted after `near` under a fresh name.
  StringAttr intern(func::FuncOp candidate, func::FuncOp near) {
    std::string key = keyOf(candidate);
    auto it = kernels.find(key);
    if (it != kernels.end()) {
      candidate.erase();
      return it->second;
    }
    // A fresh kernel_N (the user's module may own some names).
    ModuleOp module = near->getParentOfType<ModuleOp>();
    std::string name;
    do {
      name = "kernel_" + std::to_string(nextKernel++);
    } while (SymbolTable::lookupSymbolIn(module, name));
    candidate.setSymName(name);
    OpBuilder(near).getBlock()->getOperations().insertAfter(Block::iterator(near), candidate);
    symbols->insert(candidate);
    kernels[key] = candidate.getSymNameAttr();
    outlined.insert(candidate);
    return candidate.getSymNameAttr();
  }

  /// Outlined kernels that no launch uses any more.
  void eraseUnusedKernels(ModuleOp module) {
    for (func::FuncOp f : outlined)
      if (SymbolTable::symbolKnownUseEmpty(f, module))
        f.erase();
  }

  SymbolTable *symbols = nullptr; // of the module, during runOnOperation
  std::map<std::string, StringAttr> kernels;
  llvm::SetVector<func::FuncOp> outlined;
  int64_t nextKernel = 0;
};

} // namespace
