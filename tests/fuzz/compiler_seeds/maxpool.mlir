// Seed of the compiler fuzz target (tests/fuzz/CMakeLists.txt): a tosa window op, from tests/python/test_convolutions.py.

shard.grid @g(shape = 2)
func.func @main(%x: tensor<2x8x8x3xf32>) -> tensor<2x4x4x3xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<2x8x8x3xf32>
  %y = tosa.max_pool2d %xs {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<2x8x8x3xf32>) -> tensor<2x4x4x3xf32>
  %ys = shard.shard %y to %s : tensor<2x4x4x3xf32>
  return %ys : tensor<2x4x4x3xf32>
}
