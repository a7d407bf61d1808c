// Seed of the compiler fuzz target (tests/fuzz/CMakeLists.txt): a tosa window op, from tests/python/test_convolutions.py.

shard.grid @g(shape = 2)
func.func @main(%x: tensor<2x4x4x3xf32>) -> tensor<2x8x8x3xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<2x4x4x3xf32>
  %scale = tosa.const_shape { values = dense<[2, 1, 2, 1]> : tensor<4xindex> } : () -> !tosa.shape<4>
  %offset = tosa.const_shape { values = dense<[0, 0]> : tensor<2xindex> } : () -> !tosa.shape<2>
  %border = tosa.const_shape { values = dense<[1, 1]> : tensor<2xindex> } : () -> !tosa.shape<2>
  %y = tosa.resize %xs, %scale, %offset, %border { mode = NEAREST_NEIGHBOR } : (tensor<2x4x4x3xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x8x8x3xf32>
  %ys = shard.shard %y to %s : tensor<2x8x8x3xf32>
  return %ys : tensor<2x8x8x3xf32>
}
