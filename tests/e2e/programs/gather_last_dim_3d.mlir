// Strided gathers: c = a + b on 4x8x8 i32 with the LAST dimension split over 4.
// Gathering c back copies 4x8x2 boxes: 2-word runs, strided over two
// dimensions (a 3-D strided region per peer).
shard.grid @grid(shape = 4)
func.func @main(%a: tensor<4x8x8xi32>, %b: tensor<4x8x8xi32>) -> tensor<4x8x8xi32> {
  %last = shard.sharding @grid split_axes = [[], [], [0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a_s = shard.shard %a to %last annotate_for_users : tensor<4x8x8xi32>
  %b_s = shard.shard %b to %last annotate_for_users : tensor<4x8x8xi32>
  %init = tensor.empty() : tensor<4x8x8xi32>
  %c = linalg.add ins(%a_s, %b_s : tensor<4x8x8xi32>, tensor<4x8x8xi32>) outs(%init : tensor<4x8x8xi32>) -> tensor<4x8x8xi32>
  %c_r = shard.shard %c to %rep : tensor<4x8x8xi32>
  return %c_r : tensor<4x8x8xi32>
}
