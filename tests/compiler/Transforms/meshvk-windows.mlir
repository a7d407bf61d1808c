// RUN: mesh-vk-opt %s -split-input-file --meshvk-normalize-input | FileCheck %s --check-prefix=NORM
// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-compile-plan | FileCheck %s --check-prefix=PLAN
// Stencil windows of a global program (tensor.extract_slice of a constant
// tensor.pad, of the unpadded shape) become meshvk.window; partitioned, each
// process copies its own rows locally and pulls only the border rows its
// shifts reach from its neighbours (no all-gather). Bytes by hand below.

// The blur of the issue: 64x32 f32 rows over 4 (16 rows = 2048 B each).
// Window up (shift -1): processes 1..3 pull their upper neighbour's last
// row (32 x 4 B = 128 B); process 0 keeps the pad value (a fill). Window
// down (shift +1): processes 0..2 pull 128 B, process 3 fills. The middle
// window (shift 0) is x itself. 6 x 128 = 768 B in all (an all-gather moved
// 3 x 2048 B to each of the 4 processes: 24576 B).
shard.grid @g(shape = 4)
// NORM-LABEL: func.func @blur
// NORM-NOT: tensor.pad
// NORM: %[[X:[a-z_0-9]+]] = shard.shard %arg0
// NORM: %[[UP:.*]] = meshvk.window %[[X]] shifts [-1, 0] pad 0.000000e+00 : f32 : tensor<64x32xf32>
// NORM: %[[DN:.*]] = meshvk.window %[[X]] shifts [1, 0] pad 0.000000e+00 : f32 : tensor<64x32xf32>
// NORM-NOT: tensor.extract_slice
// NORM: linalg.add ins(%[[UP]], %[[X]] :
// NORM: linalg.add ins(%{{.*}}, %[[DN]] :
// PLAN-LABEL: func.func @blur
// PLAN-SAME: meshvk.collectives = [#meshvk.collective<id = 0, kind = "window", algorithm = "window", group_size = 4, pulled_bytes = [0, 128, 128, 128]>, #meshvk.collective<id = 1, kind = "window", algorithm = "window", group_size = 4, pulled_bytes = [128, 128, 128, 0]>]
// PLAN-NOT: all_gather
// PLAN: %[[F0:.*]] = meshvk.launch @[[FILL:.*]]() on 0
// PLAN: meshvk.copy %arg0[0, 0] from 0 into %[[F0]][1, 0] on 0 sizes [15, 32]
// PLAN: %[[E1:.*]] = meshvk.empty on 1
// PLAN: %[[B1:.*]] = meshvk.copy %arg0[15, 0] from 0 into %[[E1]][0, 0] on 1 sizes [1, 32]
// PLAN: meshvk.copy %arg1[0, 0] from 1 into %[[B1]][1, 0] on 1 sizes [15, 32]
// PLAN: meshvk.copy %arg3[0, 0] from 3 into %{{.*}}[15, 0] on 2 sizes [1, 32]
// PLAN: %[[F3:.*]] = meshvk.launch @[[FILL]]() on 3
// PLAN: meshvk.copy %arg3[1, 0] from 3 into %[[F3]][0, 0] on 3 sizes [15, 32]
// PLAN: func.func private @[[FILL]]() -> tensor<16x32xf32>
// PLAN: linalg.fill
func.func @blur(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %s = shard.sharding @g split_axes = [[0]] halo_sizes = [1, 1] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<64x32xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %xs low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<64x32xf32> to tensor<66x32xf32>
  %up = tensor.extract_slice %p[0, 0] [64, 32] [1, 1] : tensor<66x32xf32> to tensor<64x32xf32>
  %mid = tensor.extract_slice %p[1, 0] [64, 32] [1, 1] : tensor<66x32xf32> to tensor<64x32xf32>
  %dn = tensor.extract_slice %p[2, 0] [64, 32] [1, 1] : tensor<66x32xf32> to tensor<64x32xf32>
  %e = tensor.empty() : tensor<64x32xf32>
  %a = linalg.add ins(%up, %mid : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e2 = tensor.empty() : tensor<64x32xf32>
  %y = linalg.add ins(%a, %dn : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %ys = shard.shard %y to %s : tensor<64x32xf32>
  return %ys : tensor<64x32xf32>
}

// -----

// Uneven rows (10 over 4: 3, 3, 2, 2) and a window wider than a neighbour's
// shard (shift +3 on rows, -1 on the unsplit columns, so 3 of the 4 columns
// come from the tensor, 12 B a row): process 1 (rows 3..5) reads rows 6..8,
// held by process 2 (6, 7) and process 3 (8): 24 + 12 = 36 B; process 0
// pulls process 1's 3 rows (36 B); process 2 (6, 7) pulls row 9 (12 B) and
// keeps the pad value for row 10; process 3 reads nothing inside the tensor.
shard.grid @g4(shape = 4)
// NORM-LABEL: func.func @uneven_wide
// NORM: meshvk.window %{{.*}} shifts [3, -1] pad 7 : i32 : tensor<10x4xi32>
// NORM: linalg.fill
// NORM: tensor.insert_slice
// PLAN-LABEL: func.func @uneven_wide
// PLAN-SAME: pulled_bytes = [36, 36, 12, 0]
// PLAN: meshvk.copy %arg1[0, 0] from 1 into %{{.*}}[0, 1] on 0 sizes [3, 3]
// PLAN: meshvk.copy %arg2[0, 0] from 2 into %{{.*}}[0, 1] on 1 sizes [2, 3]
// PLAN: meshvk.copy %arg3[0, 0] from 3 into %{{.*}}[2, 1] on 1 sizes [1, 3]
// PLAN: meshvk.copy %arg3[1, 0] from 3 into %{{.*}}[0, 1] on 2 sizes [1, 3]
func.func @uneven_wide(%x: tensor<10x4xi32>) -> (tensor<10x4xi32>, tensor<16x5xi32>) {
  %s = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<10x4xi32>
  %seven = arith.constant 7 : i32
  %p = tensor.pad %xs low[0, 1] high[3, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %seven : i32
  } : tensor<10x4xi32> to tensor<13x5xi32>
  %dn = tensor.extract_slice %p[3, 0] [10, 4] [1, 1] : tensor<13x5xi32> to tensor<10x4xi32>
  %ys = shard.shard %dn to %s : tensor<10x4xi32>
  // Another use of a pad keeps it (decomposed as before).
  %q = tensor.pad %xs low[3, 1] high[3, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %seven : i32
  } : tensor<10x4xi32> to tensor<16x5xi32>
  return %ys, %q : tensor<10x4xi32>, tensor<16x5xi32>
}

// -----

// Rows over grid axis 0 and columns over axis 1 of a 2x2 grid (4x4 i32
// blocks of 8x8), a diagonal window (shift +1, +1): process (0, 0) pulls
// the first column of (0, 1) (3 x 4 B = 12 B, rows 1..3), the first row of
// (1, 0) (12 B, columns 1..3) and the corner of (1, 1) (4 B): 28 B; process
// (1, 1) reads only its own block (and the pad value).
shard.grid @g22(shape = 2x2)
// PLAN-LABEL: func.func @diagonal_2x2
// PLAN-SAME: pulled_bytes = [28, 12, 12, 0]
// PLAN: meshvk.copy %arg0[1, 1] from 0 into %{{.*}}[0, 0] on 0 sizes [3, 3]
// PLAN: meshvk.copy %arg1[1, 0] from 1 into %{{.*}}[0, 3] on 0 sizes [3, 1]
// PLAN: meshvk.copy %arg2[0, 1] from 2 into %{{.*}}[3, 0] on 0 sizes [1, 3]
// PLAN: meshvk.copy %arg3[0, 0] from 3 into %{{.*}}[3, 3] on 0 sizes [1, 1]
func.func @diagonal_2x2(%x: tensor<8x8xi32>) -> tensor<8x8xi32> {
  %s = shard.sharding @g22 split_axes = [[0], [1]] halo_sizes = [0, 1, 0, 1] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<8x8xi32>
  %zero = arith.constant 0 : i32
  %p = tensor.pad %xs low[0, 0] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : i32
  } : tensor<8x8xi32> to tensor<9x9xi32>
  %d = tensor.extract_slice %p[1, 1] [8, 8] [1, 1] : tensor<9x9xi32> to tensor<8x8xi32>
  %ys = shard.shard %d to %s : tensor<8x8xi32>
  return %ys : tensor<8x8xi32>
}

// -----

// halo_sizes are checked against the windows: a window that reads further
// than declared gets a warning (the exchange follows the program), and so
// does an annotation no window reads.
shard.grid @g(shape = 2)
func.func @halo_checks(%x: tensor<8x4xf32>, %z: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %s = shard.sharding @g split_axes = [[0]] halo_sizes = [1, 1] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<8x4xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %xs low[2, 0] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<8x4xf32> to tensor<10x4xf32>
  // expected-warning @+1 {{this window reads 2 element(s) below each shard of dimension 0, beyond the lower halo of 1 its annotation declares: meshvk exchanges the border the window reads}}
  %w = tensor.extract_slice %p[0, 0] [8, 4] [1, 1] : tensor<10x4xf32> to tensor<8x4xf32>
  // expected-warning @+1 {{halo_sizes = [2, 2] has no effect: no shifted window (tensor.extract_slice of a constant tensor.pad) reads a tensor annotated with it}}
  %h = shard.sharding @g split_axes = [[0]] halo_sizes = [2, 2] : !shard.sharding
  %zs = shard.shard %z to %h annotate_for_users : tensor<8x4xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %n = linalg.negf ins(%zs : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %w, %n : tensor<8x4xf32>, tensor<8x4xf32>
}

// -----

// A border over a grid axis whose devices do not share memory: refused
// (as the uneven reshard's box copies are).
shard.grid @gp(shape = 2x2) {meshvk.peered_memory_axes = array<i64: 0>}
func.func @unpeered_border(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @gp split_axes = [[1]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<8x4xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %xs low[1, 0] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<8x4xf32> to tensor<9x4xf32>
  // expected-error @+1 {{window needs a border over grid axis 1, whose devices do not share memory: not supported yet}}
  %w = tensor.extract_slice %p[0, 0] [8, 4] [1, 1] : tensor<9x4xf32> to tensor<8x4xf32>
  %ys = shard.shard %w to %s : tensor<8x4xf32>
  return %ys : tensor<8x4xf32>
}
