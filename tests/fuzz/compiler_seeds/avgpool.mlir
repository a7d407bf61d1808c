// Seed of the compiler fuzz target (tests/fuzz/CMakeLists.txt): a tosa window op, from tests/python/test_convolutions.py.

shard.grid @g(shape = 3)
func.func @main(%x: tensor<2x9x9x3xf32>) -> tensor<2x9x9x3xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<2x9x9x3xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.avg_pool2d %xs, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<2x9x9x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x9x9x3xf32>
  %ys = shard.shard %y to %s : tensor<2x9x9x3xf32>
  return %ys : tensor<2x9x9x3xf32>
}
