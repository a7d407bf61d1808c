// A full reduction to a 0-d tensor (upstream's test_reduce_0d, i32): every
// process sums its rows, the partial sums are all-reduced.
// r = sum over i, j of x[i, j].
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<8x6xi32>) -> tensor<i32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %x_s = shard.shard %x to %rows annotate_for_users : tensor<8x6xi32>
  %e = tensor.empty() : tensor<i32>
  %zero = arith.constant 0 : i32
  %t = linalg.fill ins(%zero : i32) outs(%e : tensor<i32>) -> tensor<i32>
  %t_s = shard.shard %t to %rep : tensor<i32>
  %r = linalg.reduce ins(%x_s : tensor<8x6xi32>) outs(%t_s : tensor<i32>) dimensions = [0, 1]
    (%in: i32, %acc: i32) {
      %a = arith.addi %in, %acc : i32
      linalg.yield %a : i32
    }
  %r_s = shard.shard %r to %rep : tensor<i32>
  %out = shard.shard %r_s to %rep annotate_for_users : tensor<i32>
  return %out : tensor<i32>
}
