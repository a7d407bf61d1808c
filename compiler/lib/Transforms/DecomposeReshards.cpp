//===- DecomposeReshards.cpp - one grid axis per resharding step ----------===//
//
// shard-partition lowers a reshard (two chained `shard.shard` ops) by
// pattern-matching one change of the LAST grid axis of a dimension's split:
// drop it (all_gather), append one (all_slice) or move it to the end of
// another dimension (all_to_all). Anything else, e.g. two axes at once or
// removing the first axis of [[0, 1]], is dropped silently or crashes
// (FACTS.md, issue #13). This pass rewrites every reshard into a chain of such
// single steps, planned by `planReshard`:
//   * an axis in its final place (the common prefix of a dimension's source
//     and target lists) never moves;
//   * the only axis of a dimension that must become the first axis of an
//     unsplit dimension moves there in one all_to_all (when that divides
//     evenly; upstream misdetects other moves, see planReshard);
//   * axes not used anywhere in the current layout are sliced in next (the
//     shard only shrinks);
//   * otherwise the last axis of a dimension that holds a misplaced axis is
//     gathered.
// Every intermediate layout is a prefix of the source or target list in each
// dimension, except after a move, which is checked for even division.
//
//===----------------------------------------------------------------------===//
#include "ShardingUtils.h"
#include "meshvk/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_DECOMPOSERESHARDS
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

namespace {

using SplitAxes = SmallVector<SmallVector<int16_t>>;

SplitAxes toVector(shard::GridAxesArrayAttr attr, size_t rank) {
  SplitAxes axes;
  for (shard::GridAxesAttr dim : attr.getAxes())
    axes.emplace_back(dim.asArrayRef());
  if (axes.size() < rank)
    axes.resize(rank);
  return axes;
}

shard::GridAxesArrayAttr toAttr(MLIRContext *ctx, SplitAxes axes) {
  while (axes.size() > 1 && axes.back().empty())
    axes.pop_back();
  SmallVector<shard::GridAxesAttr> dims;
  for (auto &list : axes)
    dims.push_back(DenseI16ArrayAttr::get(ctx, list));
  return shard::GridAxesArrayAttr::get(ctx, dims);
}

/// Length of the common prefix of two split lists.
size_t commonPrefix(ArrayRef<int16_t> a, ArrayRef<int16_t> b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n])
    ++n;
  return n;
}

bool usesAxis(const SplitAxes &layout, int16_t axis) {
  return llvm::any_of(layout, [&](const auto &list) { return llvm::is_contained(list, axis); });
}

} // namespace

/// The intermediate layouts from `from` to `to` (both of `shape`'s rank; the
/// last entry is `to`), each one upstream pattern away from the previous one.
/// Empty when from == to.
static SmallVector<SplitAxes> planReshard(SplitAxes layout, const SplitAxes &goal,
                                          ArrayRef<int64_t> shape, ArrayRef<int64_t> gridShape) {
  auto divides = [&](const SplitAxes &axes, size_t dim) {
    int64_t n = 1;
    for (int16_t a : axes[dim])
      n *= gridShape[a];
    return dim >= shape.size() || ShapedType::isDynamic(shape[dim]) || shape[dim] % n == 0;
  };
  SmallVector<SplitAxes> steps;
  // Each step places an axis for good or removes one: 2 steps per grid axis
  // bound it (the guard only protects against a planning bug).
  for (size_t guard = 0; layout != goal && guard < 4 * gridShape.size() + 4; ++guard) {
    bool stepped = false;
    // 1. Move a trailing misplaced axis to where the target wants it next.
    for (size_t d = 0; d < layout.size() && !stepped; ++d) {
      if (layout[d].size() <= commonPrefix(layout[d], goal[d]))
        continue;
      int16_t axis = layout[d].back();
      for (size_t e = 0; e < layout.size() && !stepped; ++e) {
        if (e == d || commonPrefix(layout[e], goal[e]) != layout[e].size() ||
            layout[e].size() >= goal[e].size() || goal[e][layout[e].size()] != axis)
          continue;
        SplitAxes next = layout;
        next[d].pop_back();
        next[e].push_back(axis);
        // Upstream's move pattern is reliable only for the plain all_to_all:
        // the only axis of a dimension onto an unsplit dimension. Other moves
        // (from or onto a dimension holding another axis) are misdetected as
        // a split and give the wrong shard shape (measured on the 2x2x2
        // reshard matrix); they are gathered and sliced instead.
        if (!divides(next, e) || !layout[e].empty() || layout[d].size() != 1)
          continue;
        layout = std::move(next);
        stepped = true;
      }
    }
    // 2. Slice in an axis the current layout does not use.
    for (size_t e = 0; e < layout.size() && !stepped; ++e) {
      if (commonPrefix(layout[e], goal[e]) != layout[e].size() ||
          layout[e].size() >= goal[e].size() || usesAxis(layout, goal[e][layout[e].size()]))
        continue;
      layout[e].push_back(goal[e][layout[e].size()]);
      stepped = true;
    }
    // 3. Gather the last axis of a dimension that holds a misplaced one.
    for (size_t d = 0; d < layout.size() && !stepped; ++d) {
      if (layout[d].size() <= commonPrefix(layout[d], goal[d]))
        continue;
      layout[d].pop_back();
      stepped = true;
    }
    if (!stepped)
      break;
    steps.push_back(layout);
  }
  return steps;
}

namespace {

struct DecomposeReshardsPass : meshvk::impl::DecomposeReshardsBase<DecomposeReshardsPass> {
  void runOnOperation() override {
    SmallVector<shard::ShardOp> targets;
    getOperation().walk([&](shard::ShardOp op) { targets.push_back(op); });
    for (shard::ShardOp target : targets)
      decompose(target);
  }

  void decompose(shard::ShardOp target) {
    // Any two chained annotations are a reshard for shard-partition (a
    // producer followed by a users' annotation, but also two producers or
    // two users' annotations in a row).
    auto source = target.getSrc().getDefiningOp<shard::ShardOp>();
    if (!source)
      return;
    shard::ShardingOp from = meshvk::shardingOpOf(source);
    shard::ShardingOp to = meshvk::shardingOpOf(target);
    auto type = dyn_cast<RankedTensorType>(target.getType());
    if (!from || !to || !type || from.getGridAttr() != to.getGridAttr() ||
        !from.getStaticHaloSizes().empty() || !to.getStaticHaloSizes().empty() ||
        !from.getStaticShardedDimsOffsets().empty() || !to.getStaticShardedDimsOffsets().empty())
      return; // check-sharding refuses halos, offsets and mixed grids
    auto gridOp = SymbolTable::lookupNearestSymbolFrom<shard::GridOp>(target, from.getGridAttr());
    if (!gridOp)
      return;
    ArrayRef<int64_t> gridShape = gridOp.getShape();
    size_t rank = std::max<size_t>(type.getRank(),
                                   std::max(from.getSplitAxes().size(), to.getSplitAxes().size()));
    SplitAxes cur = toVector(from.getSplitAxes(), rank);
    SplitAxes goal = toVector(to.getSplitAxes(), rank);
    for (const SplitAxes *axes : {&cur, &goal})
      for (const auto &list : *axes)
        for (int16_t a : list)
          if (a < 0 || a >= (int64_t)gridShape.size())
            return; // check-sharding names the bad axis
    if (cur == goal)
      return;
    SmallVector<SplitAxes> layouts = planReshard(cur, goal, type.getShape(), gridShape);
    if (layouts.empty() || layouts.back() != goal) {
      target.emitError() << "cannot reshard " << describeLayout(cur) << " to "
                         << describeLayout(goal)
                         << " in single grid-axis steps; reshard through "
                            "split_axes = [[]] (replicated) explicitly";
      return signalPassFailure();
    }
    layouts.pop_back(); // the target annotation itself is the last step

    OpBuilder b(target);
    MLIRContext *ctx = target.getContext();
    Value prev = source.getResult();
    for (const SplitAxes &next : layouts) {
      auto sharding = shard::ShardingOp::create(b, target.getLoc(), from.getGridAttr(),
                                                toAttr(ctx, next).getAxes());
      auto users = shard::ShardOp::create(b, target.getLoc(), prev, sharding,
                                          /*annotate_for_users=*/true);
      prev = shard::ShardOp::create(b, target.getLoc(), users.getResult(), sharding,
                                    /*annotate_for_users=*/false)
                 .getResult();
    }
    target.getSrcMutable().assign(prev);
  }

  static std::string describeLayout(const SplitAxes &axes) {
    std::string text = "split_axes = [";
    for (auto [i, list] : llvm::enumerate(axes)) {
      text += i ? ", [" : "[";
      for (auto [j, a] : llvm::enumerate(list))
        text += (j ? ", " : "") + std::to_string(a);
      text += "]";
    }
    return text + "]";
  }
};

} // namespace
