// f64 tensors on a target without shaderFloat64 (the generic preset): one
// error at the kernel. (lavapipe has f64: tests/onnx float64 runs it.)
shard.grid @grid(shape = 2)
func.func @main(%a: tensor<8x4xf64>) -> tensor<8x4xf64> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a_s = shard.shard %a to %rows annotate_for_users : tensor<8x4xf64>
  %init = tensor.empty() : tensor<8x4xf64>
  %e = linalg.exp ins(%a_s : tensor<8x4xf64>) outs(%init : tensor<8x4xf64>) -> tensor<8x4xf64>
  %r = shard.shard %e to %rep : tensor<8x4xf64>
  return %r : tensor<8x4xf64>
}
