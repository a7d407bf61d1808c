// A chain of comparison masks feeding a select (the i1 tensors are fused,
// round by round, into the select's kernel: the runtime has no i1 buffers) and erf (a polynomial: the
// Vulkan GLSL set has none), rows split, f32:
//   y = select(a > b and not(b > a), a, b) + erf(a) = max(a, b) + erf(a)
shard.grid @grid(shape = 2)
func.func @main(%a: tensor<8x4xf32>, %b: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %a_s = shard.shard %a to %rows annotate_for_users : tensor<8x4xf32>
  %b_s = shard.shard %b to %rows annotate_for_users : tensor<8x4xf32>
  %p = tosa.greater %a_s, %b_s : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xi1>
  %q = tosa.greater %b_s, %a_s : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xi1>
  %n = tosa.logical_not %q : (tensor<8x4xi1>) -> tensor<8x4xi1>
  %k = tosa.logical_and %p, %n : (tensor<8x4xi1>, tensor<8x4xi1>) -> tensor<8x4xi1>
  %m = tosa.select %k, %a_s, %b_s : (tensor<8x4xi1>, tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  %e = tosa.erf %a_s : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %y = tosa.add %m, %e : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  %y_s = shard.shard %y to %rows : tensor<8x4xf32>
  return %y_s : tensor<8x4xf32>
}
