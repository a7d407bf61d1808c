//===- PlanAllocations.cpp - every buffer of every process, in one place --===//
//
// A buffer is an equivalence class of plan values: a `meshvk.empty` and the
// chain of copies that fill it in place, or one kernel output. Sizes come from
// the local (shard) types. Arguments and results are buffers of their own (the
// host fills and reads them); transients share one arena per process and reuse
// bytes when lifetimes do not overlap. Within a process, plan order is
// execution order; across processes it is not, so a transient that a peer
// reads is never reused (its bytes stay reserved for the whole program).
// A meshvk.constant is a constant buffer of its own (never written, never
// reused): the emitter stores its data in the artifact. A launch that only
// reshapes its operand becomes a view (ReshapeViews.h): the reshape's value
// lives in its operand's buffer, which stays live while either is used.
//
//===----------------------------------------------------------------------===//
#include "ReshapeViews.h"
#include "meshvk/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

#include <map>

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_PLANALLOCATIONS
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

namespace {

using meshvk::BufferKind;

struct Buffer {
  int64_t process = -1;
  int64_t bytes = 0;
  BufferKind kind = BufferKind::Transient;
  int64_t index = 0;     // argument / result number, or arena offset
  int64_t first = 0;     // first op (plan order) that writes it
  int64_t last = 0;      // last op that reads or writes it
  bool peerRead = false; // read by another process's copy
};

int64_t bytesOf(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return tensor.getNumElements() * ((tensor.getElementTypeBitWidth() + 7) / 8);
}

/// The allocation of one plan, step by step; the state the steps share.
class PlanAllocator {
public:
  PlanAllocator(func::FuncOp plan, int64_t alignment)
      : plan(plan), alignment(alignment), processes(meshvk::getPlan(plan).getProcessCount()) {}

  LogicalResult run() {
    if (failed(checkSignature()))
      return failure();
    giveResultsOwnBuffers();
    if (failed(assignBuffers()) || failed(traceUses()) || failed(markResults()))
      return failure();
    placeTransients();
    annotate();
    return success();
  }

private:
  /// One block ending in func.return, sized static tensors per process.
  LogicalResult checkSignature() {
    if (!plan.getBody().hasOneBlock())
      return plan.emitError("a plan must be a single block");
    block = &plan.getBody().front();
    ret = dyn_cast<func::ReturnOp>(block->getTerminator());
    if (!ret)
      return plan.emitError("a plan must end in func.return");
    // bytesOf needs a bit width: complex or index elements crashed here
    // (issue 13 campaign: tensor<4xcomplex<f32>>, exit 139).
    auto sized = [](Type t) {
      auto tensor = dyn_cast<RankedTensorType>(t);
      return !tensor || tensor.getElementType().isIntOrFloat();
    };
    for (Type t : plan.getFunctionType().getInputs())
      if (!sized(t))
        return plan.emitError("element type of ")
               << t << " is not supported; the runtime supports f32, f16 and i32";
    for (Operation &op : *block)
      for (Type t : op.getResultTypes())
        if (!sized(t))
          return op.emitError("element type of ")
                 << t << " is not supported; the runtime supports f32, f16 and i32";
    for (Type t : plan.getFunctionType().getInputs())
      if (!isa<RankedTensorType>(t) || !cast<RankedTensorType>(t).hasStaticShape())
        return plan.emitError("plan arguments must be static tensors, got ") << t;
    for (Type t : plan.getFunctionType().getResults())
      if (!isa<RankedTensorType>(t) || !cast<RankedTensorType>(t).hasStaticShape())
        return plan.emitError("plan results must be static tensors, got ") << t;
    if (ret.getNumOperands() % processes || plan.getNumArguments() % processes)
      return plan.emitError("plan signature is not per-process");
    return success();
  }

  /// Every result gets its own buffer: a returned argument or constant, or
  /// a buffer returned twice (also as two views of it), is first copied
  /// locally.
  void giveResultsOwnBuffers() {
    OpBuilder b(ret);
    llvm::SmallPtrSet<Value, 8> returned;
    for (OpOperand &operand : ret->getOpOperands()) {
      Value v = operand.get();
      Value owner = meshvk::viewedValue(v);
      int64_t p = operand.getOperandNumber() % processes;
      if (!isa<BlockArgument>(owner) && !owner.getDefiningOp<meshvk::ConstantOp>() &&
          returned.insert(owner).second)
        continue;
      auto type = cast<RankedTensorType>(v.getType());
      SmallVector<int64_t> zero(type.getRank(), 0);
      Value dest = meshvk::EmptyOp::create(b, ret.getLoc(), type, b.getI64IntegerAttr(p));
      operand.set(meshvk::CopyOp::create(b, ret.getLoc(), type, v, b.getI64IntegerAttr(p), dest,
                                         b.getI64IntegerAttr(p), b.getDenseI64ArrayAttr(zero),
                                         b.getDenseI64ArrayAttr(zero),
                                         b.getDenseI64ArrayAttr(type.getShape())));
    }
  }

  int64_t addBuffer(Value value, Buffer buf) {
    bufferOf[value] = buffers.size();
    buffers.push_back(buf);
    return buffers.size() - 1;
  }

  /// Buffers and which buffer each value lives in: arguments, constants,
  /// empties and kernel outputs each a buffer, a copy's result its
  /// destination's, a view its operand's.
  LogicalResult assignBuffers() {
    for (BlockArgument arg : plan.getArguments()) {
      Buffer buf;
      buf.process = arg.getArgNumber() % processes;
      buf.bytes = bytesOf(arg.getType());
      buf.kind = BufferKind::Argument;
      buf.index = arg.getArgNumber();
      buf.first = -1;
      addBuffer(arg, buf);
    }
    SmallVector<int64_t> constants(processes, 0);
    for (Operation &op : *block) {
      order[&op] = position++;
      if (auto constant = dyn_cast<meshvk::ConstantOp>(op)) {
        int64_t p = meshvk::getProcess(&op);
        if (p < 0 || p >= processes)
          return op.emitError("constant without a valid ")
                 << meshvk::MeshVKDialect::ProcessAttrHelper::getNameStr();
        Buffer buf;
        buf.process = p;
        buf.bytes = bytesOf(constant.getType());
        buf.kind = BufferKind::Constant;
        buf.index = constants[p]++;
        buf.first = -1;
        addBuffer(constant.getResult(), buf);
        continue;
      }
      if (auto copy = dyn_cast<meshvk::CopyOp>(op)) {
        if (failed(assignCopy(copy)))
          return failure();
        continue;
      }
      if (meshvk::isView(&op)) {
        auto it = bufferOf.find(op.getOperand(0));
        if (it == bufferOf.end())
          return op.emitError("reshapes a value that has no buffer");
        bufferOf[op.getResult(0)] = it->second;
        continue;
      }
      if (!isa<meshvk::EmptyOp, meshvk::LaunchOp>(op))
        continue;
      int64_t p = isa<meshvk::EmptyOp>(op) ? cast<meshvk::EmptyOp>(op).getProcess()
                                           : cast<meshvk::LaunchOp>(op).getProcess();
      for (Value result : op.getResults()) {
        Buffer buf;
        buf.process = p;
        buf.bytes = bytesOf(result.getType());
        buf.first = order[&op];
        // Live at least while its writer runs: an unused result (a kernel
        // whose only consumer was an empty shard's slice) must not share
        // bytes with the same kernel's inputs.
        buf.last = buf.first;
        addBuffer(result, buf);
      }
    }
    return success();
  }

  /// A copy writes its destination's buffer in place: the destination must
  /// be a writable buffer of the copy's process that nothing uses later.
  LogicalResult assignCopy(meshvk::CopyOp copy) {
    auto it = bufferOf.find(copy.getDest());
    if (it == bufferOf.end())
      return copy.emitError("copy destination has no buffer");
    Buffer &dest = buffers[it->second];
    if (dest.kind == BufferKind::Constant)
      return copy.emitError("copies into a constant (constants are never written)");
    if (dest.process != copy.getDestProcess())
      return copy.emitError("copy destination lives on process ")
             << dest.process << ", not on " << copy.getDestProcess();
    for (Operation *user : copy.getDest().getUsers())
      if (user != copy && order.count(user) == 0)
        return copy.emitError("the copy destination is used after the "
                              "copy that updates it in place");
    // A view of the buffer would see the bytes change under it.
    if (meshvk::isView(copy.getDest().getDefiningOp()) ||
        llvm::any_of(copy.getDest().getUsers(), meshvk::isView))
      return copy.emitError("the copy destination is a reshaped view, or is viewed, while the "
                            "copy updates it in place");
    bufferOf[copy.getResult()] = it->second;
    return success();
  }

  /// Lifetimes and peer reads from the uses; only plan ops may remain.
  LogicalResult traceUses() {
    for (Operation &op : *block) {
      if (isa<func::ReturnOp>(op))
        continue;
      int64_t p = -1;
      if (auto launch = dyn_cast<meshvk::LaunchOp>(op))
        p = launch.getProcess();
      else if (auto copy = dyn_cast<meshvk::CopyOp>(op))
        p = copy.getDestProcess();
      for (Value operand : op.getOperands()) {
        auto it = bufferOf.find(operand);
        if (it == bufferOf.end())
          continue;
        Buffer &buf = buffers[it->second];
        buf.last = std::max(buf.last, order[&op]);
        if (p >= 0 && p != buf.process) {
          if (!isa<meshvk::CopyOp>(op))
            return op.emitError("reads a buffer of process ")
                   << buf.process << " from process " << p << " without a copy";
          buf.peerRead = true;
        }
      }
      if (!isa<meshvk::LaunchOp, meshvk::CopyOp, meshvk::EmptyOp, meshvk::ConstantOp>(op) &&
          !op.hasTrait<OpTrait::ConstantLike>() && !isa<tensor::EmptyOp>(op) &&
          !meshvk::isView(&op))
        return op.emitError("'") << op.getName()
                                 << "' left in the plan; run "
                                    "meshvk-outline-kernels first";
    }
    return success();
  }

  /// The returned buffers become result buffers of their process.
  LogicalResult markResults() {
    for (OpOperand &operand : ret->getOpOperands()) {
      auto it = bufferOf.find(operand.get());
      if (it == bufferOf.end())
        return ret.emitError("result #") << operand.getOperandNumber() << " has no buffer";
      Buffer &buf = buffers[it->second];
      int64_t p = operand.getOperandNumber() % processes;
      if (buf.process != p)
        return ret.emitError("result #") << operand.getOperandNumber() << " belongs to process "
                                         << p << " but is computed on process " << buf.process;
      buf.kind = BufferKind::Result;
      buf.index = operand.getOperandNumber();
    }
    return success();
  }

  /// First-fit placement of transients in each process's arena, and each
  /// process's byte counts by kind.
  void placeTransients() {
    arena.assign(processes, 0);
    unshared.assign(processes, 0);
    argBytes.assign(processes, 0);
    resultBytes.assign(processes, 0);
    constantBytes.assign(processes, 0);
    std::vector<int64_t> placed;
    for (auto [id, buf] : llvm::enumerate(buffers)) {
      if (buf.kind == BufferKind::Argument) {
        argBytes[buf.process] += buf.bytes;
        continue;
      }
      if (buf.kind == BufferKind::Constant) {
        constantBytes[buf.process] += buf.bytes;
        continue;
      }
      if (buf.kind == BufferKind::Result) {
        resultBytes[buf.process] += buf.bytes;
        continue;
      }
      unshared[buf.process] += buf.bytes;
      // An empty shard's value (0 elements on its process) still takes one
      // word of the arena: its kernel binding must name bytes of its own.
      const int64_t footprint = std::max<int64_t>(buf.bytes, 4);
      int64_t last = buf.peerRead ? position : buf.last;
      // Busy intervals of live buffers on the same process, by offset.
      std::vector<std::pair<int64_t, int64_t>> busy;
      for (int64_t other : placed) {
        const Buffer &o = buffers[other];
        int64_t oLast = o.peerRead ? position : o.last;
        if (o.process == buf.process && o.first <= last && buf.first <= oLast)
          busy.push_back({o.index, o.index + std::max<int64_t>(o.bytes, 4)});
      }
      llvm::sort(busy);
      int64_t offset = 0;
      for (auto [begin, end] : busy) {
        if (offset + footprint <= begin)
          break;
        offset = std::max(offset, alignTo(end));
      }
      buf.index = offset;
      arena[buf.process] = std::max(arena[buf.process], offset + footprint);
      placed.push_back(id);
    }
  }

  /// Each plan op's buffers (`meshvk.buffers`) and the plan's memory per
  /// process (`meshvk.memory`).
  void annotate() {
    Builder ab(plan.getContext());
    for (Operation &op : *block) {
      if (!isa<meshvk::LaunchOp, meshvk::CopyOp, meshvk::EmptyOp, meshvk::ConstantOp>(op))
        continue;
      SmallVector<Attribute> entries;
      for (Value result : op.getResults()) {
        const Buffer &buf = buffers[bufferOf[result]];
        entries.push_back(meshvk::BufferAttr::get(ab.getContext(), buf.kind, buf.index, buf.bytes));
      }
      meshvk::MeshVKDialect::BuffersAttrHelper(ab.getContext())
          .setAttr(&op, ab.getArrayAttr(entries));
    }
    SmallVector<Attribute> memory;
    for (int64_t p = 0; p < processes; ++p)
      memory.push_back(meshvk::ProcessMemoryAttr::get(ab.getContext(), argBytes[p], resultBytes[p],
                                                      arena[p], unshared[p], constantBytes[p]));
    meshvk::MeshVKDialect::MemoryAttrHelper(ab.getContext()).setAttr(plan, ab.getArrayAttr(memory));
  }

  int64_t alignTo(int64_t value) {
    int64_t a = alignment > 0 ? alignment : 1;
    return (value + a - 1) / a * a;
  }

  func::FuncOp plan;
  int64_t alignment;
  int64_t processes;
  Block *block = nullptr;
  func::ReturnOp ret;
  std::vector<Buffer> buffers;
  DenseMap<Value, int64_t> bufferOf;
  DenseMap<Operation *, int64_t> order; // plan position of each op
  int64_t position = 0;                 // ops in the plan
  SmallVector<int64_t> arena, unshared, argBytes, resultBytes, constantBytes;
};

struct PlanAllocationsPass : meshvk::impl::PlanAllocationsBase<PlanAllocationsPass> {
  using PlanAllocationsBase::PlanAllocationsBase;

  void runOnOperation() override {
    meshvk::viewReshapeLaunches(getOperation());
    for (auto plan : getOperation().getOps<func::FuncOp>())
      if (meshvk::getPlan(plan) && failed(PlanAllocator(plan, alignment).run()))
        return signalPassFailure();
  }
};

} // namespace
