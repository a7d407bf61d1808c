// A 3-point stencil over rows written on the global tensor (what halo_sizes
// in annotations would express): pad one zero row at each end, add the three
// row windows. The windows do not take the split rows whole, so they run
// replicated on that dimension (gathered, then cut into the result's rows).
//   y[i, j] = x[i - 1, j] + x[i, j] + x[i + 1, j], x = 0 outside   (i32, exact)
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<8x4xi32>) -> tensor<8x4xi32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %rows annotate_for_users : tensor<8x4xi32>
  %zero = arith.constant 0 : i32
  %p = tensor.pad %x_s low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : i32
  } : tensor<8x4xi32> to tensor<10x4xi32>
  %up = tensor.extract_slice %p[0, 0] [8, 4] [1, 1] : tensor<10x4xi32> to tensor<8x4xi32>
  %mid = tensor.extract_slice %p[1, 0] [8, 4] [1, 1] : tensor<10x4xi32> to tensor<8x4xi32>
  %down = tensor.extract_slice %p[2, 0] [8, 4] [1, 1] : tensor<10x4xi32> to tensor<8x4xi32>
  %e = tensor.empty() : tensor<8x4xi32>
  %s = linalg.add ins(%up, %mid : tensor<8x4xi32>, tensor<8x4xi32>) outs(%e : tensor<8x4xi32>) -> tensor<8x4xi32>
  %e2 = tensor.empty() : tensor<8x4xi32>
  %y = linalg.add ins(%s, %down : tensor<8x4xi32>, tensor<8x4xi32>) outs(%e2 : tensor<8x4xi32>) -> tensor<8x4xi32>
  %y_s = shard.shard %y to %rows : tensor<8x4xi32>
  return %y_s : tensor<8x4xi32>
}
