//===- MeshVKDialect.cpp - the meshvk plan dialect and its ops ------------===//
#include "meshvk/Dialect/MeshVKDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace meshvk;

#include "meshvk/Dialect/MeshVKDialect.cpp.inc"

void MeshVKDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "meshvk/Dialect/MeshVKOps.cpp.inc"
      >();
  registerAttributes();
}

//===----------------------------------------------------------------------===//
// CopyOp
//===----------------------------------------------------------------------===//

int64_t CopyOp::getByteCount() {
  auto type = cast<RankedTensorType>(getSource().getType());
  int64_t elements = 1;
  for (int64_t size : getSizes())
    elements *= size;
  return elements * ((type.getElementTypeBitWidth() + 7) / 8);
}

LogicalResult CopyOp::verify() {
  auto source = cast<RankedTensorType>(getSource().getType());
  auto dest = cast<RankedTensorType>(getDest().getType());
  int64_t rank = source.getRank();
  if (dest.getRank() != rank || (int64_t)getSizes().size() != rank ||
      (int64_t)getSourceOffsets().size() != rank || (int64_t)getDestOffsets().size() != rank)
    return emitOpError("source, dest, offsets and sizes must all have rank ") << rank;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = getSizes()[d];
    if (size < 0)
      return emitOpError("negative size in dimension ") << d;
    if (getSourceOffsets()[d] < 0 || getSourceOffsets()[d] + size > source.getDimSize(d))
      return emitOpError("source box leaves the source tensor in dimension ") << d;
    if (getDestOffsets()[d] < 0 || getDestOffsets()[d] + size > dest.getDimSize(d))
      return emitOpError("dest box leaves the dest tensor in dimension ") << d;
  }
  if (getSourceProcess() < 0 || getDestProcess() < 0)
    return emitOpError("process indices must be non-negative");
  return success();
}

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto kernel = symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this, getKernelAttr());
  if (!kernel)
    return emitOpError("kernel '") << getKernel() << "' is not a func.func";
  if (!isKernel(kernel))
    return emitOpError("function '")
           << getKernel() << "' is not marked " << MeshVKDialect::KernelAttrHelper::getNameStr();
  FunctionType type = kernel.getFunctionType();
  if (TypeRange(type.getInputs()) != TypeRange(getInputs().getTypes()) ||
      TypeRange(type.getResults()) != TypeRange(getResults().getTypes()))
    return emitOpError("operand/result types do not match kernel type ") << type;
  return success();
}

//===----------------------------------------------------------------------===//
// ReshardOp
//===----------------------------------------------------------------------===//

// shard-partition keeps the op and gives its result the local type of the
// target sharding (upstream's shardShapedType: `?` where the offsets make
// processes' sizes differ); meshvk-lower-collectives does the data movement.
LogicalResult ReshardOp::partition(ArrayRef<Value> partitionedOperands,
                                   ArrayRef<shard::Sharding> operandShardings,
                                   ArrayRef<shard::Sharding> resultShardings,
                                   IRMapping &partitionMap,
                                   SymbolTableCollection &symbolTableCollection,
                                   OpBuilder &builder) {
  shard::GridOp grid = shard::getGrid(getOperation(), getGridAttr(), symbolTableCollection);
  if (!grid || resultShardings.size() != 1 || !resultShardings[0])
    return emitOpError("needs a grid and a sharding annotation on its result");
  Type local = shard::shardType(getResult().getType(), grid, resultShardings[0]);
  auto op = ReshardOp::create(builder, getLoc(), local, partitionedOperands[0], getGridAttr(),
                              getGlobalShapeAttr(), getFromSplitAxesAttr(), getFromOffsetsAttr(),
                              getToSplitAxesAttr(), getToOffsetsAttr());
  partitionMap.map(getResult(), op.getResult());
  return success();
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::verify() {
  auto value = dyn_cast<RankedTensorType>(getValue().getType());
  auto result = cast<RankedTensorType>(getResult().getType());
  if (!value || value.getRank() != result.getRank() ||
      value.getElementType() != result.getElementType())
    return emitOpError("value of type ")
           << getValue().getType() << " does not match the result type " << result;
  bool sharded = static_cast<bool>(getGridAttr());
  if (sharded != static_cast<bool>(getSplitAxesAttr()) ||
      sharded != static_cast<bool>(getOffsetsAttr()))
    return emitOpError("needs all of grid, split axes and offsets, or none");
  if (!sharded && value != result)
    return emitOpError("value of type ")
           << value << " must have the result type " << result << " when it is not sharded";
  return success();
}

std::optional<std::vector<char>> ConstantOp::getElementBytes() {
  RankedTensorType type = getGlobalType();
  unsigned width = type.getElementTypeBitWidth();
  if (width % 8 != 0)
    return std::nullopt;
  size_t bytes = static_cast<size_t>(type.getNumElements()) * (width / 8);
  ArrayRef<char> raw;
  if (auto dense = dyn_cast<DenseElementsAttr>(getValue()))
    raw = dense.getRawData();
  else if (auto resource = dyn_cast<DenseResourceElementsAttr>(getValue()))
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      raw = blob->getData();
  if (raw.size() == bytes)
    return std::vector<char>(raw.begin(), raw.end());
  // A splat stores one element.
  if (raw.size() != width / 8 || !isa<DenseElementsAttr>(getValue()))
    return std::nullopt;
  std::vector<char> out;
  out.reserve(bytes);
  for (int64_t i = 0; i < type.getNumElements(); ++i)
    out.insert(out.end(), raw.begin(), raw.end());
  return out;
}

// The same rule as upstream's for arith.constant: one parallel loop per
// dimension, the result's sharding mirrored (none without one: propagation
// leaves the constant to its users, complete-shardings replicates it).
SmallVector<utils::IteratorType> ConstantOp::getLoopIteratorTypes() {
  return SmallVector<utils::IteratorType>(getGlobalType().getRank(), utils::IteratorType::parallel);
}

SmallVector<AffineMap> ConstantOp::getIndexingMaps() {
  return {AffineMap::getMultiDimIdentityMap(getGlobalType().getRank(), getContext())};
}

FailureOr<shard::ShardingOption>
ConstantOp::getShardingOption(ArrayRef<shard::Sharding> operandShardings,
                              ArrayRef<shard::Sharding> resultShardings) {
  if (resultShardings.size() != 1 || !resultShardings[0])
    return failure();
  shard::ShardingArray axes;
  for (shard::GridAxesAttr a : resultShardings[0].getSplitAxes())
    axes.emplace_back(a.asArrayRef().begin(), a.asArrayRef().end());
  return shard::ShardingOption(axes, resultShardings[0].getGridAttr());
}

// The SPMD op keeps the whole value and records the sharding; unroll-grid
// cuts each process's part out of it (the process index is a constant only
// there). Replicated (or unannotated): the value as is.
LogicalResult ConstantOp::partition(ArrayRef<Value> partitionedOperands,
                                    ArrayRef<shard::Sharding> operandShardings,
                                    ArrayRef<shard::Sharding> resultShardings,
                                    IRMapping &partitionMap,
                                    SymbolTableCollection &symbolTableCollection,
                                    OpBuilder &builder) {
  shard::Sharding sharding = resultShardings.empty() ? shard::Sharding() : resultShardings[0];
  bool split = sharding && llvm::any_of(sharding.getSplitAxes(),
                                        [](shard::GridAxesAttr a) { return !a.empty(); });
  Operation *created;
  if (!split) {
    created = builder.clone(*getOperation());
  } else {
    shard::GridOp grid =
        shard::getGrid(getOperation(), sharding.getGridAttr(), symbolTableCollection);
    if (!grid)
      return emitOpError("names no grid in its sharding");
    Type local = shard::shardType(getGlobalType(), grid, sharding);
    created =
        ConstantOp::create(builder, getLoc(), local, getValue(), sharding.getGridAttr(),
                           shard::GridAxesArrayAttr::get(getContext(), sharding.getSplitAxes()),
                           builder.getDenseI64ArrayAttr(sharding.getStaticShardedDimsOffsets()));
  }
  partitionMap.map(getResult(), created->getResult(0));
  partitionMap.map(getOperation(), created);
  return success();
}

//===----------------------------------------------------------------------===//
// WindowOp
//===----------------------------------------------------------------------===//

LogicalResult WindowOp::verify() {
  auto type = cast<RankedTensorType>(getSource().getType());
  if ((int64_t)getShifts().size() != type.getRank())
    return emitOpError("needs one shift per dimension: ")
           << getShifts().size() << " shifts for rank " << type.getRank();
  if (getPad().getType() != type.getElementType())
    return emitOpError("pad value of type ")
           << getPad().getType() << " does not match the element type " << type.getElementType();
  bool sharded = static_cast<bool>(getGridAttr());
  if (sharded != static_cast<bool>(getSplitAxesAttr()) ||
      sharded != static_cast<bool>(getOffsetsAttr()) ||
      sharded != static_cast<bool>(getGlobalShapeAttr()))
    return emitOpError("needs all of grid, split axes, offsets and global shape, or none");
  if (sharded && (int64_t)getGlobalShapeAttr().size() != type.getRank())
    return emitOpError("global shape must have rank ") << type.getRank();
  return success();
}

// Identity maps, all loops parallel: the window is split like its source.
SmallVector<utils::IteratorType> WindowOp::getLoopIteratorTypes() {
  return SmallVector<utils::IteratorType>(getSource().getType().getRank(),
                                          utils::IteratorType::parallel);
}

SmallVector<AffineMap> WindowOp::getIndexingMaps() {
  AffineMap id = AffineMap::getMultiDimIdentityMap(getSource().getType().getRank(), getContext());
  return {id, id};
}

// The SPMD op keeps the window on the local shard and records how the source
// is cut; meshvk-lower-collectives knows each process's box and its
// neighbours' only after the grid is unrolled.
LogicalResult
WindowOp::partition(ArrayRef<Value> partitionedOperands, ArrayRef<shard::Sharding> operandShardings,
                    ArrayRef<shard::Sharding> resultShardings, IRMapping &partitionMap,
                    SymbolTableCollection &symbolTableCollection, OpBuilder &builder) {
  if (operandShardings.size() != 1 || resultShardings.size() != 1 || !operandShardings[0] ||
      !(operandShardings[0] == resultShardings[0]))
    return emitOpError("needs its source and result sharded alike");
  const shard::Sharding &sharding = operandShardings[0];
  if (!sharding.getStaticHaloSizes().empty() || !sharding.getDynamicHaloSizes().empty() ||
      !sharding.getDynamicShardedDimsOffsets().empty())
    return emitOpError("cannot be partitioned with halos or dynamic offsets in its sharding");
  auto global = cast<RankedTensorType>(getSource().getType());
  auto created =
      WindowOp::create(builder, getLoc(), partitionedOperands[0].getType(), partitionedOperands[0],
                       getShiftsAttr(), getPad(), sharding.getGridAttr(),
                       shard::GridAxesArrayAttr::get(getContext(), sharding.getSplitAxes()),
                       builder.getDenseI64ArrayAttr(sharding.getStaticShardedDimsOffsets()),
                       builder.getDenseI64ArrayAttr(global.getShape()));
  partitionMap.map(getResult(), created.getResult());
  partitionMap.map(getOperation(), created.getOperation());
  return success();
}

#define GET_OP_CLASSES
#include "meshvk/Dialect/MeshVKOps.cpp.inc"
