// Point-to-point exchanges written by the user in an SPMD function, over grid
// axis 0: each process holds a 4x4 i32 block (process p: rows [4p, 4p + 4) of
// the global (4 * P) x 4 input); with k its index in its group of m and
// peers named by arith on that index, it returns, stacked the same way,
//   prev = the block of member (k - 1) mod m  (everyone sends to k + 1 and
//          receives from k - 1: a ring),
//   next = the block of member (k + 1) mod m  (sends to k - 1; the recv names
//          no source: the one process with a send pending for it).
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<4x4xi32>) -> (tensor<4x4xi32>, tensor<4x4xi32>) {
  %c1 = arith.constant 1 : index
  %k = shard.process_multi_index on @grid axes = [0] : index
  %m = shard.grid_shape @grid axes = [0] : index
  %k1 = arith.addi %k, %c1 : index
  %up = arith.remui %k1, %m : index
  %km = arith.addi %k, %m : index
  %km1 = arith.subi %km, %c1 : index
  %down = arith.remui %km1, %m : index
  %e = tensor.empty() : tensor<4x4xi32>
  %s0 = shard.send %x on @grid grid_axes = [0] destination = [%up] : (tensor<4x4xi32>, index) -> tensor<4x4xi32>
  %prev = shard.recv %e on @grid grid_axes = [0] source = [%down] : (tensor<4x4xi32>, index) -> tensor<4x4xi32>
  %s1 = shard.send %x on @grid grid_axes = [0] destination = [%down] : (tensor<4x4xi32>, index) -> tensor<4x4xi32>
  %next = shard.recv %e on @grid grid_axes = [0] : (tensor<4x4xi32>) -> tensor<4x4xi32>
  return %prev, %next : tensor<4x4xi32>, tensor<4x4xi32>
}
