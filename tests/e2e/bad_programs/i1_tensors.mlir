// A mask (i1) in and out of the function: the runtime holds f32, f16 and i32
// tensors only. The error names the element type, not a missing annotation
// (the mask's elementwise producer is fused into its users before the ABI is
// recorded, which used to surface as "result #0 has no sharding").
shard.grid @g(shape = 2)
func.func @main(%x: tensor<4x4xi1>) -> tensor<4x4xi1> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<4x4xi1>
  %y = arith.xori %xs, %xs : tensor<4x4xi1>
  return %y : tensor<4x4xi1>
}
