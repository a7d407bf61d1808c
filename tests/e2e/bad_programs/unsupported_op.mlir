// An op without a sharding rule: tensor.concat of two row-split tensors.
shard.grid @grid(shape = 2)
func.func @main(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<8x4xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %a_s = shard.shard %a to %rows annotate_for_users : tensor<4x4xf32>
  %c = tensor.concat dim(0) %a_s, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  return %c : tensor<8x4xf32>
}
