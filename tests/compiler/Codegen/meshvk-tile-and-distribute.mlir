// RUN: mesh-vk-opt %s -split-input-file --meshvk-tile-and-distribute | FileCheck %s

// A matmul with ragged edges: buffers (inputs then outputs), one gpu.launch
// whose workgroup loop is grid-stride (correct for any workgroup count), a register tile for full tiles with the accumulators
// carried through the K loop (16x16 on lavapipe: 4x4 invocations cover the
// 37x64 output), vec4 views of the rows of B.

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: memref<37x53xf32>, %[[B:.*]]: memref<53x64xf32>, %[[C:.*]]: memref<37x64xf32>, %[[BV:.*]]: memref<53x16xvector<4xf32>> {meshvk.alias_of = 1 : i64})
// CHECK-SAME: meshvk.kernel, meshvk.num_inputs = 2
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %[[NT:[^,]*]], {{.*}}) threads({{.*}}) in ({{.*}} = %c16,
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[GDIM:.*]] = gpu.grid_dim x
// CHECK: scf.for %{{.*}} = %[[BID]] to %[[NT]] step %[[GDIM]]
// The invocation tiles of a workgroup tile never outnumber the invocations:
// each invocation takes at most one (an if, not a loop).
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[TID]], %{{.*}} : index
// CHECK: scf.if %[[IN]]
// CHECK: scf.if
// CHECK: scf.for {{.*}} step %{{.*}} iter_args({{.*}}) -> ({{(f32, )+}}f32)
// CHECK: memref.load %[[BV]]
// CHECK: } else {
// CHECK-NOT: memref.alloc
// CHECK: return
func.func @matmul(%a: tensor<37x53xf32>, %b: tensor<53x64xf32>) -> tensor<37x64xf32> attributes {meshvk.kernel} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<37x64xf32>) -> tensor<37x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<37x53xf32>, tensor<53x64xf32>) outs(%f : tensor<37x64xf32>) -> tensor<37x64xf32>
  return %m : tensor<37x64xf32>
}

// -----

// A fused epilogue (meshvk-fuse-kernels: matmul + bias + relu in one kernel)
// is tiled as its matmul: the same workgroups and invocations as @matmul,
// the 16x16 accumulators carried through the K loop, then bias and relu on the
// tile, written in place into the output (no temporary).

// CHECK-LABEL: func.func @matmul_epilogue
// CHECK-NOT: memref.alloca
// CHECK: gpu.launch blocks({{.*}}) threads({{.*}}) in ({{.*}} = %c16,
// CHECK: %{{.*}}:256 = scf.for {{.*}} iter_args(
// CHECK: arith.addf
// CHECK: arith.maxnumf
// CHECK: return
func.func @matmul_epilogue(%a: tensor<37x53xf32>, %b: tensor<53x64xf32>, %bias: tensor<64xf32>) -> tensor<37x64xf32> attributes {meshvk.kernel} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<37x64xf32>) -> tensor<37x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<37x53xf32>, tensor<53x64xf32>) outs(%f : tensor<37x64xf32>) -> tensor<37x64xf32>
  %e2 = tensor.empty() : tensor<37x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<37x64xf32>, tensor<64xf32>) outs(%e2 : tensor<37x64xf32>) {
    ^bb0(%v: f32, %c: f32, %o: f32):
      %s = arith.addf %v, %c : f32
      %y = arith.maxnumf %s, %z : f32
      linalg.yield %y : f32
  } -> tensor<37x64xf32>
  return %r : tensor<37x64xf32>
}

// -----

// An elementwise chain with a broadcast is fused into one loop nest that
// writes the output in place (no temporary, no copy); 4-wide tiles use vec4.

// CHECK-LABEL: func.func @chain
// CHECK-NOT: memref.alloca
// CHECK: gpu.launch
// CHECK: scf.if
// CHECK: memref.load {{.*}} : memref<37x13xvector<4xf32>>
// CHECK-COUNT-4: math.tanh
// CHECK: vector.from_elements
// CHECK: memref.store {{.*}} : memref<37x13xvector<4xf32>>
// CHECK: } else {
// CHECK: math.tanh
// CHECK-NOT: math.tanh
// CHECK: return
func.func @chain(%a: tensor<37x52xf32>, %row: tensor<52xf32>) -> tensor<37x52xf32> attributes {meshvk.kernel} {
  %e = tensor.empty() : tensor<37x52xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a, %row : tensor<37x52xf32>, tensor<52xf32>) outs(%e : tensor<37x52xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %v = arith.mulf %x, %y : f32
    linalg.yield %v : f32
  } -> tensor<37x52xf32>
  %e2 = tensor.empty() : tensor<37x52xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<37x52xf32>) outs(%e2 : tensor<37x52xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  } -> tensor<37x52xf32>
  return %t : tensor<37x52xf32>
}

// -----

// A row reduction: one row per invocation, the sum kept in a register and the
// row read 4 elements at a time.

// CHECK-LABEL: func.func @rowsum
// CHECK: gpu.launch
// CHECK: scf.for {{.*}} step %c4{{.*}} iter_args(%{{.*}} = %cst) -> (f32)
// CHECK: memref.load {{.*}} : memref<100x16xvector<4xf32>>
// CHECK-COUNT-4: arith.addf
// CHECK: scf.yield
// CHECK: memref.store
func.func @rowsum(%a: tensor<100x64xf32>) -> tensor<100xf32> attributes {meshvk.kernel} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<100xf32>) -> tensor<100xf32>
  %r = linalg.reduce ins(%a : tensor<100x64xf32>) outs(%f : tensor<100xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<100xf32>
}

// -----

// Functions without meshvk.kernel are left alone.

// CHECK-LABEL: func.func @not_a_kernel
// CHECK-SAME: tensor<4xf32>
// CHECK-NOT: gpu.launch
func.func @not_a_kernel(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// A kernel still referenced (here by a call; in plans by meshvk.launch) keeps
// its tensor signature; the buffer function is added next to it.

// CHECK-LABEL: func.func private @kernel_0(%{{.*}}: tensor<8xi32>) -> tensor<8xi32>
// CHECK-LABEL: func.func @kernel_0_lowered(%{{.*}}: memref<8xi32>, %{{.*}}: memref<8xi32>
// CHECK: gpu.launch
// CHECK-LABEL: func.func @user
// CHECK: call @kernel_0(%{{.*}}) : (tensor<8xi32>) -> tensor<8xi32>
func.func private @kernel_0(%a: tensor<8xi32>) -> tensor<8xi32> attributes {meshvk.kernel} {
  %e = tensor.empty() : tensor<8xi32>
  %r = linalg.copy ins(%a : tensor<8xi32>) outs(%e : tensor<8xi32>) -> tensor<8xi32>
  return %r : tensor<8xi32>
}
func.func @user(%a: tensor<8xi32>) -> tensor<8xi32> {
  %r = func.call @kernel_0(%a) : (tensor<8xi32>) -> tensor<8xi32>
  return %r : tensor<8xi32>
}

// -----

// A full reduction to a 0-d tensor: 0-d buffers are 1-element buffers, and the
// reduction gets a leading parallel loop of extent 1 (one workgroup, one
// invocation accumulates all 64 elements).

// CHECK-LABEL: func.func @full_reduction
// CHECK-SAME: (%{{.*}}: memref<64xf32>, %{{.*}}: memref<1xf32>
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK: arith.addf
func.func @full_reduction(%a: tensor<64xf32>) -> tensor<f32> attributes {meshvk.kernel} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%a : tensor<64xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}

// -----

// 0-d inputs and outputs of elementwise ops: a scalar read at index 0 of its
// 1-element buffer, a 0-d result written at index 0.

// CHECK-LABEL: func.func @scalar_ops
// CHECK-SAME: (%{{.*}}: memref<8xf32>, %{{.*}}: memref<1xf32>, %{{.*}}: memref<8xf32>, %{{.*}}: memref<1xf32>
// CHECK: gpu.launch
func.func @scalar_ops(%x: tensor<8xf32>, %s: tensor<f32>) -> (tensor<8xf32>, tensor<f32>) attributes {meshvk.kernel} {
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x, %s : tensor<8xf32>, tensor<f32>) outs(%e : tensor<8xf32>) {
    ^bb0(%v: f32, %k: f32, %o: f32):
      %m = arith.mulf %v, %k : f32
      linalg.yield %m : f32
  } -> tensor<8xf32>
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %t = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%s : tensor<f32>) outs(%e0 : tensor<f32>) {
    ^bb0(%v: f32, %o: f32):
      %a = arith.addf %v, %one : f32
      linalg.yield %a : f32
  } -> tensor<f32>
  return %y, %t : tensor<8xf32>, tensor<f32>
}
