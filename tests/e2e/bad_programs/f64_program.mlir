// f64 tensors: the runtime supports f32, f16 and i32 only.
shard.grid @grid(shape = 2)
func.func @main(%a: tensor<8x4xf64>) -> tensor<8x4xf64> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a_s = shard.shard %a to %rows annotate_for_users : tensor<8x4xf64>
  %init = tensor.empty() : tensor<8x4xf64>
  %e = linalg.exp ins(%a_s : tensor<8x4xf64>) outs(%init : tensor<8x4xf64>) -> tensor<8x4xf64>
  %r = shard.shard %e to %rep : tensor<8x4xf64>
  return %r : tensor<8x4xf64>
}
