//===- DecomposeReshards.cpp - one grid axis per resharding step ----------===//
//
// shard-partition lowers a reshard (a `shard.shard` producer annotation
// followed by a different `annotate_for_users` one) by pattern-matching one
// axis change: drop a trailing axis (all_gather), add one (all_slice) or move
// one between tensor dimensions (all_to_all). With more than one grid axis
// changed it drops steps silently. This pass inserts intermediate shardings so
// that every reshard changes the placement of exactly one grid axis: removals
// first (the intermediate tensors only grow back towards the target), then
// moves, then additions.
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

SplitAxes toVector(shard::GridAxesArrayAttr attr) {
  SplitAxes axes;
  for (shard::GridAxesAttr dim : attr.getAxes())
    axes.emplace_back(dim.asArrayRef());
  return axes;
}

/// (tensor dim, position in that dim's list) of `axis`, or (-1, -1).
std::pair<int64_t, int64_t> placement(const SplitAxes &axes, int16_t axis) {
  for (auto [d, list] : llvm::enumerate(axes))
    for (auto [pos, a] : llvm::enumerate(list))
      if (a == axis)
        return {d, pos};
  return {-1, -1};
}

void removeAxis(SplitAxes &axes, int16_t axis) {
  for (auto &list : axes)
    llvm::erase(list, axis);
}

void insertAxis(SplitAxes &axes, int16_t axis, std::pair<int64_t, int64_t> at) {
  if ((int64_t)axes.size() <= at.first)
    axes.resize(at.first + 1);
  auto &list = axes[at.first];
  list.insert(list.begin() + std::min<int64_t>(at.second, list.size()), axis);
}

shard::GridAxesArrayAttr toAttr(MLIRContext *ctx, SplitAxes axes) {
  while (axes.size() > 1 && axes.back().empty())
    axes.pop_back();
  SmallVector<shard::GridAxesAttr> dims;
  for (auto &list : axes)
    dims.push_back(DenseI16ArrayAttr::get(ctx, list));
  return shard::GridAxesArrayAttr::get(ctx, dims);
}

struct DecomposeReshardsPass
    : meshvk::impl::DecomposeReshardsBase<DecomposeReshardsPass> {
  void runOnOperation() override {
    SmallVector<shard::ShardOp> targets;
    getOperation().walk([&](shard::ShardOp op) {
      if (op.getAnnotateForUsers())
        targets.push_back(op);
    });
    for (shard::ShardOp target : targets)
      decompose(target);
  }

  void decompose(shard::ShardOp target) {
    auto producer = target.getSrc().getDefiningOp<shard::ShardOp>();
    if (!producer || producer.getAnnotateForUsers())
      return;
    shard::ShardingOp from = meshvk::shardingOpOf(producer);
    shard::ShardingOp to = meshvk::shardingOpOf(target);
    if (!from || !to || from.getGridAttr() != to.getGridAttr() ||
        !from.getStaticHaloSizes().empty() || !to.getStaticHaloSizes().empty())
      return;
    SplitAxes cur = toVector(from.getSplitAxes());
    SplitAxes goal = toVector(to.getSplitAxes());

    // Grid axes whose placement changes, in the order the steps run.
    SmallVector<int16_t> removals, moves, additions;
    llvm::SmallSetVector<int16_t, 4> all;
    for (auto &list : cur)
      all.insert(list.begin(), list.end());
    for (auto &list : goal)
      all.insert(list.begin(), list.end());
    for (int16_t axis : all) {
      auto a = placement(cur, axis), b = placement(goal, axis);
      if (a == b)
        continue;
      if (b.first < 0)
        removals.push_back(axis);
      else if (a.first < 0)
        additions.push_back(axis);
      else
        moves.push_back(axis);
    }
    if (removals.size() + moves.size() + additions.size() <= 1)
      return;

    // The intermediate layouts, in order (the last one is the target itself).
    // Moving an axis can leave an intermediate that splits a dimension
    // unevenly; then move by gathering every changed axis first and slicing
    // afterwards (each intermediate is a prefix of the source or target split,
    // so it divides evenly), at the price of a gather instead of an all_to_all.
    auto shape = cast<RankedTensorType>(target.getType()).getShape();
    auto gridOp = SymbolTable::lookupNearestSymbolFrom<shard::GridOp>(
        target, from.getGridAttr());
    if (!gridOp)
      return;
    ArrayRef<int64_t> gridShape = gridOp.getShape();
    auto even = [&](const SplitAxes &axes) {
      for (auto [d, list] : llvm::enumerate(axes)) {
        int64_t n = 1;
        for (int16_t a : list) {
          if (a < 0 || a >= (int64_t)gridShape.size())
            return false;
          n *= gridShape[a];
        }
        if (d < shape.size() && shape[d] % n != 0)
          return false;
      }
      return true;
    };
    auto plan = [&](ArrayRef<ArrayRef<int16_t>> groups, bool moveInPlace) {
      SmallVector<SplitAxes> layouts;
      SplitAxes layout = cur;
      for (ArrayRef<int16_t> group : groups)
        for (int16_t axis : group) {
          removeAxis(layout, axis);
          auto at = placement(goal, axis);
          if (at.first >= 0 && moveInPlace)
            insertAxis(layout, axis, at);
          layouts.push_back(layout);
        }
      return layouts;
    };
    SmallVector<SplitAxes> layouts =
        plan({removals, moves, additions}, /*moveInPlace=*/true);
    if (!llvm::all_of(layouts, even)) {
      SmallVector<int16_t> gathers(removals);
      gathers.append(moves.begin(), moves.end());
      layouts = plan({gathers}, /*moveInPlace=*/false);
      SplitAxes layout = layouts.empty() ? cur : layouts.back();
      for (ArrayRef<int16_t> group : {ArrayRef(moves), ArrayRef(additions)})
        for (int16_t axis : group) {
          insertAxis(layout, axis, placement(goal, axis));
          layouts.push_back(layout);
        }
    }
    layouts.pop_back(); // the target annotation itself is the last step

    OpBuilder b(target);
    MLIRContext *ctx = target.getContext();
    Value prev = producer.getResult();
    for (const SplitAxes &next : layouts) {
      auto sharding = shard::ShardingOp::create(
          b, target.getLoc(), from.getGridAttr(), toAttr(ctx, next).getAxes());
      auto users = shard::ShardOp::create(b, target.getLoc(), prev, sharding,
                                          /*annotate_for_users=*/true);
      prev = shard::ShardOp::create(b, target.getLoc(), users.getResult(),
                                    sharding, /*annotate_for_users=*/false)
                 .getResult();
    }
    target.getSrcMutable().assign(prev);
  }
};

} // namespace
