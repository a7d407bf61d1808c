// 7x7 i32 over a 2x2 grid, both dimensions split unevenly (4 + 3):
//   c = a + b                 split [[0], [1]]
//   t = c resharded to [[1], [0]] (the axes swap dimensions: unequal pieces
//       move between all four processes), returned as it is
//   r[i] = sum_j c[i, j]      a reduction over a split dimension
//   g = c, replicated         a gather of four unequal pieces
shard.grid @g(shape = 2x2)
func.func @main(%a: tensor<7x7xi32>, %b: tensor<7x7xi32>)
    -> (tensor<7x7xi32>, tensor<7x7xi32>, tensor<7xi32>, tensor<7x7xi32>) {
  %s01 = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %s10 = shard.sharding @g split_axes = [[1], [0]] : !shard.sharding
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @g split_axes = [[]] : !shard.sharding
  %a0 = shard.shard %a to %s01 annotate_for_users : tensor<7x7xi32>
  %b0 = shard.shard %b to %s01 annotate_for_users : tensor<7x7xi32>
  %e = tensor.empty() : tensor<7x7xi32>
  %sum = linalg.add ins(%a0, %b0 : tensor<7x7xi32>, tensor<7x7xi32>)
                    outs(%e : tensor<7x7xi32>) -> tensor<7x7xi32>
  %c = shard.shard %sum to %s01 : tensor<7x7xi32>
  %t = shard.shard %c to %s10 annotate_for_users : tensor<7x7xi32>
  %zero = arith.constant 0 : i32
  %e2 = tensor.empty() : tensor<7xi32>
  %f2 = linalg.fill ins(%zero : i32) outs(%e2 : tensor<7xi32>) -> tensor<7xi32>
  %r = linalg.reduce ins(%c : tensor<7x7xi32>) outs(%f2 : tensor<7xi32>) dimensions = [1]
    (%in: i32, %acc: i32) {
      %s = arith.addi %in, %acc : i32
      linalg.yield %s : i32
    }
  %r0 = shard.shard %r to %rows : tensor<7xi32>
  %g0 = shard.shard %c to %rep annotate_for_users : tensor<7x7xi32>
  return %c, %t, %r0, %g0 : tensor<7x7xi32>, tensor<7x7xi32>, tensor<7xi32>, tensor<7x7xi32>
}
