//===- MeshVKAttributes.td - the typed plan contract -------*- tablegen -*-===//
//
// The values of the discardable attributes listed in MeshVKDialect.td. Each has
// a verifier for what it says about itself (ranks, counts, ranges); where it
// may stand is checked by MeshVKDialect::verifyOperationAttribute.
//
//===----------------------------------------------------------------------===//

#ifndef MESHVK_DIALECT_MESHVKATTRIBUTES_TD
#define MESHVK_DIALECT_MESHVKATTRIBUTES_TD

include "meshvk/Dialect/MeshVKDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/EnumAttr.td"

class MeshVK_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<MeshVK_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def MeshVK_ValueAbiAttr : MeshVK_Attr<"ValueAbi", "value_abi"> {
  let summary = "One global argument or result: its type and every process's shard";
  let description = [{
    `type` is the GLOBAL type; for a tensor, dimension d is split over the grid
    axes `split_axes[d]` (missing trailing entries: not split), every process's
    shard has the shape `shard_shape`, and `shard_offsets[p]` is where process
    p's shard starts in the global tensor (p = row-major linear index on the
    grid). A non-tensor (an unused scalar argument) has only its type.

    Uneven shards (a split that does not divide the dimension, or explicit
    `sharded_dims_offsets`): `shard_shape` is the partitioned function's local
    shape, with `?` (kDynamic) where processes' sizes differ, and
    `shard_shapes[p]` is process p's own shape (absent for even splits).

    ```mlir
    #meshvk.value_abi<type = tensor<8x4xf32>, split_axes = [[0]], shard_shape = [4, 4],
                      shard_offsets = [array<i64: 0, 0>, array<i64: 4, 0>]>
    #meshvk.value_abi<type = tensor<5x4xf32>, split_axes = [[0]],
                      shard_shape = [-9223372036854775808, 4],
                      shard_offsets = [array<i64: 0, 0>, array<i64: 3, 0>],
                      shard_shapes = [array<i64: 3, 4>, array<i64: 2, 4>]>
    #meshvk.value_abi<type = f32>
    ```
  }];
  let parameters = (ins
    "::mlir::Type":$type,
    OptionalParameter<"::mlir::shard::GridAxesArrayAttr">:$split_axes,
    OptionalParameter<"::mlir::DenseI64ArrayAttr">:$shard_shape,
    OptionalParameter<"::mlir::ArrayAttr">:$shard_offsets,
    OptionalParameter<"::mlir::ArrayAttr">:$shard_shapes
  );
  let extraClassDeclaration = [{
    /// The local (shard) type: what partitioned functions take and return
    /// (the type itself for a non-tensor); `?` where processes differ.
    ::mlir::Type getShardType() const;
    /// Where process `p`'s shard starts.
    ::llvm::ArrayRef<int64_t> getShardOffset(int64_t p) const;
    /// Process `p`'s own shard shape (static) and type.
    ::llvm::ArrayRef<int64_t> getProcessShardShape(int64_t p) const;
    ::mlir::Type getProcessShardType(int64_t p) const;
    /// True when processes hold shards of different shapes.
    bool isUneven() const { return static_cast<bool>(getShardShapes()); }
  }];
}

def MeshVK_AbiAttr : MeshVK_Attr<"Abi", "abi"> {
  let summary = "A public function's global signature and grid";
  let description = [{
    Recorded before partitioning, kept on the plan: the host needs it to shard
    inputs and assemble outputs. Every entry has one shard offset per process
    of `grid_shape`.

    ```mlir
    #meshvk.abi<grid = @mesh, grid_shape = [2],
                args = [#meshvk.value_abi<...>], results = [#meshvk.value_abi<...>]>
    ```
  }];
  let parameters = (ins
    "::mlir::FlatSymbolRefAttr":$grid,
    "::mlir::DenseI64ArrayAttr":$grid_shape,
    "::mlir::ArrayAttr":$args,
    "::mlir::ArrayAttr":$results
  );
  let extraClassDeclaration = [{
    int64_t getProcessCount() const;
    ::meshvk::ValueAbiAttr getArg(unsigned i) const {
      return ::llvm::cast<::meshvk::ValueAbiAttr>(getArgs()[i]);
    }
    ::meshvk::ValueAbiAttr getResult(unsigned i) const {
      return ::llvm::cast<::meshvk::ValueAbiAttr>(getResults()[i]);
    }
  }];
}

def MeshVK_PlanAttr : MeshVK_Attr<"Plan", "plan"> {
  let summary = "Marks a per-process plan and names the grid it runs on";
  let description = [{
    The plan function's argument `i * P + p` is process p's shard of global
    argument i (P = product of `grid_shape`); same for results. `peered_axes`
    are the grid axes whose devices share memory (the grid's
    `meshvk.peered_memory_axes`, all axes when it has none), resolved once by
    meshvk-unroll-grid.

    ```mlir
    #meshvk.plan<grid = @mesh, grid_shape = [2, 2], peered_axes = [0, 1]>
    ```
  }];
  let parameters = (ins
    "::mlir::FlatSymbolRefAttr":$grid,
    "::mlir::DenseI64ArrayAttr":$grid_shape,
    "::mlir::DenseI64ArrayAttr":$peered_axes
  );
  let extraClassDeclaration = [{
    /// Number of processes: the product of the grid shape.
    int64_t getProcessCount() const;
  }];
}

def MeshVK_CollectiveAttr : MeshVK_Attr<"Collective", "collective"> {
  let summary = "What one lowered collective moves between devices";
  let description = [{
    `pulled_bytes[p]` is what process p reads from its peers' memory.

    ```mlir
    #meshvk.collective<id = 0, kind = "all_gather", algorithm = "direct",
                       group_size = 2, pulled_bytes = [96, 96]>
    ```
  }];
  let parameters = (ins
    "int64_t":$id,
    StringRefParameter<"the upstream op name without dialect">:$kind,
    StringRefParameter<"direct, local or reduce_scatter+all_gather">:$algorithm,
    "int64_t":$group_size,
    "::mlir::DenseI64ArrayAttr":$pulled_bytes
  );
}

def MeshVK_ProcessMemoryAttr : MeshVK_Attr<"ProcessMemory", "process_memory"> {
  let summary = "The device memory one process needs (entry p of meshvk.memory)";
  let description = [{
    `transient_bytes` is the size of the process's transient arena (with reuse),
    `transient_unshared_bytes` what the transients would take without reuse,
    `constant_bytes` what its constant buffers hold (omitted when 0).

    ```mlir
    #meshvk.process_memory<argument_bytes = 64, result_bytes = 64,
                           transient_bytes = 320, transient_unshared_bytes = 192>
    ```
  }];
  let parameters = (ins
    "int64_t":$argument_bytes,
    "int64_t":$result_bytes,
    "int64_t":$transient_bytes,
    "int64_t":$transient_unshared_bytes,
    DefaultValuedParameter<"int64_t", "0">:$constant_bytes
  );
  let extraClassDeclaration = [{
    /// Arguments + results + the transient arena + constants.
    int64_t getPeakBytes() const {
      return getArgumentBytes() + getResultBytes() + getTransientBytes() + getConstantBytes();
    }
  }];
}

def MeshVK_BufferKind : I32EnumAttr<"BufferKind", "where a plan value lives", [
    I32EnumAttrCase<"Argument", 0, "argument">,
    I32EnumAttrCase<"Result", 1, "result">,
    I32EnumAttrCase<"Transient", 2, "transient">,
    I32EnumAttrCase<"Constant", 3, "constant">]> {
  let cppNamespace = "::meshvk";
  let genSpecializedAttr = 0;
}

def MeshVK_BufferAttr : MeshVK_Attr<"Buffer", "buffer"> {
  let summary = "The buffer range one result of a plan op lives in";
  let description = [{
    `argument` / `result`: the whole buffer of plan argument / result number
    `index`; `transient`: `bytes` at byte offset `index` of the process's
    transient arena; `constant`: the process's constant buffer number `index`
    (a meshvk.constant's data, written once when the program is created, never
    written by the plan). A copy's result lives in its destination's buffer.

    ```mlir
    #meshvk.buffer<kind = transient, index = 256, bytes = 64>
    ```
  }];
  let parameters = (ins
    EnumParameter<MeshVK_BufferKind>:$kind,
    "int64_t":$index,
    "int64_t":$bytes
  );
}

#endif // MESHVK_DIALECT_MESHVKATTRIBUTES_TD
