// A recursive helper (used by meshvk-inline-calls.mlir).
shard.grid @g(shape = 2)
func.func private @loop(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %r = func.call @loop(%a) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
func.func @main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %y = func.call @loop(%x) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}
