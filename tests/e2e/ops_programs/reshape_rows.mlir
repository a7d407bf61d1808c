// Reshapes that keep the split rows whole: x (4x2x8, split on dimension 0) is
// collapsed to 8x8 (groups [0, 1], [2]: the split dimension leads its group,
// so each process's rows stay contiguous), negated, expanded back to 4x2x8.
//   y[i, j, k] = -x[i, j, k]   (i32, exact)
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<4x2x8xi32>) -> tensor<4x2x8xi32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %s annotate_for_users : tensor<4x2x8xi32>
  %c = tensor.collapse_shape %x_s [[0, 1], [2]] : tensor<4x2x8xi32> into tensor<8x8xi32>
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<8x8xi32>
  %n = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<8x8xi32>) outs(%e : tensor<8x8xi32>) {
    ^bb0(%v: i32, %o: i32):
      %m = arith.subi %zero, %v : i32
      linalg.yield %m : i32
  } -> tensor<8x8xi32>
  %y = tensor.expand_shape %n [[0, 1], [2]] output_shape [4, 2, 8] : tensor<8x8xi32> into tensor<4x2x8xi32>
  %y_s = shard.shard %y to %s : tensor<4x2x8xi32>
  return %y_s : tensor<4x2x8xi32>
}
