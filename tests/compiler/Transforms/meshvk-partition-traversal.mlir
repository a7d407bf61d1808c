// Why meshvk-partition uses traversal=forward-backward: measured on a row-split
// matmul followed by an elementwise op and a row reduction (grid of 2, A is
// 8x4 f32 split by rows, result replicated).
//
// Both traversals move the same bytes: one all_gather of a 4x6 f32 block, so
// every process pulls 1 * 4*6*4 = 96 bytes. Upstream's default
// (backward-forward) gathers right after the matmul and runs exp on the whole
// 8x6 tensor on every process; forward-backward runs exp on the local 4x6
// block and gathers after it. `forward` is not offered (it crashes in
// shard-partition).
//
// RUN: mesh-vk-opt %s --meshvk-compile-plan | FileCheck %s --check-prefix=FB
// RUN: mesh-vk-opt %s "--meshvk-compile-plan=traversal=backward-forward" | FileCheck %s --check-prefix=BF
// RUN: not mesh-vk-opt %s "--meshvk-compile-plan=traversal=forward" 2>&1 | FileCheck %s --check-prefix=FWD

// FB: kind = "all_gather", algorithm = "{{[^"]*}}", group_size = {{[0-9]+}}, pulled_bytes = [96, 96]
// (exp runs in the matmul's kernel, meshvk-fuse-kernels; under
// backward-forward the all_gather sits between them, so it stays apart.)
// FB-LABEL: func.func private @kernel_{{[0-9]+}}(%{{.*}}: tensor<4x4xf32>, %{{.*}}: tensor<4x6xf32>) -> tensor<4x6xf32>
// FB: linalg.matmul
// FB: linalg.exp

// BF: kind = "all_gather", algorithm = "{{[^"]*}}", group_size = {{[0-9]+}}, pulled_bytes = [96, 96]
// (exp and the row sum share one kernel, meshvk-fuse-row-chains.)
// BF-LABEL: func.func private @kernel_{{[0-9]+}}(%{{.*}}: tensor<8x6xf32>) -> tensor<8xf32>
// BF: linalg.exp
// BF: linalg.reduce

// FWD: Cannot find option named 'forward'

shard.grid @mesh(shape = 2)
func.func @row_sums(%a: tensor<8x4xf32>, %b: tensor<4x6xf32>) -> tensor<8xf32> {
  %rows = shard.sharding @mesh split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @mesh split_axes = [[]] : !shard.sharding
  %a0 = shard.shard %a to %rows annotate_for_users : tensor<8x4xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x6xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x6xf32>) -> tensor<8x6xf32>
  %c = linalg.matmul ins(%a0, %b : tensor<8x4xf32>, tensor<4x6xf32>) outs(%f : tensor<8x6xf32>) -> tensor<8x6xf32>
  %e2 = tensor.empty() : tensor<8x6xf32>
  %x = linalg.exp ins(%c : tensor<8x6xf32>) outs(%e2 : tensor<8x6xf32>) -> tensor<8x6xf32>
  %e3 = tensor.empty() : tensor<8xf32>
  %f3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.reduce ins(%x : tensor<8x6xf32>) outs(%f3 : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %0 = arith.addf %in, %acc : f32
      linalg.yield %0 : f32
    }
  %r = shard.shard %s to %rep : tensor<8xf32>
  return %r : tensor<8xf32>
}
