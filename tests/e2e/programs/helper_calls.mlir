// Helper functions as people factor them out: @main calls the private
// @scale_add twice (inlined before sharding). y = f(f(x, w), w) with
// f(a, b) = a * b + a, rows of x split over 2 processes, w replicated.
shard.grid @g(shape = 2)
func.func private @scale_add(%a: tensor<6x4xi32>, %b: tensor<6x4xi32>) -> tensor<6x4xi32> {
  %m = arith.muli %a, %b : tensor<6x4xi32>
  %s = arith.addi %m, %a : tensor<6x4xi32>
  return %s : tensor<6x4xi32>
}
func.func @main(%x: tensor<6x4xi32>, %w: tensor<6x4xi32>) -> tensor<6x4xi32> {
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %rows : tensor<6x4xi32>
  %y = func.call @scale_add(%xs, %w) : (tensor<6x4xi32>, tensor<6x4xi32>) -> tensor<6x4xi32>
  %z = func.call @scale_add(%y, %w) : (tensor<6x4xi32>, tensor<6x4xi32>) -> tensor<6x4xi32>
  %zs = shard.shard %z to %rows annotate_for_users : tensor<6x4xi32>
  return %zs : tensor<6x4xi32>
}
