// tosa ops (lowered with upstream tosa-to-linalg before sharding), rows split:
// y = sigmoid(a + b) * a and z = max(y, b) (a second result).
shard.grid @grid(shape = 4)
func.func @main(%a: tensor<16x8xf32>, %b: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %a_s = shard.shard %a to %rows annotate_for_users : tensor<16x8xf32>
  %b_s = shard.shard %b to %rows annotate_for_users : tensor<16x8xf32>
  %s = tosa.add %a_s, %b_s : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %g = tosa.sigmoid %s : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %y = tosa.mul %g, %a_s, %shift : (tensor<16x8xf32>, tensor<16x8xf32>, tensor<1xi8>) -> tensor<16x8xf32>
  %z = tosa.maximum %y, %b_s : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %y_s = shard.shard %y to %rows : tensor<16x8xf32>
  %z_s = shard.shard %z to %rows : tensor<16x8xf32>
  return %y_s, %z_s : tensor<16x8xf32>, tensor<16x8xf32>
}
