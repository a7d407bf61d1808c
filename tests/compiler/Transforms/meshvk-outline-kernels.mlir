// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-unroll-grid --meshvk-outline-kernels | FileCheck %s
// Local compute becomes launches of private kernel functions (the codegen
// contract in compiler/README.md); identical kernels are shared.

// The same elementwise op on both processes: ONE kernel, two launches.
shard.grid @g2(shape = 2)
// CHECK-LABEL: func.func @dedup
// CHECK: %[[L0:.*]] = meshvk.launch @kernel_0(%arg0) on 0 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[L1:.*]] = meshvk.launch @kernel_0(%arg1) on 1 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[L0]], %[[L1]]
// CHECK: func.func private @kernel_0(%[[X:.*]]: tensor<4xf32>) -> tensor<4xf32> attributes {meshvk.kernel}
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.exp ins(%[[X]] : tensor<4xf32>) outs(%[[E]] : tensor<4xf32>)
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: func.func private @kernel_1
func.func @dedup(%x: tensor<4xf32>) -> tensor<4xf32>
    attributes {meshvk.abi = {grid = @g2, grid_shape = array<i64: 2>, args = [], results = []}} {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A fill used as the init of two matmuls is recomputed inside each kernel,
// and the scalar constant a generic body uses is cloned in: the kernel's
// inputs are exactly the buffers it reads.
shard.grid @g2(shape = 2)
// CHECK-LABEL: func.func @fuse_fill
// CHECK-NOT: linalg.fill
// CHECK: %[[M:.*]] = meshvk.launch @kernel_0(%arg0, %arg2) on 0 : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32>
// CHECK: meshvk.launch @kernel_0(%arg1, %arg3) on 1
// CHECK: %[[G:.*]] = meshvk.launch @kernel_1(%[[M]]) on 0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: meshvk.launch @kernel_0(%[[G]], %arg2) on 0
// CHECK: func.func private @kernel_0(%{{.*}}: tensor<2x3xf32>, %{{.*}}: tensor<3x3xf32>) -> tensor<2x3xf32> attributes {meshvk.kernel}
// CHECK: linalg.fill
// CHECK: linalg.matmul
// CHECK: func.func private @kernel_1(%{{.*}}: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {meshvk.kernel}
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: linalg.generic
// CHECK: arith.maxnumf
func.func @fuse_fill(%a: tensor<2x3xf32>, %w: tensor<3x3xf32>) -> tensor<2x3xf32>
    attributes {meshvk.abi = {grid = @g2, grid_shape = array<i64: 2>, args = [], results = []}} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %m = linalg.matmul ins(%a, %w : tensor<2x3xf32>, tensor<3x3xf32>) outs(%f : tensor<2x3xf32>) -> tensor<2x3xf32>
  %e2 = tensor.empty() : tensor<2x3xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<2x3xf32>) outs(%e2 : tensor<2x3xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = arith.maxnumf %v, %z : f32
      linalg.yield %r : f32
  } -> tensor<2x3xf32>
  %m2 = linalg.matmul ins(%g, %w : tensor<2x3xf32>, tensor<3x3xf32>) outs(%f : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %m2 : tensor<2x3xf32>
}

// -----

// A kernel must produce tensors: a scalar result cannot be a buffer.
shard.grid @g2(shape = 2)
func.func @scalar_result(%x: tensor<4xf32>) -> f32
    attributes {meshvk.abi = {grid = @g2, grid_shape = array<i64: 2>, args = [], results = []}} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tensor.extract' in a plan must produce statically shaped tensors to become a kernel}}
  %0 = tensor.extract %x[%c0] : tensor<4xf32>
  return %0 : f32
}

// -----

// Kernel names never collide with the user's own symbols.
shard.grid @g2(shape = 2)
// CHECK-LABEL: func.func @name_taken
// CHECK: meshvk.launch @kernel_1(%arg0) on 0
// CHECK-DAG: func.func private @kernel_1(%{{.*}}: tensor<4xf32>) -> tensor<4xf32> attributes {meshvk.kernel}
// CHECK-DAG: func.func private @kernel_0(%{{.*}}: tensor<4xf32>) -> tensor<4xf32> {
func.func @name_taken(%x: tensor<4xf32>) -> tensor<4xf32>
    attributes {meshvk.abi = {grid = @g2, grid_shape = array<i64: 2>, args = [], results = []}} {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @kernel_0(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
