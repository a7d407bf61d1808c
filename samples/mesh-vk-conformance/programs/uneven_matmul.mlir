// Uneven shards: 10 rows of A over 4 processes (3, 3, 2, 2), B replicated,
// C = A x B gathered on every process. Conformance: results vs host loops,
// the gather's bytes and placement on every topology.
shard.grid @grid(shape = 4)
func.func @main(%a: tensor<10x32xf32>, %b: tensor<32x8xf32>) -> tensor<10x8xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a_s = shard.shard %a to %rows annotate_for_users : tensor<10x32xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<10x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<10x8xf32>) -> tensor<10x8xf32>
  %c = linalg.matmul ins(%a_s, %b : tensor<10x32xf32>, tensor<32x8xf32>)
                     outs(%acc : tensor<10x8xf32>) -> tensor<10x8xf32>
  %c_r = shard.shard %c to %rep : tensor<10x8xf32>
  return %c_r : tensor<10x8xf32>
}
