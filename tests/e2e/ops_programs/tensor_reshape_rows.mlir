// tensor.reshape to static shapes (meshvk-normalize-input: collapse_shape /
// expand_shape, or a collapse to 1-D and an expand), rows of a split, i32:
//   f = a as 32 elements (row-major)   g = a as 2x4x4   h = a as 4x8
shard.grid @grid(shape = 2)
func.func @main(%a: tensor<8x4xi32>) -> (tensor<32xi32>, tensor<2x4x4xi32>, tensor<4x8xi32>) {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %as = shard.shard %a to %rows annotate_for_users : tensor<8x4xi32>
  %s1 = arith.constant dense<[32]> : tensor<1xindex>
  %f = tensor.reshape %as(%s1) : (tensor<8x4xi32>, tensor<1xindex>) -> tensor<32xi32>
  %s2 = arith.constant dense<[2, 4, 4]> : tensor<3xindex>
  %g = tensor.reshape %as(%s2) : (tensor<8x4xi32>, tensor<3xindex>) -> tensor<2x4x4xi32>
  %s3 = arith.constant dense<[4, 8]> : tensor<2xindex>
  %h = tensor.reshape %as(%s3) : (tensor<8x4xi32>, tensor<2xindex>) -> tensor<4x8xi32>
  return %f, %g, %h : tensor<32xi32>, tensor<2x4x4xi32>, tensor<4x8xi32>
}
