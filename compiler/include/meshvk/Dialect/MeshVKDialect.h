//===- MeshVKDialect.h - the meshvk plan dialect ----------------*- C++ -*-===//
//
// The plan ops (meshvk.empty / copy / launch), the typed contract attributes
// the passes hand each other, and the helpers that read and write them. The
// contract itself is documented once, in MeshVKDialect.td.
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_DIALECT_MESHVKDIALECT_H
#define MESHVK_DIALECT_MESHVKDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "meshvk/Dialect/MeshVKEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "meshvk/Dialect/MeshVKAttributes.h.inc"

#include "meshvk/Dialect/MeshVKDialect.h.inc"

namespace meshvk {
// The ShardingInterface method declarations generated into MeshVKOps.h.inc
// name these types unqualified (upstream generates them inside mlir::).
using ::mlir::AffineMap;
using ::mlir::ArrayRef;
using ::mlir::FailureOr;
using ::mlir::IRMapping;
using ::mlir::LogicalResult;
using ::mlir::OpBuilder;
using ::mlir::SmallVector;
using ::mlir::SymbolTableCollection;
using ::mlir::Value;
using ::mlir::shard::Sharding;
using ::mlir::shard::ShardingOption;
namespace utils = ::mlir::utils;
} // namespace meshvk

#define GET_OP_CLASSES
#include "meshvk/Dialect/MeshVKOps.h.inc"

namespace meshvk {

/// The process an unrolled op (or plan argument/result, through the arg/result
/// attribute dictionaries) belongs to: its `meshvk.process`, or -1.
int64_t getProcess(mlir::Operation *op);
/// Sets `meshvk.process = p` on `op`.
void setProcess(mlir::Operation *op, int64_t p);
/// The dictionary entry that tags a plan argument or result with its process.
mlir::NamedAttribute processEntry(mlir::MLIRContext *ctx, int64_t p);

/// `meshvk.plan` / `meshvk.abi` of a function, or null.
PlanAttr getPlan(mlir::Operation *func);
AbiAttr getAbi(mlir::Operation *func);
/// True for a function marked `meshvk.kernel`.
bool isKernel(mlir::Operation *func);

/// f32, f16, f64 and i32: the element types the runtime has buffers for.
bool isStorableElementType(mlir::Type type);

} // namespace meshvk

#endif // MESHVK_DIALECT_MESHVKDIALECT_H
