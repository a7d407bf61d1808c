// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-unroll-grid --meshvk-lower-collectives | FileCheck %s
//
// shard.send / shard.recv in SPMD functions: each recv takes the tensor of
// the matching send and becomes one copy pulled by the receiver. Pulled
// bytes by hand: a 2x3xi32 block is 24 B, one block per receiving process.

// A ring over 3 processes: process p sends to (p + 1) mod 3 and receives from
// (p + 2) mod 3, peers computed from the process index.
shard.grid @g3(shape = 3)
// CHECK-LABEL: func.func @ring
// CHECK-SAME: kind = "recv", algorithm = "direct", group_size = 3, pulled_bytes = [24, 24, 24]
// CHECK-DAG: meshvk.copy %arg2[0, 0] from 2 into %{{.*}}[0, 0] on 0 sizes [2, 3]
// CHECK-DAG: meshvk.copy %arg0[0, 0] from 0 into %{{.*}}[0, 0] on 1 sizes [2, 3]
// CHECK-DAG: meshvk.copy %arg1[0, 0] from 1 into %{{.*}}[0, 0] on 2 sizes [2, 3]
// CHECK-NOT: shard.send
// CHECK-NOT: shard.recv
// The send's own result is its input.
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}}, %arg0, %arg1, %arg2
func.func @ring(%x: tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>)
    attributes {meshvk.abi = #meshvk.abi<grid = @g3, grid_shape = [3], args = [], results = []>} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %i = shard.process_linear_index on @g3 : index
  %i1 = arith.addi %i, %c1 : index
  %next = arith.remui %i1, %c3 : index
  %i2 = arith.addi %i, %c2 : index
  %prev = arith.remui %i2, %c3 : index
  %s = shard.send %x on @g3 grid_axes = [0] destination = [%next] : (tensor<2x3xi32>, index) -> tensor<2x3xi32>
  %e = tensor.empty() : tensor<2x3xi32>
  %r = shard.recv %e on @g3 grid_axes = [0] source = [%prev] : (tensor<2x3xi32>, index) -> tensor<2x3xi32>
  return %r, %s : tensor<2x3xi32>, tensor<2x3xi32>
}

// -----

// Pairs over axis 1 of a 2x2 grid (groups {0, 1} and {2, 3}): member k sends
// to member 1 - k and receives without naming the source (the one process
// with a send pending for it). Each process pulls its partner's 24 B.
shard.grid @g22(shape = 2x2)
// CHECK-LABEL: func.func @swap_pairs
// CHECK-SAME: kind = "recv", algorithm = "direct", group_size = 2, pulled_bytes = [24, 24, 24, 24]
// CHECK-DAG: meshvk.copy %arg1[0, 0] from 1 into %{{.*}}[0, 0] on 0 sizes [2, 3]
// CHECK-DAG: meshvk.copy %arg0[0, 0] from 0 into %{{.*}}[0, 0] on 1 sizes [2, 3]
// CHECK-DAG: meshvk.copy %arg3[0, 0] from 3 into %{{.*}}[0, 0] on 2 sizes [2, 3]
// CHECK-DAG: meshvk.copy %arg2[0, 0] from 2 into %{{.*}}[0, 0] on 3 sizes [2, 3]
func.func @swap_pairs(%x: tensor<2x3xi32>) -> tensor<2x3xi32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g22, grid_shape = [2, 2], args = [], results = []>} {
  %c1 = arith.constant 1 : index
  %k = shard.process_multi_index on @g22 axes = [1] : index
  %other = arith.subi %c1, %k : index
  %s = shard.send %x on @g22 grid_axes = [1] destination = [%other] : (tensor<2x3xi32>, index) -> tensor<2x3xi32>
  %e = tensor.empty() : tensor<2x3xi32>
  %r = shard.recv %e on @g22 grid_axes = [1] : (tensor<2x3xi32>) -> tensor<2x3xi32>
  return %r : tensor<2x3xi32>
}

// -----

// A send nobody receives.
shard.grid @g2(shape = 2)
func.func @unreceived(%x: tensor<2x3xi32>) -> tensor<2x3xi32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g2, grid_shape = [2], args = [], results = []>} {
  // expected-error @+1 {{'shard.send' from process 0 to process 1 has no matching 'shard.recv' (process 1 receives from 0 fewer times than 0 sends)}}
  %s = shard.send %x on @g2 grid_axes = [0] destination = [1] : (tensor<2x3xi32>) -> tensor<2x3xi32>
  return %s : tensor<2x3xi32>
}

// -----

// A recv nobody sends to.
shard.grid @g2(shape = 2)
func.func @unsent(%x: tensor<2x3xi32>) -> tensor<2x3xi32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g2, grid_shape = [2], args = [], results = []>} {
  // expected-error @+1 {{'shard.recv' on process 0 from process 1 has no matching 'shard.send' (process 1 sends to 0 fewer times than 0 receives)}}
  %r = shard.recv %x on @g2 grid_axes = [0] source = [1] : (tensor<2x3xi32>) -> tensor<2x3xi32>
  return %r : tensor<2x3xi32>
}

// -----

// Every process sends to member 0: its recv without a source is ambiguous.
shard.grid @g3(shape = 3)
func.func @ambiguous(%x: tensor<2x3xi32>) -> tensor<2x3xi32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g3, grid_shape = [3], args = [], results = []>} {
  %s = shard.send %x on @g3 grid_axes = [0] destination = [0] : (tensor<2x3xi32>) -> tensor<2x3xi32>
  // expected-error @+1 {{'shard.recv' without a source on process 0 matches sends from processes 0, 1, 2: give its source}}
  %r = shard.recv %x on @g3 grid_axes = [0] : (tensor<2x3xi32>) -> tensor<2x3xi32>
  return %r : tensor<2x3xi32>
}

// -----

// Each process forwards what it receives: every recv waits for a send that
// needs a recv first (a deadlock under MPI).
shard.grid @g2(shape = 2)
func.func @deadlock(%x: tensor<2x3xi32>) -> tensor<2x3xi32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g2, grid_shape = [2], args = [], results = []>} {
  %c1 = arith.constant 1 : index
  %k = shard.process_linear_index on @g2 : index
  %other = arith.subi %c1, %k : index
  // expected-error @+1 {{'shard.recv' on process 0 waits for the tensor process 1 sends at}}
  %r = shard.recv %x on @g2 grid_axes = [0] source = [%other] : (tensor<2x3xi32>, index) -> tensor<2x3xi32>
  %s = shard.send %r on @g2 grid_axes = [0] destination = [%other] : (tensor<2x3xi32>, index) -> tensor<2x3xi32>
  return %s : tensor<2x3xi32>
}

// -----

// The receiver expects another type than the sender sends.
shard.grid @g2(shape = 2)
func.func @mismatch(%x: tensor<2x3xi32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g2, grid_shape = [2], args = [], results = []>} {
  %c1 = arith.constant 1 : index
  %k = shard.process_linear_index on @g2 : index
  %other = arith.subi %c1, %k : index
  %s = shard.send %x on @g2 grid_axes = [0] destination = [%other] : (tensor<2x3xi32>, index) -> tensor<2x3xi32>
  // expected-error @+1 {{'shard.recv' on process 0 takes 'tensor<2x3xf32>' but process 1 sends 'tensor<2x3xi32>' at}}
  %r = shard.recv %y on @g2 grid_axes = [0] source = [%other] : (tensor<2x3xf32>, index) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// A destination outside the grid.
shard.grid @g2(shape = 2)
func.func @outside(%x: tensor<2x3xi32>) -> tensor<2x3xi32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g2, grid_shape = [2], args = [], results = []>} {
  %c1 = arith.constant 1 : index
  %k = shard.process_linear_index on @g2 : index
  %up = arith.addi %k, %c1 : index
  // expected-error @+1 {{'shard.send' destination on process 1 is index 2 of grid axis 0, which has 2 processes}}
  %s = shard.send %x on @g2 grid_axes = [0] destination = [%up] : (tensor<2x3xi32>, index) -> tensor<2x3xi32>
  return %s : tensor<2x3xi32>
}
