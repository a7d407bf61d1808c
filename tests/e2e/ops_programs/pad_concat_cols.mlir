// Padding and concatenating along the unsplit dimension (columns) of a
// row-split program: every process pads and concatenates its own rows, no
// data moves between processes.
//   p = pad(x, columns 1 before and 1 after, value 7)      8x6
//   y = concat(p, w) along columns                          8x8   (i32, exact)
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<8x4xi32>, %w: tensor<8x2xi32>) -> tensor<8x8xi32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %rows annotate_for_users : tensor<8x4xi32>
  %w_s = shard.shard %w to %rows annotate_for_users : tensor<8x2xi32>
  %seven = arith.constant 7 : i32
  %p = tensor.pad %x_s low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %seven : i32
  } : tensor<8x4xi32> to tensor<8x6xi32>
  %y = tensor.concat dim(1) %p, %w_s : (tensor<8x6xi32>, tensor<8x2xi32>) -> tensor<8x8xi32>
  %y_s = shard.shard %y to %rows : tensor<8x8xi32>
  return %y_s : tensor<8x8xi32>
}
