// Long full reductions of an i32 matrix to 0-d results, rows split over the
// processes of a 1-D grid: s = sum over i, j of x[i, j] and m = max of them.
// 256 x 1000: the split cuts the longer (column) loop into chunks that read
// every row of their columns.
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<256x1000xi32>) -> (tensor<i32>, tensor<i32>) {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %x_s = shard.shard %x to %rows annotate_for_users : tensor<256x1000xi32>
  %e = tensor.empty() : tensor<i32>
  %zero = arith.constant 0 : i32
  %lowest = arith.constant -2147483648 : i32
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<i32>) -> tensor<i32>
  %l = linalg.fill ins(%lowest : i32) outs(%e : tensor<i32>) -> tensor<i32>
  %s = linalg.reduce ins(%x_s : tensor<256x1000xi32>) outs(%z : tensor<i32>) dimensions = [0, 1]
    (%in: i32, %acc: i32) {
      %a = arith.addi %in, %acc : i32
      linalg.yield %a : i32
    }
  %m = linalg.reduce ins(%x_s : tensor<256x1000xi32>) outs(%l : tensor<i32>) dimensions = [0, 1]
    (%in: i32, %acc: i32) {
      %a = arith.maxsi %in, %acc : i32
      linalg.yield %a : i32
    }
  %s_r = shard.shard %s to %rep : tensor<i32>
  %s_u = shard.shard %s_r to %rep annotate_for_users : tensor<i32>
  %m_r = shard.shard %m to %rep : tensor<i32>
  %m_u = shard.shard %m_r to %rep annotate_for_users : tensor<i32>
  return %s_u, %m_u : tensor<i32>, tensor<i32>
}
