//===- LowerCollectives.cpp - collectives on peered axes -> peer copies ---===//
//
// On grid axes whose devices share memory a collective is placement, not
// messaging: each process pulls the boxes it needs straight out of its peers'
// buffers (the copy is recorded on the destination process and never targets
// the device the data is already on) and reduces received partials with a small
// local elementwise kernel. The algorithm of each collective and the bytes each
// process pulls are recorded on the plan (`meshvk.collectives`).
//
//===----------------------------------------------------------------------===//
#include "ShardingUtils.h"
#include "meshvk/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"

#include <deque>
#include <map>

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_LOWERCOLLECTIVES
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

namespace {

/// The processes of one collective group, ordered by in-group index.
struct Group {
  SmallVector<int64_t> members;
  int64_t rank = 0; // in-group index of the process the group was built for
};

Group groupOf(int64_t p, ArrayRef<int64_t> gridShape, ArrayRef<int16_t> axes) {
  SmallVector<int64_t> multi = meshvk::processMultiIndex(gridShape, p);
  Group group;
  // Enumerate members in in-group order directly.
  int64_t size = 1;
  for (int16_t a : axes)
    size *= gridShape[a];
  for (int64_t k = 0; k < size; ++k) {
    SmallVector<int64_t> member = multi;
    int64_t rest = k;
    for (int64_t i = (int64_t)axes.size() - 1; i >= 0; --i) {
      member[axes[i]] = rest % gridShape[axes[i]];
      rest /= gridShape[axes[i]];
    }
    int64_t linear = 0;
    for (size_t a = 0; a < gridShape.size(); ++a)
      linear = linear * gridShape[a] + member[a];
    if (linear == p)
      group.rank = k;
    group.members.push_back(linear);
  }
  return group;
}

/// The process whose block along `axes` (linearised, first axis most
/// significant) is `delta` away from p's, all other grid coordinates equal;
/// -1 past either end (halos are not periodic).
int64_t neighborOf(int64_t p, ArrayRef<int64_t> gridShape, ArrayRef<int16_t> axes, int64_t delta) {
  SmallVector<int64_t> multi = meshvk::processMultiIndex(gridShape, p);
  int64_t block = 0, blocks = 1;
  for (int16_t a : axes) {
    block = block * gridShape[a] + multi[a];
    blocks *= gridShape[a];
  }
  block += delta;
  if (block < 0 || block >= blocks)
    return -1;
  for (int64_t i = (int64_t)axes.size() - 1; i >= 0; --i) {
    multi[axes[i]] = block % gridShape[axes[i]];
    block /= gridShape[axes[i]];
  }
  int64_t linear = 0;
  for (size_t a = 0; a < gridShape.size(); ++a)
    linear = linear * gridShape[a] + multi[a];
  return linear;
}

int64_t bytesOf(RankedTensorType type) {
  return type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
}

/// Builds the plan ops of one collective and counts what each process pulls.
class Lowering {
public:
  Lowering(OpBuilder &b, Location loc, int64_t processes) : b(b), loc(loc), pulled(processes, 0) {}

  Value empty(int64_t p, RankedTensorType type) {
    return meshvk::EmptyOp::create(b, loc, type, b.getI64IntegerAttr(p));
  }

  /// Copies the box (`srcOffsets`, `sizes`) of `src` on `from` into `dest` on
  /// `to` at `destOffsets`; pulls when `from != to`.
  Value copy(Value src, int64_t from, Value dest, int64_t to, ArrayRef<int64_t> srcOffsets,
             ArrayRef<int64_t> destOffsets, ArrayRef<int64_t> sizes) {
    auto op =
        meshvk::CopyOp::create(b, loc, dest.getType(), src, b.getI64IntegerAttr(from), dest,
                               b.getI64IntegerAttr(to), b.getDenseI64ArrayAttr(srcOffsets),
                               b.getDenseI64ArrayAttr(destOffsets), b.getDenseI64ArrayAttr(sizes));
    if (from != to)
      pulled[to] += op.getByteCount();
    tag(op);
    return op.getResult();
  }

  /// A buffer on process `p` holding `value` everywhere (a small kernel).
  Value fill(int64_t p, RankedTensorType type, TypedAttr value) {
    auto init = tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
    meshvk::setProcess(init, p);
    Value scalar = arith::ConstantOp::create(b, loc, value);
    auto filled = linalg::FillOp::create(b, loc, scalar, init.getResult());
    meshvk::setProcess(filled, p);
    tag(filled);
    return filled.getResult(0);
  }

  /// Whole of `src` (on `from`) into a fresh buffer on `to`.
  Value pullWhole(Value src, int64_t from, int64_t to) {
    auto type = cast<RankedTensorType>(src.getType());
    SmallVector<int64_t> zero(type.getRank(), 0);
    return copy(src, from, empty(to, type), to, zero, zero, type.getShape());
  }

  /// Elementwise reduction of `inputs` on process `p`: the small local kernel.
  /// Float max/min propagate NaN (arith.maximumf, as numpy and TOSA do)
  /// unless `ignoreNaN` (the partials were combined with arith.maxnumf).
  FailureOr<Value> reduce(Operation *at, int64_t p, ArrayRef<Value> inputs,
                          shard::ReductionKind kind, bool ignoreNaN) {
    auto type = cast<RankedTensorType>(inputs.front().getType());
    Type elem = type.getElementType();
    bool isFloat = isa<FloatType>(elem);
    if (!isFloat && !elem.isSignlessInteger())
      return at->emitError("reductions of ") << elem << " are not supported";
    switch (kind) {
    case shard::ReductionKind::Sum:
    case shard::ReductionKind::Max:
    case shard::ReductionKind::Min:
    case shard::ReductionKind::Product:
      break;
    default:
      return at->emitError("reduction <") << shard::stringifyReductionKind(kind)
                                          << "> is not supported yet (sum, max, min, product are)";
    }
    auto init = tensor::EmptyOp::create(b, loc, type.getShape(), elem);
    meshvk::setProcess(init, p);
    AffineMap id = b.getMultiDimIdentityMap(type.getRank());
    SmallVector<AffineMap> maps(inputs.size() + 1, id);
    SmallVector<utils::IteratorType> iterators(type.getRank(), utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{type}, inputs, ValueRange{init}, maps, iterators,
        [&](OpBuilder &nb, Location l, ValueRange args) {
          Value acc = args[0];
          for (Value v : args.drop_front().drop_back()) {
            switch (kind) {
            case shard::ReductionKind::Sum:
              acc = isFloat ? (Value)arith::AddFOp::create(nb, l, acc, v)
                            : (Value)arith::AddIOp::create(nb, l, acc, v);
              break;
            case shard::ReductionKind::Product:
              acc = isFloat ? (Value)arith::MulFOp::create(nb, l, acc, v)
                            : (Value)arith::MulIOp::create(nb, l, acc, v);
              break;
            case shard::ReductionKind::Max:
              acc = !isFloat    ? (Value)arith::MaxSIOp::create(nb, l, acc, v)
                    : ignoreNaN ? (Value)arith::MaxNumFOp::create(nb, l, acc, v)
                                : (Value)arith::MaximumFOp::create(nb, l, acc, v);
              break;
            default:
              acc = !isFloat    ? (Value)arith::MinSIOp::create(nb, l, acc, v)
                    : ignoreNaN ? (Value)arith::MinNumFOp::create(nb, l, acc, v)
                                : (Value)arith::MinimumFOp::create(nb, l, acc, v);
              break;
            }
          }
          linalg::YieldOp::create(nb, l, acc);
        });
    meshvk::setProcess(generic, p);
    tag(generic);
    return generic.getResult(0);
  }

  /// Marks an op as part of the collective being lowered: the emitter tags its
  /// commands, so a runtime whose grid spans ranks can run the group through
  /// its transport instead.
  void tag(Operation *op) {
    meshvk::MeshVKDialect::CollectiveIdAttrHelper(b.getContext())
        .setAttr(op, b.getI64IntegerAttr(id));
  }

  OpBuilder &b;
  int64_t id = 0;
  Location loc;
  SmallVector<int64_t> pulled;
};

/// The single combining op of the linalg op that produced `partial`, if any.
Operation *combinerOf(Value partial) {
  auto linalgOp = partial.getDefiningOp<linalg::LinalgOp>();
  if (!linalgOp || linalgOp->getNumRegions() != 1)
    return nullptr;
  Block &body = linalgOp->getRegion(0).front();
  return body.getOperations().size() == 2 ? &body.front() : nullptr;
}

/// Whether the partials were combined ignoring NaN (arith.maxnumf/minnumf):
/// the collective must combine them the same way, or a NaN in one shard
/// decides the result differently from the unsharded program.
bool ignoresNaN(Value partial) {
  return isa_and_nonnull<arith::MaxNumFOp, arith::MinNumFOp>(combinerOf(partial));
}

/// The reduction a linalg op's single combining op performs, if it is one.
std::optional<shard::ReductionKind> combinerKind(Value partial) {
  Operation *op = combinerOf(partial);
  if (!op)
    return std::nullopt;
  Operation &combiner = *op;
  if (isa<arith::AddFOp, arith::AddIOp>(combiner))
    return shard::ReductionKind::Sum;
  if (isa<arith::MulFOp, arith::MulIOp>(combiner))
    return shard::ReductionKind::Product;
  if (isa<arith::MaxNumFOp, arith::MaximumFOp, arith::MaxSIOp>(combiner))
    return shard::ReductionKind::Max;
  if (isa<arith::MinNumFOp, arith::MinimumFOp, arith::MinSIOp>(combiner))
    return shard::ReductionKind::Min;
  return std::nullopt;
}

struct LowerCollectivesPass : meshvk::impl::LowerCollectivesBase<LowerCollectivesPass> {
  using LowerCollectivesBase::LowerCollectivesBase;

  void runOnOperation() override {
    for (auto plan : getOperation().getOps<func::FuncOp>()) {
      if (!meshvk::getPlan(plan))
        continue;
      if (failed(lowerPlan(plan)))
        return signalPassFailure();
    }
  }

  LogicalResult lowerPlan(func::FuncOp plan) {
    meshvk::PlanAttr info = meshvk::getPlan(plan);
    ArrayRef<int64_t> gridShape = info.getGridShape().asArrayRef();
    ArrayRef<int64_t> peered = info.getPeeredAxes().asArrayRef();
    int64_t processes = info.getProcessCount();

    // Collectives by id, each with its op on every process.
    std::map<int64_t, SmallVector<Operation *>> byId;
    meshvk::MeshVKDialect::CollectiveIdAttrHelper collectiveId(&getContext());
    plan.walk([&](Operation *op) {
      if (IntegerAttr id = collectiveId.getAttr(op))
        byId[id.getInt()].push_back(op);
    });
    SmallVector<Attribute> report;
    SmallVector<PointToPoint> pointToPoint;
    for (auto &[id, ops] : byId) {
      Operation *first = ops.front();
      for (Operation *op : ops)
        if (op->isBeforeInBlock(first))
          first = op;
      SmallVector<Operation *> perProcess(processes, nullptr);
      for (Operation *op : ops) {
        int64_t p = meshvk::getProcess(op);
        if (p < 0 || p >= processes || perProcess[p])
          return op->emitError("collective is not on each process exactly once");
        perProcess[p] = op;
      }
      if (llvm::is_contained(perProcess, nullptr))
        return first->emitError("collective is missing on some processes");
      auto axesAttr = first->getAttrOfType<DenseI16ArrayAttr>("grid_axes");
      SmallVector<int16_t> axes;
      if (axesAttr)
        llvm::append_range(axes, axesAttr.asArrayRef());
      if (auto halo = dyn_cast<shard::UpdateHaloOp>(first))
        for (shard::GridAxesAttr dimAxes : halo.getSplitAxes().getAxes())
          llvm::append_range(axes, dimAxes.asArrayRef());
      if (first->getNumOperands() < 1 || first->getNumResults() != 1 ||
          !isa<RankedTensorType>(first->getOperand(0).getType()) ||
          !isa<RankedTensorType>(first->getResult(0).getType()))
        return first->emitError("collective on a non-tensor is not supported");
      for (int16_t axis : axes)
        if (!llvm::is_contained(peered, axis))
          return first->emitError("'")
                 << first->getName() << "' over grid axis " << axis << " of " << info.getGrid()
                 << ", whose devices do not share memory (not in "
                 << meshvk::MeshVKDialect::PeeredMemoryAxesAttrHelper::getNameStr()
                 << "): not supported yet (needs message passing)";
      if (isa<shard::SendOp, shard::RecvOp>(first)) { // matched in pairs, after the others
        pointToPoint.push_back({id, std::move(perProcess), std::move(axes)});
        continue;
      }

      OpBuilder b(first);
      Lowering lowering(b, first->getLoc(), processes);
      lowering.id = id;
      FailureOr<std::string> algorithm = lowerOne(lowering, perProcess, gridShape, axes);
      if (failed(algorithm))
        return failure();
      for (Operation *op : perProcess)
        op->erase();
      report.push_back(meshvk::CollectiveAttr::get(b.getContext(), id, kindName, *algorithm,
                                                   groupSize,
                                                   b.getDenseI64ArrayAttr(lowering.pulled)));
    }
    if (failed(lowerSendRecv(plan, pointToPoint, gridShape, report)))
      return failure();
    Builder b(plan.getContext());
    meshvk::MeshVKDialect::CollectivesAttrHelper(b.getContext())
        .setAttr(plan, b.getArrayAttr(report));
    return lowerSlices(plan);
  }

  /// A shard.send or shard.recv of the SPMD function: its op on every
  /// process, and the grid axes of its groups.
  struct PointToPoint {
    int64_t id;
    SmallVector<Operation *> perProcess;
    SmallVector<int16_t> axes;
  };

  /// The process a send's destination or a recv's source names on process
  /// `p`: an in-group multi-index over the op's grid axes, each entry static
  /// or a value that became a constant when the grid was unrolled.
  FailureOr<int64_t> peerOf(Operation *op, int64_t p, StringRef what, ArrayRef<int64_t> index,
                            ValueRange dynamic, ArrayRef<int64_t> gridShape,
                            ArrayRef<int16_t> axes) {
    if (index.size() != axes.size())
      return op->emitError("'") << op->getName() << "' " << what << " has " << index.size()
                                << " indices for " << axes.size()
                                << " grid axes (one in-group index per axis of grid_axes)",
             failure();
    int64_t member = 0;
    auto next = dynamic.begin();
    for (auto [i, axis] : llvm::enumerate(axes)) {
      std::optional<int64_t> at = index[i];
      if (ShapedType::isDynamic(index[i]))
        at = getConstantIntValue(*next++);
      if (!at)
        return op->emitError("'") << op->getName() << "' " << what << " on process " << p
                                  << " is not a constant once the process index is (compute it "
                                     "from shard.process_multi_index with arith ops)",
               failure();
      if (*at < 0 || *at >= gridShape[axis])
        return op->emitError("'") << op->getName() << "' " << what << " on process " << p
                                  << " is index " << *at << " of grid axis " << axis
                                  << ", which has " << gridShape[axis] << " processes",
               failure();
      member = member * gridShape[axis] + *at;
    }
    return groupOf(p, gridShape, axes).members[member];
  }

  /// shard.send / shard.recv: each recv takes the tensor of the matching send
  /// (the sender's k-th send to the receiver, its k-th recv from the sender;
  /// a recv without a source matches the only process with a send pending
  /// for it). The pair becomes one copy pulled by the receiver; a send's own
  /// result is its input. A send or recv left unmatched, or a recv placed
  /// before the tensor it takes exists (it would wait forever), is an error.
  LogicalResult lowerSendRecv(func::FuncOp plan, ArrayRef<PointToPoint> ops,
                              ArrayRef<int64_t> gridShape, SmallVector<Attribute> &report) {
    int64_t processes = meshvk::getPlan(plan).getProcessCount();
    // Sends pending per (sender, receiver), in program order.
    std::map<std::pair<int64_t, int64_t>, std::deque<shard::SendOp>> pending;
    for (const PointToPoint &pp : ops)
      for (auto [p, op] : llvm::enumerate(pp.perProcess))
        if (auto send = dyn_cast<shard::SendOp>(op)) {
          FailureOr<int64_t> to = peerOf(send, p, "destination", send.getDestination(),
                                         send.getDestinationDynamic(), gridShape, pp.axes);
          if (failed(to))
            return failure();
          pending[{(int64_t)p, *to}].push_back(send);
        }
    DominanceInfo dominance(plan);
    for (const PointToPoint &pp : ops) {
      if (!isa<shard::RecvOp>(pp.perProcess.front()))
        continue;
      OpBuilder b(pp.perProcess.front());
      Lowering l(b, pp.perProcess.front()->getLoc(), processes);
      l.id = pp.id;
      for (auto [q, op] : llvm::enumerate(pp.perProcess)) {
        auto recv = cast<shard::RecvOp>(op);
        int64_t from = -1;
        if (std::optional<ArrayRef<int64_t>> source = recv.getSource()) {
          FailureOr<int64_t> peer =
              peerOf(recv, q, "source", *source, recv.getSourceDynamic(), gridShape, pp.axes);
          if (failed(peer))
            return failure();
          from = *peer;
        } else {
          SmallVector<int64_t> senders;
          for (int64_t p = 0; p < processes; ++p)
            if (auto it = pending.find({p, (int64_t)q}); it != pending.end() && !it->second.empty())
              senders.push_back(p);
          if (senders.size() != 1) {
            auto diag = recv.emitError("'shard.recv' without a source on process ")
                        << q << " matches "
                        << (senders.empty() ? "no send" : "sends from processes ");
            llvm::interleaveComma(senders, diag);
            return diag << ": give its source", failure();
          }
          from = senders.front();
        }
        std::deque<shard::SendOp> &queue = pending[{from, (int64_t)q}];
        if (queue.empty())
          return recv.emitError("'shard.recv' on process ")
                 << q << " from process " << from << " has no matching 'shard.send' (process "
                 << from << " sends to " << q << " fewer times than " << q << " receives)";
        shard::SendOp send = queue.front();
        queue.pop_front();
        Value data = send.getInput();
        if (data.getType() != recv.getResult().getType())
          return recv.emitError("'shard.recv' on process ")
                 << q << " takes " << recv.getResult().getType() << " but process " << from
                 << " sends " << data.getType() << " at " << send.getLoc();
        if (!dominance.properlyDominates(data, recv))
          return recv.emitError("'shard.recv' on process ")
                 << q << " waits for the tensor process " << from << " sends at " << send.getLoc()
                 << ", which is computed only after this recv: send it before receiving";
        b.setInsertionPoint(recv);
        recv.getResult().replaceAllUsesWith(from == (int64_t)q ? data : l.pullWhole(data, from, q));
      }
      report.push_back(meshvk::CollectiveAttr::get(b.getContext(), pp.id, "recv", "direct",
                                                   groupOf(0, gridShape, pp.axes).members.size(),
                                                   b.getDenseI64ArrayAttr(l.pulled)));
    }
    for (auto &[pair, queue] : pending)
      if (!queue.empty())
        return queue.front().emitError("'shard.send' from process ")
               << pair.first << " to process " << pair.second
               << " has no matching 'shard.recv' (process " << pair.second << " receives from "
               << pair.first << " fewer times than " << pair.first << " sends)";
    for (const PointToPoint &pp : ops)
      for (Operation *op : pp.perProcess) {
        if (auto send = dyn_cast<shard::SendOp>(op))
          send.getResult().replaceAllUsesWith(send.getInput());
        op->erase();
      }
    return success();
  }

  /// Static, unit-stride tensor.extract_slice / insert_slice of a process's
  /// own tensors (SPMD code: a halo border around a block, its neighbours'
  /// rows) are local copies, not kernels. An insert_slice writes into its
  /// destination's buffer only when nothing else reads that value (else into
  /// a copy of it); into a tensor.empty it writes a fresh buffer.
  LogicalResult lowerSlices(func::FuncOp plan) {
    SmallVector<Operation *> slices;
    plan.walk([&](Operation *op) {
      if (isa<tensor::ExtractSliceOp, tensor::InsertSliceOp>(op) && meshvk::getProcess(op) >= 0)
        slices.push_back(op);
    });
    for (Operation *op : slices) {
      auto slice = cast<OffsetSizeAndStrideOpInterface>(op);
      auto sourceType = cast<RankedTensorType>(op->getOperand(0).getType());
      auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
      int64_t small = isa<tensor::ExtractSliceOp>(op) ? resultType.getRank() : sourceType.getRank();
      if (!slice.getOffsets().empty() || !slice.getSizes().empty() || !slice.getStrides().empty() ||
          llvm::any_of(slice.getStaticStrides(), [](int64_t s) { return s != 1; }) ||
          small != (int64_t)slice.getStaticSizes().size())
        continue; // strided or rank-reducing: stays a kernel
      int64_t p = meshvk::getProcess(op);
      OpBuilder b(op);
      Lowering l(b, op->getLoc(), meshvk::getPlan(plan).getProcessCount());
      SmallVector<int64_t> zero(small, 0);
      Value result;
      if (auto extract = dyn_cast<tensor::ExtractSliceOp>(op)) {
        result = l.copy(extract.getSource(), p, l.empty(p, resultType), p,
                        extract.getStaticOffsets(), zero, extract.getStaticSizes());
      } else {
        auto insert = cast<tensor::InsertSliceOp>(op);
        Value dest = insert.getDest();
        if (dest.getDefiningOp<tensor::EmptyOp>())
          dest = l.empty(p, resultType);
        else if (!dest.hasOneUse() || isa<BlockArgument>(dest) ||
                 dest.getDefiningOp<meshvk::ConstantOp>())
          dest = l.pullWhole(dest, p, p);
        result = l.copy(insert.getSource(), p, dest, p, zero, insert.getStaticOffsets(),
                        insert.getStaticSizes());
      }
      op->getResult(0).replaceAllUsesWith(result);
      op->erase();
    }
    return success();
  }

  std::string kindName;
  int64_t groupSize = 0;

  /// Lowers one collective (its op on every process); returns the algorithm.
  FailureOr<std::string> lowerOne(Lowering &l, ArrayRef<Operation *> ops,
                                  ArrayRef<int64_t> gridShape, ArrayRef<int16_t> axes) {
    Operation *op0 = ops.front();
    kindName = op0->getName().stripDialect().str();
    int64_t processes = ops.size();
    groupSize = groupOf(0, gridShape, axes).members.size();
    auto input = [&](int64_t p) { return ops[p]->getOperand(0); };
    auto inType = cast<RankedTensorType>(op0->getOperand(0).getType());
    auto outType = cast<RankedTensorType>(op0->getResult(0).getType());
    SmallVector<Value> results(processes);
    int64_t rank = inType.getRank();
    SmallVector<int64_t> zero(rank, 0);
    std::string algorithm = "direct";

    if (auto gather = dyn_cast<shard::AllGatherOp>(op0)) {
      int64_t axis = gather.getGatherAxis().getSExtValue();
      for (int64_t p = 0; p < processes; ++p) {
        Group g = groupOf(p, gridShape, axes);
        Value dest = l.empty(p, outType);
        for (auto [k, q] : llvm::enumerate(g.members)) {
          SmallVector<int64_t> at(rank, 0);
          at[axis] = k * inType.getDimSize(axis);
          dest = l.copy(input(q), q, dest, p, zero, at, inType.getShape());
        }
        results[p] = dest;
      }
    } else if (auto slice = dyn_cast<shard::AllSliceOp>(op0)) {
      int64_t axis = slice.getSliceAxis().getSExtValue();
      algorithm = "local";
      for (int64_t p = 0; p < processes; ++p) {
        Group g = groupOf(p, gridShape, axes);
        SmallVector<int64_t> at(rank, 0);
        at[axis] = g.rank * outType.getDimSize(axis);
        results[p] = l.copy(input(p), p, l.empty(p, outType), p, at, zero, outType.getShape());
      }
    } else if (auto a2a = dyn_cast<shard::AllToAllOp>(op0)) {
      int64_t split = a2a.getSplitAxis().getSExtValue();
      int64_t concat = a2a.getConcatAxis().getSExtValue();
      SmallVector<int64_t> chunk(inType.getShape());
      chunk[split] /= groupSize;
      for (int64_t p = 0; p < processes; ++p) {
        Group g = groupOf(p, gridShape, axes);
        Value dest = l.empty(p, outType);
        for (auto [k, q] : llvm::enumerate(g.members)) {
          SmallVector<int64_t> from(rank, 0), at(rank, 0);
          from[split] = g.rank * chunk[split];
          at[concat] = k * chunk[concat];
          dest = l.copy(input(q), q, dest, p, from, at, chunk);
        }
        results[p] = dest;
      }
    } else if (auto bcast = dyn_cast<shard::BroadcastOp>(op0)) {
      FailureOr<int64_t> rootIndex =
          rootMember(op0, bcast.getRoot(), bcast.getRootDynamic().size(), gridShape, axes);
      if (failed(rootIndex))
        return failure();
      for (int64_t p = 0; p < processes; ++p) {
        Group g = groupOf(p, gridShape, axes);
        int64_t q = g.members[*rootIndex];
        results[p] = q == p ? input(p) : l.pullWhole(input(q), q, p);
      }
    } else if (isa<shard::GatherOp, shard::ReduceOp, shard::ScatterOp>(op0)) {
      // Rooted collectives: the root gathers / reduces, or hands out the
      // chunks of its input. Results on the other processes (gather, reduce)
      // are undefined: a fresh buffer.
      ArrayRef<int64_t> root;
      size_t dynamicRoot = 0;
      if (auto g = dyn_cast<shard::GatherOp>(op0))
        root = g.getRoot(), dynamicRoot = g.getRootDynamic().size();
      else if (auto r = dyn_cast<shard::ReduceOp>(op0))
        root = r.getRoot(), dynamicRoot = r.getRootDynamic().size();
      else
        root = cast<shard::ScatterOp>(op0).getRoot(),
        dynamicRoot = cast<shard::ScatterOp>(op0).getRootDynamic().size();
      FailureOr<int64_t> rootIndex = rootMember(op0, root, dynamicRoot, gridShape, axes);
      if (failed(rootIndex))
        return failure();
      algorithm = "rooted";
      for (int64_t p = 0; p < processes; ++p) {
        Group g = groupOf(p, gridShape, axes);
        int64_t q = g.members[*rootIndex];
        if (auto scatter = dyn_cast<shard::ScatterOp>(op0)) {
          int64_t axis = scatter.getScatterAxis().getSExtValue();
          SmallVector<int64_t> from(rank, 0);
          from[axis] = g.rank * outType.getDimSize(axis);
          results[p] = l.copy(input(q), q, l.empty(p, outType), p, from, zero, outType.getShape());
          continue;
        }
        if (q != p) {
          results[p] = l.empty(p, outType);
          continue;
        }
        if (auto gather = dyn_cast<shard::GatherOp>(op0)) {
          int64_t axis = gather.getGatherAxis().getSExtValue();
          Value dest = l.empty(p, outType);
          for (auto [k, member] : llvm::enumerate(g.members)) {
            SmallVector<int64_t> at(rank, 0);
            at[axis] = k * inType.getDimSize(axis);
            dest = l.copy(input(member), member, dest, p, zero, at, inType.getShape());
          }
          results[p] = dest;
          continue;
        }
        auto reduce = cast<shard::ReduceOp>(op0);
        if (inType.getElementType() != outType.getElementType())
          return op0->emitError("accumulating in ")
                 << outType.getElementType() << " instead of " << inType.getElementType()
                 << " is not supported yet";
        SmallVector<Value> partials{input(p)};
        for (int64_t member : g.members)
          if (member != p)
            partials.push_back(l.pullWhole(input(member), member, p));
        FailureOr<Value> sum =
            partials.size() == 1
                ? FailureOr<Value>(input(p))
                : l.reduce(op0, p, partials, reduce.getReduction(), ignoresNaN(op0->getOperand(0)));
        if (failed(sum))
          return failure();
        results[p] = *sum;
      }
    } else if (auto shift = dyn_cast<shard::ShiftOp>(op0)) {
      int64_t axis = shift.getShiftAxis().getSExtValue();
      if (axis < 0 || axis >= (int64_t)gridShape.size())
        return op0->emitError("shift axis ") << axis << " is not a grid axis";
      int64_t offset = shift.getOffset();
      for (int64_t p = 0; p < processes; ++p) {
        SmallVector<int64_t> multi = meshvk::processMultiIndex(gridShape, p);
        int64_t size = gridShape[axis];
        int64_t c = multi[axis] - offset;
        if (shift.getRotate())
          c = ((c % size) + size) % size;
        if (c < 0 || c >= size) {
          results[p] = input(p); // no source: the result is undefined; keep ours
          continue;
        }
        multi[axis] = c;
        int64_t q = 0;
        for (size_t a = 0; a < gridShape.size(); ++a)
          q = q * gridShape[a] + multi[a];
        results[p] = q == p ? input(p) : l.pullWhole(input(q), q, p);
      }
    } else if (isa<shard::AllReduceOp, shard::ReduceScatterOp>(op0)) {
      if (inType.getElementType() != outType.getElementType())
        return op0->emitError("accumulating in ")
               << outType.getElementType() << " instead of " << inType.getElementType()
               << " is not supported yet";
      shard::ReductionKind kind = isa<shard::AllReduceOp>(op0)
                                      ? cast<shard::AllReduceOp>(op0).getReduction()
                                      : cast<shard::ReduceScatterOp>(op0).getReduction();
      // Upstream marks reductions it does not classify (e.g. arith.maxnumf)
      // `generic`; the combiner of the op producing the partials tells.
      if (kind == shard::ReductionKind::Generic)
        kind = combinerKind(op0->getOperand(0)).value_or(kind);
      bool ignoreNaN = ignoresNaN(op0->getOperand(0));
      // The dimension the partials are cut along (reduce_scatter: its scatter
      // axis; all_reduce: the first dimension the group size divides).
      int64_t cut = -1;
      bool direct = false;
      if (auto rs = dyn_cast<shard::ReduceScatterOp>(op0)) {
        cut = rs.getScatterAxis().getSExtValue();
      } else {
        for (int64_t d = 0; d < rank && cut < 0; ++d)
          if (inType.getDimSize(d) % groupSize == 0)
            cut = d;
        // Direct: n-1 whole partials, one reduction. Reduce-scatter +
        // all-gather: 2(n-1)/n of the data, two phases. Equal bytes at n = 2.
        direct = cut < 0 || groupSize <= 2 || bytesOf(inType) <= directAllReduceMaxBytes;
      }
      if (direct) {
        for (int64_t p = 0; p < processes; ++p) {
          Group g = groupOf(p, gridShape, axes);
          SmallVector<Value> partials{input(p)};
          for (int64_t q : g.members)
            if (q != p)
              partials.push_back(l.pullWhole(input(q), q, p));
          FailureOr<Value> sum = partials.size() == 1 ? FailureOr<Value>(input(p))
                                                      : l.reduce(op0, p, partials, kind, ignoreNaN);
          if (failed(sum))
            return failure();
          results[p] = *sum;
        }
      } else {
        // Phase 1 (reduce-scatter): process p reduces its chunk of all
        // partials.
        SmallVector<int64_t> chunk(inType.getShape());
        chunk[cut] /= groupSize;
        auto chunkType = RankedTensorType::get(chunk, inType.getElementType());
        SmallVector<Value> reduced(processes);
        for (int64_t p = 0; p < processes; ++p) {
          Group g = groupOf(p, gridShape, axes);
          SmallVector<int64_t> from(rank, 0);
          from[cut] = g.rank * chunk[cut];
          SmallVector<Value> partials;
          partials.push_back(l.copy(input(p), p, l.empty(p, chunkType), p, from, zero, chunk));
          for (int64_t q : g.members)
            if (q != p)
              partials.push_back(l.copy(input(q), q, l.empty(p, chunkType), p, from, zero, chunk));
          FailureOr<Value> sum = partials.size() == 1 ? FailureOr<Value>(partials.front())
                                                      : l.reduce(op0, p, partials, kind, ignoreNaN);
          if (failed(sum))
            return failure();
          reduced[p] = *sum;
        }
        if (isa<shard::ReduceScatterOp>(op0)) {
          algorithm = "direct";
          results = reduced;
        } else {
          // Phase 2 (all-gather of the reduced chunks).
          algorithm = "reduce_scatter+all_gather";
          for (int64_t p = 0; p < processes; ++p) {
            Group g = groupOf(p, gridShape, axes);
            Value dest = l.empty(p, outType);
            for (auto [k, q] : llvm::enumerate(g.members)) {
              SmallVector<int64_t> at(rank, 0);
              at[cut] = k * chunk[cut];
              dest = l.copy(reduced[q], q, dest, p, zero, at, chunk);
            }
            results[p] = dest;
          }
        }
      }
    } else if (isa<meshvk::ReshardOp>(op0)) {
      // Uneven shards (meshvk-uneven-shards): box copies (ShardingUtils.h).
      algorithm = "box_copies";
      groupSize = processes;
      FailureOr<SmallVector<Value>> moved = meshvk::lowerBoxReshard(
          ops, gridShape, [&](int64_t p, RankedTensorType type) { return l.empty(p, type); },
          [&](Value src, int64_t from, Value dest, int64_t to, ArrayRef<int64_t> srcOffsets,
              ArrayRef<int64_t> destOffsets, ArrayRef<int64_t> sizes) {
            return l.copy(src, from, dest, to, srcOffsets, destOffsets, sizes);
          });
      if (failed(moved))
        return failure();
      results = *moved;
    } else if (auto window = dyn_cast<meshvk::WindowOp>(op0)) {
      FailureOr<SmallVector<Value>> windows = lowerWindow(l, window, ops, gridShape);
      if (failed(windows))
        return failure();
      results = *windows;
      algorithm = "window";
    } else if (auto halo = dyn_cast<shard::UpdateHaloOp>(op0)) {
      FailureOr<SmallVector<Value>> updated = lowerHalo(l, halo, ops, gridShape);
      if (failed(updated))
        return failure();
      results = *updated;
      algorithm = "halo";
    } else {
      return op0->emitError("'") << op0->getName()
                                 << "' is not supported yet on peered axes (all_gather, "
                                    "all_reduce, all_slice, all_to_all, reduce_scatter, "
                                    "broadcast, shift, gather, scatter, reduce, send/recv and "
                                    "update_halo are)";
    }
    for (int64_t p = 0; p < processes; ++p)
      ops[p]->getResult(0).replaceAllUsesWith(results[p]);
    return algorithm;
  }
  /// The in-group index of a rooted collective's root (its in-group
  /// multi-index over `axes`).
  FailureOr<int64_t> rootMember(Operation *op, ArrayRef<int64_t> root, size_t dynamic,
                                ArrayRef<int64_t> gridShape, ArrayRef<int16_t> axes) {
    if (dynamic != 0)
      return op->emitError("'") << op->getName() << "' with a dynamic root is not supported",
             failure();
    if (root.size() != axes.size())
      return op->emitError("'") << op->getName() << "' root must have one index per grid axis",
             failure();
    int64_t index = 0;
    for (auto [i, axis] : llvm::enumerate(axes)) {
      if (root[i] < 0 || root[i] >= gridShape[axis])
        return op->emitError("'") << op->getName() << "' root index " << root[i]
                                  << " is outside grid axis " << axis,
               failure();
      index = index * gridShape[axis] + root[i];
    }
    return index;
  }

  /// meshvk.window (see its description in MeshVKOps.td): process p's
  /// result is its shard box of the source moved by the shifts. The part of
  /// that box inside the tensor comes from the processes that hold it, by
  /// box copies (p itself for what it holds, its neighbours along the split
  /// axes for the borders); where the box leaves the tensor the result keeps
  /// the pad value (a fill, only on the processes whose box leaves it).
  /// Works for uneven shards and for windows wider than a neighbour's shard
  /// (the border then spans several processes).
  FailureOr<SmallVector<Value>> lowerWindow(Lowering &l, meshvk::WindowOp op0,
                                            ArrayRef<Operation *> ops,
                                            ArrayRef<int64_t> gridShape) {
    auto sourceType = cast<RankedTensorType>(op0.getSource().getType());
    SmallVector<int64_t> global(sourceType.getShape());
    ArrayRef<shard::GridAxesAttr> split;
    ArrayRef<int64_t> dimsOffsets;
    if (op0.getGridAttr()) {
      ArrayRef<int64_t> shape = op0.getGlobalShapeAttr().asArrayRef();
      global.assign(shape.begin(), shape.end());
      split = op0.getSplitAxesAttr().getAxes();
      dimsOffsets = op0.getOffsetsAttr().asArrayRef();
    }
    ArrayRef<int64_t> shifts = op0.getShifts();
    int64_t processes = ops.size(), rank = global.size();
    meshvk::PlanAttr plan = meshvk::getPlan(op0->getParentOfType<func::FuncOp>());
    ArrayRef<int64_t> peered = plan ? plan.getPeeredAxes().asArrayRef() : ArrayRef<int64_t>();
    using Box = std::pair<SmallVector<int64_t>, SmallVector<int64_t>>;
    std::vector<Box> boxes(processes);
    for (int64_t p = 0; p < processes; ++p)
      meshvk::shardBox(global, gridShape, split, dimsOffsets, p, boxes[p].first, boxes[p].second);
    groupSize = 1;
    for (shard::GridAxesAttr axes : split)
      for (int16_t a : axes.asArrayRef())
        groupSize *= gridShape[a];
    // Grid axes on which two processes' coordinates differ.
    auto differing = [&](int64_t p, int64_t q) {
      SmallVector<int64_t> mp = meshvk::processMultiIndex(gridShape, p),
                           mq = meshvk::processMultiIndex(gridShape, q), axes;
      for (int64_t a = 0; a < (int64_t)gridShape.size(); ++a)
        if (mp[a] != mq[a])
          axes.push_back(a);
      return axes;
    };
    SmallVector<Value> results(processes);
    for (int64_t d = 0; d < processes; ++d) {
      auto type = cast<RankedTensorType>(ops[d]->getResult(0).getType());
      if (type.getShape() != ArrayRef<int64_t>(boxes[d].second))
        return ops[d]->emitError("window of type ")
                   << type << " does not match process " << d << "'s shard of its source",
               failure();
      bool leaves = false;
      for (int64_t k = 0; k < rank; ++k) {
        int64_t lo = boxes[d].first[k] + shifts[k];
        leaves |= lo < 0 || lo + boxes[d].second[k] > global[k];
      }
      Value dest = leaves ? l.fill(d, type, op0.getPad()) : l.empty(d, type);
      // One holder per distinct source box: the one closest to d on the grid
      // (d itself for its own box), so that borders cross only split axes.
      std::map<Box, int64_t> holder;
      for (int64_t s = 0; s < processes; ++s) {
        auto it = holder.find(boxes[s]);
        if (it == holder.end() || differing(s, d).size() < differing(it->second, d).size())
          holder[boxes[s]] = s;
      }
      for (auto &[box, s] : holder) {
        SmallVector<int64_t> srcOff(rank), dstOff(rank), sizes(rank);
        bool empty = false;
        for (int64_t k = 0; k < rank; ++k) {
          int64_t want = boxes[d].first[k] + shifts[k];
          int64_t lo = std::max(box.first[k], want);
          int64_t hi = std::min(box.first[k] + box.second[k], want + boxes[d].second[k]);
          empty |= hi <= lo;
          srcOff[k] = lo - box.first[k];
          dstOff[k] = lo - want;
          sizes[k] = hi - lo;
        }
        if (empty)
          continue;
        for (int64_t a : differing(s, d))
          if (plan && !llvm::is_contained(peered, a))
            return ops[d]->emitError("window needs a border over grid axis ")
                       << a << ", whose devices do not share memory: not supported yet",
                   failure();
        dest = l.copy(ops[s]->getOperand(0), s, dest, d, srcOff, dstOff, sizes);
      }
      results[d] = dest;
    }
    return results;
  }

  /// shard.update_halo (the semantics of upstream's MPI lowering): along each
  /// tensor dimension d split over grid axes, from the last dimension to the
  /// first, the lower halo [0, lo) takes the previous block's last interior
  /// rows [S - hi - lo, S - hi) and the upper halo [S - hi, S) the next
  /// block's first interior rows [lo, lo + hi); no neighbour, no update. The
  /// slabs span the interior of the dimensions still to come and the whole
  /// of those already done, so corners arrive through two steps. Each step
  /// copies the tensor locally and pulls the slabs into the copy: every
  /// process reads its neighbours' previous step, never a buffer being
  /// written.
  FailureOr<SmallVector<Value>> lowerHalo(Lowering &l, shard::UpdateHaloOp op0,
                                          ArrayRef<Operation *> ops, ArrayRef<int64_t> gridShape) {
    if (!op0.getHaloSizes().empty())
      return op0.emitError("update_halo with dynamic halo sizes is not supported"), failure();
    auto type = cast<RankedTensorType>(op0.getResult().getType());
    int64_t rank = type.getRank();
    ArrayRef<shard::GridAxesAttr> split = op0.getSplitAxes().getAxes();
    ArrayRef<int64_t> halo = op0.getStaticHaloSizes();
    if ((int64_t)halo.size() != 2 * (int64_t)split.size() || (int64_t)split.size() > rank)
      return op0.emitError("update_halo needs two halo sizes (lower, upper) per split "
                           "dimension: ")
                 << split.size() << " split dimensions, " << halo.size() << " halo sizes",
             failure();
    auto lo = [&](int64_t d) { return d < (int64_t)split.size() ? halo[2 * d] : 0; };
    auto hi = [&](int64_t d) { return d < (int64_t)split.size() ? halo[2 * d + 1] : 0; };
    for (int64_t d = 0; d < (int64_t)split.size(); ++d) {
      int64_t size = type.getDimSize(d);
      if (lo(d) < 0 || hi(d) < 0 || size < 2 * lo(d) + hi(d) || size < lo(d) + 2 * hi(d))
        return op0.emitError("update_halo: dimension ")
                   << d << " (size " << size << ") cannot hold halos " << lo(d) << " and " << hi(d)
                   << " around an interior at least as wide as each halo",
               failure();
    }
    groupSize = 1;
    for (shard::GridAxesAttr axes : split)
      for (int16_t a : axes.asArrayRef())
        groupSize *= gridShape[a];
    int64_t processes = ops.size();
    SmallVector<Value> current;
    for (Operation *op : ops)
      current.push_back(op->getOperand(0));
    SmallVector<int64_t> zero(rank, 0);
    for (int64_t d = (int64_t)split.size() - 1; d >= 0; --d) {
      ArrayRef<int16_t> axes = split[d].asArrayRef();
      if (axes.empty() || (lo(d) == 0 && hi(d) == 0))
        continue;
      // The slab box outside dimension d.
      SmallVector<int64_t> offsets(rank, 0), sizes(type.getShape());
      for (int64_t e = 0; e < d; ++e) {
        offsets[e] = lo(e);
        sizes[e] = type.getDimSize(e) - lo(e) - hi(e);
      }
      int64_t size = type.getDimSize(d);
      SmallVector<Value> next(processes);
      for (int64_t p = 0; p < processes; ++p) {
        next[p] = l.copy(current[p], p, l.empty(p, type), p, zero, zero, type.getShape());
        SmallVector<int64_t> from = offsets, at = offsets, box = sizes;
        int64_t prev = neighborOf(p, gridShape, axes, -1);
        if (prev >= 0 && lo(d) > 0) {
          from[d] = size - hi(d) - lo(d);
          at[d] = 0;
          box[d] = lo(d);
          next[p] = l.copy(current[prev], prev, next[p], p, from, at, box);
        }
        int64_t after = neighborOf(p, gridShape, axes, +1);
        if (after >= 0 && hi(d) > 0) {
          from[d] = lo(d);
          at[d] = size - hi(d);
          box[d] = hi(d);
          next[p] = l.copy(current[after], after, next[p], p, from, at, box);
        }
      }
      current = next;
    }
    return current;
  }
};

} // namespace
