// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// The typed plan contract: every attribute round-trips, and every malformed
// one is rejected by its verifier (or by where it stands) with one message.

shard.grid @g(shape = 2x2) {meshvk.peered_memory_axes = array<i64: 1>}
// CHECK-LABEL: func.func @roundtrip
// CHECK-SAME: meshvk.abi = #meshvk.abi<grid = @g, grid_shape = [2, 2], args = [#meshvk.value_abi<type = tensor<8x4xf32>, split_axes = {{\[\[}}0]], shard_shape = [4, 4], shard_offsets = [array<i64: 0, 0>, array<i64: 0, 0>, array<i64: 4, 0>, array<i64: 4, 0>]>], results = []>
// CHECK-SAME: meshvk.collectives = [#meshvk.collective<id = 0, kind = "all_gather", algorithm = "direct", group_size = 2, pulled_bytes = [64, 64, 64, 64]>]
// CHECK-SAME: meshvk.memory = [#meshvk.process_memory<argument_bytes = 64, result_bytes = 0, transient_bytes = 256, transient_unshared_bytes = 512>
// CHECK-SAME: meshvk.plan = #meshvk.plan<grid = @g, grid_shape = [2, 2], peered_axes = [1]>
// CHECK: meshvk.empty on 0 {meshvk.buffers = [#meshvk.buffer<kind = transient, index = 256, bytes = 64>]}
func.func @roundtrip(%a: tensor<4x4xf32> {meshvk.process = 0}) attributes {
    meshvk.abi = #meshvk.abi<grid = @g, grid_shape = [2, 2],
        args = [#meshvk.value_abi<type = tensor<8x4xf32>, split_axes = [[0]], shard_shape = [4, 4],
                                   shard_offsets = [array<i64: 0, 0>, array<i64: 0, 0>, array<i64: 4, 0>, array<i64: 4, 0>]>],
        results = []>,
    meshvk.plan = #meshvk.plan<grid = @g, grid_shape = [2, 2], peered_axes = [1]>,
    meshvk.collectives = [#meshvk.collective<id = 0, kind = "all_gather", algorithm = "direct",
                                             group_size = 2, pulled_bytes = [64, 64, 64, 64]>],
    meshvk.memory = [#meshvk.process_memory<argument_bytes = 64, result_bytes = 0, transient_bytes = 256,
                                            transient_unshared_bytes = 512>]} {
  %e = meshvk.empty on 0 {meshvk.buffers = [#meshvk.buffer<kind = transient, index = 256, bytes = 64>]} : tensor<4x4xf32>
  return
}

// -----

// expected-error @+1 {{grid_shape extent 0 is not >= 1}}
func.func @plan_empty_axis() attributes {meshvk.plan = #meshvk.plan<grid = @g, grid_shape = [2, 0], peered_axes = []>} {
  return
}

// -----

// expected-error @+1 {{peered axis 2 is out of range [0, 2) or repeated}}
func.func @plan_peered_out_of_range() attributes {meshvk.plan = #meshvk.plan<grid = @g, grid_shape = [2, 2], peered_axes = [2]>} {
  return
}

// -----

// expected-error @+1 {{peered axis 0 is out of range [0, 2) or repeated}}
func.func @plan_peered_twice() attributes {meshvk.plan = #meshvk.plan<grid = @g, grid_shape = [2, 2], peered_axes = [0, 0]>} {
  return
}

// -----

// expected-error @+1 {{args[0] must be a #meshvk.value_abi, got 1 : i64}}
func.func @abi_entry_not_a_value_abi() attributes {meshvk.abi = #meshvk.abi<grid = @g, grid_shape = [2], args = [1], results = []>} {
  return
}

// -----

// expected-error @+1 {{results[0] has 1 shard offsets for 2 processes}}
func.func @abi_offsets_per_process() attributes {meshvk.abi = #meshvk.abi<grid = @g, grid_shape = [2], args = [], results = [
    #meshvk.value_abi<type = tensor<8xf32>, split_axes = [[]], shard_shape = [8], shard_offsets = [array<i64: 0>]>]>} {
  return
}

// -----

// expected-error @+1 {{args[0] splits over grid axis 1 of a grid with 1 axes}}
func.func @abi_split_axis_out_of_range() attributes {meshvk.abi = #meshvk.abi<grid = @g, grid_shape = [2], args = [
    #meshvk.value_abi<type = tensor<8xf32>, split_axes = [[1]], shard_shape = [4], shard_offsets = [array<i64: 0>, array<i64: 4>]>], results = []>} {
  return
}

// -----

// A #meshvk.value_abi on its own (inside a #meshvk.abi the parser adds a
// second line naming the enclosing parameter).
// expected-error @+1 {{shard_shape has rank 1, expected 2}}
func.func @value_abi_rank() attributes {test.entry = #meshvk.value_abi<type = tensor<8x4xf32>, split_axes = [[]], shard_shape = [8], shard_offsets = [array<i64: 0, 0>]>} {
  return
}

// -----

// expected-error @+1 {{the shard of process 1 leaves dimension 0 of 'tensor<8x4xf32>'}}
func.func @value_abi_shard_outside() attributes {test.entry = #meshvk.value_abi<type = tensor<8x4xf32>, split_axes = [[0]], shard_shape = [4, 4], shard_offsets = [array<i64: 0, 0>, array<i64: 6, 0>]>} {
  return
}

// -----

// expected-error @+1 {{group_size must be >= 1, got 0}}
func.func @collective_group() attributes {meshvk.collectives = [#meshvk.collective<id = 0, kind = "all_gather", algorithm = "direct", group_size = 0, pulled_bytes = []>]} {
  return
}

// -----

// expected-error @+1 {{transient_bytes must be >= 0, got -1}}
func.func @memory_negative() attributes {meshvk.memory = [#meshvk.process_memory<argument_bytes = 0, result_bytes = 0, transient_bytes = -1, transient_unshared_bytes = 0>]} {
  return
}

// -----

func.func @buffer_negative() {
  // expected-error @+1 {{index must be >= 0, got -4}}
  %e = meshvk.empty on 0 {meshvk.buffers = [#meshvk.buffer<kind = transient, index = -4, bytes = 64>]} : tensor<4x4xf32>
  return
}

// -----

func.func @buffer_per_result() {
  // expected-error @+1 {{'meshvk.buffers' has 2 entries for 1 results (one buffer per result)}}
  %e = meshvk.empty on 0 {meshvk.buffers = [#meshvk.buffer<kind = transient, index = 0, bytes = 64>, #meshvk.buffer<kind = result, index = 0, bytes = 64>]} : tensor<4x4xf32>
  return
}

// -----

// expected-error @+1 {{'meshvk.plan' must be a #meshvk.plan on a function, got {grid = @g}}}
func.func @plan_as_dictionary() attributes {meshvk.plan = {grid = @g}} {
  return
}

// -----

// expected-error @+1 {{'meshvk.memory' must be a list of #meshvk.process_memory on a function, got [{process = 0 : i64}]}}
func.func @memory_as_dictionaries() attributes {meshvk.memory = [{process = 0}]} {
  return
}

// -----

func.func @process_negative(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'meshvk.process' must be an i64 >= 0, got -1 : i64}}
  %0 = math.exp %a {meshvk.process = -1 : i64} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error @+1 {{unknown meshvk attribute 'meshvk.proccess'}}
func.func @misspelt() attributes {meshvk.proccess = 0} {
  return
}

// -----

// expected-error @+1 {{meshvk.peered_memory_axes names axis 2 but grid @mesh has 2 axes (each axis at most once)}}
shard.grid @mesh(shape = 2x2) {meshvk.peered_memory_axes = array<i64: 0, 2>}

// -----

// Uneven shards: each process's own shape; `?` where they differ.
// CHECK-LABEL: func.func @abi_uneven
// CHECK-SAME: shard_shapes = [array<i64: 3, 4>, array<i64: 2, 4>]
func.func @abi_uneven() attributes {meshvk.abi = #meshvk.abi<grid = @g, grid_shape = [2], args = [
    #meshvk.value_abi<type = tensor<5x4xf32>, split_axes = [[0]], shard_shape = [-9223372036854775808, 4],
      shard_offsets = [array<i64: 0, 0>, array<i64: 3, 0>], shard_shapes = [array<i64: 3, 4>, array<i64: 2, 4>]>], results = []>} {
  return
}

// -----

// expected-error @+1 {{shard_shapes has 1 entries for 2 shard offsets (one per process)}}
func.func @value_abi_uneven_count() attributes {test.entry = #meshvk.value_abi<type = tensor<5x4xf32>, split_axes = [[0]], shard_shape = [-9223372036854775808, 4], shard_offsets = [array<i64: 0, 0>, array<i64: 3, 0>], shard_shapes = [array<i64: 3, 4>]>} {
  return
}

// -----

// expected-error @+1 {{shard_shapes[1][0] = 0 is empty or disagrees with shard_shape}}
func.func @value_abi_uneven_empty() attributes {test.entry = #meshvk.value_abi<type = tensor<5x4xf32>, split_axes = [[0]], shard_shape = [-9223372036854775808, 4], shard_offsets = [array<i64: 0, 0>, array<i64: 5, 0>], shard_shapes = [array<i64: 5, 4>, array<i64: 0, 4>]>} {
  return
}

// -----

// expected-error @+1 {{the shard of process 1 leaves dimension 0 of 'tensor<5x4xf32>'}}
func.func @value_abi_uneven_outside() attributes {test.entry = #meshvk.value_abi<type = tensor<5x4xf32>, split_axes = [[0]], shard_shape = [-9223372036854775808, 4], shard_offsets = [array<i64: 0, 0>, array<i64: 3, 0>], shard_shapes = [array<i64: 3, 4>, array<i64: 3, 4>]>} {
  return
}
