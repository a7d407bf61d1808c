//===- MeshVKOps.td - the meshvk plan ops -------------------*- tablegen -*-===//
//
// The per-process plan that the compiler hands to kernel codegen and to the
// artifact emitter. A plan is a `func.func` marked `meshvk.plan` whose body is a
// straight-line list of plan ops; every plan op names the process that executes
// it. Values are tensors with value semantics: an SSA edge is a dependency, and an
// edge whose producer runs on another process is a cross-process dependency.
//
//===----------------------------------------------------------------------===//

#ifndef MESHVK_DIALECT_MESHVKOPS_TD
#define MESHVK_DIALECT_MESHVKOPS_TD

include "meshvk/Dialect/MeshVKAttributes.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Dialect/Shard/Interfaces/ShardingInterface.td"

// shard.grid axes per tensor dimension (upstream's attribute; its .td is not
// included because it would regenerate the shard dialect's enums here).
def MeshVK_GridAxesArrayAttr : Attr<CPred<"::llvm::isa<::mlir::shard::GridAxesArrayAttr>($_self)">,
                                    "grid axes per tensor dimension"> {
  let storageType = "::mlir::shard::GridAxesArrayAttr";
  let returnType = "::mlir::shard::GridAxesArrayAttr";
  let convertFromStorage = "$_self";
}

class MeshVK_Op<string mnemonic, list<Trait> traits = []> :
    Op<MeshVK_Dialect, mnemonic, traits>;

def MeshVK_EmptyOp : MeshVK_Op<"empty", [MemoryEffects<[MemAlloc]>]> {
  let summary = "A fresh, uninitialised buffer on one process";
  let description = [{
    The destination of the copies that assemble a tensor on `process` (for
    example the result of an all_gather). Not `Pure` on purpose: two empties must
    never be merged, each is its own buffer.

    ```mlir
    %0 = meshvk.empty on 1 : tensor<8x6xf32>
    ```
  }];
  let arguments = (ins I64Attr:$process);
  let results = (outs AnyStaticShapeTensor:$result);
  let assemblyFormat = "`on` $process attr-dict `:` type($result)";
}

def MeshVK_CopyOp : MeshVK_Op<"copy", [Pure,
    AllTypesMatch<["dest", "result"]>,
    AllElementTypesMatch<["source", "dest"]>]> {
  let summary = "Copy a box of a tensor into a box of another (maybe on a peer)";
  let description = [{
    `result` is `dest` with the box `dest_offsets` + `sizes` replaced by the box
    `source_offsets` + `sizes` of `source`. The copy is recorded on
    `dest_process`; when `source_process` differs it reads peer memory (a pull).
    `dest` must have no use after the copy: the copy updates its buffer in place.

    ```mlir
    %1 = meshvk.copy %a[4, 0] from 0 into %0[0, 0] on 1 sizes [4, 6]
        : tensor<8x6xf32> into tensor<4x6xf32>
    ```
  }];
  let arguments = (ins AnyStaticShapeTensor:$source, I64Attr:$source_process,
                       AnyStaticShapeTensor:$dest, I64Attr:$dest_process,
                       DenseI64ArrayAttr:$source_offsets,
                       DenseI64ArrayAttr:$dest_offsets,
                       DenseI64ArrayAttr:$sizes);
  let results = (outs AnyStaticShapeTensor:$result);
  let assemblyFormat = [{
    $source `` $source_offsets `from` $source_process `into` $dest `` $dest_offsets
    `on` $dest_process `sizes` $sizes attr-dict `:` type($source) `into` type($dest)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Bytes this copy moves.
    int64_t getByteCount();
    /// True when the copy reads another process's memory.
    bool isPeerCopy() { return getSourceProcess() != getDestProcess(); }
  }];
}

def MeshVK_LaunchOp : MeshVK_Op<"launch", [Pure,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Run an outlined kernel on one process";
  let description = [{
    `kernel` names a private `func.func` marked `meshvk.kernel` that takes the
    input tensors and returns the output tensors (static shapes; linalg, tensor,
    arith and math ops). Identical kernels are one function shared by processes.

    ```mlir
    %2 = meshvk.launch @kernel_0(%arg0, %arg1) on 0
        : (tensor<4x4xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel, I64Attr:$process,
                       Variadic<AnyStaticShapeTensor>:$inputs);
  let results = (outs Variadic<AnyStaticShapeTensor>:$results);
  let assemblyFormat = [{
    $kernel `(` $inputs `)` `on` $process attr-dict `:` functional-type($inputs, $results)
  }];
}

def MeshVK_ReshardOp : MeshVK_Op<"reshard", [
    DeclareOpInterfaceMethods<ShardingInterface, ["partition"]>]> {
  let summary = "Move a tensor from one sharding to another when a side is uneven";
  let description = [{
    Upstream shard-partition cannot reshard a tensor whose sharding has
    `sharded_dims_offsets` (uneven shards). meshvk-uneven-shards puts this op
    between such a pair of annotations; shard-partition keeps it (its
    ShardingInterface gives the result the local type of `to`), and
    meshvk-lower-collectives turns each process's copy into box copies: every
    destination shard pulls the intersection of its box with each source
    shard's box. Offsets use upstream's flattened `sharded_dims_offsets` form
    (empty: equal blocks). Types: global before partitioning, local after.

    ```mlir
    %1 = meshvk.reshard %0 on @g global_shape [10, 8]
        from [[0]] offsets [0, 3, 6, 8, 10] to [[]] offsets []
        : tensor<10x8xf32> -> tensor<10x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$source, FlatSymbolRefAttr:$grid,
                       DenseI64ArrayAttr:$global_shape,
                       MeshVK_GridAxesArrayAttr:$from_split_axes,
                       DenseI64ArrayAttr:$from_offsets,
                       MeshVK_GridAxesArrayAttr:$to_split_axes,
                       DenseI64ArrayAttr:$to_offsets);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $source `on` $grid `global_shape` $global_shape `from` $from_split_axes
    `offsets` $from_offsets `to` $to_split_axes `offsets` $to_offsets
    attr-dict `:` type($source) `->` type($result)
  }];
}

def MeshVK_ConstantOp : MeshVK_Op<"constant", [MemoryEffects<[MemAlloc]>,
    DeclareOpInterfaceMethods<ShardingInterface,
        ["getLoopIteratorTypes", "getIndexingMaps", "getShardingOption", "partition"]>]> {
  let summary = "A tensor whose elements are baked into the program";
  let description = [{
    A non-splat tensor constant (weights, a lookup table). Upstream
    shard-partition partitions splat `arith.constant`s only, and kernels take
    no tensor data of their own, so meshvk-normalize-input turns every
    non-splat tensor constant into this op. Three forms, by pipeline stage:

    * global (before partitioning): `value` has the result type;
    * partitioned (SPMD): `value` keeps the GLOBAL tensor and `grid`,
      `split_axes` and `offsets` (upstream's flattened
      `sharded_dims_offsets`, empty for equal blocks) say which part each
      process holds; the result has the local type (`?` for uneven shards);
    * plan (after meshvk-unroll-grid): tagged `meshvk.process = p`, `value`
      is exactly process p's part. The artifact holds it in a constant buffer
      of that process, written once when the program is created.

    Not `Pure`: two processes' constants are two buffers and must never be
    merged (it allocates its result, as meshvk.empty does).

    ```mlir
    %w = meshvk.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %s = meshvk.constant dense<[1, 2, 3, 4, 5]> on @g split [[0]] offsets []
        : tensor<?xi32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value,
                       OptionalAttr<FlatSymbolRefAttr>:$grid,
                       OptionalAttr<MeshVK_GridAxesArrayAttr>:$split_axes,
                       OptionalAttr<DenseI64ArrayAttr>:$offsets);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $value (`on` $grid^ `split` $split_axes `offsets` $offsets)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The global tensor type (the value's type).
    ::mlir::RankedTensorType getGlobalType() {
      return ::llvm::cast<::mlir::RankedTensorType>(getValue().getType());
    }
    /// Every element of the value, row-major, bit width / 8 bytes each
    /// (little-endian, as buffers hold them); nullopt when the storage has
    /// no bytes (an elided dense_resource) or packs bits (i1).
    std::optional<std::vector<char>> getElementBytes();
  }];
}

def MeshVK_WindowOp : MeshVK_Op<"window", [Pure, AllTypesMatch<["source", "result"]>,
    DeclareOpInterfaceMethods<ShardingInterface,
        ["getLoopIteratorTypes", "getIndexingMaps", "partition"]>]> {
  let summary = "A shifted window of a tensor, the pad value outside it";
  let description = [{
    `result[i] = source[i + shifts]` where `i + shifts` lies inside the
    tensor, else `pad`: what a stencil reads as `tensor.extract_slice` of a
    constant `tensor.pad` (meshvk-normalize-input rewrites each such window
    to this op). Elementwise-shaped (identity indexing maps, all loops
    parallel), so the source stays split like the window's users; each
    process then needs only the `|shift|` border elements of its neighbours
    along a split dimension instead of the whole dimension. Three forms, as
    meshvk.constant:

    * global: no grid attributes;
    * partitioned (SPMD): local types, and `grid`, `split_axes`, `offsets`
      (upstream's flattened `sharded_dims_offsets`, empty for equal blocks)
      and `global_shape` say how the source is cut;
    * plan (after meshvk-unroll-grid, one per process, a collective id):
      meshvk-lower-collectives turns each process's window into a fill of
      the pad value where the window leaves the tensor and box copies from
      the processes holding the rest (peer copies of the borders).

    ```mlir
    %up = meshvk.window %x shifts [-1, 0] pad 0.0 : f32 : tensor<64x32xf32>
    %dn = meshvk.window %x shifts [1, 0] pad 0.0 : f32
        on @g split [[0]] offsets [] global_shape [64, 32] : tensor<16x32xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$source, DenseI64ArrayAttr:$shifts, TypedAttrInterface:$pad,
                       OptionalAttr<FlatSymbolRefAttr>:$grid,
                       OptionalAttr<MeshVK_GridAxesArrayAttr>:$split_axes,
                       OptionalAttr<DenseI64ArrayAttr>:$offsets,
                       OptionalAttr<DenseI64ArrayAttr>:$global_shape);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $source `shifts` $shifts `pad` $pad
    (`on` $grid^ `split` $split_axes `offsets` $offsets `global_shape` $global_shape)?
    attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

#endif // MESHVK_DIALECT_MESHVKOPS_TD
