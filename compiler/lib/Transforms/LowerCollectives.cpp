//===- LowerCollectives.cpp - collectives on peered axes -> peer copies ---===//
//
// On grid axes whose devices share memory a collective is placement, not
// messaging: each process pulls the boxes it needs straight out of its peers'
// buffers (the copy is recorded on the destination process and never targets
// the device the data is already on) and reduces received partials with a small
// local elementwise kernel. The algorithm of each collective and the bytes each
// process pulls are recorded on the plan (`meshvk.collectives`). This file is
// the pass; each collective family's copies are built in the files
// CollectiveLowering.h lists.
//
//===----------------------------------------------------------------------===//
#include "CollectiveLowering.h"
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

  /// A collective of the SPMD function: its op on every process (by process
  /// index), and the grid axes of its groups.
  struct PerProcessCollective {
    int64_t id;
    SmallVector<Operation *> perProcess;
    SmallVector<int16_t> axes;
  };
  using PointToPoint = PerProcessCollective; // a shard.send or shard.recv

  /// Lowers every collective of `plan` (send / recv pairs after the others,
  /// once every tensor they move exists), records them on the plan, then
  /// lowers the local slices.
  LogicalResult lowerPlan(func::FuncOp plan) {
    meshvk::PlanAttr info = meshvk::getPlan(plan);
    ArrayRef<int64_t> gridShape = info.getGridShape().asArrayRef();
    SmallVector<Attribute> report;
    SmallVector<PointToPoint> pointToPoint;
    for (auto &[id, ops] : collectivesById(plan)) {
      FailureOr<PerProcessCollective> collective = perProcess(id, ops, info);
      if (failed(collective))
        return failure();
      if (isa<shard::SendOp, shard::RecvOp>(collective->perProcess.front())) {
        pointToPoint.push_back(std::move(*collective));
        continue;
      }
      FailureOr<Attribute> lowered = lowerCollective(*collective, gridShape);
      if (failed(lowered))
        return failure();
      report.push_back(*lowered);
    }
    if (failed(lowerSendRecv(plan, pointToPoint, gridShape, report)))
      return failure();
    Builder b(plan.getContext());
    meshvk::MeshVKDialect::CollectivesAttrHelper(b.getContext())
        .setAttr(plan, b.getArrayAttr(report));
    return lowerSlices(plan);
  }

  /// The collectives of `plan` by id, each with its op on every process.
  std::map<int64_t, SmallVector<Operation *>> collectivesById(func::FuncOp plan) {
    std::map<int64_t, SmallVector<Operation *>> byId;
    meshvk::MeshVKDialect::CollectiveIdAttrHelper collectiveId(&getContext());
    plan.walk([&](Operation *op) {
      if (IntegerAttr id = collectiveId.getAttr(op))
        byId[id.getInt()].push_back(op);
    });
    return byId;
  }

  /// Collective `id`'s ops in process order, checked: one per process, on
  /// tensors, over grid axes whose devices share memory.
  FailureOr<PerProcessCollective> perProcess(int64_t id, ArrayRef<Operation *> ops,
                                             meshvk::PlanAttr info) {
    int64_t processes = info.getProcessCount();
    Operation *first = ops.front();
    for (Operation *op : ops)
      if (op->isBeforeInBlock(first))
        first = op;
    PerProcessCollective collective{id, SmallVector<Operation *>(processes, nullptr), {}};
    for (Operation *op : ops) {
      int64_t p = meshvk::getProcess(op);
      if (p < 0 || p >= processes || collective.perProcess[p])
        return op->emitError("collective is not on each process exactly once");
      collective.perProcess[p] = op;
    }
    if (llvm::is_contained(collective.perProcess, nullptr))
      return first->emitError("collective is missing on some processes");
    SmallVector<int16_t> &axes = collective.axes;
    if (auto axesAttr = first->getAttrOfType<DenseI16ArrayAttr>("grid_axes"))
      llvm::append_range(axes, axesAttr.asArrayRef());
    if (auto halo = dyn_cast<shard::UpdateHaloOp>(first))
      for (shard::GridAxesAttr dimAxes : halo.getSplitAxes().getAxes())
        llvm::append_range(axes, dimAxes.asArrayRef());
    if (first->getNumOperands() < 1 || first->getNumResults() != 1 ||
        !isa<RankedTensorType>(first->getOperand(0).getType()) ||
        !isa<RankedTensorType>(first->getResult(0).getType()))
      return first->emitError("collective on a non-tensor is not supported");
    ArrayRef<int64_t> peered = info.getPeeredAxes().asArrayRef();
    for (int16_t axis : axes)
      if (!llvm::is_contained(peered, axis))
        return first->emitError("'")
               << first->getName() << "' over grid axis " << axis << " of " << info.getGrid()
               << ", whose devices do not share memory (not in "
               << meshvk::MeshVKDialect::PeeredMemoryAxesAttrHelper::getNameStr()
               << "): not supported yet (needs message passing)";
    return collective;
  }

  /// Lowers one collective other than send / recv in place of its first op
  /// in the plan, erases its ops, and returns its `meshvk.collectives` entry.
  FailureOr<Attribute> lowerCollective(const PerProcessCollective &collective,
                                       ArrayRef<int64_t> gridShape) {
    ArrayRef<Operation *> ops = collective.perProcess;
    Operation *first = ops.front();
    for (Operation *op : ops)
      if (op->isBeforeInBlock(first))
        first = op;
    OpBuilder b(first);
    meshvk::CollectiveBuilder lowering(b, first->getLoc(), ops.size());
    lowering.id = collective.id;
    std::string kind = ops.front()->getName().stripDialect().str();
    FailureOr<meshvk::LoweredCollective> lowered =
        lowerOne(lowering, ops, gridShape, collective.axes);
    if (failed(lowered))
      return failure();
    for (Operation *op : ops)
      op->erase();
    return meshvk::CollectiveAttr::get(b.getContext(), collective.id, kind, lowered->algorithm,
                                       lowered->groupSize, b.getDenseI64ArrayAttr(lowering.pulled));
  }

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
    return meshvk::groupOf(p, gridShape, axes).members[member];
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
      meshvk::CollectiveBuilder l(b, pp.perProcess.front()->getLoc(), processes);
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
      report.push_back(meshvk::CollectiveAttr::get(
          b.getContext(), pp.id, "recv", "direct",
          meshvk::groupOf(0, gridShape, pp.axes).members.size(), b.getDenseI64ArrayAttr(l.pulled)));
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
      meshvk::CollectiveBuilder l(b, op->getLoc(), meshvk::getPlan(plan).getProcessCount());
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

  /// Lowers one collective (its op on every process) by its family and
  /// replaces each process's result.
  FailureOr<meshvk::LoweredCollective> lowerOne(meshvk::CollectiveBuilder &l,
                                                meshvk::CollectiveOps ops,
                                                ArrayRef<int64_t> gridShape,
                                                ArrayRef<int16_t> axes) {
    Operation *op0 = ops.front();
    meshvk::GroupLowering group(l, ops, gridShape, axes);
    FailureOr<meshvk::LoweredCollective> lowered = failure();
    if (isa<shard::AllGatherOp>(op0))
      lowered = group.allGather();
    else if (isa<shard::AllSliceOp>(op0))
      lowered = group.allSlice();
    else if (isa<shard::AllToAllOp>(op0))
      lowered = group.allToAll();
    else if (isa<shard::BroadcastOp>(op0))
      lowered = group.broadcast();
    else if (isa<shard::GatherOp, shard::ReduceOp, shard::ScatterOp>(op0))
      lowered = group.rooted();
    else if (isa<shard::ShiftOp>(op0))
      lowered = group.shift();
    else if (isa<shard::AllReduceOp, shard::ReduceScatterOp>(op0))
      lowered = group.reduction(directAllReduceMaxBytes);
    else if (isa<meshvk::ReshardOp>(op0))
      lowered = lowerUnevenReshard(l, ops, gridShape);
    else if (auto window = dyn_cast<meshvk::WindowOp>(op0))
      lowered = meshvk::lowerWindow(l, window, ops, gridShape);
    else if (auto halo = dyn_cast<shard::UpdateHaloOp>(op0))
      lowered = meshvk::lowerHalo(l, halo, ops, gridShape);
    else
      return op0->emitError("'") << op0->getName()
                                 << "' is not supported yet on peered axes (all_gather, "
                                    "all_reduce, all_slice, all_to_all, reduce_scatter, "
                                    "broadcast, shift, gather, scatter, reduce, send/recv and "
                                    "update_halo are)";
    if (failed(lowered))
      return failure();
    if (lowered->groupSize == 0)
      lowered->groupSize = meshvk::groupOf(0, gridShape, axes).members.size();
    for (auto [op, result] : llvm::zip_equal(ops, lowered->results))
      op->getResult(0).replaceAllUsesWith(result);
    return lowered;
  }

  /// Uneven shards (meshvk-uneven-shards): box copies (ShardingUtils.h).
  FailureOr<meshvk::LoweredCollective> lowerUnevenReshard(meshvk::CollectiveBuilder &l,
                                                          meshvk::CollectiveOps ops,
                                                          ArrayRef<int64_t> gridShape) {
    FailureOr<SmallVector<Value>> moved = meshvk::lowerBoxReshard(
        ops, gridShape, [&](int64_t p, RankedTensorType type) { return l.empty(p, type); },
        [&](Value src, int64_t from, Value dest, int64_t to, ArrayRef<int64_t> srcOffsets,
            ArrayRef<int64_t> destOffsets, ArrayRef<int64_t> sizes) {
          return l.copy(src, from, dest, to, srcOffsets, destOffsets, sizes);
        });
    if (failed(moved))
      return failure();
    meshvk::LoweredCollective lowered;
    lowered.results = *moved;
    lowered.algorithm = "box_copies";
    lowered.groupSize = ops.size();
    return lowered;
  }
};

} // namespace
