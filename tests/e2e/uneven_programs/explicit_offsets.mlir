// Shard sizes written by the user: the 14 columns of a and b are cut at
// [0, 2, 5, 9, 14] (2, 3, 4 and 5 columns on the 4 processes).
//   c = a * b + a             keeps the user's offsets (propagated)
//   g = c, replicated         a gather of unequal pieces
//   h = c split evenly by rows ([[0]]: 1 row each): unequal pieces to equal ones
shard.grid @g(shape = 4)
func.func @main(%a: tensor<4x14xi32>, %b: tensor<4x14xi32>)
    -> (tensor<4x14xi32>, tensor<4x14xi32>, tensor<4x14xi32>) {
  %cols = shard.sharding @g split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 5, 9, 14] : !shard.sharding
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @g split_axes = [[]] : !shard.sharding
  %a0 = shard.shard %a to %cols annotate_for_users : tensor<4x14xi32>
  %b0 = shard.shard %b to %cols annotate_for_users : tensor<4x14xi32>
  %e = tensor.empty() : tensor<4x14xi32>
  %p = linalg.mul ins(%a0, %b0 : tensor<4x14xi32>, tensor<4x14xi32>)
                  outs(%e : tensor<4x14xi32>) -> tensor<4x14xi32>
  %e1 = tensor.empty() : tensor<4x14xi32>
  %q = linalg.add ins(%p, %a0 : tensor<4x14xi32>, tensor<4x14xi32>)
                  outs(%e1 : tensor<4x14xi32>) -> tensor<4x14xi32>
  %c = shard.shard %q to %cols : tensor<4x14xi32>
  %g0 = shard.shard %c to %rep annotate_for_users : tensor<4x14xi32>
  %h0 = shard.shard %c to %rows annotate_for_users : tensor<4x14xi32>
  return %c, %g0, %h0 : tensor<4x14xi32>, tensor<4x14xi32>, tensor<4x14xi32>
}
