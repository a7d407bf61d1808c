// f16 columns split in 2 (3 halves = 6 bytes per row): every row of a shard
// is not a whole number of 32-bit words. y = -a (exact in f16), computed on
// the column shards and gathered to every process.
shard.grid @grid(shape = 2)
func.func @main(%a: tensor<4x6xf16>) -> tensor<4x6xf16> {
  %cols = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a_s = shard.shard %a to %cols annotate_for_users : tensor<4x6xf16>
  %init = tensor.empty() : tensor<4x6xf16>
  %e = linalg.negf ins(%a_s : tensor<4x6xf16>) outs(%init : tensor<4x6xf16>) -> tensor<4x6xf16>
  %r = shard.shard %e to %rep : tensor<4x6xf16>
  return %r : tensor<4x6xf16>
}
