//===- ReshapeSharding.cpp - sharding rule for tensor.expand/collapse_shape ===//
//
// MLIR 22 has no sharding interface for tensor.expand_shape/collapse_shape,
// so every program with one (e.g. tosa.reduce_*, whose lowering keeps the
// reduced dimension through an expand_shape) was refused. This external model
// covers the reshapes whose split dimensions are untouched: the iteration
// space is the higher-rank side; each reassociation group of the lower-rank
// side is indexed by the group's first non-unit dimension (its most
// significant one: splitting it into equal blocks splits the collapsed
// dimension into the same contiguous blocks). A split of another dimension of
// a group is dropped from the op's sharding option (propagation gathers it
// first); one that still reaches partition is refused with the op and the
// dimension, and so is merging an unevenly split dimension with other
// non-unit dimensions.
// Groups of a split dimension and unit dimensions (tosa.reduce_*'s kept
// dimension) work on uneven shards too: meshvk-unroll-grid gives each
// process's reshape its static shape.
//
//===----------------------------------------------------------------------===//
#include "ReshapeSharding.h"
#include "ShardingUtils.h"
#include "meshvk/Transforms/Passes.h"

#include "mlir/Dialect/Shard/Interfaces/ShardingInterface.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterfaceImpl.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace {

template <typename ReshapeOp>
struct UnitGroupReshapeSharding
    : shard::ShardingInterface::ExternalModel<UnitGroupReshapeSharding<ReshapeOp>, ReshapeOp> {
  static constexpr bool kExpand = std::is_same_v<ReshapeOp, tensor::ExpandShapeOp>;

  static RankedTensorType bigType(Operation *op) {
    return cast<RankedTensorType>(kExpand ? op->getResult(0).getType()
                                          : op->getOperand(0).getType());
  }

  /// For each reassociation group, the higher-rank dimension that indexes the
  /// lower-rank side: the first non-unit one (the first if all are unit).
  static SmallVector<int64_t> groupDims(Operation *op) {
    RankedTensorType big = bigType(op);
    SmallVector<int64_t> dims;
    for (const ReassociationIndices &group : cast<ReshapeOp>(op).getReassociationIndices()) {
      int64_t pick = group.front();
      for (int64_t d : group)
        if (big.getDimSize(d) != 1) {
          pick = d;
          break;
        }
      dims.push_back(pick);
    }
    return dims;
  }

  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    return SmallVector<utils::IteratorType>(bigType(op).getRank(), utils::IteratorType::parallel);
  }

  SmallVector<AffineMap> getIndexingMaps(Operation *op) const {
    MLIRContext *ctx = op->getContext();
    int64_t rank = bigType(op).getRank();
    AffineMap big = AffineMap::getMultiDimIdentityMap(rank, ctx);
    SmallVector<AffineExpr> exprs;
    for (int64_t d : groupDims(op))
      exprs.push_back(getAffineDimExpr(d, ctx));
    AffineMap small = AffineMap::get(rank, 0, exprs, ctx);
    return kExpand ? SmallVector<AffineMap>{small, big} : SmallVector<AffineMap>{big, small};
  }

  /// Upstream's choice from the indexing maps, without the splits of
  /// dimensions that do not index the lower-rank side: propagation then
  /// gathers such a dimension before the reshape (tosa.tile of a split
  /// tensor broadcasts it to 2xNx.. and merges the split N with the 2).
  FailureOr<shard::ShardingOption>
  getShardingOption(Operation *op, ArrayRef<shard::Sharding> operandShardings,
                    ArrayRef<shard::Sharding> resultShardings) const {
    SmallVector<int64_t> picked = groupDims(op);
    return meshvk::shardingOptionKeeping(op, operandShardings, resultShardings,
                                         [&](int64_t d) { return llvm::is_contained(picked, d); });
  }

  LogicalResult partition(Operation *op, ArrayRef<Value> partitionedOperands,
                          ArrayRef<shard::Sharding> operandShardings,
                          ArrayRef<shard::Sharding> resultShardings, IRMapping &partitionMap,
                          SymbolTableCollection &symbolTable, OpBuilder &builder) const {
    // The higher-rank side's sharding: only the dimensions that index the
    // lower-rank side may be split.
    const shard::Sharding &bigSharding = kExpand ? resultShardings[0] : operandShardings[0];
    SmallVector<int64_t> picked = groupDims(op);
    if (bigSharding) {
      ArrayRef<shard::GridAxesAttr> split = bigSharding.getSplitAxes();
      for (auto [d, axes] : llvm::enumerate(split))
        if (!axes.empty() && !llvm::is_contained(picked, (int64_t)d))
          return op->emitOpError()
                 << "cannot be partitioned with dimension " << d
                 << " of its higher-rank side split: only the first non-unit dimension of "
                    "each reassociation group may be split";
      // Uneven shards (explicit offsets): a split dimension merged with other
      // non-unit dimensions would give the merged dimension shards of k times
      // its rows, which are not the boundaries meshvk gives a dimension of
      // that size. A group of the split dimension and unit dimensions is the
      // same shard on both sides (a per-process static reshape).
      const shard::Sharding &smallSharding = kExpand ? operandShardings[0] : resultShardings[0];
      bool uneven = !bigSharding.getStaticShardedDimsOffsets().empty() ||
                    (smallSharding && !smallSharding.getStaticShardedDimsOffsets().empty());
      RankedTensorType big = bigType(op);
      for (const ReassociationIndices &group : cast<ReshapeOp>(op).getReassociationIndices()) {
        bool splitInGroup = false;
        int64_t nonUnit = 0;
        for (int64_t d : group) {
          splitInGroup |= d < (int64_t)split.size() && !split[d].empty();
          nonUnit += big.getDimSize(d) != 1;
        }
        if (uneven && splitInGroup && nonUnit > 1)
          return op->emitOpError()
                 << "cannot be partitioned: it " << (kExpand ? "splits" : "merges")
                 << " a dimension split into uneven shards " << (kExpand ? "into" : "with")
                 << " other dimensions (" << big
                 << "); split it over a process count that divides it, or reshape before "
                    "splitting";
      }
    }
    auto reshape = cast<ReshapeOp>(op);
    Value result;
    if constexpr (kExpand) {
      shard::GridOp grid = resultShardings[0]
                               ? shard::getGrid(op, resultShardings[0].getGridAttr(), symbolTable)
                               : shard::GridOp();
      Type local = grid ? shard::shardType(reshape.getResult().getType(), grid, resultShardings[0])
                        : reshape.getResult().getType();
      result = tensor::ExpandShapeOp::create(builder, op->getLoc(), local, partitionedOperands[0],
                                             reshape.getReassociationIndices());
    } else {
      result = tensor::CollapseShapeOp::create(builder, op->getLoc(), partitionedOperands[0],
                                               reshape.getReassociationIndices());
    }
    partitionMap.map(op->getResult(0), result);
    partitionMap.map(op, result.getDefiningOp());
    return success();
  }
};

} // namespace

void meshvk::registerReshapeShardingModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    tensor::ExpandShapeOp::attachInterface<UnitGroupReshapeSharding<tensor::ExpandShapeOp>>(*ctx);
    tensor::CollapseShapeOp::attachInterface<UnitGroupReshapeSharding<tensor::CollapseShapeOp>>(
        *ctx);
  });
}
