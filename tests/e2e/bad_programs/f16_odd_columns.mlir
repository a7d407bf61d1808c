// f16 columns split in 2 (3 halves per row): the peer copy of such a box is not whole 32-bit words.
shard.grid @grid(shape = 2)
func.func @main(%a: tensor<4x6xf16>) -> tensor<4x6xf16> {
  %cols = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a_s = shard.shard %a to %cols annotate_for_users : tensor<4x6xf16>
  %init = tensor.empty() : tensor<4x6xf16>
  %e = linalg.exp ins(%a_s : tensor<4x6xf16>) outs(%init : tensor<4x6xf16>) -> tensor<4x6xf16>
  %r = shard.shard %e to %rep : tensor<4x6xf16>
  return %r : tensor<4x6xf16>
}
