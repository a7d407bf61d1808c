// A grid sized at run time, compiled ONCE into a .mvk with a plan per process
// count (mesh-vk-compile without --grid-shape) and run on 1..4 devices
// (dynamic_grid.cmake). x's 8 rows are split over the grid: uneven for 3
// processes (3, 3, 2 rows).
//   y = x . w              rows split (w replicated)
//   s[j] = sum_i y[i, j]   the split dimension reduced: partial sums + all_reduce
shard.grid @g(shape = ?)
func.func @main(%x: tensor<8x6xf32>, %w: tensor<6x4xf32>) -> (tensor<8x4xf32>, tensor<4xf32>) {
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @g split_axes = [[]] : !shard.sharding
  %x_s = shard.shard %x to %rows annotate_for_users : tensor<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<8x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<8x4xf32>) -> tensor<8x4xf32>
  %y = linalg.matmul ins(%x_s, %w : tensor<8x6xf32>, tensor<6x4xf32>)
                     outs(%acc : tensor<8x4xf32>) -> tensor<8x4xf32>
  %y_s = shard.shard %y to %rows : tensor<8x4xf32>
  %init_s = tensor.empty() : tensor<4xf32>
  %acc_s = linalg.fill ins(%zero : f32) outs(%init_s : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.reduce ins(%y_s : tensor<8x4xf32>) outs(%acc_s : tensor<4xf32>) dimensions = [0]
    (%in: f32, %out: f32) {
      %sum = arith.addf %in, %out : f32
      linalg.yield %sum : f32
    }
  %s_r = shard.shard %s to %rep : tensor<4xf32>
  return %y_s, %s_r : tensor<8x4xf32>, tensor<4xf32>
}
