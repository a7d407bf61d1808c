// Uneven shards: a batch of 10 rows split over the grid (numpy.array_split's
// rule: on 4 processes 3, 3, 2, 2 rows; on 3, 4, 3, 3). Each process computes,
// allocates and copies its own rows; `mesh-vk-run --print-plan` lists them.
//   y = relu(x @ w)           rows split, w replicated
//   s[j] = sum_i y[i, j]      a reduction over the split rows (all-reduce)
//   g = y, replicated         an all-gather of unequal pieces
shard.grid @g(shape = 4)
func.func @main(%x: tensor<10x8xf32>, %w: tensor<8x6xf32>)
    -> (tensor<10x6xf32>, tensor<6xf32>, tensor<10x6xf32>) {
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @g split_axes = [[]] : !shard.sharding
  %x0 = shard.shard %x to %rows annotate_for_users : tensor<10x8xf32>
  %w0 = shard.shard %w to %rep annotate_for_users : tensor<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<10x6xf32>) -> tensor<10x6xf32>
  %m = linalg.matmul ins(%x0, %w0 : tensor<10x8xf32>, tensor<8x6xf32>)
                     outs(%f : tensor<10x6xf32>) -> tensor<10x6xf32>
  %e1 = tensor.empty() : tensor<10x6xf32>
  %r = linalg.max ins(%m, %f : tensor<10x6xf32>, tensor<10x6xf32>)
                  outs(%e1 : tensor<10x6xf32>) -> tensor<10x6xf32>
  %y = shard.shard %r to %rows : tensor<10x6xf32>
  %e2 = tensor.empty() : tensor<6xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<6xf32>) -> tensor<6xf32>
  %s = linalg.reduce ins(%y : tensor<10x6xf32>) outs(%f2 : tensor<6xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }
  %s0 = shard.shard %s to %rep : tensor<6xf32>
  %g0 = shard.shard %y to %rep annotate_for_users : tensor<10x6xf32>
  return %y, %s0, %g0 : tensor<10x6xf32>, tensor<6xf32>, tensor<10x6xf32>
}
