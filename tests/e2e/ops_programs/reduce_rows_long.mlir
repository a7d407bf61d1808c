// Row sums of a few very long i32 rows, rows split over a 1-D grid:
// r[i] = sum over j of x[i, j]. A row of 300001 elements is more than
// llvmpipe runs in one loop (65535 iterations of 4): before
// meshvk-split-reductions the sums stopped early. 4 rows are too few to fill
// the device, so each row is cut into partials (with a tail: 300001 is odd).
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<4x300001xi32>) -> tensor<4xi32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %rows annotate_for_users : tensor<4x300001xi32>
  %e = tensor.empty() : tensor<4xi32>
  %zero = arith.constant 0 : i32
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %r = linalg.reduce ins(%x_s : tensor<4x300001xi32>) outs(%z : tensor<4xi32>) dimensions = [1]
    (%in: i32, %acc: i32) {
      %a = arith.addi %in, %acc : i32
      linalg.yield %a : i32
    }
  %r_s = shard.shard %r to %rows : tensor<4xi32>
  %out = shard.shard %r_s to %rows annotate_for_users : tensor<4xi32>
  return %out : tensor<4xi32>
}
