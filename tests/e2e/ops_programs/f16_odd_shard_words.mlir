// 4x3 f16 split by rows over 4: each shard is 3 halves = 6 bytes, not a
// whole number of 32-bit words. Buffers and bindings get a padding half that
// nothing reads or writes; y = -a (exact in f16), gathered to every process.
shard.grid @grid(shape = 4)
func.func @main(%a: tensor<4x3xf16>) -> tensor<4x3xf16> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a_s = shard.shard %a to %rows annotate_for_users : tensor<4x3xf16>
  %init = tensor.empty() : tensor<4x3xf16>
  %e = linalg.negf ins(%a_s : tensor<4x3xf16>) outs(%init : tensor<4x3xf16>) -> tensor<4x3xf16>
  %r = shard.shard %e to %rep : tensor<4x3xf16>
  return %r : tensor<4x3xf16>
}
