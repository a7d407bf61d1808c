//===- MeshVKDialect.h - the meshvk plan dialect ----------------*- C++ -*-===//
#ifndef MESHVK_DIALECT_MESHVKDIALECT_H
#define MESHVK_DIALECT_MESHVKDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "meshvk/Dialect/MeshVKDialect.h.inc"

#define GET_OP_CLASSES
#include "meshvk/MeshVKOps.h.inc"

namespace meshvk {
// Attribute names shared by the passes, the codegen and the artifact emitter.
// See compiler/README.md for what each one holds.
inline constexpr llvm::StringLiteral kKernelAttr = "meshvk.kernel";
inline constexpr llvm::StringLiteral kPlanAttr = "meshvk.plan";
inline constexpr llvm::StringLiteral kProcessAttr = "meshvk.process";
inline constexpr llvm::StringLiteral kAbiAttr = "meshvk.abi";
inline constexpr llvm::StringLiteral kPeeredAxesAttr =
    "meshvk.peered_memory_axes";
inline constexpr llvm::StringLiteral kCollectivesAttr = "meshvk.collectives";
inline constexpr llvm::StringLiteral kMemoryAttr = "meshvk.memory";
inline constexpr llvm::StringLiteral kBufferAttr = "meshvk.buffers";
} // namespace meshvk

#endif // MESHVK_DIALECT_MESHVKDIALECT_H
