// RUN: mesh-vk-opt %s -split-input-file --meshvk-prepare-generics | FileCheck %s

// linalg.index reads an iota input split like its loop (the partitioner
// keeps linalg.index, the LOCAL index on a split dimension).
shard.grid @grid(shape = 2)
// CHECK-LABEL: func.func @loop_index
// CHECK: %[[IOTA:.*]] = meshvk.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32> : tensor<8xi32>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[ROWS:.*]], #{{.*}}]
// CHECK-SAME: ins(%{{.*}}, %[[IOTA]] : tensor<8x4xi32>, tensor<8xi32>)
// CHECK: ^bb0(%{{.*}}: i32, %[[I:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT: %[[X:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK-NOT: linalg.index
// CHECK: arith.index_cast %[[X]] : index to i32
func.func @loop_index(%a: tensor<8x4xi32>) -> tensor<8x4xi32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %as = shard.shard %a to %s annotate_for_users : tensor<8x4xi32>
  %e = tensor.empty() : tensor<8x4xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%as : tensor<8x4xi32>) outs(%e : tensor<8x4xi32>) {
  ^bb0(%x: i32, %o: i32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %y = arith.addi %x, %ii : i32
    linalg.yield %y : i32
  } -> tensor<8x4xi32>
  %rs = shard.shard %r to %s : tensor<8x4xi32>
  return %rs : tensor<8x4xi32>
}

// -----

// A tensor read by tensor.extract in a body is replicated for the read; a
// computed index is clamped, a loop index is not; tensor.dim of a static
// size folds.
shard.grid @grid(shape = 2)
// CHECK-LABEL: func.func @extract
// CHECK-NOT: tensor.dim
// CHECK: %[[REP:.*]] = shard.sharding @grid split_axes = {{\[\[}}]]
// CHECK: %[[SPLIT:.*]] = shard.shard %arg0 to %{{.*}} annotate_for_users : tensor<6x5xf32>
// CHECK: %[[WHOLE:.*]] = shard.shard %[[SPLIT]] to %[[REP]] annotate_for_users : tensor<6x5xf32>
// CHECK: linalg.generic
// CHECK: %[[K:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[J:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[LOW:.*]] = arith.maxsi %{{.*}}, %c0
// CHECK: %[[IN:.*]] = arith.minsi %[[LOW]], %c4
// CHECK: tensor.extract %[[WHOLE]][%[[K]], %[[IN]]] : tensor<6x5xf32>
func.func @extract(%v: tensor<6x5xf32>) -> tensor<6x5xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %vs = shard.shard %v to %s annotate_for_users : tensor<6x5xf32>
  %c1 = arith.constant 1 : index
  %dim = tensor.dim %vs, %c1 : tensor<6x5xf32>
  %e = tensor.empty() : tensor<6x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<6x5xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %one = arith.constant 1 : index
    %last = arith.subi %dim, %one : index
    %k = arith.subi %last, %j : index
    %x = tensor.extract %vs[%i, %k] : tensor<6x5xf32>
    linalg.yield %x : f32
  } -> tensor<6x5xf32>
  %rs = shard.shard %r to %s : tensor<6x5xf32>
  return %rs : tensor<6x5xf32>
}

// -----

// Independent outputs: one generic each, with only the inputs each reads.
shard.grid @grid(shape = 2)
// CHECK-LABEL: func.func @two_outputs
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<6x9xf32>) outs(%{{.*}} : tensor<6xf32>)
// CHECK: arith.addf
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<6x9xf32>) outs(%{{.*}} : tensor<6xf32>)
// CHECK: arith.maximumf
// CHECK: return %[[SUM]], %[[MAX]]
func.func @two_outputs(%x: tensor<6x9xf32>, %y: tensor<6x9xf32>, %s0: tensor<6xf32>, %m0: tensor<6xf32>)
    -> (tensor<6xf32>, tensor<6xf32>) {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<6x9xf32>
  %ys = shard.shard %y to %s annotate_for_users : tensor<6x9xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                                          affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%xs, %ys : tensor<6x9xf32>, tensor<6x9xf32>) outs(%s0, %m0 : tensor<6xf32>, tensor<6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32, %mx: f32):
    %p = arith.addf %a, %acc : f32
    %q = arith.maximumf %b, %mx : f32
    linalg.yield %p, %q : f32, f32
  } -> (tensor<6xf32>, tensor<6xf32>)
  return %r#0, %r#1 : tensor<6xf32>, tensor<6xf32>
}

// -----

// Outputs that read each other's accumulator stay one generic (check-sharding
// refuses it by name).
shard.grid @grid(shape = 2)
// CHECK-LABEL: func.func @dependent_outputs
// CHECK: %{{.*}}:2 = linalg.generic
func.func @dependent_outputs(%x: tensor<6x9xf32>, %s0: tensor<6xf32>, %m0: tensor<6xf32>)
    -> (tensor<6xf32>, tensor<6xf32>) {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<6x9xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>,
                                          affine_map<(i, j) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%xs : tensor<6x9xf32>) outs(%s0, %m0 : tensor<6xf32>, tensor<6xf32>) {
  ^bb0(%a: f32, %acc: f32, %mx: f32):
    %q = arith.maximumf %a, %mx : f32
    %p = arith.addf %q, %acc : f32
    linalg.yield %p, %q : f32, f32
  } -> (tensor<6xf32>, tensor<6xf32>)
  return %r#0, %r#1 : tensor<6xf32>, tensor<6xf32>
}

// -----

// A 0-d chain of constants (an attention scale, 1 / pow(16, 0.5)) folds to
// its value, 0.25; the generic that reads it with the argument stays, and so
// does one reading a constant that is not a splat.
#scalar = affine_map<() -> ()>
#id = affine_map<(i) -> (i)>
#bcast = affine_map<(i) -> ()>
shard.grid @grid(shape = 2)
// CHECK-LABEL: func.func @constant_chain
// CHECK-NOT: math.powf
// CHECK: %[[QUARTER:.*]] = arith.constant 2.500000e-01 : f32
// CHECK: %[[SCALE:.*]] = linalg.fill ins(%[[QUARTER]] : f32) outs(%{{.*}} : tensor<f32>)
// CHECK-NOT: math.powf
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %[[SCALE]] : tensor<4xf32>, tensor<f32>)
// CHECK: arith.mulf
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}} : tensor<2xf32>)
// CHECK: arith.negf
func.func @constant_chain(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<2xf32>) {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<4xf32>
  %base = arith.constant dense<16.0> : tensor<f32>
  %e0 = tensor.empty() : tensor<f32>
  %halfc = arith.constant 0.5 : f32
  %half = linalg.fill ins(%halfc : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %root = linalg.generic {indexing_maps = [#scalar, #scalar, #scalar], iterator_types = []}
      ins(%base, %half : tensor<f32>, tensor<f32>) outs(%e0 : tensor<f32>) {
  ^bb0(%b: f32, %h: f32, %o: f32):
    %p = math.powf %b, %h : f32
    linalg.yield %p : f32
  } -> tensor<f32>
  %scale = linalg.generic {indexing_maps = [#scalar, #scalar], iterator_types = []}
      ins(%root : tensor<f32>) outs(%e0 : tensor<f32>) {
  ^bb0(%r: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %q = arith.divf %one, %r : f32
    linalg.yield %q : f32
  } -> tensor<f32>
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel"]}
      ins(%xs, %scale : tensor<4xf32>, tensor<f32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %ys = shard.shard %y to %s : tensor<4xf32>
  %pair = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e2 = tensor.empty() : tensor<2xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%pair : tensor<2xf32>) outs(%e2 : tensor<2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %g = arith.negf %a : f32
    linalg.yield %g : f32
  } -> tensor<2xf32>
  return %ys, %n : tensor<4xf32>, tensor<2xf32>
}
