// tensor.extract_slice / insert_slice of blocks on a 2x2 grid:
//   a = x[:, 2:6]                  8x4  (columns window: rows stay split)
//   b = x[2:6, :]                  4x8  (rows window: columns stay split)
//   c = zeros(8x8) with b written at rows [1, 5)
//   d = x[:, 1:8:2]                8x4  (strided: runs as a kernel)
//   e = x[:, 3]                    8    (rank-reducing)
// all i32, exact.
shard.grid @grid(shape = 2x2)
func.func @main(%x: tensor<8x8xi32>)
    -> (tensor<8x4xi32>, tensor<4x8xi32>, tensor<8x8xi32>, tensor<8x4xi32>, tensor<8xi32>) {
  %blocks = shard.sharding @grid split_axes = [[0], [1]] : !shard.sharding
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %blocks annotate_for_users : tensor<8x8xi32>
  %a = tensor.extract_slice %x_s[0, 2] [8, 4] [1, 1] : tensor<8x8xi32> to tensor<8x4xi32>
  %b = tensor.extract_slice %x_s[2, 0] [4, 8] [1, 1] : tensor<8x8xi32> to tensor<4x8xi32>
  %zero = arith.constant dense<0> : tensor<8x8xi32>
  %c = tensor.insert_slice %b into %zero[1, 0] [4, 8] [1, 1] : tensor<4x8xi32> into tensor<8x8xi32>
  %d = tensor.extract_slice %x_s[0, 1] [8, 4] [1, 2] : tensor<8x8xi32> to tensor<8x4xi32>
  %e = tensor.extract_slice %x_s[0, 3] [8, 1] [1, 1] : tensor<8x8xi32> to tensor<8xi32>
  %a_s = shard.shard %a to %blocks : tensor<8x4xi32>
  %b_s = shard.shard %b to %blocks : tensor<4x8xi32>
  %c_s = shard.shard %c to %blocks : tensor<8x8xi32>
  %d_s = shard.shard %d to %rows : tensor<8x4xi32>
  %e_s = shard.shard %e to %rows : tensor<8xi32>
  return %a_s, %b_s, %c_s, %d_s, %e_s
      : tensor<8x4xi32>, tensor<4x8xi32>, tensor<8x8xi32>, tensor<8x4xi32>, tensor<8xi32>
}
