// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-check-sharding | FileCheck %s
// Inputs the upstream partitioner would crash on or miscompile are rejected
// with one diagnostic each; good inputs pass unchanged.

shard.grid @mesh(shape = 4)
// CHECK-LABEL: func.func @ok_rows
func.func @ok_rows(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @mesh split_axes = [[0]] : !shard.sharding
  // CHECK: shard.shard %{{.*}} annotate_for_users
  %0 = shard.shard %a to %s annotate_for_users : tensor<8x4xf32>
  %1 = shard.shard %0 to %s : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

// Uneven shards pass the check (meshvk-uneven-shards gives them offsets).
shard.grid @mesh(shape = 4)
// CHECK-LABEL: func.func @uneven
func.func @uneven(%a: tensor<10x4xf32>) -> tensor<10x4xf32> {
  %s = shard.sharding @mesh split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %a to %s annotate_for_users : tensor<10x4xf32>
  return %0 : tensor<10x4xf32>
}

// -----

// Uneven on a 2x3 grid, dimension 1 split over both axes (6 processes):
// upstream's offsets count shards of a multi-axis split wrongly.
shard.grid @mesh(shape = 2x3)
func.func @uneven_two_axes(%a: tensor<4x9xf32>) -> tensor<4x9xf32> {
  %s = shard.sharding @mesh split_axes = [[], [0, 1]] : !shard.sharding
  // expected-error @+1 {{argument #0 of @uneven_two_axes: dimension 1 (size 9) is split unevenly over several grid axes [0, 1]; uneven shards and sharded_dims_offsets are supported on dimensions split over one grid axis}}
  %0 = shard.shard %a to %s annotate_for_users : tensor<4x9xf32>
  return %0 : tensor<4x9xf32>
}

// -----

// An even dimension over two axes next to an uneven one.
shard.grid @mesh(shape = 2x3x2)
func.func @uneven_next_to_two_axes(%a: tensor<6x5xf32>) -> tensor<6x5xf32> {
  %s = shard.sharding @mesh split_axes = [[0, 1], [2]] : !shard.sharding
  // expected-error @+1 {{argument #0 of @uneven_next_to_two_axes: dimension 0 is split over several grid axes in a sharding with uneven shards or sharded_dims_offsets; split it over one grid axis}}
  %0 = shard.shard %a to %s annotate_for_users : tensor<6x5xf32>
  return %0 : tensor<6x5xf32>
}

// -----

// More shards than rows (3 over 4): accepted, the last process holds an
// empty shard (tests/python/test_empty_shards.py).
shard.grid @mesh(shape = 4)
// CHECK-LABEL: func.func @empty_shard
func.func @empty_shard(%a: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %s = shard.sharding @mesh split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %a to %s annotate_for_users : tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// Explicit offsets: accepted when they tile the dimension.
shard.grid @mesh(shape = 4)
// CHECK-LABEL: func.func @offsets
func.func @offsets(%a: tensor<4x14xf32>) -> tensor<4x14xf32> {
  %s = shard.sharding @mesh split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 5, 9, 14] : !shard.sharding
  %0 = shard.shard %a to %s annotate_for_users : tensor<4x14xf32>
  return %0 : tensor<4x14xf32>
}

// -----

shard.grid @mesh(shape = 4)
func.func @offsets_not_from_zero(%a: tensor<4x14xf32>) -> tensor<4x14xf32> {
  %s = shard.sharding @mesh split_axes = [[], [0]] sharded_dims_offsets = [1, 5, 9, 12, 14] : !shard.sharding
  // expected-error @+1 {{argument #0 of @offsets_not_from_zero: dimension 1 (size 14) cut into 4 shards at [1, 5, 9, 12, 14]; shard offsets must start at 0, never decrease}}
  %0 = shard.shard %a to %s annotate_for_users : tensor<4x14xf32>
  return %0 : tensor<4x14xf32>
}

// -----

shard.grid @mesh(shape = 4)
func.func @offsets_short(%a: tensor<4x14xf32>) -> tensor<4x14xf32> {
  %s = shard.sharding @mesh split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 5, 9, 12] : !shard.sharding
  // expected-error @+1 {{dimension 1 (size 14) cut into 4 shards at [0, 2, 5, 9, 12]; shard offsets must start at 0, never decrease and end at 14}}
  %0 = shard.shard %a to %s annotate_for_users : tensor<4x14xf32>
  return %0 : tensor<4x14xf32>
}

// -----

// Upstream's own verifier counts the entries.
shard.grid @mesh(shape = 2x2)
func.func @offsets_count(%a: tensor<7x7xf32>) -> tensor<7x7xf32> {
  // expected-error @+1 {{sharded dims offsets has wrong size}}
  %s = shard.sharding @mesh split_axes = [[0], [1]] sharded_dims_offsets = [0, 4, 7] : !shard.sharding
  %0 = shard.shard %a to %s annotate_for_users : tensor<7x7xf32>
  return %0 : tensor<7x7xf32>
}

// -----

// Missing annotations: nothing says how to split the function.
shard.grid @mesh(shape = 2)
// expected-error @+1 {{@no_annotations has no shard annotations}}
func.func @no_annotations(%a: tensor<8xf32>) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

// A grid whose size is only known at run time cannot be unrolled.
// expected-error @+1 {{grid @dyn has a dynamic shape}}
shard.grid @dyn(shape = 2x?)
func.func @dynamic_grid(%a: tensor<8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @dyn split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %a to %s annotate_for_users : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Unsupported op: a convolution's indexing maps are not projected permutations.
shard.grid @mesh(shape = 2)
func.func @conv(%a: tensor<16xf32>, %k: tensor<3xf32>) -> tensor<14xf32> {
  %s = shard.sharding @mesh split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %s annotate_for_users : tensor<16xf32>
  %e = tensor.empty() : tensor<14xf32>
  // expected-error @+1 {{'linalg.conv_1d' cannot be partitioned: indexing map}}
  %c = linalg.conv_1d ins(%a0, %k : tensor<16xf32>, tensor<3xf32>) outs(%e : tensor<14xf32>) -> tensor<14xf32>
  return %c : tensor<14xf32>
}

// -----

// Unsupported op: no sharding interface at all.
shard.grid @mesh(shape = 2)
func.func @concat(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<8xf32> {
  %s = shard.sharding @mesh split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %s annotate_for_users : tensor<4xf32>
  // expected-error @+1 {{'tensor.concat' cannot be partitioned: it does not implement the shard sharding interface}}
  %c = tensor.concat dim(0) %a0, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %c : tensor<8xf32>
}

// -----

shard.grid @mesh(shape = 2)
func.func @halo(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{halo_sizes that are not constants are not supported in a global program's annotations: write the stencil as an SPMD function that calls shard.update_halo (compiler/README.md "SPMD functions"), or as tensor.pad + tensor.extract_slice windows of the global tensor (each process then pulls only the borders its windows read)}}
  %s = shard.sharding @mesh split_axes = [[0]] halo_sizes = [1, 1] : !shard.sharding
  %0 = shard.shard %a to %s annotate_for_users : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Unknown grid: the shard dialect's own verifier names it (no crash).
shard.grid @mesh(shape = 2)
func.func @unknown_grid(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{Undefined required grid symbol "nope"}}
  %s = shard.sharding @nope split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %a to %s annotate_for_users : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Scalar arguments make upstream sharding-propagation fail obscurely: the
// signature is refused first, once.
shard.grid @mesh(shape = 2)
// expected-error @+1 {{argument #1 of @scalar_arg is 'f32': meshvk functions take and return ranked tensors without encoding (a scalar is a 0-d tensor<...>)}}
func.func @scalar_arg(%a: tensor<8xf32>, %v: f32, %w: index) -> tensor<8xf32> {
  %s = shard.sharding @mesh split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %s annotate_for_users : tensor<8xf32>
  %f = linalg.fill ins(%v : f32) outs(%a0 : tensor<8xf32>) -> tensor<8xf32>
  return %f : tensor<8xf32>
}

// -----

// expected-error @+1 {{grid @empty has an axis of size < 1}}
shard.grid @empty(shape = 0)
func.func @zero_grid(%a: tensor<8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @empty split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %a to %s annotate_for_users : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

shard.grid @mesh(shape = 2)
func.func @axis_out_of_range(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{sharding splits over grid axis 3, but @mesh has 1 axis (shape 2)}}
  %s = shard.sharding @mesh split_axes = [[3]] : !shard.sharding
  %0 = shard.shard %a to %s annotate_for_users : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

shard.grid @mesh(shape = 2)
func.func @dim_out_of_range(%a: tensor<8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @mesh split_axes = [[], [0]] : !shard.sharding
  // expected-error @+1 {{split_axes names tensor dimension 1 but 'tensor<8xf32>' has rank 1}}
  %0 = shard.shard %a to %s annotate_for_users : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Outside the input dialects: tosa propagates shardings but is not partitioned.
shard.grid @mesh(shape = 2)
func.func @tosa(%a: tensor<8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @mesh split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %s annotate_for_users : tensor<8xf32>
  // expected-error @+1 {{'tosa.abs' cannot be partitioned: meshvk takes linalg, tensor, arith and math ops on tensors}}
  %0 = tosa.abs %a0 : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Grids above the documented limit are refused before anything is unrolled
// (a grid of 65,536 used to be compiled, 4,096 needed over 4 GiB).
// expected-error @+1 {{grid @huge (shape 65536) has more than 1024 processes; meshvk compiles one plan per process and accepts at most 1024}}
shard.grid @huge(shape = 65536)
func.func @huge_grid(%a: tensor<65536xf32>) -> tensor<65536xf32> {
  %s = shard.sharding @huge split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %a to %s annotate_for_users : tensor<65536xf32>
  return %0 : tensor<65536xf32>
}

// -----

// The product counts, and huge extents do not overflow it.
// expected-error @+1 {{grid @wide (shape 64x64) has more than 1024 processes}}
shard.grid @wide(shape = 64x64)
func.func @wide_grid(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %s = shard.sharding @wide split_axes = [[0], [1]] : !shard.sharding
  %0 = shard.shard %a to %s annotate_for_users : tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// A declared but unused grid is not checked (upstream's test files declare a
// dynamic grid next to the static ones they use).
shard.grid @unused(shape = ?)
shard.grid @used(shape = 2)
// CHECK-LABEL: func.func @unused_dynamic_grid
func.func @unused_dynamic_grid(%a: tensor<8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @used split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %a to %s annotate_for_users : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A collective in a function with annotations (global shapes) is refused:
// collectives belong in SPMD functions (no annotations, local shapes).
shard.grid @mesh(shape = 2)
func.func @user_collective(%a: tensor<8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @mesh split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %a to %s annotate_for_users : tensor<8xf32>
  // expected-error @+1 {{'shard.all_reduce' in a function with shard.shard annotations: collectives are per-process code; write them in an SPMD function}}
  %1 = shard.all_reduce %0 on @mesh grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// A private helper may take scalars; its uses are refused where they are.
shard.grid @mesh(shape = 2)
func.func private @helper(%v: f32) -> f32 {
  return %v : f32
}
// expected-error @+1 {{result #0 of @memref_result is 'memref<8xf32>': meshvk functions take and return ranked tensors without encoding}}
func.func @memref_result(%a: tensor<8xf32>) -> memref<8xf32> {
  %m = bufferization.to_buffer %a : tensor<8xf32> to memref<8xf32>
  return %m : memref<8xf32>
}

// -----

// Non-splat tensor constants: meshvk-normalize-input makes those of f32, f16
// and i32 meshvk.constant; upstream's arith.constant rule fails without a
// diagnostic on the others.
shard.grid @mesh(shape = 2)
func.func @table(%a: tensor<4xf32>) -> tensor<4xf32> {
  %s = shard.sharding @mesh split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %s annotate_for_users : tensor<4xf32>
  // expected-error @+1 {{a tensor constant whose elements differ ('tensor<4xi8>') has an element type the runtime cannot store; constants of f32, f16 and i32 are supported: convert it in the program (arith.extsi / sitofp) or pass it as a function argument}}
  %c = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi8>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%a0, %c : tensor<4xf32>, tensor<4xi8>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %y: i8, %o: f32):
    %f = arith.sitofp %y : i8 to f32
    %z = arith.addf %x, %f : f32
    linalg.yield %z : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

shard.grid @mesh(shape = 2)
func.func @insert_strided(%a: tensor<8x4xf32>, %b: tensor<4x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @mesh split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %s annotate_for_users : tensor<8x4xf32>
  // expected-error @+1 {{'tensor.insert_slice' with strides other than 1 is not supported: insert unit-stride blocks, or build the result with linalg.generic}}
  %r = tensor.insert_slice %b into %a0[0, 0] [4, 4] [2, 1] : tensor<4x4xf32> into tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

shard.grid @mesh(shape = 2)
func.func @insert_rank_expanding(%a: tensor<8x4xf32>, %b: tensor<4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @mesh split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %s annotate_for_users : tensor<8x4xf32>
  // expected-error @+1 {{'tensor.insert_slice' of a lower-rank source is not supported: tensor.expand_shape the source to the destination's rank first}}
  %r = tensor.insert_slice %b into %a0[2, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

// Sizes the runtime cannot hold are named (the emitter's element count
// wrapped to 0 and called the tensor empty).
shard.grid @mesh(shape = 2)
// expected-error @+1 {{argument #0 of @huge is 'tensor<4611686018427387904x4xf32>': more than 2^32 elements, meshvk's limit per tensor}}
func.func @huge(%a: tensor<4611686018427387904x4xf32>) -> tensor<4611686018427387904x4xf32> {
  return %a : tensor<4611686018427387904x4xf32>
}

// -----

shard.grid @mesh(shape = 2)
// expected-error @+1 {{argument #0 of @empty is 'tensor<0x4xf32>': an empty tensor (a dimension of size 0); meshvk needs at least one element}}
func.func @empty(%a: tensor<0x4xf32>) -> tensor<0x4xf32> {
  return %a : tensor<0x4xf32>
}

// -----

// Outputs that read each other's accumulator: one line naming the rewrite.
shard.grid @grid(shape = 2)
func.func @dependent_outputs(%x: tensor<6x9xf32>, %s0: tensor<6xf32>, %m0: tensor<6xf32>)
    -> (tensor<6xf32>, tensor<6xf32>) {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<6x9xf32>
  // expected-error @+1 {{'linalg.generic' cannot be partitioned: its 2 outputs depend on each other}}
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>,
                                          affine_map<(i, j) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%xs : tensor<6x9xf32>) outs(%s0, %m0 : tensor<6xf32>, tensor<6xf32>) {
  ^bb0(%a: f32, %acc: f32, %mx: f32):
    %q = arith.maximumf %a, %mx : f32
    %p = arith.addf %q, %acc : f32
    linalg.yield %p, %q : f32, f32
  } -> (tensor<6xf32>, tensor<6xf32>)
  return %r#0, %r#1 : tensor<6xf32>, tensor<6xf32>
}

// -----

// tensor.extract in a body of a tensor that meshvk-prepare-generics did not
// make replicated (this pass run alone).
shard.grid @grid(shape = 2)
func.func @extract_not_replicated(%v: tensor<6xf32>, %k: tensor<6xi32>) -> tensor<6xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %vs = shard.shard %v to %s annotate_for_users : tensor<6xf32>
  %ks = shard.shard %k to %s annotate_for_users : tensor<6xi32>
  %e = tensor.empty() : tensor<6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%ks : tensor<6xi32>) outs(%e : tensor<6xf32>) {
  ^bb0(%i: i32, %o: f32):
    %x = arith.index_cast %i : i32 to index
    // expected-error @+1 {{'tensor.extract' inside a linalg body reads a tensor that is not replicated}}
    %y = tensor.extract %vs[%x] : tensor<6xf32>
    linalg.yield %y : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}
