//===- UnevenShards.cpp - explicit offsets for uneven splits --------------===//
//
// Upstream MLIR 22's shard helpers assert that a split divides its dimension
// (shardDimension) but accept explicit `sharded_dims_offsets`, for which
// shard-partition gives the local shard a dynamic size read from
// `shard.shard_shape`. It cannot reshard such a tensor, though (every reshard
// pattern skips offsets and the pass then crashes). So this pass
//   1. writes the offsets meshvk uses into every annotation whose split does
//      not divide (resolveShardOffsets: numpy.array_split's rule, or the
//      offsets the user wrote for that dimension size and grid axis, which
//      sharding-propagation drops on the values it derives), and
//   2. puts a meshvk.reshard between any two chained annotations that differ
//      and involve offsets; its box-copy lowering moves any sharding to any
//      other.
//
//===----------------------------------------------------------------------===//
#include "ShardingUtils.h"
#include "meshvk/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

#include <map>

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_UNEVENSHARDS
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

namespace {

using OffsetsKey = std::pair<int64_t, SmallVector<int16_t>>;

struct UnevenShardsPass : meshvk::impl::UnevenShardsBase<UnevenShardsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SymbolTableCollection symbols;
    auto gridOf = [&](shard::ShardingOp s) {
      return shard::getGridOrNull(s, s.getGridAttr(), symbols);
    };

    // The offsets the user wrote, per (dimension size, grid axes).
    std::map<OffsetsKey, SmallVector<int64_t>> written;
    WalkResult walk = func.walk([&](shard::ShardOp shardOp) {
      shard::ShardingOp s = meshvk::shardingOpOf(shardOp);
      auto type = dyn_cast<RankedTensorType>(shardOp.getType());
      shard::GridOp grid = s ? gridOf(s) : nullptr;
      if (!grid || !type || s.getStaticShardedDimsOffsets().empty())
        return WalkResult::advance();
      ArrayRef<shard::GridAxesAttr> axes = s.getSplitAxes().getAxes();
      FailureOr<SmallVector<int64_t>> flat = meshvk::resolveShardOffsets(
          shardOp, shardOp.getSrc(), type, grid.getShape(), axes, s.getStaticShardedDimsOffsets());
      if (failed(flat))
        return WalkResult::interrupt();
      SmallVector<int64_t> starts = meshvk::offsetRunStarts(grid.getShape(), axes, type.getRank());
      SmallVector<int64_t> counts = meshvk::splitCounts(grid.getShape(), axes, type.getRank());
      for (int64_t d = 0; d < type.getRank(); ++d) {
        if (starts[d] < 0)
          continue;
        OffsetsKey key{type.getDimSize(d), SmallVector<int16_t>(axes[d].asArrayRef())};
        SmallVector<int64_t> bounds(flat->begin() + starts[d],
                                    flat->begin() + starts[d] + counts[d] + 1);
        auto [it, inserted] = written.emplace(key, bounds);
        if (!inserted && it->second != bounds) {
          s.emitError() << "two different sharded_dims_offsets for a dimension of size "
                        << type.getDimSize(d)
                        << " split over the same grid axes; meshvk gives every tensor "
                           "dimension of one size and axes the same offsets (write one set)";
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    auto known = [&](int64_t size, ArrayRef<int16_t> axes) -> ArrayRef<int64_t> {
      auto it = written.find(OffsetsKey{size, SmallVector<int16_t>(axes)});
      return it == written.end() ? ArrayRef<int64_t>() : ArrayRef<int64_t>(it->second);
    };

    // 1. Every annotation gets the offsets meshvk uses for it.
    SmallVector<shard::ShardOp> shardOps;
    func.walk([&](shard::ShardOp op) { shardOps.push_back(op); });
    for (shard::ShardOp shardOp : shardOps) {
      shard::ShardingOp s = meshvk::shardingOpOf(shardOp);
      auto type = dyn_cast<RankedTensorType>(shardOp.getType());
      shard::GridOp grid = s ? gridOf(s) : nullptr;
      if (!grid || !type || type.getRank() == 0)
        continue;
      FailureOr<SmallVector<int64_t>> flat = meshvk::resolveShardOffsets(
          shardOp, shardOp.getSrc(), type, grid.getShape(), s.getSplitAxes().getAxes(),
          s.getStaticShardedDimsOffsets(), known);
      if (failed(flat))
        return signalPassFailure();
      if (ArrayRef<int64_t>(*flat) == s.getStaticShardedDimsOffsets())
        continue;
      OpBuilder b(shardOp);
      // The generic builder: MLIR 22's convenience builder taking
      // (halo sizes, offsets) stores them the other way round.
      auto replacement = shard::ShardingOp::create(
          b, s.getLoc(), shard::ShardingType::get(b.getContext()), s.getGridAttr(),
          s.getSplitAxesAttr(), b.getDenseI64ArrayAttr(*flat), ValueRange{},
          b.getDenseI64ArrayAttr({}), ValueRange{});
      shardOp.getShardingMutable().assign(replacement.getResult());
    }

    // 2. Reshards that involve offsets go through meshvk.reshard.
    shardOps.clear();
    func.walk([&](shard::ShardOp op) { shardOps.push_back(op); });
    for (shard::ShardOp target : shardOps) {
      auto source = target.getSrc().getDefiningOp<shard::ShardOp>();
      if (!source)
        continue;
      shard::ShardingOp from = meshvk::shardingOpOf(source);
      shard::ShardingOp to = meshvk::shardingOpOf(target);
      if (!from || !to)
        continue;
      if (from.getStaticShardedDimsOffsets().empty() && to.getStaticShardedDimsOffsets().empty())
        continue;
      if (shard::Sharding(from.getResult()) == shard::Sharding(to.getResult()))
        continue;
      auto type = cast<RankedTensorType>(target.getType());
      OpBuilder b(target);
      auto reshard = meshvk::ReshardOp::create(
          b, target.getLoc(), type, source.getResult(), from.getGridAttr(),
          b.getDenseI64ArrayAttr(type.getShape()), from.getSplitAxesAttr(),
          b.getDenseI64ArrayAttr(from.getStaticShardedDimsOffsets()), to.getSplitAxesAttr(),
          b.getDenseI64ArrayAttr(to.getStaticShardedDimsOffsets()));
      // The result's producer annotation: shard-partition reads the op's
      // result sharding from it; `target` then reshards `to` -> `to` (nothing).
      auto produced = shard::ShardOp::create(b, target.getLoc(), reshard.getResult(),
                                             to.getResult(), /*annotate_for_users=*/false);
      target.getSrcMutable().assign(produced.getResult());
    }
  }
};

} // namespace
