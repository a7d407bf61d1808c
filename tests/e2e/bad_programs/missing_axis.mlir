// Invalid sharding: grid axis 1 does not exist on a 1-D grid.
shard.grid @grid(shape = 4)
func.func @main(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %cols = shard.sharding @grid split_axes = [[], [1]] : !shard.sharding
  %a_s = shard.shard %a to %cols annotate_for_users : tensor<8x4xf32>
  %init = tensor.empty() : tensor<8x4xf32>
  %e = linalg.exp ins(%a_s : tensor<8x4xf32>) outs(%init : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %e : tensor<8x4xf32>
}
