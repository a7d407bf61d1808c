//===- SliceSharding.cpp - sharding rule for extract_slice/insert_slice ---===//
//
// MLIR 22 has no sharding interface for tensor.extract_slice / insert_slice
// (nor for tensor.pad / tensor.concat, which meshvk-normalize-input turns into
// a fill or empty plus insert_slices, upstream's own decompositions). This
// external model makes them partitionable: the iteration space is the larger
// tensor (extract_slice's source, insert_slice's destination); a dimension
// the slice takes whole (offset 0, stride 1, the full extent, all static) may
// stay split, and each process slices its own shard of it; any other
// dimension runs replicated: the sharding option drops its split, so
// propagation reshards the operands to replicated on that dimension before the
// op and back to the user's sharding after it (an all-gather, then a local
// all-slice). Padding or concatenating along an unsplit dimension, the common
// case (features, channels), moves no data.
//
//===----------------------------------------------------------------------===//
#include "SliceSharding.h"
#include "ShardingUtils.h"

#include "mlir/Dialect/Shard/Interfaces/ShardingInterface.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace {

template <typename SliceOp>
struct WholeDimSliceSharding
    : shard::ShardingInterface::ExternalModel<WholeDimSliceSharding<SliceOp>, SliceOp> {
  static constexpr bool kExtract = std::is_same_v<SliceOp, tensor::ExtractSliceOp>;
  /// Operand number of the larger tensor (the loops' tensor).
  static constexpr unsigned kBigOperand = kExtract ? 0 : 1;

  static RankedTensorType bigType(Operation *op) {
    return cast<RankedTensorType>(op->getOperand(kBigOperand).getType());
  }

  /// Whether the slice takes dimension `d` of the larger tensor whole.
  static bool isWhole(Operation *op, int64_t d) {
    auto slice = cast<SliceOp>(op);
    int64_t extent = bigType(op).getDimSize(d);
    return !ShapedType::isDynamic(extent) && slice.getStaticOffsets()[d] == 0 &&
           slice.getStaticStrides()[d] == 1 && slice.getStaticSizes()[d] == extent;
  }

  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    return SmallVector<utils::IteratorType>(bigType(op).getRank(), utils::IteratorType::parallel);
  }

  /// Larger tensor: identity; smaller one: the dimensions a rank-reducing
  /// slice keeps; offsets/sizes/strides given as values: no dimensions.
  SmallVector<AffineMap> getIndexingMaps(Operation *op) const {
    MLIRContext *ctx = op->getContext();
    int64_t rank = bigType(op).getRank();
    llvm::SmallBitVector dropped = cast<SliceOp>(op).getDroppedDims();
    SmallVector<AffineExpr> kept;
    for (int64_t d = 0; d < rank; ++d)
      if (!dropped.test(d))
        kept.push_back(getAffineDimExpr(d, ctx));
    AffineMap big = AffineMap::getMultiDimIdentityMap(rank, ctx);
    AffineMap small = AffineMap::get(rank, 0, kept, ctx);
    SmallVector<AffineMap> maps =
        kExtract ? SmallVector<AffineMap>{big} : SmallVector<AffineMap>{small, big};
    maps.append(op->getNumOperands() - maps.size(), AffineMap::get(rank, 0, {}, ctx));
    maps.push_back(kExtract ? small : big);
    return maps;
  }

  /// Upstream's choice from the indexing maps, without the splits of
  /// dimensions the slice does not take whole.
  FailureOr<shard::ShardingOption>
  getShardingOption(Operation *op, ArrayRef<shard::Sharding> operandShardings,
                    ArrayRef<shard::Sharding> resultShardings) const {
    return meshvk::shardingOptionKeeping(op, operandShardings, resultShardings,
                                         [&](int64_t d) { return isWhole(op, d); });
  }

  LogicalResult partition(Operation *op, ArrayRef<Value> partitionedOperands,
                          ArrayRef<shard::Sharding> operandShardings,
                          ArrayRef<shard::Sharding> resultShardings, IRMapping &partitionMap,
                          SymbolTableCollection &symbolTable, OpBuilder &builder) const {
    auto slice = cast<SliceOp>(op);
    Location loc = op->getLoc();
    int64_t rank = bigType(op).getRank();
    SmallVector<bool> split(rank, false);
    if (const shard::Sharding &sharding = operandShardings[kBigOperand])
      for (auto [d, axes] : llvm::enumerate(sharding.getSplitAxes())) {
        if (axes.empty())
          continue;
        if (!isWhole(op, d))
          return op->emitOpError()
                 << "cannot be partitioned with dimension " << d
                 << " split: it does not take that dimension whole (offset 0, stride 1, full "
                    "size); annotate the tensor replicated on it";
        split[d] = true;
      }
    Value big = partitionedOperands[kBigOperand];
    auto remap = [&](OpFoldResult r) -> OpFoldResult {
      if (auto v = dyn_cast<Value>(r))
        return partitionMap.lookupOrDefault(v);
      return r;
    };
    SmallVector<OpFoldResult> offsets = llvm::map_to_vector(slice.getMixedOffsets(), remap);
    SmallVector<OpFoldResult> sizes = llvm::map_to_vector(slice.getMixedSizes(), remap);
    SmallVector<OpFoldResult> strides = llvm::map_to_vector(slice.getMixedStrides(), remap);
    // A split dimension is taken whole: each process takes its own shard's
    // extent (dynamic for uneven shards until the grid is unrolled).
    for (int64_t d = 0; d < rank; ++d)
      if (split[d])
        sizes[d] = tensor::getMixedSize(builder, loc, big, d);
    Value result;
    if constexpr (kExtract) {
      llvm::SmallBitVector dropped = slice.getDroppedDims();
      SmallVector<int64_t> shape;
      for (int64_t d = 0; d < rank; ++d)
        if (!dropped.test(d))
          shape.push_back(getConstantIntValue(sizes[d]).value_or(ShapedType::kDynamic));
      auto type = RankedTensorType::get(shape, slice.getType().getElementType());
      result = tensor::ExtractSliceOp::create(builder, loc, type, big, offsets, sizes, strides);
    } else {
      result = tensor::InsertSliceOp::create(builder, loc, partitionedOperands[0], big, offsets,
                                             sizes, strides);
    }
    partitionMap.map(op->getResult(0), result);
    partitionMap.map(op, result.getDefiningOp());
    return success();
  }
};

} // namespace

void meshvk::registerSliceShardingModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    tensor::ExtractSliceOp::attachInterface<WholeDimSliceSharding<tensor::ExtractSliceOp>>(*ctx);
    tensor::InsertSliceOp::attachInterface<WholeDimSliceSharding<tensor::InsertSliceOp>>(*ctx);
  });
}
