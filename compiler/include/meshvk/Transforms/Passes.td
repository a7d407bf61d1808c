//===- Passes.td - meshvk compiler passes ------------------------*- tablegen -*-===//
//
// Order (pipeline `meshvk-partition` then `meshvk-plan`):
//   meshvk-check-tensor-types, meshvk-check-initialized (the program as
//   written), [upstream] tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith,
//   tosa-to-tensor, convert-elementwise-to-linalg (the input normalisation),
//   meshvk-normalize-input, meshvk-check-sharding,
//   meshvk-propagate-shardings = on every annotated function:
//     [upstream] sharding-propagation{traversal=forward-backward},
//     meshvk-complete-shardings, meshvk-decompose-reshards;
//   meshvk-record-abi,
//   [upstream] shard-partition, canonicalize, meshvk-verify-abi,
//   meshvk-unroll-grid, meshvk-lower-collectives,
//   meshvk-outline-kernels, meshvk-plan-allocations.
//
//===----------------------------------------------------------------------===//

#ifndef MESHVK_TRANSFORMS_PASSES_TD
#define MESHVK_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CheckSharding : Pass<"meshvk-check-sharding", "mlir::ModuleOp"> {
  let summary = "Reject inputs the partitioner would crash on or get wrong";
  let description = [{
    Runs before `sharding-propagation`. Every failure is one diagnostic at the
    offending op: a public function argument or result without a `shard.shard`
    annotation, a grid that is not static, an op the partitioner does not know
    (no ShardingInterface), and a split that does not divide the dimension
    (uneven shards: names the tensor, the dimension and the grid axes).
    The IR is not changed.

    Before (rejected):
    ```mlir
    shard.grid @mesh(shape = 4)
    func.func @f(%a: tensor<10x4xf32>) -> tensor<10x4xf32> {
      %s = shard.sharding @mesh split_axes = [[0]] : !shard.sharding
      %0 = shard.shard %a to %s annotate_for_users : tensor<10x4xf32>
      // error: argument #0 of @f: dimension 0 (size 10) does not divide evenly over grid axes [0] (4 processes)
    ```
  }];
  let dependentDialects = ["mlir::shard::ShardDialect"];
}

def CheckTensorTypes : Pass<"meshvk-check-tensor-types", "mlir::ModuleOp"> {
  let summary = "Refuse unranked tensors and tensors of anything but integers and floats, first";
  let description = [{
    The first of meshvk's input passes: an unranked tensor (`tensor<*xf32>`),
    or a tensor whose elements are not integers, floats or indices
    (`complex<f32>`, `!quant.uniform<...>`, vectors), is refused with one
    error naming the argument or op. No kernel computes them, meshvk's
    rewrites build zeros of the element type, and upstream's tosa-to-linalg
    segfaults on quantized convolutions and on unranked results.
  }];
}

def CheckInitialized : Pass<"meshvk-check-initialized", "mlir::ModuleOp"> {
  let summary = "Refuse programs whose results depend on the undefined values of tensor.empty";
  let description = [{
    Runs on the program as written, right after `meshvk-check-tensor-types`
    and before anything in meshvk creates a `tensor.empty` of its own. A
    `tensor.empty` (or `bufferization.alloc_tensor` without `copy`) holds
    undefined values; two ways of reading them are refused with one error at
    the op that reads, naming the fix:

    1. A linalg op whose payload reads its init (matmul, batch_matmul, conv_*,
       pooling_*, linalg.reduce, a linalg.generic whose region uses the outs
       block argument, with reduction iterators or parallel ones) when that
       init is a `tensor.empty`, looking through `shard.shard`, `tensor.cast`,
       expand/collapse_shape, `tensor.reshape` and `tensor.extract_slice`.
    ```mlir
    %e = tensor.empty() : tensor<32x64xf32>
    %y = linalg.matmul ins(%a, %b : ...) outs(%e : tensor<32x64xf32>) -> ...
    // error: linalg.matmul accumulates into %e = tensor.empty, whose values
    // are undefined (expected an initialised accumulator: fill it first, e.g.
    // linalg.fill ins(%zero : f32) outs(%empty))
    ```
    2. A chain of `tensor.insert_slice` into a `tensor.empty` with static
       shape, offsets, sizes and strides whose slices leave an element
       unwritten, when the chain's result is read:
    ```mlir
    %e = tensor.empty() : tensor<8xf32>
    %0 = tensor.insert_slice %a into %e[0] [4] [1] : tensor<4xf32> into tensor<8xf32>
    %r = linalg.exp ins(%0 : tensor<8xf32>) outs(%e2 : tensor<8xf32>) -> ...
    // error: tensor.insert_slice leaves element [4] of %e = tensor.empty
    // unwritten, and its result is read ...
    ```
    Dynamic shapes or slices are left alone (what they cover is known only
    at run time). TOSA ops have no init and are not checked. The IR is not
    changed.
  }];
}

def NormalizeInput : Pass<"meshvk-normalize-input", "mlir::ModuleOp"> {
  let summary = "Rewrite programs as people write them into what sharding-propagation takes";
  let description = [{
    Runs after the tosa and elementwise-to-linalg conversions, before
    `meshvk-check-sharding`. Rewrites (each works around an upstream
    propagation/partition failure on inputs people write):

    1. A public function with no `shard` op at all is annotated as replicated
       on the module's only grid, or on a new `@meshvk_grid(shape = 1)` when
       the module declares none (modules with several grids are left alone:
       check-sharding asks for annotations).
    ```mlir
    func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> { ... return %0 }
    // becomes
    shard.grid @meshvk_grid(shape = 1)
    func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
      %rep = shard.sharding @meshvk_grid split_axes = [[]] : !shard.sharding
      %a_s = shard.shard %a to %rep annotate_for_users : tensor<8xf32>
      ...
      %r = shard.shard %0 to %rep : tensor<8xf32>
      return %r : tensor<8xf32>
    }
    ```
    2. A producer annotation written after another use of its value moves up
       to the value's producer (propagation otherwise reuses it for the
       earlier use and the IR no longer verifies).
    3. A `linalg.generic` input read through a constant index of a size-1
       dimension reads it through a new extent-1 reduction dimension:
    ```mlir
    indexing_maps = [(i, j) -> (i, j), (i, j) -> (0, j), (i, j) -> (i, j)]
    // becomes
    indexing_maps = [(i, j, k) -> (i, j), (i, j, k) -> (k, j), (i, j, k) -> (i, j)],
    iterator_types = [parallel, parallel, reduction]
    ```
    4. Dead ops are erased; a `tensor.empty` used by several ops is cloned
       per use; an unused tensor argument of an annotated function gets a
       replicated annotation (shard-partition crashes on one without).
    5. A contraction accumulating into a tensor it reads (`outs(%c)` with
       %c not a tensor.empty or linalg.fill) accumulates into zeros and adds
       %c with `linalg.add` after; any other op reading such an init is
       refused (kernels cannot update their inputs in place).
    6. `tensor.pad` (constant padding value) becomes `tensor.empty` +
       `linalg.fill` + `tensor.insert_slice`, and `tensor.concat` becomes
       `tensor.empty` + one `tensor.insert_slice` per operand (upstream's
       decompositions): slices have a sharding rule (SliceSharding.cpp) and
       become copies in the plan. A pad whose value depends on the position
       is refused.
    7. A `tensor.extract_slice` of a constant `tensor.pad` that reads a
       window of the unpadded shape (a stencil's shifted operand) becomes a
       `meshvk.window` (shift 0: the tensor itself), which moves only the
       borders it reads once partitioned. Static `halo_sizes` in annotations
       are checked against the windows (a warning when a window reads
       further, or when none reads the tensor) and dropped: upstream
       shard-partition crashes on halo-sharded operands.
    8. An elementwise `linalg.generic` producing a tensor of an element type
       the runtime has no buffers for (an i1 mask of a comparison) is fused
       into its consumers (upstream elementwise fusion, restricted to them).
    9. A tensor constant whose elements differ (f32, f16, i32) becomes a
       `meshvk.constant` (upstream partitions splat constants only; the plan
       keeps such data in constant buffers of the artifact); a splat one
       becomes a `linalg.fill` of a `tensor.empty` per use (upstream gives a
       split splat constant no static type on uneven shards):
    ```mlir
    %w = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %z = arith.constant dense<0.0> : tensor<2xf32>
    // becomes
    %w = meshvk.constant dense<[1.0, 2.0]> : tensor<2xf32> : tensor<2xf32>
    %z = linalg.fill ins(%cst : f32) outs(%empty : tensor<2xf32>) -> tensor<2xf32>
    ```
    10. `tensor.reshape` between static shapes becomes one
       `tensor.collapse_shape` / `expand_shape` when the shapes allow it, else
       a collapse to 1-D and an expand (ReshapeSharding.cpp partitions those).
  }];
  let dependentDialects = ["mlir::shard::ShardDialect", "mlir::linalg::LinalgDialect",
                           "meshvk::MeshVKDialect"];
}

def LowerArgmax : Pass<"meshvk-lower-argmax", "mlir::func::FuncOp"> {
  let summary = "tosa.argmax -> single-output linalg reductions the partitioner takes";
  let description = [{
    Runs before tosa-to-linalg, whose argmax is one linalg.generic with two
    outputs (the running maximum and its index): upstream's linalg sharding
    rule takes one init. numpy's semantics (the TOSA spec's: the first index
    of the maximum; NaN_mode PROPAGATE: the first NaN, IGNORE: NaNs skipped,
    index 0 when every value is NaN), in three reductions that each partition
    like any other, so a split reduced dimension combines by an all-reduce:
    ```mlir
    %i = tosa.argmax %x {axis = 1 : i32} : (tensor<6x8xf32>) -> tensor<6xi32>
    // becomes
    %m = max over axis 1 of (isnan(x) ? -inf : x)                 // tensor<6xf32>
    %k = min over axis 1 of (isnan(x) ? j : x == m ? j + 8 : INT_MAX)  // j = linalg.index 1
    %i = %k == INT_MAX ? 0 : %k >= 8 ? %k - 8 : %k                 // elementwise
    ```
    (integers: `%k = min of (x == m ? j : INT_MAX)`, no third step). The
    index `j` is made global on split dimensions by meshvk-prepare-generics.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::arith::ArithDialect",
                           "mlir::tensor::TensorDialect"];
}

def DecomposeTosa : Pass<"meshvk-decompose-tosa", "mlir::func::FuncOp"> {
  let summary = "tosa.transpose_conv2d as upstream's conv2d of the padded input and reversed filter";
  let description = [{
    Runs before tosa-to-linalg, which has no lowering for
    tosa.transpose_conv2d: upstream's decomposition patterns (those of
    tosa-optional-decompositions) applied by the walk driver, which neither
    folds nor moves constants (the greedy driver of upstream's pass hoists
    every constant above the program's annotations and erases unused ones).
  }];
}

def PrepareGenerics : Pass<"meshvk-prepare-generics", "mlir::ModuleOp"> {
  let summary = "linalg.generic bodies the partitioner would get wrong -> ones it gets right";
  let description = [{
    Runs after meshvk-normalize-input, before meshvk-check-sharding, on every
    annotated function:

    0. A generic whose inputs are splat constants or fills of constants
       (none, or a 0-d chain of constants such as an attention scale
       `1 / pow(16, 0.5)`) becomes a fill of the value its body folds to (the
       body ops' own folders), so no kernel computes a constant.
    1. A generic with several outputs whose yields are independent becomes
       one generic per output (upstream's sharding rule takes one init); one
       whose outputs depend on each other is left for check-sharding to
       refuse.
    2. `linalg.index d` reads an i32 iota (a meshvk.constant of the loop
       extent) through a new input `(d0, ..., dn) -> (dd)`: the partitioner
       keeps linalg.index as it is, which is the LOCAL index on a split
       dimension (a silent wrong answer); the iota is split like the loop,
       so each process reads its global indices.
    3. A tensor read inside a body by `tensor.extract` (tosa.gather,
       tosa.reverse) is annotated replicated for that use (whole on every
       process, all-gathered if it is split) and its computed indices are
       clamped into range (TOSA leaves out-of-range indices unpredictable;
       clamping keeps every read inside the buffer). `tensor.dim` of a static
       dimension becomes a constant.
    ```mlir
    %r = linalg.generic {maps = [(i, j) -> (i, j)]} outs(%e) {
      %k = linalg.index 1 : index
      %v = tensor.extract %t[%i, %k] : tensor<4x8xf32>
    // becomes
    %iota = meshvk.constant dense<[0, 1, ..., 7]> : tensor<8xi32>
    %t_r = shard.shard %t to %replicated annotate_for_users : tensor<4x8xf32>
    %r = linalg.generic {maps = [(i, j) -> (j), (i, j) -> (i, j)]} ins(%iota) outs(%e) {
    ^bb0(%j: i32, %o: f32):
      %k = arith.index_cast %j : i32 to index
      %v = tensor.extract %t_r[%i, %k] : tensor<4x8xf32>
    ```
  }];
  let dependentDialects = ["mlir::shard::ShardDialect", "mlir::linalg::LinalgDialect",
                           "meshvk::MeshVKDialect", "mlir::arith::ArithDialect"];
}

def StoreInF16 : Pass<"meshvk-store-in-f16", "mlir::ModuleOp"> {
  let summary = "f32 tensors stored as f16 (--precision=f16), arithmetic kept in f32";
  let description = [{
    Runs after the input passes (the program is linalg on tensors) when
    `--precision=f16` asks for it. Every f32 tensor (arguments, results,
    constants: the weights, activations) becomes f16, so parameter and
    activation bytes halve; integer and boolean tensors stay. A linalg body
    extends its f16 operands to f32, computes in f32 and truncates what it
    stores into an f16 output; an op with reduction loops (matmul,
    convolution, pooling, linalg.reduce) keeps an f32 accumulator and its
    result is truncated by a following elementwise op. The math is f32 on
    every target, so a device with 16-bit storage but no f16 arithmetic
    needs no other program.
    ```mlir
    %r = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x2xf32>) outs(%acc : tensor<4x2xf32>)
    // becomes (%x, %w f16; %acc the f32 fill)
    %m = linalg.matmul ins(%x, %w : tensor<4x8xf16>, tensor<8x2xf16>) outs(%acc : tensor<4x2xf32>)
    %r = linalg.generic ... ins(%m : tensor<4x2xf32>) outs(%e : tensor<4x2xf16>) {
      ^bb0(%a: f32, %o: f16):
        %t = arith.truncf %a : f32 to f16
        linalg.yield %t : f16
    }
    ```
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::arith::ArithDialect",
                           "mlir::tensor::TensorDialect"];
}

def UnevenShards : Pass<"meshvk-uneven-shards", "mlir::func::FuncOp"> {
  let summary = "Give uneven splits explicit shard offsets; reshard them with meshvk.reshard";
  let description = [{
    Runs after `meshvk-propagate-shardings` (propagation, completion and
    decomposition of reshards), before `meshvk-record-abi`.
    Upstream's shard helpers assume every split divides its dimension
    (`shardDimension` asserts), and `shard-partition` cannot reshard a tensor
    whose sharding has `sharded_dims_offsets`. This pass:
    1. gives every annotation of a dimension the split does not divide explicit
       offsets (the first `size % parts` shards get one element more, as
       numpy.array_split and IREE do: 10 over 4 is 3, 3, 2, 2); offsets the user
       wrote for a dimension size and grid axis are reused for the shardings
       propagation derived from them (propagation drops offsets);
    2. replaces every chained pair of annotations that differ and involve
       offsets with a `meshvk.reshard` between them, which shard-partition
       keeps and meshvk-lower-collectives turns into box copies.
    Partitioned shapes of such tensors are dynamic (`shard.shard_shape`);
    meshvk-unroll-grid makes them each process's static size.

    ```mlir
    %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
    %0 = shard.shard %a to %s : tensor<10x8xf32>
    %1 = shard.shard %0 to %rep annotate_for_users : tensor<10x8xf32>
    // after:
    %s2 = shard.sharding @g split_axes = [[0]] sharded_dims_offsets = [0, 3, 6, 8, 10] : ...
    %0 = shard.shard %a to %s2 : tensor<10x8xf32>
    %r = meshvk.reshard %0 on @g global_shape [10, 8] from [[0]] offsets [0, 3, 6, 8, 10]
         to [[]] offsets [] : tensor<10x8xf32> -> tensor<10x8xf32>
    %2 = shard.shard %r to %rep : tensor<10x8xf32>
    %1 = shard.shard %2 to %rep annotate_for_users : tensor<10x8xf32>
    ```
  }];
  let dependentDialects = ["mlir::shard::ShardDialect", "meshvk::MeshVKDialect"];
}

def PropagateShardings : Pass<"meshvk-propagate-shardings", "mlir::ModuleOp"> {
  let summary = "Propagate and complete the shardings of every annotated function";
  let description = [{
    Runs upstream `sharding-propagation`, then `meshvk-complete-shardings` and
    `meshvk-decompose-reshards`, on each function of the global program, and
    leaves SPMD functions alone: per-process code (collectives, update_halo,
    process indices, no annotations; compiler/README.md "SPMD functions") has
    nothing to propagate, and upstream propagation refuses its ops ("sharding
    interface is not implemented").
  }];
  let options = [
    Option<"traversal", "traversal", "mlir::shard::TraversalOrder",
           /*default=*/"mlir::shard::TraversalOrder::ForwardBackward",
           "sharding-propagation traversal",
           [{::llvm::cl::values(
              clEnumValN(mlir::shard::TraversalOrder::ForwardBackward, "forward-backward",
                         "forward then backward"),
              clEnumValN(mlir::shard::TraversalOrder::BackwardForward, "backward-forward",
                         "upstream's default"),
              clEnumValN(mlir::shard::TraversalOrder::Backward, "backward", "backward only"))}]>
  ];
  let dependentDialects = ["mlir::shard::ShardDialect"];
}

def CompleteShardings : Pass<"meshvk-complete-shardings", "mlir::func::FuncOp"> {
  let summary = "Run ops that sharding-propagation left unannotated replicated";
  let description = [{
    Runs after `sharding-propagation`. MLIR 22.1's `shard-partition` segfaults
    on an op whose tensor operands are not all defined by a users'
    annotation or whose results are not each used by exactly one producer
    annotation; propagation leaves such ops when the shardings around them
    conflict (a matmul whose operands split the contraction over the axis
    its result is wanted split on; a batch_matmul whose operands split `k`
    and `n` over the same axis). Each such op gets replicated operands and a
    replicated result (users reshard from there) and a warning naming the op
    and the shardings around it. Constants are left as upstream leaves them.

    Before (propagation left the matmul without operand annotations):
    ```mlir
    %h2 = shard.shard %h to %cols : tensor<32x256xf32>
    %y = linalg.matmul ins(%h2, %w2 : ...) outs(%acc : ...) -> tensor<32x64xf32>
    %y_r = shard.shard %y to %rows : tensor<32x64xf32>
    ```
    After:
    ```mlir
    %h3 = shard.shard %h2 to %rep annotate_for_users : tensor<32x256xf32>
    %w3 = shard.shard %w2 to %rep annotate_for_users : tensor<256x64xf32>
    ...
    %y = linalg.matmul ins(%h3, %w3 : ...) outs(%acc3 : ...) -> tensor<32x64xf32>
    %y_p = shard.shard %y to %rep : tensor<32x64xf32>
    %y_r = shard.shard %y_p to %rows : tensor<32x64xf32>
    ```
  }];
  let dependentDialects = ["mlir::shard::ShardDialect"];
}

def RecordAbi : Pass<"meshvk-record-abi", "mlir::ModuleOp"> {
  let summary = "Record each public function's global signature and shardings";
  let description = [{
    Runs after `sharding-propagation` (every argument then carries a sharding)
    and before `shard-partition` (which rewrites signatures to local shard
    shapes). Also rejects propagated shardings that split a dimension unevenly.
    Attaches `meshvk.abi` to every public function:
    ```mlir
    func.func @f(%a: tensor<8x4xf32>) -> tensor<8x4xf32> attributes {meshvk.abi = {
      grid = @mesh, grid_shape = array<i64: 2>,
      args = [{type = tensor<8x4xf32>, split_axes = [[0]],
               shard_offsets = [array<i64: 0, 0>, array<i64: 4, 0>],
               shard_shape = array<i64: 4, 4>} ],
      results = [...]}}
    ```
    `shard_offsets[p]` is the first element of process p's shard (p = linear
    process index, row-major over the grid); every process's shard has the shape
    `shard_shape`.
  }];
  let dependentDialects = ["::meshvk::MeshVKDialect", "mlir::shard::ShardDialect"];
}

def VerifyAbi : Pass<"meshvk-verify-abi", "mlir::ModuleOp"> {
  let summary = "Check that partitioning kept every public function's global signature";
  let description = [{
    Runs after `shard-partition`. Recomputes each argument's and result's local
    shard type from `meshvk.abi` and compares it with the partitioned signature.
    A mismatch is the upstream partitioner dropping a resharding step; it is
    reported as an error instead of silently returning a wrongly shaped result.
  }];
}

def DecomposeReshards : Pass<"meshvk-decompose-reshards", "mlir::func::FuncOp"> {
  let summary = "Split every reshard into steps upstream can partition";
  let description = [{
    Upstream `shard-partition` handles a reshard (two chained `shard.shard`
    ops) only when it gathers, slices or moves the LAST grid axis of one
    dimension's split; with more than one change it drops steps silently, and
    removing a non-last axis (`[[0, 1]]` to `[[1]]`) crashes it. This pass
    rewrites every reshard into a chain of such single steps: axes already in
    place stay, a trailing axis moves to another dimension in one all_to_all
    when that divides evenly, unused axes are sliced in before anything is
    gathered, and the rest is gathered from the end of each list.

    Before:
    ```mlir
    %0 = shard.shard %a to %s01 : tensor<8x6xf32>          // [[0], [1]]
    %1 = shard.shard %0 to %rep annotate_for_users : ...    // [[], []]
    ```
    After:
    ```mlir
    %0 = shard.shard %a to %s01 : tensor<8x6xf32>
    %m = shard.sharding @mesh split_axes = [[], [1]] : !shard.sharding
    %1 = shard.shard %0 to %m annotate_for_users : tensor<8x6xf32>
    %2 = shard.shard %1 to %m : tensor<8x6xf32>
    %3 = shard.shard %2 to %rep annotate_for_users : tensor<8x6xf32>
    ```
  }];
  let dependentDialects = ["mlir::shard::ShardDialect"];
}

def UnrollGrid : Pass<"meshvk-unroll-grid", "mlir::ModuleOp"> {
  let summary = "Turn each partitioned SPMD function into a per-process plan";
  let description = [{
    Clones the body once per process of the static grid, with
    `shard.process_multi_index` / `process_linear_index` / `grid_shape` folded to
    constants, so dead `scf.if` branches disappear and each process has its own
    straight-line ops. Every op is tagged `meshvk.process = p`; every collective
    gets `meshvk.collective_id` (the same id on all processes' copies of it). The
    plan function takes and returns every process's shard: argument
    `i * P + p` is process p's shard of global argument i (same for results).

    Before:
    ```mlir
    func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {  // grid 2
      %0 = linalg.exp ins(%a ...) outs(...)
      return %0
    ```
    After:
    ```mlir
    func.func @f(%a0: tensor<4x4xf32> {meshvk.process = 0}, %a1: ... {meshvk.process = 1})
        -> (tensor<4x4xf32>, tensor<4x4xf32>) attributes {meshvk.plan = {...}} {
      %0 = linalg.exp {meshvk.process = 0} ins(%a0 ...) outs(...)
      %1 = linalg.exp {meshvk.process = 1} ins(%a1 ...) outs(...)
      return %0, %1
    ```

    Expects: functions with `meshvk.abi` and no `meshvk.plan` (partitioned
    SPMD code), each one block ending in `func.return`, whose ABI names a
    static `shard.grid` of the module; no `shard.shard`, `shard.get_sharding`
    or `shard.neighbors_linear_indices` left, `shard.sharding` and
    `shard.shard_shape` only at the top level, collectives only at the top
    level (not in control flow); `scf` control flow must fold away once the
    process index is a constant.

    Leaves: each such function replaced by its plan (same name, `meshvk.abi`
    kept) with `meshvk.plan` (grid, grid shape, and the peered axes: the
    grid's `meshvk.peered_memory_axes`, else every axis); each process's own
    static shard types; every op tagged `meshvk.process`, every collective
    `meshvk.collective_id`; no process-index queries.
  }];
  let dependentDialects = ["::meshvk::MeshVKDialect", "mlir::arith::ArithDialect"];
}

def LowerCollectives : Pass<"meshvk-lower-collectives", "mlir::ModuleOp"> {
  let summary = "Lower collectives on peered grid axes to peer copies and local kernels";
  let description = [{
    Matches each collective across processes by `meshvk.collective_id` and
    replaces it with `meshvk.empty` + `meshvk.copy` (pulled by the destination
    process, never from itself) and, for reductions, a local elementwise
    reduction kernel. all_reduce picks `direct` (every process pulls the whole
    partial of each peer) or `reduce_scatter+all_gather` (pulls 2(n-1)/n of the
    data) by size. The plan function gets `meshvk.collectives`: per collective,
    its kind, algorithm and the bytes each process pulls. Axes not listed in the
    grid's `meshvk.peered_memory_axes` are rejected ("not supported yet").

    Before (process 1 of a 2-process all_gather):
    ```mlir
    %g1 = shard.all_gather %x1 on @mesh grid_axes = [0] gather_axis = 0
        {meshvk.process = 1, meshvk.collective_id = 0} : tensor<4x6xf32> -> tensor<8x6xf32>
    ```
    After:
    ```mlir
    %e = meshvk.empty on 1 : tensor<8x6xf32>
    %c0 = meshvk.copy %x0[0, 0] from 0 into %e[0, 0] on 1 sizes [4, 6] : ...
    %g1 = meshvk.copy %x1[0, 0] from 1 into %c0[4, 0] on 1 sizes [4, 6] : ...
    ```

    Expects: plan functions (`meshvk.plan`) as meshvk-unroll-grid leaves them:
    each collective (the ops sharing a `meshvk.collective_id`) once on every
    process, on ranked tensors, over grid axes among the plan's peered axes;
    `shard.send` / `shard.recv` matched in pairs. Functions without
    `meshvk.plan` are left alone.

    Leaves: no collectives: `meshvk.empty` + `meshvk.copy` and small
    `linalg.fill` / `linalg.generic` kernels, each tagged with its process and
    with the `meshvk.collective_id` of the collective it came from;
    `meshvk.collectives` on the plan; static unit-stride
    `tensor.extract_slice` / `insert_slice` of a process's own tensors as
    local copies.
  }];
  let options = [
    Option<"directAllReduceMaxBytes", "direct-all-reduce-max-bytes", "int64_t",
           /*default=*/"65536",
           "all_reduce of at most this many bytes uses the direct algorithm">,
  ];
  let dependentDialects = ["::meshvk::MeshVKDialect", "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect", "mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect"];
}

def SplitReductions : Pass<"meshvk-split-reductions", "mlir::ModuleOp"> {
  let summary = "Split long reductions with few outputs into partials and a combine";
  let description = [{
    The kernel tiler reduces each output element on one invocation. A
    reduction with fewer outputs than `fill-outputs` (a sum to a scalar) and
    at least `min-length` elements per output, or
    with a reduction loop longer than `max-chunk` (llvmpipe ends any loop after
    65535 iterations), becomes three plan ops: partials over chunks of its
    longest reduction loop (a new innermost output dimension), a tail op for
    the elements past the last whole chunk (only when there are any, into the
    original init), and a combine of the partials into that. Each becomes a
    kernel (meshvk-outline-kernels); a combine that is still long is split
    again. Only bodies `acc = acc (+) f(inputs)` with a commutative combiner
    that has a neutral element (addf/addi/mulf/muli, max/min, and/or/xor) and
    no linalg.index are split; matmuls are not.

    Before:
    ```mlir
    %r = linalg.reduce {meshvk.process = 0} ins(%x : tensor<16777216xf32>)
           outs(%zero : tensor<f32>) dimensions = [0] (addf)
    ```
    After:
    ```mlir
    %p = linalg.generic {maps = [(d0, d1) -> (d1 * 4096 + d0), (d0, d1) -> (d0),
                                 (d0, d1) -> (d1)], iterators = [reduction, parallel]}
           ins(%x, %extent : tensor<16777216xf32>, tensor<4096xf32>)
           outs(%fill0 : tensor<4096xf32>)          // addf
    %r = linalg.generic {maps = [(d0) -> (d0), (d0) -> ()], iterators = [reduction]}
           ins(%p : tensor<4096xf32>) outs(%zero : tensor<f32>)   // addf
    ```
    (`%extent` is an unused `tensor.empty` whose map gives the chunk loop its
    range; the kernel generator drops it.)

    Expects: plans (meshvk-unroll-grid), ops tagged with their process.
    Leaves: the same plans, long reductions split; every new op tagged.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect",
                           "mlir::arith::ArithDialect"];
  let options = [
    Option<"fillOutputs", "fill-outputs", "int64_t", /*default=*/"4096",
           "outputs (partials) that keep the device busy: a reduction with fewer is split">,
    Option<"minLength", "min-length", "int64_t", /*default=*/"16384",
           "elements per output below which a reduction with few outputs is left whole">,
    Option<"minChunk", "min-chunk", "int64_t", /*default=*/"1024",
           "fewest elements a partial reduces">,
    Option<"maxChunk", "max-chunk", "int64_t", /*default=*/"16384",
           "longest reduction loop left unsplit (llvmpipe's loop limit is 65535 iterations)">,
  ];
}

def FoldUnitReshapes : Pass<"meshvk-fold-unit-reshapes", "mlir::ModuleOp"> {
  let summary = "Read unit-dim reshapes' sources directly in linalg.generic inputs";
  let description = [{
    A tensor.expand_shape that only adds dims of extent 1, or a
    tensor.collapse_shape that only drops them, moves no element; outlined it
    is a copy kernel, and between a row reduction (tosa.reduce_* keeps the
    reduced dim) and its broadcast readers it splits the row chain. On plan
    functions, each linalg.generic input read through such a reshape (or a
    chain of them) reads the reshape's source instead: an added unit dim's
    index is dropped from the input's map, a dropped unit dim is read at 0.
    Reshapes left unused are erased. Named linalg ops, inits and reshapes that
    split or merge dims of extent > 1 are left as they are. Creates no op.

    Before:
    ```mlir
    %e = tensor.expand_shape %r [[0], [1, 2]] output_shape [4, 16, 1]
        : tensor<4x16xf32> into tensor<4x16x1xf32>
    %m = linalg.generic {indexing_maps = [(d0, d1, d2) -> (d0, d1, d2), ...]}
        ins(%e : tensor<4x16x1xf32>) ...
    ```
    After:
    ```mlir
    %m = linalg.generic {indexing_maps = [(d0, d1, d2) -> (d0, d1), ...]}
        ins(%r : tensor<4x16xf32>) ...
    ```

    Expects: plans after meshvk-unroll-grid (run before meshvk-outline-kernels).
    Leaves: the same plans with fewer reshapes.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect"];
}

def OutlineKernels : Pass<"meshvk-outline-kernels", "mlir::ModuleOp"> {
  let summary = "Outline each process's local compute into deduplicated kernel functions";
  let description = [{
    Every tensor-producing compute op of a plan (linalg, tensor, math, arith on
    tensors) becomes a `meshvk.launch` of a private `func.func @kernel_N`
    marked `meshvk.kernel`. Constants and `tensor.empty` are cloned into the
    kernel. Kernels whose bodies are identical (typically the same op on every
    process) are one function.

    Before:
    ```mlir
    %0 = linalg.exp {meshvk.process = 0} ins(%a0 : tensor<4xf32>) outs(%e0 : tensor<4xf32>)
    %1 = linalg.exp {meshvk.process = 1} ins(%a1 : tensor<4xf32>) outs(%e1 : tensor<4xf32>)
    ```
    After:
    ```mlir
    %0 = meshvk.launch @kernel_0(%a0) on 0 : (tensor<4xf32>) -> tensor<4xf32>
    %1 = meshvk.launch @kernel_0(%a1) on 1 : (tensor<4xf32>) -> tensor<4xf32>
    func.func private @kernel_0(%x: tensor<4xf32>) -> tensor<4xf32> attributes {meshvk.kernel}
    ```

    Expects: plans whose collectives are lowered (meshvk-lower-collectives):
    every op tagged with its process.

    Leaves: every computation of a plan inside a `meshvk.launch` of a private
    `meshvk.kernel` function; around the launches only `meshvk.empty`,
    `meshvk.copy`, `meshvk.constant` (and constants and `tensor.empty`).
  }];
  let dependentDialects = ["::meshvk::MeshVKDialect", "mlir::func::FuncDialect"];
}

def RecomposeWindows : Pass<"meshvk-recompose-windows", "mlir::ModuleOp"> {
  let summary = "Rebuild convolutions and poolings whose windows stayed local as one op";
  let description = [{
    meshvk-normalize-input decomposes a convolution or pooling into generics
    over shifted windows of its input (ConvWindows.cpp), so that partitioning
    can split it, and keeps the op as a template in the nested module
    @meshvk_window_ops. After partitioning, where every window of an op reads
    only this process's shard (no split of a shifted or padded dimension) and
    the tap generics still combine as they were emitted (nothing partitioning
    put between them), the generics, windows and filter slices are replaced by
    the op itself on the local shards: it reads the local input padded once
    (a fill and one copy of the shard into its interior) and the whole local
    filters. Ops whose windows need neighbours' borders keep the
    decomposition. The template module is erased.

    Before (one 3x3 convolution, 9 taps in 3 groups):
    ```mlir
    %w0 = meshvk.window %x shifts [0, -1, -1, 0] pad 0.0 : f32 ...
    %f0 = tensor.extract_slice %w[0, 0, 0, 0] [8, 1, 1, 8] ...
    %g0 = linalg.generic {meshvk.window_op = @meshvk_window_ops::@window_op,
                          meshvk.window_roles = array<i64: -2, 1, ...>} ins(%w0, %f0, ...)
    ...
    %s = linalg.add ins(%g01, %g2 ...)
    ```
    After:
    ```mlir
    %p = linalg.fill ins(%zero) outs(%empty : tensor<2x12x12x8xf32>)
    %xp = tensor.insert_slice %x into %p[0, 1, 1, 0] [2, 10, 10, 8] [1, 1, 1, 1]
    %s = linalg.generic {...(d0, d1 + d4, d2 + d5, d6)...} ins(%xp, %w) outs(...)
    ```
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"recomposed", "recomposed", "window ops rebuilt as one op">,
    Statistic<"kept", "kept", "window ops left decomposed (non-local windows or a changed chain)">
  ];
}

def FuseKernels : Pass<"meshvk-fuse-kernels", "mlir::ModuleOp"> {
  let summary = "Merge elementwise kernels into the kernel of their producer (epilogues, chains)";
  let description = [{
    A launch whose results are read only by one elementwise launch of the same
    process is merged into it: the producer's body, then the consumer's, as
    one kernel (a matmul or convolution with its bias, activation and residual
    add; a chain of elementwise ops). The producer must be elementwise or a
    contraction kernel, each of its results read once through a permutation
    (never broadcast), and no copy or collective may lie between the two
    launches (work never moves across data movement). Merged kernels are
    deduplicated; outlined kernels left without launches are erased.

    Before:
    ```mlir
    %0 = meshvk.launch @kernel_0(%a, %w) on 0 : (...) -> tensor<8x256xf32>   // matmul
    %1 = meshvk.launch @kernel_1(%0, %bias) on 0 : (...) -> tensor<8x256xf32> // + bias
    %2 = meshvk.launch @kernel_2(%1) on 0 : (...) -> tensor<8x256xf32>        // relu
    ```
    After:
    ```mlir
    %2 = meshvk.launch @kernel_fused(%a, %w, %bias) on 0 : (...) -> tensor<8x256xf32>
    func.func private @kernel_fused(...) attributes {meshvk.kernel} {
      // fill, matmul, bias generic, relu generic
    }
    ```

    Expects: meshvk-outline-kernels' output. Leaves: the same contract, with
    fewer launches.
  }];
  let dependentDialects = ["::meshvk::MeshVKDialect", "mlir::func::FuncDialect",
                           "mlir::linalg::LinalgDialect"];
}

def FuseRowChains : Pass<"meshvk-fuse-row-chains", "mlir::ModuleOp"> {
  let summary = "Merge row reductions with the kernels that read them broadcast along the row";
  let description = [{
    Softmax, LayerNorm and the attention chain as one kernel each: a launch
    whose results a launch of the same process reads is merged into it when
    both kernels iterate one row space (the same leading parallel loops, every
    operand read with them as its leading indices, so no row reads another
    row's data), the work after the rows is elementwise or a row reduction
    (reduction loops only after the rows, the output exactly the row), at
    least one op is such a reduction, rows have at most 4096 elements, and no
    copy or collective lies between the launches. Operands read otherwise (a
    LayerNorm weight without the rows, a causal mask [t, t] under rows
    [b, h, t]) must be kernel inputs from outside the pair, read through a
    projected permutation.
    Codegen tiles such kernels by rows (RowTiles.cpp): each row's reductions
    are computed once and kept in invocation-private memory.

    Before:
    ```mlir
    %m = meshvk.launch @kernel_0(%x) on 0 : (tensor<8x16xf32>) -> tensor<8xf32>     // row max
    %e = meshvk.launch @kernel_1(%x, %m) on 0 : (...) -> tensor<8x16xf32>           // exp(x - m)
    %s = meshvk.launch @kernel_2(%e) on 0 : (tensor<8x16xf32>) -> tensor<8xf32>     // row sum
    %y = meshvk.launch @kernel_3(%e, %s) on 0 : (...) -> tensor<8x16xf32>           // e / s
    ```
    After:
    ```mlir
    %y = meshvk.launch @kernel_4(%x) on 0 : (tensor<8x16xf32>) -> tensor<8x16xf32>
    ```

    Expects: meshvk-fuse-kernels' output (or meshvk-outline-kernels'). Leaves:
    the same contract, with fewer launches.
  }];
  let dependentDialects = ["::meshvk::MeshVKDialect", "mlir::func::FuncDialect",
                           "mlir::linalg::LinalgDialect"];
}

def PlanAllocations : Pass<"meshvk-plan-allocations", "mlir::ModuleOp"> {
  let summary = "Assign every plan value a buffer on its process (the one place sizes are decided)";
  let description = [{
    Sizes come from the value's local (shard) type. Arguments and results are
    their own buffers (the host fills and reads them); every other value lives
    in its process's transient arena at an offset, and values whose lifetimes do
    not overlap share bytes. A copy updates its destination's buffer in place.
    Values never produced on a process take no memory there.

    After: each plan op gets `meshvk.buffers` (per result: `[kind, offset, bytes]`
    with kind 0 = argument, 1 = result, 2 = transient), the plan function gets
    `meshvk.memory`: per process `{argument_bytes, result_bytes,
    transient_bytes (arena size), transient_unshared_bytes (without reuse),
    peak_bytes}`.

    Expects: plans as meshvk-outline-kernels leaves them: one block ending in
    `func.return`, static tensor arguments and results of int or float
    elements, a multiple of the process count of each, and only
    `meshvk.empty` / `copy` / `launch` / `constant` ops (constant-like ops and
    `tensor.empty` tolerated); a copy's destination unused after the copy.

    Leaves: the same ops, a returned argument or constant (or a value returned
    twice) first copied into a buffer of its own, plus the attributes above.
  }];
  let dependentDialects = ["::meshvk::MeshVKDialect"];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"256",
           "byte alignment of every transient offset">,
  ];
}

#endif // MESHVK_TRANSFORMS_PASSES_TD
