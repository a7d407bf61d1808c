//===- MeshVKOps.td - the meshvk plan dialect --------------------*- tablegen -*-===//
//
// The per-process plan that the compiler hands to kernel codegen and to the
// artifact emitter. A plan is a `func.func` marked `meshvk.plan` whose body is a
// straight-line list of plan ops; every plan op names the process that executes
// it. Values are tensors with value semantics: an SSA edge is a dependency, and an
// edge whose producer runs on another process is a cross-process dependency.
//
//===----------------------------------------------------------------------===//

#ifndef MESHVK_OPS_TD
#define MESHVK_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

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

#endif // MESHVK_OPS_TD
