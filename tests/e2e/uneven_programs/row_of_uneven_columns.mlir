// One row (a rank-reducing extract_slice) of a tensor whose 8 columns are
// split over 3 processes (3, 3, 2): each process takes its own columns of
// row 5. shard-partition sizes the slice with tensor.dim of the uneven
// shard, which unroll-grid must read as the process's static extent (it
// used to stop: "has a shape that differs per process").
shard.grid @g(shape = 3)
func.func @main(%x: tensor<12x8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<12x8xf32>
  %t = tensor.extract_slice %xs[5, 0] [1, 8] [1, 1] : tensor<12x8xf32> to tensor<8xf32>
  return %t : tensor<8xf32>
}
