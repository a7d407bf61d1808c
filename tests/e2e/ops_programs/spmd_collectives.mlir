// Collectives written by the user in an SPMD function, over grid axis 0: each
// process holds a 4x4 i32 block (process p: rows [4p, 4p + 4) of the global
// (4 * P) x 4 input) and returns, stacked the same way,
//   sum   = all_reduce(sum) over its group,
//   root  = broadcast of the group's first member's block,
//   prev  = shift by +1 with rotation (the block of the group member before).
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<4x4xi32>) -> (tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>) {
  %sum = shard.all_reduce %x on @grid grid_axes = [0] reduction = sum : tensor<4x4xi32> -> tensor<4x4xi32>
  %root = shard.broadcast %x on @grid grid_axes = [0] root = [0] : (tensor<4x4xi32>) -> tensor<4x4xi32>
  %prev = shard.shift %x on @grid grid_axes = [0] shift_axis = 0 offset = 1 rotate : tensor<4x4xi32> -> tensor<4x4xi32>
  return %sum, %root, %prev : tensor<4x4xi32>, tensor<4x4xi32>, tensor<4x4xi32>
}
