// A dynamic grid with a static axis: 2 x ?, so a plan exists only for even
// process counts (the ? axis is the count / 2). Used by the CLI tests of
// counts the program cannot take.
shard.grid @g(shape = 2x?)
func.func @main(%x: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<8x6xf32>
  %e = tensor.empty() : tensor<8x6xf32>
  %y = linalg.add ins(%xs, %xs : tensor<8x6xf32>, tensor<8x6xf32>) outs(%e : tensor<8x6xf32>) -> tensor<8x6xf32>
  %ys = shard.shard %y to %s : tensor<8x6xf32>
  return %ys : tensor<8x6xf32>
}
