// Concatenating along a split dimension on a 2x2 grid (rows over axis 0,
// columns over axis 1): the rows are gathered over axis 0, concatenated, cut
// again; the column split stays local throughout.
//   y = concat(a, b) along rows: y[i, j] = a[i, j] (i < 8), b[i - 8, j]   12x8 (i32, exact)
shard.grid @grid(shape = 2x2)
func.func @main(%a: tensor<8x8xi32>, %b: tensor<4x8xi32>) -> tensor<12x8xi32> {
  %blocks = shard.sharding @grid split_axes = [[0], [1]] : !shard.sharding
  %a_s = shard.shard %a to %blocks annotate_for_users : tensor<8x8xi32>
  %b_s = shard.shard %b to %blocks annotate_for_users : tensor<4x8xi32>
  %y = tensor.concat dim(0) %a_s, %b_s : (tensor<8x8xi32>, tensor<4x8xi32>) -> tensor<12x8xi32>
  %y_s = shard.shard %y to %blocks : tensor<12x8xi32>
  return %y_s : tensor<12x8xi32>
}
