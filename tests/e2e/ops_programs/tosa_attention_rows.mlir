// One attention head in tosa, rows of q split (5 rows: uneven on 2, 3 and 4
// processes), k and v replicated, f32:
//   s = q . kt (5x8)   m[i] = max_j s[i][j]   e = exp(s - m)
//   p = e * (1 / sum_j e[i][j])               o = p . v (5x4)
// tosa.reduce_max / reduce_sum keep the reduced dimension (1x5x1): their
// lowering reshapes each process's rows with tensor.expand_shape.
shard.grid @grid(shape = 2)
func.func @main(%q: tensor<1x5x4xf32>, %kt: tensor<1x4x8xf32>, %v: tensor<1x8x4xf32>) -> tensor<1x5x4xf32> {
  %rows = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %qs = shard.shard %q to %rows annotate_for_users : tensor<1x5x4xf32>
  %ks = shard.shard %kt to %rep annotate_for_users : tensor<1x4x8xf32>
  %vs = shard.shard %v to %rep annotate_for_users : tensor<1x8x4xf32>
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s = tosa.matmul %qs, %ks, %z, %z : (tensor<1x5x4xf32>, tensor<1x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x8xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<1x5x8xf32>) -> tensor<1x5x1xf32>
  %d = tosa.sub %s, %m : (tensor<1x5x8xf32>, tensor<1x5x1xf32>) -> tensor<1x5x8xf32>
  %e = tosa.exp %d : (tensor<1x5x8xf32>) -> tensor<1x5x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<1x5x8xf32>) -> tensor<1x5x1xf32>
  %r = tosa.reciprocal %sum : (tensor<1x5x1xf32>) -> tensor<1x5x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %p = tosa.mul %e, %r, %shift : (tensor<1x5x8xf32>, tensor<1x5x1xf32>, tensor<1xi8>) -> tensor<1x5x8xf32>
  %o = tosa.matmul %p, %vs, %z, %z : (tensor<1x5x8xf32>, tensor<1x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x4xf32>
  %os = shard.shard %o to %rows : tensor<1x5x4xf32>
  return %os : tensor<1x5x4xf32>
}
