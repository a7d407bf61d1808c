// A tosa.const table and a broadcast tosa.const row, rows of x split, i32;
// the table is also returned as is (a constant result).
//   K (6x4) = [[1, -2, 3, -4], [5, 6, -7, 8], [-9, 10, 11, 12],
//              [13, -14, 15, 16], [17, 18, -19, 20], [-21, 22, 23, -24]]
//   r (1x4) = [[10, 20, 30, 40]]
//   y = x * K + r        z = K
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<6x4xi32>) -> (tensor<6x4xi32>, tensor<6x4xi32>) {
  %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %split annotate_for_users : tensor<6x4xi32>
  %k = "tosa.const"() <{values = dense<[[1, -2, 3, -4], [5, 6, -7, 8], [-9, 10, 11, 12],
                                        [13, -14, 15, 16], [17, 18, -19, 20], [-21, 22, 23, -24]]> : tensor<6x4xi32>}> : () -> tensor<6x4xi32>
  %r = "tosa.const"() <{values = dense<[[10, 20, 30, 40]]> : tensor<1x4xi32>}> : () -> tensor<1x4xi32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %p = tosa.mul %xs, %k, %shift : (tensor<6x4xi32>, tensor<6x4xi32>, tensor<1xi8>) -> tensor<6x4xi32>
  %y = tosa.add %p, %r : (tensor<6x4xi32>, tensor<1x4xi32>) -> tensor<6x4xi32>
  %ys = shard.shard %y to %split : tensor<6x4xi32>
  return %ys, %k : tensor<6x4xi32>, tensor<6x4xi32>
}
