// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-unroll-grid --meshvk-lower-collectives | FileCheck %s
// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-unroll-grid "--meshvk-lower-collectives=direct-all-reduce-max-bytes=1024" | FileCheck %s --check-prefix=SMALL
//
// Collectives on peered axes become pulls (copies recorded on the destination
// process) and small local reduction kernels. Byte accounting: the expected
// pulled bytes in each case are the algorithm's minimum, computed by hand in
// the comment above it (S = bytes of one process's input, n = group size).

// all_gather, n = 4, input 2x8xf32: S = 64 B; each process needs the 3 other
// blocks: 3 * 64 = 192 B.
shard.grid @g4(shape = 4)
// CHECK-LABEL: func.func @all_gather_4
// CHECK-SAME: kind = "all_gather", algorithm = "{{[^"]*}}", group_size = {{[0-9]+}}, pulled_bytes = [192, 192, 192, 192]
// CHECK: %[[E1:.*]] = meshvk.empty on 1 : tensor<8x8xf32>
// CHECK: %[[C0:.*]] = meshvk.copy %arg0[0, 0] from 0 into %[[E1]][0, 0] on 1 sizes [2, 8]
// CHECK: %[[C1:.*]] = meshvk.copy %arg1[0, 0] from 1 into %[[C0]][2, 0] on 1 sizes [2, 8]
// CHECK: %[[C2:.*]] = meshvk.copy %arg2[0, 0] from 2 into %[[C1]][4, 0] on 1 sizes [2, 8]
// CHECK: %[[C3:.*]] = meshvk.copy %arg3[0, 0] from 3 into %[[C2]][6, 0] on 1 sizes [2, 8]
func.func @all_gather_4(%x: tensor<2x8xf32>) -> tensor<8x8xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g4, grid_shape = [4], args = [], results = []>} {
  %0 = shard.all_gather %x on @g4 grid_axes = [0] gather_axis = 0 : tensor<2x8xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// all_gather over axis 1 of a 2x2 grid: groups {0,1} and {2,3}; input 2x3xf32
// (S = 24 B), each process pulls its one peer's block: 24 B. Process 2 reads
// only process 3.
shard.grid @g22(shape = 2x2)
// CHECK-LABEL: func.func @all_gather_2x2_axis1
// CHECK-SAME: id = 0, kind = "all_gather", algorithm = "{{[^"]*}}", group_size = 2, pulled_bytes = [24, 24, 24, 24]
// CHECK: meshvk.empty on 2
// CHECK-NEXT: meshvk.copy %arg2[0, 0] from 2 into %{{.*}}[0, 0] on 2 sizes [2, 3]
// CHECK-NEXT: meshvk.copy %arg3[0, 0] from 3 into %{{.*}}[0, 3] on 2 sizes [2, 3]
func.func @all_gather_2x2_axis1(%x: tensor<2x3xf32>) -> tensor<2x6xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g22, grid_shape = [2, 2], args = [], results = []>} {
  %0 = shard.all_gather %x on @g22 grid_axes = [1] gather_axis = 1 : tensor<2x3xf32> -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

// all_reduce(sum), n = 2, 4x4xf32 (S = 64 B): the peer's partial, 64 B each
// (reduce-scatter + all-gather would also move 2 * (1/2) * 64 = 64 B).
shard.grid @g2(shape = 2)
// CHECK-LABEL: func.func @all_reduce_sum_2
// CHECK-SAME: id = 0, kind = "all_reduce", algorithm = "direct", group_size = 2, pulled_bytes = [64, 64]
// CHECK: %[[E:.*]] = meshvk.empty on 0 : tensor<4x4xf32>
// CHECK: %[[P:.*]] = meshvk.copy %arg1[0, 0] from 1 into %[[E]][0, 0] on 0 sizes [4, 4]
// CHECK: linalg.generic {{.*}} ins(%arg0, %[[P]] : tensor<4x4xf32>, tensor<4x4xf32>) {{.*}} attrs = {meshvk.collective_id = {{[0-9]+}} : i64, meshvk.process = 0 : i64}
// CHECK: arith.addf
func.func @all_reduce_sum_2(%x: tensor<4x4xf32>) -> tensor<4x4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g2, grid_shape = [2], args = [], results = []>} {
  %0 = shard.all_reduce %x on @g2 grid_axes = [0] : tensor<4x4xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// all_reduce(sum), n = 4, 64x64xf32 (S = 16384 B).
// Above the direct threshold (SMALL): reduce-scatter + all-gather, each
// process pulls 3 chunks of 16x64 (4096 B) of partials and 3 reduced chunks:
// 2 * 3 * 4096 = 24576 B = 2 (n-1)/n S. Direct (default threshold 64 KiB)
// pulls (n-1) S = 49152 B.
shard.grid @g4(shape = 4)
// CHECK-LABEL: func.func @all_reduce_large
// CHECK-SAME: id = 0, kind = "all_reduce", algorithm = "direct", group_size = 4, pulled_bytes = [49152, 49152, 49152, 49152]
// SMALL-LABEL: func.func @all_reduce_large
// SMALL-SAME: id = 0, kind = "all_reduce", algorithm = "reduce_scatter+all_gather", group_size = 4, pulled_bytes = [24576, 24576, 24576, 24576]
// Phase 1 on process 1: its own chunk rows [16, 32) and the peers' same rows.
// SMALL: meshvk.copy %arg1[16, 0] from 1 into %{{.*}}[0, 0] on 1 sizes [16, 64]
// SMALL: meshvk.copy %arg0[16, 0] from 0 into %{{.*}}[0, 0] on 1 sizes [16, 64]
// SMALL: meshvk.copy %arg2[16, 0] from 2 into %{{.*}}[0, 0] on 1 sizes [16, 64]
// SMALL: meshvk.copy %arg3[16, 0] from 3 into %{{.*}}[0, 0] on 1 sizes [16, 64]
// SMALL: %[[R1:.*]] = linalg.generic {{.*}} attrs = {meshvk.collective_id = {{[0-9]+}} : i64, meshvk.process = 1 : i64}
// Phase 2 on process 0 gathers the reduced chunks, process 1's at rows 16.
// SMALL: meshvk.empty on 0 : tensor<64x64xf32>
// SMALL: meshvk.copy %{{.*}}[0, 0] from 0 into %{{.*}}[0, 0] on 0 sizes [16, 64]
// SMALL-NEXT: meshvk.copy %[[R1]][0, 0] from 1 into %{{.*}}[16, 0] on 0 sizes [16, 64]
func.func @all_reduce_large(%x: tensor<64x64xf32>) -> tensor<64x64xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g4, grid_shape = [4], args = [], results = []>} {
  %0 = shard.all_reduce %x on @g4 grid_axes = [0] : tensor<64x64xf32> -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// max / min / product and integer element types pick the matching arith op;
// a float max propagates NaN (arith.maximumf, as numpy and TOSA).
// Each: n = 2, 8 elements; f32 and i32 = 32 B, f16 = 16 B pulled.
shard.grid @g2(shape = 2)
// CHECK-LABEL: func.func @reduction_kinds
// CHECK-SAME: kind = "all_reduce", algorithm = "{{[^"]*}}", group_size = {{[0-9]+}}, pulled_bytes = [32, 32]
// CHECK-SAME: kind = "all_reduce", algorithm = "{{[^"]*}}", group_size = {{[0-9]+}}, pulled_bytes = [32, 32]
// CHECK-SAME: kind = "all_reduce", algorithm = "{{[^"]*}}", group_size = {{[0-9]+}}, pulled_bytes = [16, 16]
// CHECK-SAME: kind = "all_reduce", algorithm = "{{[^"]*}}", group_size = {{[0-9]+}}, pulled_bytes = [32, 32]
// CHECK: arith.maximumf
// CHECK: arith.minsi
// CHECK: arith.mulf
// CHECK: arith.addi
func.func @reduction_kinds(%a: tensor<8xf32>, %b: tensor<8xi32>, %c: tensor<8xf16>, %d: tensor<8xi32>)
    -> (tensor<8xf32>, tensor<8xi32>, tensor<8xf16>, tensor<8xi32>)
    attributes {meshvk.abi = #meshvk.abi<grid = @g2, grid_shape = [2], args = [], results = []>} {
  %0 = shard.all_reduce %a on @g2 grid_axes = [0] reduction = max : tensor<8xf32> -> tensor<8xf32>
  %1 = shard.all_reduce %b on @g2 grid_axes = [0] reduction = min : tensor<8xi32> -> tensor<8xi32>
  %2 = shard.all_reduce %c on @g2 grid_axes = [0] reduction = product : tensor<8xf16> -> tensor<8xf16>
  %3 = shard.all_reduce %d on @g2 grid_axes = [0] : tensor<8xi32> -> tensor<8xi32>
  return %0, %1, %2, %3 : tensor<8xf32>, tensor<8xi32>, tensor<8xf16>, tensor<8xi32>
}

// -----

// Partials that a linalg.reduce combined with arith.maxnumf (NaN ignored)
// are combined the same way: a NaN in one shard must not win.
shard.grid @g2(shape = 2)
// CHECK-LABEL: func.func @max_ignoring_nan
// CHECK: linalg.reduce
// CHECK: arith.maxnumf
// CHECK: meshvk.copy
// CHECK-NOT: arith.maximumf
// CHECK: arith.maxnumf
// CHECK-NOT: arith.maximumf
// CHECK: return
func.func @max_ignoring_nan(%x: tensor<8x4xf32>, %init: tensor<8xf32>) -> tensor<8xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g2, grid_shape = [2], args = [], results = []>} {
  %r = linalg.reduce ins(%x : tensor<8x4xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maxnumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %0 = shard.all_reduce %r on @g2 grid_axes = [0] reduction = max : tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// all_slice moves nothing between devices: each process crops its own copy.
shard.grid @g4(shape = 4)
// CHECK-LABEL: func.func @all_slice
// CHECK-SAME: id = 0, kind = "all_slice", algorithm = "local", group_size = 4, pulled_bytes = [0, 0, 0, 0]
// CHECK: meshvk.copy %arg2[4, 0] from 2 into %{{.*}}[0, 0] on 2 sizes [2, 4]
func.func @all_slice(%x: tensor<8x4xf32>) -> tensor<2x4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g4, grid_shape = [4], args = [], results = []>} {
  %0 = shard.all_slice %x on @g4 grid_axes = [0] slice_axis = 0 : tensor<8x4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// all_to_all, n = 4, 4x8xi32 split along 1, concat along 0: each process
// keeps one 4x2 chunk (32 B) and pulls the other 3: 96 B.
shard.grid @g4(shape = 4)
// CHECK-LABEL: func.func @all_to_all
// CHECK-SAME: kind = "all_to_all", algorithm = "{{[^"]*}}", group_size = {{[0-9]+}}, pulled_bytes = [96, 96, 96, 96]
// CHECK: meshvk.empty on 1 : tensor<16x2xi32>
// CHECK-NEXT: meshvk.copy %arg0[0, 2] from 0 into %{{.*}}[0, 0] on 1 sizes [4, 2]
// CHECK-NEXT: meshvk.copy %arg1[0, 2] from 1 into %{{.*}}[4, 0] on 1 sizes [4, 2]
// CHECK-NEXT: meshvk.copy %arg2[0, 2] from 2 into %{{.*}}[8, 0] on 1 sizes [4, 2]
// CHECK-NEXT: meshvk.copy %arg3[0, 2] from 3 into %{{.*}}[12, 0] on 1 sizes [4, 2]
func.func @all_to_all(%x: tensor<4x8xi32>) -> tensor<16x2xi32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g4, grid_shape = [4], args = [], results = []>} {
  %0 = shard.all_to_all %x on @g4 grid_axes = [0] split_axis = 1 concat_axis = 0 : tensor<4x8xi32> -> tensor<16x2xi32>
  return %0 : tensor<16x2xi32>
}

// -----

// reduce_scatter, n = 4, 8x4xf32 scattered along 0: process p needs rows
// [2p, 2p+2) (32 B) of the 3 peers' partials: 96 B, then a 4-input reduction.
shard.grid @g4(shape = 4)
// CHECK-LABEL: func.func @reduce_scatter
// CHECK-SAME: kind = "reduce_scatter", algorithm = "{{[^"]*}}", group_size = {{[0-9]+}}, pulled_bytes = [96, 96, 96, 96]
// CHECK: meshvk.copy %arg3[6, 0] from 3 into %{{.*}}[0, 0] on 3 sizes [2, 4]
// CHECK: meshvk.copy %arg0[6, 0] from 0 into %{{.*}}[0, 0] on 3 sizes [2, 4]
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {{.*}} attrs = {meshvk.collective_id = {{[0-9]+}} : i64, meshvk.process = 3 : i64}
func.func @reduce_scatter(%x: tensor<8x4xf32>) -> tensor<2x4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g4, grid_shape = [4], args = [], results = []>} {
  %0 = shard.reduce_scatter %x on @g4 grid_axes = [0] scatter_axis = 0 : tensor<8x4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// broadcast from root 2, 4x4xf32 (64 B): every process but the root pulls 64 B;
// the root keeps its input (no copy onto the device the data is on).
shard.grid @g4(shape = 4)
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: kind = "broadcast", algorithm = "{{[^"]*}}", group_size = {{[0-9]+}}, pulled_bytes = [64, 64, 0, 64]
// CHECK-NOT: from 2 into %{{.*}} on 2
// CHECK: return %{{.*}}, %{{.*}}, %arg2, %{{.*}} :
func.func @broadcast(%x: tensor<4x4xf32>) -> tensor<4x4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g4, grid_shape = [4], args = [], results = []>} {
  %0 = shard.broadcast %x on @g4 grid_axes = [0] root = [2] : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// shift by 1 (data moves to the next process), 4x4xf32 (64 B). Rotating:
// everyone pulls 64 B from its predecessor; not rotating: process 0 has no
// source and pulls nothing.
shard.grid @g4(shape = 4)
// CHECK-LABEL: func.func @shift
// CHECK-SAME: kind = "shift", algorithm = "{{[^"]*}}", group_size = {{[0-9]+}}, pulled_bytes = [64, 64, 64, 64]
// CHECK-SAME: kind = "shift", algorithm = "{{[^"]*}}", group_size = {{[0-9]+}}, pulled_bytes = [0, 64, 64, 64]
// CHECK: meshvk.copy %arg3[0, 0] from 3 into %{{.*}}[0, 0] on 0 sizes [4, 4]
// CHECK: meshvk.copy %arg0[0, 0] from 0 into %{{.*}}[0, 0] on 1 sizes [4, 4]
func.func @shift(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
    attributes {meshvk.abi = #meshvk.abi<grid = @g4, grid_shape = [4], args = [], results = []>} {
  %0 = shard.shift %x on @g4 grid_axes = [0] shift_axis = 0 offset = 1 rotate : tensor<4x4xf32> -> tensor<4x4xf32>
  %1 = shard.shift %x on @g4 grid_axes = [0] shift_axis = 0 offset = 1 : tensor<4x4xf32> -> tensor<4x4xf32>
  return %0, %1 : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Only grid axis 0 shares memory: a collective over axis 1 is refused.
shard.grid @g22(shape = 2x2) {meshvk.peered_memory_axes = array<i64: 0>}
func.func @not_peered(%x: tensor<2x3xf32>) -> tensor<2x6xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g22, grid_shape = [2, 2], args = [], results = []>} {
  // expected-error @+1 {{'shard.all_gather' over grid axis 1 of @g22, whose devices do not share memory (not in meshvk.peered_memory_axes): not supported yet (needs message passing)}}
  %0 = shard.all_gather %x on @g22 grid_axes = [1] gather_axis = 1 : tensor<2x3xf32> -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

shard.grid @g2(shape = 2)
func.func @accumulate_wider(%x: tensor<4xf32>) -> tensor<4xf64>
    attributes {meshvk.abi = #meshvk.abi<grid = @g2, grid_shape = [2], args = [], results = []>} {
  // expected-error @+1 {{accumulating in 'f64' instead of 'f32' is not supported yet}}
  %0 = shard.all_reduce %x on @g2 grid_axes = [0] : tensor<4xf32> -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

shard.grid @g2(shape = 2)
func.func @bitwise(%x: tensor<4xi32>) -> tensor<4xi32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g2, grid_shape = [2], args = [], results = []>} {
  // expected-error @+1 {{reduction <bitwise_or> is not supported yet (sum, max, min, product are)}}
  %0 = shard.all_reduce %x on @g2 grid_axes = [0] reduction = bitwise_or : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// update_halo over rows, 3 processes, local 6x4xf32 with halos lower 1, upper 2
// (interior rows [1, 4)). Each process copies its tensor locally, then pulls
// the previous process's last interior row (1 row x 4 x 4 B = 16 B) into row 0
// and the next one's first two interior rows (2 x 16 = 32 B) into rows [4, 6).
// Process 0 has no previous, process 2 no next: pulled 32, 48, 16.
shard.grid @g3(shape = 3)
// CHECK-LABEL: func.func @update_halo_rows
// CHECK-SAME: kind = "update_halo", algorithm = "halo", group_size = 3, pulled_bytes = [32, 48, 16]
// CHECK: %[[E1:.*]] = meshvk.empty on 1 : tensor<6x4xf32>
// CHECK: %[[L1:.*]] = meshvk.copy %arg1[0, 0] from 1 into %[[E1]][0, 0] on 1 sizes [6, 4]
// CHECK: %[[P1:.*]] = meshvk.copy %arg0[3, 0] from 0 into %[[L1]][0, 0] on 1 sizes [1, 4]
// CHECK: meshvk.copy %arg2[1, 0] from 2 into %[[P1]][4, 0] on 1 sizes [2, 4]
func.func @update_halo_rows(%x: tensor<6x4xf32>) -> tensor<6x4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g3, grid_shape = [3], args = [], results = []>} {
  %0 = shard.update_halo %x on @g3 split_axes = [[0]] halo_sizes = [1, 2] : tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

// 2-D halos on a 2x2 grid, local 4x4xi32 with one-element halos on every side
// (interior 2x2). Columns first (last dimension): the slab spans the interior
// rows [1, 3) only; then rows, over all 4 columns, so the corner arrives from
// the diagonal neighbour through the column step of the row neighbour.
// Process 0 (top left) pulls 1 column x 2 rows x 4 B = 8 B, then 1 row x 4 = 16 B.
shard.grid @g22h(shape = 2x2)
// CHECK-LABEL: func.func @update_halo_2d
// CHECK-SAME: pulled_bytes = [24, 24, 24, 24]
// CHECK: meshvk.copy %arg1[1, 1] from 1 into %{{.*}}[1, 3] on 0 sizes [2, 1]
// CHECK: meshvk.copy %{{.*}}[1, 0] from 2 into %{{.*}}[3, 0] on 0 sizes [1, 4]
func.func @update_halo_2d(%x: tensor<4x4xi32>) -> tensor<4x4xi32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g22h, grid_shape = [2, 2], args = [], results = []>} {
  %0 = shard.update_halo %x on @g22h split_axes = [[0], [1]] halo_sizes = [1, 1, 1, 1] : tensor<4x4xi32>
  return %0 : tensor<4x4xi32>
}

// -----

// Halos wider than the interior cannot be filled from one neighbour.
shard.grid @g2h(shape = 2)
func.func @halo_too_wide(%x: tensor<4x4xf32>) -> tensor<4x4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g2h, grid_shape = [2], args = [], results = []>} {
  // expected-error @+1 {{update_halo: dimension 0 (size 4) cannot hold halos 2 and 1 around an interior at least as wide as each halo}}
  %0 = shard.update_halo %x on @g2h split_axes = [[0]] halo_sizes = [2, 1] : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// Static slices of a process's own tensors are local copies (no kernel): a
// halo frame around a block, and a window of it.
shard.grid @g2s(shape = 2)
// CHECK-LABEL: func.func @slices
// CHECK: %[[E:.*]] = meshvk.empty on 0 : tensor<6x4xf32>
// CHECK: %[[I:.*]] = meshvk.copy %arg0[0, 0] from 0 into %[[E]][1, 0] on 0 sizes [4, 4]
// CHECK: %[[W:.*]] = meshvk.empty on 0 : tensor<4x4xf32>
// CHECK: meshvk.copy %[[I]][2, 0] from 0 into %[[W]][0, 0] on 0 sizes [4, 4]
func.func @slices(%x: tensor<4x4xf32>) -> tensor<4x4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g2s, grid_shape = [2], args = [], results = []>} {
  %e = tensor.empty() : tensor<6x4xf32>
  %framed = tensor.insert_slice %x into %e[1, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<6x4xf32>
  %w = tensor.extract_slice %framed[2, 0] [4, 4] [1, 1] : tensor<6x4xf32> to tensor<4x4xf32>
  return %w : tensor<4x4xf32>
}
