// RUN: mesh-vk-opt %s -split-input-file --meshvk-normalize-input | FileCheck %s
// A function without shard annotations runs replicated on the module's grid,
// or on a new grid of one when the module has none.

// CHECK: shard.grid @meshvk_grid(shape = 1)
// CHECK-LABEL: func.func @plain
// CHECK: %[[R:.*]] = shard.sharding @meshvk_grid split_axes = {{\[\[}}]]
// CHECK: %[[A:.*]] = shard.shard %arg0 to %[[R]] annotate_for_users : tensor<8x4xf32>
// CHECK: %[[B:.*]] = shard.shard %arg1 to %[[R]] annotate_for_users : tensor<f32>
// CHECK: linalg.exp ins(%[[A]]
// CHECK: %[[Y:.*]] = shard.shard %{{.*}} to %[[R]] : tensor<8x4xf32>
// CHECK: %[[Z:.*]] = shard.shard %[[B]] to %[[R]] : tensor<f32>
// CHECK: return %[[Y]], %[[Z]]
func.func @plain(%a: tensor<8x4xf32>, %s: tensor<f32>) -> (tensor<8x4xf32>, tensor<f32>) {
  %e = tensor.empty() : tensor<8x4xf32>
  %0 = linalg.exp ins(%a : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0, %s : tensor<8x4xf32>, tensor<f32>
}

// -----

// The module's own grid is used; annotated functions are left alone.
shard.grid @g(shape = 2)
// CHECK-NOT: @meshvk_grid
// CHECK-LABEL: func.func @on_declared_grid
// CHECK: shard.sharding @g split_axes = {{\[\[}}]]
func.func @on_declared_grid(%a: tensor<8xf32>) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}
// CHECK-LABEL: func.func @annotated
// CHECK-NEXT: shard.sharding @g split_axes = {{\[\[}}0]]
func.func @annotated(%a: tensor<8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %a to %s annotate_for_users : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// No arguments: only the result is annotated (a splat constant is a fill).
// CHECK-LABEL: func.func @no_arguments
// CHECK: %[[C:.*]] = linalg.fill
// CHECK: shard.shard %[[C]] to %{{.*}} : tensor<4xf32>
func.func @no_arguments() -> tensor<4xf32> {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// A producer annotation written after another use of its value moves up.
shard.grid @g(shape = 2)
// CHECK-LABEL: func.func @late_annotation
// CHECK: %[[Y:.*]] = linalg.exp
// CHECK-NEXT: %[[S:.*]] = shard.sharding @g split_axes = {{\[\[}}0]]
// CHECK-NEXT: %[[YS:.*]] = shard.shard %[[Y]] to %[[S]] : tensor<8x4xf32>
// CHECK: linalg.reduce ins(%[[Y]]
// CHECK: return %[[YS]]
func.func @late_annotation(%x: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8x4xf32>
  %y = linalg.exp ins(%x : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %t = tensor.empty() : tensor<8xf32>
  %r = linalg.reduce ins(%y : tensor<8x4xf32>) outs(%t : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %y_s = shard.shard %y to %s : tensor<8x4xf32>
  %r_s = shard.shard %r to %s : tensor<8xf32>
  return %y_s, %r_s : tensor<8x4xf32>, tensor<8xf32>
}

// -----

// A broadcast through a constant index reads through an extent-1 reduction dim.
shard.grid @g(shape = 2)
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[BC:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-LABEL: func.func @broadcast_map
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[BC]], #[[ID]]], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @broadcast_map(%x: tensor<8x4xf32>, %b: tensor<1x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %s annotate_for_users : tensor<8x4xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (0, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x_s, %b : tensor<8x4xf32>, tensor<1x4xf32>) outs(%e : tensor<8x4xf32>) {
    ^bb0(%v: f32, %w: f32, %o: f32):
      %a = arith.addf %v, %w : f32
      linalg.yield %a : f32
  } -> tensor<8x4xf32>
  %y_s = shard.shard %y to %s : tensor<8x4xf32>
  return %y_s : tensor<8x4xf32>
}

// -----

// An unused argument of an annotated function is annotated as replicated
// (shard-partition crashed on it).
shard.grid @g(shape = 2)
// CHECK-LABEL: func.func @unused_argument
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = shard.sharding @g split_axes = {{\[\[\]\]}} : !shard.sharding
// CHECK: shard.shard %[[B]] to %[[R]] annotate_for_users : tensor<4xf32>
func.func @unused_argument(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %a_s = shard.shard %a to %s annotate_for_users : tensor<4xf32>
  return %a_s : tensor<4xf32>
}

// -----

// tensor.pad with a constant value: empty + fill + insert_slice; tensor.concat:
// empty + one insert_slice per operand.
shard.grid @g(shape = 2)
// CHECK-LABEL: func.func @pad_and_concat
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<8x6xf32>)
// CHECK: %[[P:.*]] = tensor.insert_slice %{{.*}} into %[[F]][0, 1] [8, 4] [1, 1]
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8x8xf32>
// CHECK: %[[C0:.*]] = tensor.insert_slice %[[P]] into %[[E]][0, 0] [8, 6] [1, 1]
// CHECK: tensor.insert_slice %{{.*}} into %[[C0]][0, 6] [8, 2] [1, 1]
// CHECK-NOT: tensor.pad
// CHECK-NOT: tensor.concat
func.func @pad_and_concat(%x: tensor<8x4xf32>, %w: tensor<8x2xf32>) -> tensor<8x8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %s annotate_for_users : tensor<8x4xf32>
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x_s low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f32
  } : tensor<8x4xf32> to tensor<8x6xf32>
  %c = tensor.concat dim(1) %p, %w : (tensor<8x6xf32>, tensor<8x2xf32>) -> tensor<8x8xf32>
  %c_s = shard.shard %c to %s : tensor<8x8xf32>
  return %c_s : tensor<8x8xf32>
}

// -----

// The i1 mask of a comparison is fused into the select that reads it: the
// runtime has no i1 buffers.
#id = affine_map<(d0) -> (d0)>
shard.grid @g(shape = 2)
// CHECK-LABEL: func.func @mask_fused
// CHECK-NOT: tensor<8xi1>
// CHECK: linalg.generic
// CHECK: arith.cmpf ogt
// CHECK: arith.select
// CHECK-NOT: linalg.generic
func.func @mask_fused(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %a_s = shard.shard %a to %s annotate_for_users : tensor<8xf32>
  %e = tensor.empty() : tensor<8xi1>
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a_s, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xi1>) {
    ^bb0(%x: f32, %y: f32, %o: i1):
      %c = arith.cmpf ogt, %x, %y : f32
      linalg.yield %c : i1
  } -> tensor<8xi1>
  %e2 = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%p, %a_s, %b : tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8xf32>) {
    ^bb0(%m: i1, %x: f32, %y: f32, %o: f32):
      %v = arith.select %m, %x, %y : f32
      linalg.yield %v : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Tensor constants whose elements differ become meshvk.constant (f32, f16,
// i32); splats become a linalg.fill (upstream gives a split splat constant
// no static type on uneven shards); element types the runtime cannot store
// stay (check-sharding names them).
// CHECK-LABEL: func.func @constants
// CHECK: meshvk.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32> : tensor<2xf32>
// CHECK: %[[THREE:.*]] = arith.constant 3.000000e+00 : f32
// CHECK: linalg.fill ins(%[[THREE]] : f32) outs(%{{.*}} : tensor<2xf32>)
// CHECK: arith.constant dense<[1, 2]> : tensor<2xi8>
func.func @constants() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xi8>) {
  %a = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = arith.constant dense<3.0> : tensor<2xf32>
  %c = arith.constant dense<[1, 2]> : tensor<2xi8>
  return %a, %b, %c : tensor<2xf32>, tensor<2xf32>, tensor<2xi8>
}

// -----

// tensor.reshape between static shapes: one collapse_shape or expand_shape
// when the shapes allow it, else a collapse to 1-D and an expand.
// CHECK-LABEL: func.func @reshapes
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<8x4xf32> into tensor<32xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [2, 4, 4] : tensor<8x4xf32> into tensor<2x4x4xf32>
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<8x4xf32> into tensor<32xf32>
// CHECK: tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
// CHECK-NOT: tensor.reshape
func.func @reshapes(%a: tensor<8x4xf32>) -> (tensor<32xf32>, tensor<2x4x4xf32>, tensor<4x8xf32>) {
  %c1 = arith.constant dense<[32]> : tensor<1xindex>
  %r1 = tensor.reshape %a(%c1) : (tensor<8x4xf32>, tensor<1xindex>) -> tensor<32xf32>
  %c2 = arith.constant dense<[2, 4, 4]> : tensor<3xindex>
  %r2 = tensor.reshape %a(%c2) : (tensor<8x4xf32>, tensor<3xindex>) -> tensor<2x4x4xf32>
  %c3 = arith.constant dense<[4, 8]> : tensor<2xindex>
  %r3 = tensor.reshape %a(%c3) : (tensor<8x4xf32>, tensor<2xindex>) -> tensor<4x8xf32>
  return %r1, %r2, %r3 : tensor<32xf32>, tensor<2x4x4xf32>, tensor<4x8xf32>
}

// -----

// Scalar arith on constants in the body (tosa.avg_pool2d's divisor computes
// `9 - 1` on index constants, read inside a generic) is folded: it has no
// sharding rule and nothing to shard (the body's casts of it fold too).
// CHECK-LABEL: func.func @scalar_constants
// CHECK-NOT: arith.subi
// CHECK: linalg.generic
// CHECK: %[[EIGHT:.*]] = arith.constant 8.000000e+00 : f32
// CHECK-NEXT: arith.divf %{{.*}}, %[[EIGHT]] : f32
func.func @scalar_constants(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c9 = arith.constant 9 : index
  %c1 = arith.constant 1 : index
  %n = arith.subi %c9, %c1 : index
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = arith.index_cast %n : index to i32
    %f = arith.sitofp %i : i32 to f32
    %d = arith.divf %a, %f : f32
    linalg.yield %d : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}
