// Strided gathers in 4-D: c = a + b on 2x3x4x8 i32 with the last dimension
// split over 4; each gathered box (2x3x4x2) needs one 3-D region per index of
// the outermost dimension.
shard.grid @grid(shape = 4)
func.func @main(%a: tensor<2x3x4x8xi32>, %b: tensor<2x3x4x8xi32>) -> tensor<2x3x4x8xi32> {
  %last = shard.sharding @grid split_axes = [[], [], [], [0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a_s = shard.shard %a to %last annotate_for_users : tensor<2x3x4x8xi32>
  %b_s = shard.shard %b to %last annotate_for_users : tensor<2x3x4x8xi32>
  %init = tensor.empty() : tensor<2x3x4x8xi32>
  %c = linalg.add ins(%a_s, %b_s : tensor<2x3x4x8xi32>, tensor<2x3x4x8xi32>) outs(%init : tensor<2x3x4x8xi32>) -> tensor<2x3x4x8xi32>
  %c_r = shard.shard %c to %rep : tensor<2x3x4x8xi32>
  return %c_r : tensor<2x3x4x8xi32>
}
