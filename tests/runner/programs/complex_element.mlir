// Issue 13 campaign: an element type with no bit width (complex) crashed
// the allocation planner (exit 139); now one error line, exit 2.
shard.grid @grid(shape = 2)
func.func @main(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %x = shard.shard %a to %s annotate_for_users : tensor<4xcomplex<f32>>
  %r = shard.shard %x to %s : tensor<4xcomplex<f32>>
  return %r : tensor<4xcomplex<f32>>
}
