// A grid whose size is given at run time (mesh-vk-run --devices=N compiles it
// for N processes; mesh-vk-compile needs --grid-shape=N). A batch of 10 rows
// split over it: uneven for 3 and 4 processes.
//   y = 3 * x + b             rows split, b (one row) broadcast
//   g = y, replicated
shard.grid @g(shape = ?)
func.func @main(%x: tensor<10x6xi32>, %b: tensor<6xi32>) -> (tensor<10x6xi32>, tensor<10x6xi32>) {
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @g split_axes = [[]] : !shard.sharding
  %x0 = shard.shard %x to %rows annotate_for_users : tensor<10x6xi32>
  %b0 = shard.shard %b to %rep annotate_for_users : tensor<6xi32>
  %three = arith.constant 3 : i32
  %e = tensor.empty() : tensor<10x6xi32>
  %y = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x0, %b0 : tensor<10x6xi32>, tensor<6xi32>) outs(%e : tensor<10x6xi32>) {
    ^bb0(%xv: i32, %bv: i32, %out: i32):
      %m = arith.muli %xv, %three : i32
      %s = arith.addi %m, %bv : i32
      linalg.yield %s : i32
  } -> tensor<10x6xi32>
  %y0 = shard.shard %y to %rows : tensor<10x6xi32>
  %g0 = shard.shard %y0 to %rep annotate_for_users : tensor<10x6xi32>
  return %y0, %g0 : tensor<10x6xi32>, tensor<10x6xi32>
}
