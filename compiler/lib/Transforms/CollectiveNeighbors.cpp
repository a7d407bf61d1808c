//===- CollectiveNeighbors.cpp - borders pulled from neighbours -----------===//
//
// meshvk.window and shard.update_halo as meshvk-lower-collectives writes
// them: each process pulls the parts of its neighbours' shards its result
// needs (box copies), and keeps the pad value where its box leaves the
// tensor.
//
//===----------------------------------------------------------------------===//
#include "CollectiveLowering.h"

#include <map>

using namespace mlir;
using namespace meshvk;

/// The processes a tensor split over `split` spans: the product of the sizes
/// of the grid axes it is split over.
static int64_t spannedProcesses(ArrayRef<int64_t> gridShape, ArrayRef<shard::GridAxesAttr> split) {
  int64_t processes = 1;
  for (shard::GridAxesAttr axes : split)
    for (int16_t a : axes.asArrayRef())
      processes *= gridShape[a];
  return processes;
}

/// meshvk.window (see its description in MeshVKOps.td): process p's
/// result is its shard box of the source moved by the shifts. The part of
/// that box inside the tensor comes from the processes that hold it, by
/// box copies (p itself for what it holds, its neighbours along the split
/// axes for the borders); where the box leaves the tensor the result keeps
/// the pad value (a fill, only on the processes whose box leaves it).
/// Works for uneven shards and for windows wider than a neighbour's shard
/// (the border then spans several processes).
FailureOr<LoweredCollective> meshvk::lowerWindow(CollectiveBuilder &l, WindowOp op0,
                                                 CollectiveOps ops, ArrayRef<int64_t> gridShape) {
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
  PlanAttr plan = getPlan(op0->getParentOfType<func::FuncOp>());
  ArrayRef<int64_t> peered = plan ? plan.getPeeredAxes().asArrayRef() : ArrayRef<int64_t>();
  using Box = std::pair<SmallVector<int64_t>, SmallVector<int64_t>>;
  std::vector<Box> boxes(processes);
  for (int64_t p = 0; p < processes; ++p)
    shardBox(global, gridShape, split, dimsOffsets, p, boxes[p].first, boxes[p].second);
  LoweredCollective lowered;
  lowered.groupSize = spannedProcesses(gridShape, split);
  auto differing = [&](int64_t p, int64_t q) { return differingAxes(gridShape, p, q); };
  SmallVector<Value> &results = lowered.results;
  results.resize(processes);
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
      SmallVector<int64_t> want(rank), srcOff, dstOff, sizes;
      for (int64_t k = 0; k < rank; ++k)
        want[k] = boxes[d].first[k] + shifts[k];
      if (!intersectBoxes(box.first, box.second, want, boxes[d].second, srcOff, dstOff, sizes))
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
  lowered.algorithm = "window";
  return lowered;
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
FailureOr<LoweredCollective> meshvk::lowerHalo(CollectiveBuilder &l, shard::UpdateHaloOp op0,
                                               CollectiveOps ops, ArrayRef<int64_t> gridShape) {
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
  LoweredCollective lowered;
  lowered.groupSize = spannedProcesses(gridShape, split);
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
  lowered.results = current;
  lowered.algorithm = "halo";
  return lowered;
}
