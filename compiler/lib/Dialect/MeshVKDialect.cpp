//===- MeshVKDialect.cpp - the meshvk plan dialect and its ops ------------===//
#include "meshvk/Dialect/MeshVKDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
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

#define GET_OP_CLASSES
#include "meshvk/Dialect/MeshVKOps.cpp.inc"
