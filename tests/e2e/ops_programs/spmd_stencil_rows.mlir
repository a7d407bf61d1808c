// An SPMD function (per-process code, local shapes, no shard.shard): every
// process holds 4 rows of a (4 * P) x 8 i32 tensor (process p: rows
// [4p, 4p + 4)), frames them with one halo row above and below, fills the
// halos from its neighbours (shard.update_halo, zeros at the ends of the
// tensor) and applies a 3-point stencil over rows:
//   y[i, j] = x[i - 1, j] + x[i, j] + x[i + 1, j]   (x = 0 outside).
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<6x8xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<6x8xi32>) -> tensor<6x8xi32>
  %framed = tensor.insert_slice %x into %z[1, 0] [4, 8] [1, 1] : tensor<4x8xi32> into tensor<6x8xi32>
  %h = shard.update_halo %framed on @grid split_axes = [[0]] halo_sizes = [1, 1] : tensor<6x8xi32>
  %up = tensor.extract_slice %h[0, 0] [4, 8] [1, 1] : tensor<6x8xi32> to tensor<4x8xi32>
  %mid = tensor.extract_slice %h[1, 0] [4, 8] [1, 1] : tensor<6x8xi32> to tensor<4x8xi32>
  %down = tensor.extract_slice %h[2, 0] [4, 8] [1, 1] : tensor<6x8xi32> to tensor<4x8xi32>
  %o = tensor.empty() : tensor<4x8xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%up, %mid, %down : tensor<4x8xi32>, tensor<4x8xi32>, tensor<4x8xi32>) outs(%o : tensor<4x8xi32>) {
    ^bb0(%a: i32, %b: i32, %c: i32, %out: i32):
      %s = arith.addi %a, %b : i32
      %t = arith.addi %s, %c : i32
      linalg.yield %t : i32
  } -> tensor<4x8xi32>
  return %y : tensor<4x8xi32>
}
