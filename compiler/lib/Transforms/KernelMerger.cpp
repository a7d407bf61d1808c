//===- KernelMerger.cpp - merging two launches into one kernel ------------===//
#include "KernelMerger.h"
#include "meshvk/Codegen/TargetDescription.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace meshvk {

namespace {

/// The body and signature, printed (meshvk-outline-kernels' key): the same
/// text is the same kernel whatever its name.
std::string keyOf(func::FuncOp f) {
  StringAttr name = f.getSymNameAttr();
  f.setSymName("kernel");
  std::string key;
  llvm::raw_string_ostream os(key);
  f.print(os, OpPrintingFlags().printGenericOpForm().elideLargeElementsAttrs(1 << 30));
  f.setSymNameAttr(name);
  return key;
}

/// Copies, collectives, empties: anything but compute and constants.
bool dataMovementBetween(Operation *from, Operation *to) {
  for (Operation *op = from->getNextNode(); op && op != to; op = op->getNextNode())
    if (isa<MeshVKDialect>(op->getDialect()) && !isa<LaunchOp, ConstantOp>(op))
      return true;
  return false;
}

/// The producer's results used by others than the consumer: the merged
/// kernel returns them after the consumer's.
SmallVector<Value> keptResults(LaunchOp producer, LaunchOp consumer) {
  SmallVector<Value> kept;
  for (Value r : producer.getResults())
    if (llvm::any_of(r.getUsers(), [&](Operation *u) { return u != consumer.getOperation(); }))
      kept.push_back(r);
  return kept;
}

/// The plan values the merged kernel takes, in argument order: the
/// producer's inputs, then the consumer's that the producer does not make,
/// each once.
llvm::SetVector<Value> mergedInputs(LaunchOp producer, LaunchOp consumer) {
  llvm::SetVector<Value> inputs(producer.getInputs().begin(), producer.getInputs().end());
  for (Value v : consumer.getInputs())
    if (v.getDefiningOp() != producer.getOperation())
      inputs.insert(v);
  return inputs;
}

} // namespace

KernelMerger::KernelMerger(ModuleOp m) : module(m), symbols(m) {
  for (auto func : module.getOps<func::FuncOp>())
    if (isKernel(func)) {
      kernels[keyOf(func)] = func.getSymNameAttr();
      if (func.isPrivate())
        outlined.insert(func);
    }
}

void KernelMerger::fuseAll(llvm::function_ref<LaunchOp(KernelMerger &, LaunchOp)> pick) {
  for (auto plan : llvm::to_vector(module.getOps<func::FuncOp>())) {
    if (!getPlan(plan))
      continue;
    SmallVector<LaunchOp> launches;
    plan.walk([&](LaunchOp l) { launches.push_back(l); });
    for (LaunchOp consumer : launches) {
      // Each merge gives a new consumer launch; fuse into it until none fits.
      while (LaunchOp producer = pick(*this, consumer))
        consumer = merge(producer, consumer);
    }
  }
  // Outlined kernels that no launch uses any more.
  for (func::FuncOp f : outlined)
    if (SymbolTable::symbolKnownUseEmpty(f, module))
      f.erase();
  outlined.clear();
}

bool KernelMerger::mayMerge(LaunchOp producer, LaunchOp consumer) {
  auto collectiveId = MeshVKDialect::CollectiveIdAttrHelper::getNameStr();
  if (consumer->hasAttr(collectiveId) || producer->hasAttr(collectiveId) ||
      producer.getProcess() != consumer.getProcess() ||
      producer->getBlock() != consumer->getBlock() || dataMovementBetween(producer, consumer))
    return false;
  if (!llvm::all_of(producer->getUsers(), [&](Operation *user) {
        return user == consumer.getOperation() ||
               (user->getBlock() == consumer->getBlock() && consumer->isBeforeInBlock(user));
      }))
    return false;
  // The merged kernel binds the producer's inputs, the consumer's others, the
  // consumer's results and the producer's kept ones: at most what a kernel
  // may (a ViT's f16 patch convolution, 64 window taps, once became one
  // kernel of 129 bindings, which the runtime refuses).
  size_t bindings = mergedInputs(producer, consumer).size() + consumer->getNumResults() +
                    keptResults(producer, consumer).size();
  return bindings <= static_cast<size_t>(codegen::kMaxKernelBindings);
}

LaunchOp KernelMerger::merge(LaunchOp producer, LaunchOp consumer) {
  MLIRContext *ctx = consumer.getContext();
  func::FuncOp pk = kernelOf(producer), ck = kernelOf(consumer);
  auto body = std::make_unique<Block>();
  OpBuilder b(ctx);
  b.setInsertionPointToStart(body.get());
  llvm::SetVector<Value> inputs = mergedInputs(producer, consumer);
  llvm::DenseMap<Value, Value> argFor; // plan value -> kernel argument
  for (Value v : inputs)
    argFor[v] = body->addArgument(v.getType(), v.getLoc());
  IRMapping map;
  for (auto [arg, v] : llvm::zip(pk.getArguments(), producer.getInputs()))
    map.map(arg, argFor.lookup(v));
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
      consumerMap.map(arg, argFor.lookup(v));
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
    returned.push_back(map.lookup(producerReturn->getOperand(cast<OpResult>(r).getResultNumber())));
    resultTypes.push_back(r.getType());
  }
  func::ReturnOp::create(b, consumer.getLoc(), returned);

  auto type = FunctionType::get(ctx, body->getArgumentTypes(), resultTypes);
  auto candidate = func::FuncOp::create(consumer.getLoc(), "kernel_fused", type);
  candidate.getBody().push_back(body.release());
  candidate.setPrivate();
  MeshVKDialect::KernelAttrHelper(ctx).setAttr(candidate, UnitAttr::get(ctx));
  StringAttr name = intern(candidate, ck);

  OpBuilder at(consumer);
  auto launch = LaunchOp::create(at, consumer.getLoc(), resultTypes, FlatSymbolRefAttr::get(name),
                                 at.getI64IntegerAttr(consumer.getProcess()), inputs.getArrayRef());
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
StringAttr KernelMerger::intern(func::FuncOp candidate, func::FuncOp near) {
  std::string key = keyOf(candidate);
  auto it = kernels.find(key);
  if (it != kernels.end()) {
    candidate.erase();
    return it->second;
  }
  // A fresh kernel_N (the user's module may own some names).
  std::string name;
  do {
    name = "kernel_" + std::to_string(nextKernel++);
  } while (SymbolTable::lookupSymbolIn(module, name));
  candidate.setSymName(name);
  OpBuilder(near).getBlock()->getOperations().insertAfter(Block::iterator(near), candidate);
  symbols.insert(candidate);
  kernels[key] = candidate.getSymNameAttr();
  outlined.insert(candidate);
  return candidate.getSymNameAttr();
}

} // namespace meshvk
