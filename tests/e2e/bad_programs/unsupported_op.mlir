// An op without a sharding rule: tensor.generate (elements computed from indices).
shard.grid @grid(shape = 2)
func.func @main(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<8x4xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %a_s = shard.shard %a to %rows annotate_for_users : tensor<4x4xf32>
  %c = tensor.generate {
  ^bb0(%i: index, %j: index):
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    tensor.yield %f : f32
  } : tensor<8x4xf32>
  return %c : tensor<8x4xf32>
}
