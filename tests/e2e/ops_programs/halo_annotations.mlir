// halo_sizes in a global program's annotations (as upstream's
// ew_chain_with_halo writes them): meshvk drops them with a warning, each
// process keeps its rows without borders, and the results are those of the
// program without halos.
//   y = x * x + x   (i32, exact; rows split, halos [1, 2] on x and y)
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<8x4xi32>) -> tensor<8x4xi32> {
  %h = shard.sharding @grid split_axes = [[0]] halo_sizes = [1, 2] : !shard.sharding
  %x_h = shard.shard %x to %h annotate_for_users : tensor<8x4xi32>
  %e = tensor.empty() : tensor<8x4xi32>
  %sq = linalg.mul ins(%x_h, %x_h : tensor<8x4xi32>, tensor<8x4xi32>) outs(%e : tensor<8x4xi32>) -> tensor<8x4xi32>
  %e2 = tensor.empty() : tensor<8x4xi32>
  %y = linalg.add ins(%sq, %x_h : tensor<8x4xi32>, tensor<8x4xi32>) outs(%e2 : tensor<8x4xi32>) -> tensor<8x4xi32>
  %y_h = shard.shard %y to %h : tensor<8x4xi32>
  return %y_h : tensor<8x4xi32>
}
