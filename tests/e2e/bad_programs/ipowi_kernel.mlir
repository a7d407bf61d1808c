// An op kernel codegen cannot lower: math.ipowi has no SPIR-V (GLSL.std.450) form and no expansion
// (erf, exp2, cbrt, atan2, trunc, ctpop and cttz are expanded).
shard.grid @grid(shape = 2)
func.func @main(%a: tensor<8x4xi32>) -> tensor<8x4xi32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a_s = shard.shard %a to %rows annotate_for_users : tensor<8x4xi32>
  %e = math.ipowi %a_s, %a_s : tensor<8x4xi32>
  %r = shard.shard %e to %rep : tensor<8x4xi32>
  return %r : tensor<8x4xi32>
}
