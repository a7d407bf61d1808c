// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-unroll-grid --meshvk-lower-collectives --meshvk-split-reductions --meshvk-outline-kernels --meshvk-plan-allocations | FileCheck %s
// (meshvk-plan without meshvk-fuse-kernels: the chains below stay one launch per op.)
// Buffers of every process, sized from local shard types; transients reuse
// arena bytes when their lifetimes do not overlap. meshvk.buffers per result:
// #meshvk.buffer<kind (argument, result, transient), index (argument/result
// number or arena offset), bytes>. Peak = arguments + results + arena
// (ProcessMemoryAttr::getPeakBytes, not stored).

// A chain a -> b -> c -> d -> e of 4x4xf32 (64 B) on each of 2 processes:
// b and c overlap (c reads b), d can take b's bytes (b is dead once c ran).
// Alignment 256: b @ 0, c @ 256, d @ 0; arena = 256 + 64 = 320 B, 192 B
// without reuse; argument 64 B, result 64 B, peak 64 + 64 + 320 = 448 B.
shard.grid @g2(shape = 2)
// CHECK-LABEL: func.func @reuse
// CHECK-SAME: meshvk.memory = [#meshvk.process_memory<argument_bytes = 64, result_bytes = 64, transient_bytes = 320, transient_unshared_bytes = 192>
// CHECK: meshvk.launch @kernel_0(%arg0) on 0 {meshvk.buffers = [#meshvk.buffer<kind = transient, index = 0, bytes = 64>]}
// CHECK: meshvk.launch @kernel_0(%{{.*}}) on 0 {meshvk.buffers = [#meshvk.buffer<kind = transient, index = 256, bytes = 64>]}
// CHECK: meshvk.launch @kernel_0(%{{.*}}) on 0 {meshvk.buffers = [#meshvk.buffer<kind = transient, index = 0, bytes = 64>]}
// CHECK: meshvk.launch @kernel_0(%{{.*}}) on 0 {meshvk.buffers = [#meshvk.buffer<kind = result, index = 0, bytes = 64>]}
func.func @reuse(%a: tensor<4x4xf32>) -> tensor<4x4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g2, grid_shape = [2], args = [], results = []>} {
  %e = tensor.empty() : tensor<4x4xf32>
  %b = linalg.exp ins(%a : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %c = linalg.exp ins(%b : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %d = linalg.exp ins(%c : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = linalg.exp ins(%d : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// A buffer a peer reads is never reused: process 1's pull of b may still be
// running when process 0 moves on. On process 0: b (4x4xf32, 64 B) @ 0, the
// gathered g (8x4xf32, 128 B) @ 256, then c (128 B) cannot take b's dead bytes
// at 0 (b is pinned) and goes to 512: arena 640 B (320 B without reuse);
// argument 64 B + result 128 B + arena 640 B = peak 832 B.
shard.grid @g2(shape = 2)
// CHECK-LABEL: func.func @peer_read_pinned
// CHECK-SAME: meshvk.memory = [#meshvk.process_memory<argument_bytes = 64, result_bytes = 128, transient_bytes = 640, transient_unshared_bytes = 320>
// CHECK: meshvk.launch @kernel_0(%arg0) on 0 {meshvk.buffers = [#meshvk.buffer<kind = transient, index = 0, bytes = 64>]}
// CHECK: meshvk.empty on 0 {meshvk.buffers = [#meshvk.buffer<kind = transient, index = 256, bytes = 128>]}
// CHECK: meshvk.launch @kernel_1(%{{.*}}) on 0 {meshvk.buffers = [#meshvk.buffer<kind = transient, index = 512, bytes = 128>]}
// CHECK: meshvk.launch @kernel_1(%{{.*}}) on 0 {meshvk.buffers = [#meshvk.buffer<kind = result, index = 0, bytes = 128>]}
func.func @peer_read_pinned(%a: tensor<4x4xf32>) -> tensor<8x4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g2, grid_shape = [2], args = [], results = []>} {
  %e = tensor.empty() : tensor<4x4xf32>
  %b = linalg.exp ins(%a : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %g = shard.all_gather %b on @g2 grid_axes = [0] gather_axis = 0 : tensor<4x4xf32> -> tensor<8x4xf32>
  %e8 = tensor.empty() : tensor<8x4xf32>
  %c = linalg.exp ins(%g : tensor<8x4xf32>) outs(%e8 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %r = linalg.exp ins(%c : tensor<8x4xf32>) outs(%e8 : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

// A tensor that only some processes hold is only allocated there: after a
// broadcast from root 0, processes 1..3 have a 64 B receive buffer, the root
// reads its own argument and allocates no transient.
shard.grid @g4(shape = 4)
// CHECK-LABEL: func.func @sub_grid
// CHECK-SAME: meshvk.memory = [#meshvk.process_memory<argument_bytes = 64, result_bytes = 64, transient_bytes = 0, transient_unshared_bytes = 0>, #meshvk.process_memory<argument_bytes = 64, result_bytes = 64, transient_bytes = 64, transient_unshared_bytes = 64>
func.func @sub_grid(%x: tensor<4x4xf32>) -> tensor<4x4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g4, grid_shape = [4], args = [], results = []>} {
  %y = shard.broadcast %x on @g4 grid_axes = [0] root = [0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.exp ins(%y : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %z : tensor<4x4xf32>
}

// -----

// Returning an argument: the result still gets its own buffer (a local copy).
shard.grid @g2(shape = 2)
// CHECK-LABEL: func.func @identity
// CHECK: %[[E:.*]] = meshvk.empty on 0 {meshvk.buffers = [#meshvk.buffer<kind = result, index = 0, bytes = 16>]} : tensor<4xf32>
// CHECK: meshvk.copy %arg0[0] from 0 into %[[E]][0] on 0 sizes [4] {meshvk.buffers = [#meshvk.buffer<kind = result, index = 0, bytes = 16>]}
func.func @identity(%x: tensor<4xf32>) -> tensor<4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g2, grid_shape = [2], args = [], results = []>} {
  return %x : tensor<4xf32>
}

// -----

// Reshapes are views: a kernel that would only collapse or expand its
// operand is no launch; its value lives in the operand's buffer (row-major
// bytes are the same), which stays live while the view is read. Here the
// only transient is b (256 B): the second exp reads it through the collapse,
// and its own output, expanded and returned, is the result buffer itself.
shard.grid @g2(shape = 2)
// CHECK-LABEL: func.func @views
// CHECK-SAME: meshvk.memory = [#meshvk.process_memory<argument_bytes = 256, result_bytes = 256, transient_bytes = 256, transient_unshared_bytes = 256>
// CHECK: %[[B:.*]] = meshvk.launch @kernel_0(%arg0) on 0 {meshvk.buffers = [#meshvk.buffer<kind = transient, index = 0, bytes = 256>]}
// CHECK: %[[V:.*]] = tensor.collapse_shape %[[B]] {{\[\[}}0, 1]] {meshvk.process = 0 : i64} : tensor<4x16xf32> into tensor<64xf32>
// CHECK: %[[C:.*]] = meshvk.launch @[[EXP64:.*]](%[[V]]) on 0 {meshvk.buffers = [#meshvk.buffer<kind = result, index = 0, bytes = 256>]}
// CHECK: %[[R:.*]] = tensor.expand_shape %[[C]]
// CHECK: return %[[R]],
// Only the two exp kernels are left.
// CHECK-COUNT-2: func.func private @kernel_
// CHECK-NOT: func.func private @kernel_
func.func @views(%a: tensor<4x16xf32>) -> tensor<4x4x4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g2, grid_shape = [2], args = [], results = []>} {
  %e = tensor.empty() : tensor<4x16xf32>
  %b = linalg.exp ins(%a : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %v = tensor.collapse_shape %b [[0, 1]] : tensor<4x16xf32> into tensor<64xf32>
  %e64 = tensor.empty() : tensor<64xf32>
  %c = linalg.exp ins(%v : tensor<64xf32>) outs(%e64 : tensor<64xf32>) -> tensor<64xf32>
  %r = tensor.expand_shape %c [[0, 1, 2]] output_shape [4, 4, 4] : tensor<64xf32> into tensor<4x4x4xf32>
  return %r : tensor<4x4x4xf32>
}

// -----

// A returned view still gets a result buffer of its own where its bytes are
// an argument's (the host owns those) or already returned: a view of %a, and
// b returned both as itself and as a view of a view of it, take copies.
shard.grid @g2(shape = 2)
// CHECK-LABEL: func.func @views_returned
// CHECK: %[[VA:.*]] = tensor.collapse_shape %arg0
// CHECK: %[[B:.*]] = meshvk.launch @kernel_{{.*}}(%arg0) on 0 {meshvk.buffers = [#meshvk.buffer<kind = result, index = 2, bytes = 256>]}
// CHECK: %[[W:.*]] = tensor.collapse_shape %[[B]]
// CHECK: %[[X:.*]] = tensor.expand_shape %[[W]]
// CHECK: %[[E0:.*]] = meshvk.empty on 0 {meshvk.buffers = [#meshvk.buffer<kind = result, index = 0, bytes = 256>]}
// CHECK: %[[C0:.*]] = meshvk.copy %[[VA]][0] from 0 into %[[E0]][0] on 0 sizes [64]
// CHECK: %[[E4:.*]] = meshvk.empty on 0 {meshvk.buffers = [#meshvk.buffer<kind = result, index = 4, bytes = 256>]}
// CHECK: %[[C4:.*]] = meshvk.copy %[[X]][0, 0] from 0 into %[[E4]][0, 0] on 0 sizes [16, 4]
// CHECK: return %[[C0]], %{{.*}}, %[[B]], %{{.*}}, %[[C4]],
func.func @views_returned(%a: tensor<4x16xf32>) -> (tensor<64xf32>, tensor<4x16xf32>, tensor<16x4xf32>)
    attributes {meshvk.abi = #meshvk.abi<grid = @g2, grid_shape = [2], args = [], results = []>} {
  %v = tensor.collapse_shape %a [[0, 1]] : tensor<4x16xf32> into tensor<64xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  %b = linalg.exp ins(%a : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %w = tensor.collapse_shape %b [[0, 1]] : tensor<4x16xf32> into tensor<64xf32>
  %x = tensor.expand_shape %w [[0, 1]] output_shape [16, 4] : tensor<64xf32> into tensor<16x4xf32>
  return %v, %b, %x : tensor<64xf32>, tensor<4x16xf32>, tensor<16x4xf32>
}
