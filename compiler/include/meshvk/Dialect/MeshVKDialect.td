//===- MeshVKDialect.td - the meshvk plan dialect ----------*- tablegen -*-===//
//
// The dialect and THE pass-to-pass contract of meshvk's compiler. Every fact
// one pass hands to a later one (or to kernel codegen, or to the artifact
// emitter) is a discardable attribute listed in `discardableAttrs` below, with
// a typed value (the AttrDefs of MeshVKAttributes.td). Read and write them
// through the generated helpers (`MeshVKDialect::PlanAttrHelper` etc., or the
// `meshvk::get...`/`set...` functions of MeshVKDialect.h), never by a string.
// A malformed value is rejected in one place: the attribute's own verifier
// (its parameters) and MeshVKDialect::verifyOperationAttribute (where it may
// stand), both run by the IR verifier before any pass reads it.
//
// Who writes what, in pipeline order (compiler/README.md shows the IR):
//
//   attribute                  on                       written by            read by
//   meshvk.peered_memory_axes  shard.grid               the user              unroll-grid
//   meshvk.abi                 public func.func         record-abi            verify-abi, unroll-grid,
//                                                                             emitter
//   meshvk.plan                the plan func.func       unroll-grid           lower-collectives,
//                                                                             plan-allocations, emitter
//   meshvk.process             plan ops, plan args and  unroll-grid           lower-collectives,
//                              results                  (+ lower-collectives) outline-kernels, emitter
//   meshvk.collective_id       shard collectives; then  unroll-grid; lower-  lower-collectives;
//                              the copies/reductions    collectives, outline- emitter (Command.collective)
//                              lowering them            kernels (launch)
//   meshvk.window_op,          the linalg.generics a    normalize-input       recompose-windows
//   meshvk.window_roles        window op became         (ConvWindows.cpp)
//   meshvk.collectives         the plan func.func       lower-collectives     compileProgram (reports)
//   meshvk.kernel              outlined kernel funcs    outline-kernels       meshvk.launch verifier,
//                                                                             codegen
//   meshvk.buffers             empty / copy / launch    plan-allocations      emitter
//   meshvk.memory              the plan func.func       plan-allocations      emitter, compileProgram
//
// Inside kernel codegen (tile-and-distribute -> lower-kernels-to-spirv ->
// compileKernels): meshvk.num_inputs, meshvk.register_tile, meshvk.alias_of,
// meshvk.push_constants, meshvk.push_constant_dims.
//
//===----------------------------------------------------------------------===//

#ifndef MESHVK_DIALECT_MESHVKDIALECT_TD
#define MESHVK_DIALECT_MESHVKDIALECT_TD

include "mlir/IR/DialectBase.td"

def MeshVK_Dialect : Dialect {
  let name = "meshvk";
  let cppNamespace = "::meshvk";
  let summary = "Per-process plans: buffers, peer copies and kernel launches";
  let description = [{
    One process of the grid runs on one device. A plan lists, per process and in
    program order, the kernel launches and the copies it records. Copies are
    recorded on the destination process (pull) and read the source process's
    buffer through peer memory.
  }];
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let discardableAttrs = (ins
    // --- partitioning and planning ---
    "::mlir::DenseI64ArrayAttr":$peered_memory_axes,
    "::meshvk::AbiAttr":$abi,
    "::meshvk::PlanAttr":$plan,
    "::mlir::IntegerAttr":$process,
    "::mlir::IntegerAttr":$collective_id,
    "::mlir::SymbolRefAttr":$window_op,
    "::mlir::DenseI64ArrayAttr":$window_roles,
    "::mlir::ArrayAttr":$collectives,
    "::mlir::UnitAttr":$kernel,
    "::mlir::ArrayAttr":$buffers,
    "::mlir::ArrayAttr":$memory,
    // --- kernel codegen ---
    "::mlir::IntegerAttr":$num_inputs,
    "::mlir::DenseI64ArrayAttr":$register_tile,
    "::mlir::IntegerAttr":$alias_of,
    "::mlir::UnitAttr":$push_constants,
    "::mlir::DenseI64ArrayAttr":$push_constant_dims
  );
}

#endif // MESHVK_DIALECT_MESHVKDIALECT_TD
