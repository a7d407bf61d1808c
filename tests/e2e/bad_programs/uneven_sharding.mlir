// Invalid sharding: 10 rows do not split evenly over a grid of 4.
shard.grid @grid(shape = 4)
func.func @main(%a: tensor<10x4xf32>) -> tensor<10x4xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a_s = shard.shard %a to %rows annotate_for_users : tensor<10x4xf32>
  %init = tensor.empty() : tensor<10x4xf32>
  %e = linalg.exp ins(%a_s : tensor<10x4xf32>) outs(%init : tensor<10x4xf32>) -> tensor<10x4xf32>
  %r = shard.shard %e to %rep : tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}
