// An f16 table whose rows are not whole 32-bit words (5 columns), rows of x
// split (uneven on 4 processes: 2, 2, 1, 1 rows), arith on whole tensors:
//   C (6x5) : C[i][j] = 0.25 * (i * 5 + j) - 3
//   y = x * C + C
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<6x5xf16>) -> tensor<6x5xf16> {
  %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %split annotate_for_users : tensor<6x5xf16>
  %c = arith.constant dense<[[-3.0, -2.75, -2.5, -2.25, -2.0], [-1.75, -1.5, -1.25, -1.0, -0.75],
                             [-0.5, -0.25, 0.0, 0.25, 0.5], [0.75, 1.0, 1.25, 1.5, 1.75],
                             [2.0, 2.25, 2.5, 2.75, 3.0], [3.25, 3.5, 3.75, 4.0, 4.25]]> : tensor<6x5xf16>
  %p = arith.mulf %xs, %c : tensor<6x5xf16>
  %y = arith.addf %p, %c : tensor<6x5xf16>
  %ys = shard.shard %y to %split : tensor<6x5xf16>
  return %ys : tensor<6x5xf16>
}
