// z = x + y on 60000x60000 f32 (14.4 GB per tensor) split by rows over a
// grid of 2: each process's 7.2 GB shard exceeds lavapipe's
// maxMemoryAllocationSize (2 GiB). mesh-vk-run must refuse it at program
// creation, before it allocates or fills any input (tests/mpi/refuse_before_inputs.sh).
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<60000x60000xf32>, %y: tensor<60000x60000xf32>) -> tensor<60000x60000xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %rows annotate_for_users : tensor<60000x60000xf32>
  %y_s = shard.shard %y to %rows annotate_for_users : tensor<60000x60000xf32>
  %init = tensor.empty() : tensor<60000x60000xf32>
  %sum = linalg.add ins(%x_s, %y_s : tensor<60000x60000xf32>, tensor<60000x60000xf32>)
                    outs(%init : tensor<60000x60000xf32>) -> tensor<60000x60000xf32>
  %z = shard.shard %sum to %rows : tensor<60000x60000xf32>
  return %z : tensor<60000x60000xf32>
}
