//===- ShardingUtils.h - helpers shared by meshvk's sharding passes -*- C++
//-*-===//
//
// Internal to compiler/lib/Transforms: how meshvk reads a sharding (grid +
// split axes), where each process's shard of a tensor starts, and how uneven
// splits get their shard boundaries (the input check and the uneven-shards
// pass apply the same rule).
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_LIB_TRANSFORMS_SHARDINGUTILS_H
#define MESHVK_LIB_TRANSFORMS_SHARDINGUTILS_H

#include "meshvk/Dialect/MeshVKDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterface.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterfaceImpl.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"

#include <map>

namespace meshvk {

/// The process count along each tensor dimension, from the split axes.
inline llvm::SmallVector<int64_t> splitCounts(llvm::ArrayRef<int64_t> gridShape,
                                              llvm::ArrayRef<mlir::shard::GridAxesAttr> splitAxes,
                                              int64_t rank) {
  llvm::SmallVector<int64_t> counts(rank, 1);
  for (auto [dim, axes] : llvm::enumerate(splitAxes)) {
    if ((int64_t)dim >= rank)
      break;
    for (int16_t axis : axes.asArrayRef())
      if (axis >= 0 && axis < (int64_t)gridShape.size()) // else: check-sharding
        counts[dim] *= gridShape[axis];
  }
  return counts;
}

/// Row-major multi-index of linear process `p` on `gridShape`.
inline llvm::SmallVector<int64_t> processMultiIndex(llvm::ArrayRef<int64_t> gridShape, int64_t p) {
  llvm::SmallVector<int64_t> index(gridShape.size());
  for (int64_t a = (int64_t)gridShape.size() - 1; a >= 0; --a) {
    index[a] = p % gridShape[a];
    p /= gridShape[a];
  }
  return index;
}

/// Linear process of row-major multi-index `multi` on `gridShape` (the
/// inverse of processMultiIndex).
inline int64_t processLinearIndex(llvm::ArrayRef<int64_t> gridShape,
                                  llvm::ArrayRef<int64_t> multi) {
  int64_t linear = 0;
  for (size_t a = 0; a < gridShape.size(); ++a)
    linear = linear * gridShape[a] + multi[a];
  return linear;
}

/// Writes `block`, a block index along `axes` linearised with the first axis
/// most significant, into those axes' entries of `multi`.
inline void setBlockAlong(llvm::ArrayRef<int64_t> gridShape, llvm::ArrayRef<int16_t> axes,
                          int64_t block, llvm::SmallVectorImpl<int64_t> &multi) {
  for (int64_t i = (int64_t)axes.size() - 1; i >= 0; --i) {
    multi[axes[i]] = block % gridShape[axes[i]];
    block /= gridShape[axes[i]];
  }
}

/// The processes of one collective group over grid axes `axes`, ordered by
/// in-group index (the block along `axes`, first axis most significant).
struct ProcessGroup {
  llvm::SmallVector<int64_t> members;
  int64_t rank = 0; // in-group index of the process the group was built for
};

/// The group over `axes` that process `p` is in: the processes whose
/// coordinates equal p's on every other grid axis.
inline ProcessGroup groupOf(int64_t p, llvm::ArrayRef<int64_t> gridShape,
                            llvm::ArrayRef<int16_t> axes) {
  llvm::SmallVector<int64_t> multi = processMultiIndex(gridShape, p);
  ProcessGroup group;
  int64_t size = 1;
  for (int16_t a : axes)
    size *= gridShape[a];
  for (int64_t k = 0; k < size; ++k) {
    llvm::SmallVector<int64_t> member = multi;
    setBlockAlong(gridShape, axes, k, member);
    int64_t linear = processLinearIndex(gridShape, member);
    if (linear == p)
      group.rank = k;
    group.members.push_back(linear);
  }
  return group;
}

/// The process whose block along `axes` (linearised, first axis most
/// significant) is `delta` away from p's, all other grid coordinates equal;
/// -1 past either end (halos are not periodic).
inline int64_t neighborOf(int64_t p, llvm::ArrayRef<int64_t> gridShape,
                          llvm::ArrayRef<int16_t> axes, int64_t delta) {
  llvm::SmallVector<int64_t> multi = processMultiIndex(gridShape, p);
  int64_t block = 0, blocks = 1;
  for (int16_t a : axes) {
    block = block * gridShape[a] + multi[a];
    blocks *= gridShape[a];
  }
  block += delta;
  if (block < 0 || block >= blocks)
    return -1;
  setBlockAlong(gridShape, axes, block, multi);
  return processLinearIndex(gridShape, multi);
}

/// The grid axes on which processes `p` and `q` have different coordinates.
inline llvm::SmallVector<int64_t> differingAxes(llvm::ArrayRef<int64_t> gridShape, int64_t p,
                                                int64_t q) {
  llvm::SmallVector<int64_t> mp = processMultiIndex(gridShape, p),
                             mq = processMultiIndex(gridShape, q), axes;
  for (int64_t a = 0; a < (int64_t)gridShape.size(); ++a)
    if (mp[a] != mq[a])
      axes.push_back(a);
  return axes;
}

inline int64_t gridSize(llvm::ArrayRef<int64_t> gridShape) {
  int64_t n = 1;
  for (int64_t s : gridShape)
    n *= s;
  return n;
}

/// The shard boundaries meshvk gives a dimension of `size` elements cut into
/// `parts` shards when the user wrote no offsets: `parts + 1` entries from 0
/// to `size`. The first `size % parts` shards get one element more (the rule
/// of numpy.array_split and IREE), so an even split is equal blocks and
/// 10 over 4 is 3, 3, 2, 2.
inline llvm::SmallVector<int64_t> defaultBoundaries(int64_t size, int64_t parts) {
  llvm::SmallVector<int64_t> bounds{0};
  for (int64_t i = 0; i < parts; ++i)
    bounds.push_back(bounds.back() + size / parts + (i < size % parts ? 1 : 0));
  return bounds;
}

/// Where each split dimension's run starts in upstream's flattened
/// `sharded_dims_offsets` (one run of parts + 1 entries per split dimension, in
/// dimension order); -1 for dimensions that are not split.
inline llvm::SmallVector<int64_t>
offsetRunStarts(llvm::ArrayRef<int64_t> gridShape,
                llvm::ArrayRef<mlir::shard::GridAxesAttr> splitAxes, int64_t rank) {
  llvm::SmallVector<int64_t> counts = splitCounts(gridShape, splitAxes, rank);
  llvm::SmallVector<int64_t> starts(rank, -1);
  int64_t pos = 0;
  for (auto [dim, axes] : llvm::enumerate(splitAxes)) {
    if ((int64_t)dim >= rank || axes.empty())
      continue;
    starts[dim] = pos;
    pos += counts[dim] + 1;
  }
  return starts;
}

/// Process `p`'s shard of a tensor of `shape`: first element and sizes.
/// Dimension d split over grid axes [a0, a1, ...] is cut into
/// prod(size(a_i)) blocks, a0 most significant (upstream shard dialect
/// convention): equal blocks, or the boundaries in `dimsOffsets` (upstream's
/// flattened sharded_dims_offsets) when given.
inline void shardBox(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> gridShape,
                     llvm::ArrayRef<mlir::shard::GridAxesAttr> splitAxes,
                     llvm::ArrayRef<int64_t> dimsOffsets, int64_t p,
                     llvm::SmallVectorImpl<int64_t> &offsets,
                     llvm::SmallVectorImpl<int64_t> &sizes) {
  llvm::SmallVector<int64_t> multi = processMultiIndex(gridShape, p);
  int64_t rank = shape.size();
  llvm::SmallVector<int64_t> counts = splitCounts(gridShape, splitAxes, rank);
  llvm::SmallVector<int64_t> starts = offsetRunStarts(gridShape, splitAxes, rank);
  offsets.assign(rank, 0);
  sizes.assign(shape.begin(), shape.end());
  for (auto [dim, axes] : llvm::enumerate(splitAxes)) {
    if ((int64_t)dim >= rank || axes.empty())
      continue;
    int64_t block = 0;
    for (int16_t axis : axes.asArrayRef())
      if (axis >= 0 && axis < (int64_t)gridShape.size())
        block = block * gridShape[axis] + multi[axis];
    int64_t at = starts[dim] + block;
    if (!dimsOffsets.empty() && at + 1 < (int64_t)dimsOffsets.size()) {
      offsets[dim] = dimsOffsets[at];
      sizes[dim] = dimsOffsets[at + 1] - dimsOffsets[at];
    } else {
      sizes[dim] = shape[dim] / counts[dim];
      offsets[dim] = block * sizes[dim];
    }
  }
}

/// First element of process `p`'s shard (see shardBox).
inline llvm::SmallVector<int64_t> shardOffsets(llvm::ArrayRef<int64_t> shape,
                                               llvm::ArrayRef<int64_t> gridShape,
                                               llvm::ArrayRef<mlir::shard::GridAxesAttr> splitAxes,
                                               int64_t p,
                                               llvm::ArrayRef<int64_t> dimsOffsets = {}) {
  llvm::SmallVector<int64_t> offsets, sizes;
  shardBox(shape, gridShape, splitAxes, dimsOffsets, p, offsets, sizes);
  return offsets;
}

/// "argument #1 of @f", "result #0 of @f" or "the result of 'linalg.matmul'".
inline std::string describeTensor(mlir::Value value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto arg = llvm::dyn_cast<mlir::BlockArgument>(value)) {
    auto func = llvm::dyn_cast<mlir::func::FuncOp>(arg.getOwner()->getParentOp());
    os << "argument #" << arg.getArgNumber();
    if (func)
      os << " of @" << func.getSymName();
    return text;
  }
  mlir::Operation *def = value.getDefiningOp();
  // Look through annotations: name the tensor the user wrote.
  while (auto shardOp = llvm::dyn_cast_or_null<mlir::shard::ShardOp>(def)) {
    value = shardOp.getSrc();
    if (auto arg = llvm::dyn_cast<mlir::BlockArgument>(value))
      return describeTensor(arg);
    def = value.getDefiningOp();
  }
  os << "the result of '" << def->getName() << "'";
  return text;
}

/// The boundaries of every split dimension of `type` under a sharding with
/// `splitAxes` and the offsets the user wrote (`written`, upstream's flattened
/// sharded_dims_offsets; may be empty), flattened the same way. For a
/// dimension without written offsets, `known(size, axes)` may supply the
/// boundaries the program uses elsewhere for that size and axes; otherwise
/// equal blocks, or defaultBoundaries when the split does not divide. Returns
/// an empty vector when every split is even and nothing was written (upstream's
/// even path), and fails with one error at `at` naming `tensor` when the
/// written offsets are malformed or a shard would be empty.
inline mlir::FailureOr<llvm::SmallVector<int64_t>> resolveShardOffsets(
    mlir::Operation *at, mlir::Value tensor, mlir::ShapedType type,
    llvm::ArrayRef<int64_t> gridShape, llvm::ArrayRef<mlir::shard::GridAxesAttr> splitAxes,
    llvm::ArrayRef<int64_t> written,
    llvm::function_ref<llvm::ArrayRef<int64_t>(int64_t, llvm::ArrayRef<int16_t>)> known = {}) {
  int64_t rank = type.getRank();
  llvm::SmallVector<int64_t> counts = splitCounts(gridShape, splitAxes, rank);
  if (llvm::any_of(counts, [](int64_t c) { return c < 1; }))
    return llvm::SmallVector<int64_t>(); // a bad grid: reported by the grid check
  llvm::SmallVector<int64_t> starts = offsetRunStarts(gridShape, splitAxes, rank);
  int64_t needed = 0;
  for (int64_t d = 0; d < rank; ++d)
    if (starts[d] >= 0)
      needed += counts[d] + 1;
  if (!written.empty() && (int64_t)written.size() != needed)
    return at->emitError() << "sharded_dims_offsets of " << describeTensor(tensor) << " has "
                           << written.size() << " entries; its split_axes need " << needed
                           << " (shard count + 1 per split dimension)";
  bool explicitAny = !written.empty();
  llvm::SmallVector<int64_t> flat;
  for (int64_t d = 0; d < rank; ++d) {
    if (starts[d] < 0)
      continue;
    int64_t size = type.getDimSize(d);
    llvm::ArrayRef<int16_t> axes = splitAxes[d].asArrayRef();
    llvm::SmallVector<int64_t> bounds;
    if (!written.empty()) {
      bounds.assign(written.begin() + starts[d], written.begin() + starts[d] + counts[d] + 1);
    } else if (known && !known(size, axes).empty()) {
      llvm::ArrayRef<int64_t> k = known(size, axes);
      bounds.assign(k.begin(), k.end());
      explicitAny = true;
    } else {
      bounds = defaultBoundaries(size, counts[d]);
      explicitAny |= size % counts[d] != 0;
    }
    bool uneven =
        !written.empty() || size % counts[d] != 0 || bounds != defaultBoundaries(size, counts[d]);
    if (uneven && axes.size() > 1) {
      auto diag = at->emitError() << describeTensor(tensor) << ": dimension " << d << " (size "
                                  << size << ") is split unevenly over several grid axes [";
      llvm::interleaveComma(axes, diag, [&](int16_t a) { diag << a; });
      diag << "]; uneven shards and sharded_dims_offsets are supported on dimensions split "
              "over one grid axis (split it over one axis, or make it a multiple of "
           << counts[d] << ")";
      return diag;
    }
    // More processes than elements (3 rows over 4): the last shards are
    // empty; the plan gives them no kernels, copies or bytes.
    bool ok = bounds.front() == 0 && bounds.back() == size;
    for (size_t i = 1; i < bounds.size(); ++i)
      ok &= bounds[i] >= bounds[i - 1];
    if (!ok) {
      auto diag = at->emitError() << describeTensor(tensor) << ": dimension " << d << " (size "
                                  << size << ") cut into " << counts[d] << " shards at [";
      llvm::interleaveComma(bounds, diag);
      diag << "]; shard offsets must start at 0, never decrease and end at " << size;
      return diag;
    }
    flat.append(bounds.begin(), bounds.end());
  }
  if (!explicitAny) {
    flat.clear();
    return flat;
  }
  // Upstream sizes the offsets run of a dimension split over several axes by
  // the SUM of their sizes (not the product): keep such dimensions out of a
  // sharding with offsets.
  for (int64_t d = 0; d < rank; ++d)
    if (starts[d] >= 0 && splitAxes[d].size() > 1)
      return at->emitError() << describeTensor(tensor) << ": dimension " << d
                             << " is split over several grid axes in a sharding with uneven "
                                "shards or sharded_dims_offsets; split it over one grid axis";
  return flat;
}

/// Upstream's sharding option from an op's indexing maps, without the
/// splits of the loop dimensions `keepsSplit` refuses: propagation then
/// reshards such a dimension to replicated before the op and back after it.
/// The rule of meshvk's external models for ops upstream has none (slices,
/// reshapes), which can keep only some dimensions split.
inline mlir::FailureOr<mlir::shard::ShardingOption>
shardingOptionKeeping(mlir::Operation *op, llvm::ArrayRef<mlir::shard::Sharding> operandShardings,
                      llvm::ArrayRef<mlir::shard::Sharding> resultShardings,
                      llvm::function_ref<bool(int64_t)> keepsSplit) {
  mlir::FailureOr<mlir::shard::ShardingOption> option =
      mlir::shard::detail::defaultGetShardingOption(op, operandShardings, resultShardings);
  if (mlir::failed(option) || option->empty)
    return option;
  for (auto [d, axes] : llvm::enumerate(option->shardingArray))
    if (!keepsSplit(d))
      axes.clear();
  return option;
}

/// The sharding op behind `shardOp`, or null if the sharding is not a plain
/// `shard.sharding` (block argument, get_sharding, ...).
inline mlir::shard::ShardingOp shardingOpOf(mlir::shard::ShardOp shardOp) {
  return shardOp.getSharding().getDefiningOp<mlir::shard::ShardingOp>();
}

/// The part of a source box (`srcOffsets`, `srcSizes`) that a destination
/// box (`destOffsets`, `destSizes`, in the same tensor) covers: where it
/// starts in each box and its sizes. False when they do not meet.
inline bool intersectBoxes(llvm::ArrayRef<int64_t> srcOffsets, llvm::ArrayRef<int64_t> srcSizes,
                           llvm::ArrayRef<int64_t> destOffsets, llvm::ArrayRef<int64_t> destSizes,
                           llvm::SmallVectorImpl<int64_t> &inSrc,
                           llvm::SmallVectorImpl<int64_t> &inDest,
                           llvm::SmallVectorImpl<int64_t> &sizes) {
  int64_t rank = srcOffsets.size();
  inSrc.assign(rank, 0);
  inDest.assign(rank, 0);
  sizes.assign(rank, 0);
  bool empty = false;
  for (int64_t k = 0; k < rank; ++k) {
    int64_t lo = std::max(srcOffsets[k], destOffsets[k]);
    int64_t hi = std::min(srcOffsets[k] + srcSizes[k], destOffsets[k] + destSizes[k]);
    empty |= hi <= lo;
    inSrc[k] = lo - srcOffsets[k];
    inDest[k] = lo - destOffsets[k];
    sizes[k] = hi - lo;
  }
  return !empty;
}

/// Lowers one meshvk.reshard (`ops[p]`: process p's copy, static types) to
/// box copies: every destination shard pulls, from one holder of each
/// distinct source shard (itself when it holds one), the intersection of the
/// two boxes. Replicas of a source shard have the same box, so each element
/// arrives once. Returns each process's result. Copies between processes
/// that differ on a grid axis whose devices do not share memory are refused.
inline mlir::FailureOr<llvm::SmallVector<mlir::Value>>
lowerBoxReshard(llvm::ArrayRef<mlir::Operation *> ops, llvm::ArrayRef<int64_t> gridShape,
                llvm::function_ref<mlir::Value(int64_t, mlir::RankedTensorType)> empty,
                llvm::function_ref<mlir::Value(mlir::Value, int64_t, mlir::Value, int64_t,
                                               llvm::ArrayRef<int64_t>, llvm::ArrayRef<int64_t>,
                                               llvm::ArrayRef<int64_t>)>
                    copy) {
  auto op0 = llvm::cast<ReshardOp>(ops.front());
  llvm::ArrayRef<int64_t> global = op0.getGlobalShape();
  int64_t processes = ops.size(), rank = global.size();
  PlanAttr plan = getPlan(op0->getParentOfType<mlir::func::FuncOp>());
  llvm::ArrayRef<int64_t> peered =
      plan ? plan.getPeeredAxes().asArrayRef() : llvm::ArrayRef<int64_t>();
  using Box = std::pair<llvm::SmallVector<int64_t>, llvm::SmallVector<int64_t>>;
  std::vector<Box> from(processes), to(processes);
  for (int64_t p = 0; p < processes; ++p) {
    shardBox(global, gridShape, op0.getFromSplitAxes().getAxes(), op0.getFromOffsets(), p,
             from[p].first, from[p].second);
    shardBox(global, gridShape, op0.getToSplitAxes().getAxes(), op0.getToOffsets(), p, to[p].first,
             to[p].second);
  }
  llvm::SmallVector<mlir::Value> results(processes);
  for (int64_t d = 0; d < processes; ++d) {
    auto type = llvm::cast<mlir::RankedTensorType>(ops[d]->getResult(0).getType());
    mlir::Value dest = empty(d, type);
    // One holder per distinct source box: `d` itself first, else the lowest.
    std::map<Box, int64_t> holder;
    for (int64_t s = 0; s < processes; ++s)
      if (s == d || !holder.count(from[s]))
        holder[from[s]] = s;
    for (auto &[box, s] : holder) {
      llvm::SmallVector<int64_t> srcOff, dstOff, sizes;
      if (!intersectBoxes(box.first, box.second, to[d].first, to[d].second, srcOff, dstOff, sizes))
        continue;
      for (int64_t a : differingAxes(gridShape, s, d))
        if (plan && !llvm::is_contained(peered, a))
          return ops[d]->emitError("uneven reshard needs a copy over grid axis ")
                 << a << ", whose devices do not share memory: not supported yet";
      dest = copy(ops[s]->getOperand(0), s, dest, d, srcOff, dstOff, sizes);
    }
    results[d] = dest;
  }
  return results;
}

} // namespace meshvk

#endif // MESHVK_LIB_TRANSFORMS_SHARDINGUTILS_H
