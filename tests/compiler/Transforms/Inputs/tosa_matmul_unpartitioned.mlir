// Input of meshvk-verify-abi.mlir (an op upstream propagates but does not partition).
shard.grid @g24(shape = 2x4)
// expected-error @+1 {{partitioning broke the signature of @tosa_matmul: result #0 should be the local shard 'tensor<2x8x8xf32>' of the global tensor<2x16x32xf32> split #shard<axisarray[[], [0], [1]]> but is 'tensor<2x16x32xf32>'}}
func.func @tosa_matmul(%a: tensor<2x16x8xf32>, %b: tensor<2x8x32xf32>, %z: tensor<1xf32>) -> tensor<2x16x32xf32> {
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<2x16x8xf32>, tensor<2x8x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x16x32xf32>
  %s = shard.sharding @g24 split_axes = [[], [0], [1]] : !shard.sharding
  %1 = shard.shard %0 to %s : tensor<2x16x32xf32>
  return %1 : tensor<2x16x32xf32>
}
