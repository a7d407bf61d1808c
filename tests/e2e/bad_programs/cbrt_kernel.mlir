// An op kernel codegen cannot lower: math.cbrt has no SPIR-V (GLSL.std.450) form (erf and exp2 are expanded).
shard.grid @grid(shape = 2)
func.func @main(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a_s = shard.shard %a to %rows annotate_for_users : tensor<8x4xf32>
  %init = tensor.empty() : tensor<8x4xf32>
  %e = math.cbrt %a_s : tensor<8x4xf32>
  %r = shard.shard %e to %rep : tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
