// Padding the split dimension: the rows are gathered, padded (1 row before,
// 2 after, value -1) and cut again into the result's row split (11 rows:
// uneven on most grids).
//   y[i, j] = x[i - 1, j] for 1 <= i < 9, else -1          11x4  (i32, exact)
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<8x4xi32>) -> tensor<11x4xi32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %rows annotate_for_users : tensor<8x4xi32>
  %minus_one = arith.constant -1 : i32
  %y = tensor.pad %x_s low[1, 0] high[2, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %minus_one : i32
  } : tensor<8x4xi32> to tensor<11x4xi32>
  %y_s = shard.shard %y to %rows : tensor<11x4xi32>
  return %y_s : tensor<11x4xi32>
}
