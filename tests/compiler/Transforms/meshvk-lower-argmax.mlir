// RUN: mesh-vk-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(meshvk-lower-argmax))' | FileCheck %s
// tosa.argmax as single-output reductions (tosa-to-linalg's form has two
// outputs): the maximum with NaNs read as -inf, then the first index keyed so
// that a NaN (PROPAGATE) ranks before the maximum, then key -> index.

// CHECK-LABEL: func.func @propagate
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[M0:.*]] = linalg.fill ins(%[[NEG]] : f32)
// CHECK: %[[M:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<6x8xf32>) outs(%[[M0]] : tensor<6xf32>)
// CHECK: arith.cmpf uno
// CHECK: arith.select
// CHECK: arith.maximumf
// CHECK: %[[BIG:.*]] = arith.constant 2147483647 : i32
// CHECK: %[[K0:.*]] = linalg.fill ins(%[[BIG]] : i32)
// CHECK: %[[K:.*]] = linalg.generic {{.*}} ins(%arg0, %[[M]] : tensor<6x8xf32>, tensor<6xf32>) outs(%[[K0]] : tensor<6xi32>)
// CHECK: linalg.index 1
// CHECK: arith.cmpf oeq
// CHECK: arith.constant 8 : i32
// CHECK: arith.cmpf uno
// CHECK: arith.minsi
// CHECK: %[[I:.*]] = linalg.generic {{.*}} ins(%[[K]] : tensor<6xi32>)
// CHECK: arith.cmpi sge
// CHECK: return %[[I]]
func.func @propagate(%a: tensor<6x8xf32>) -> tensor<6xi32> {
  %0 = tosa.argmax %a {axis = 1 : i32} : (tensor<6x8xf32>) -> tensor<6xi32>
  return %0 : tensor<6xi32>
}

// -----

// IGNORE: no NaN key.
// CHECK-LABEL: func.func @ignore
// CHECK: arith.maximumf
// CHECK: linalg.index 0
// CHECK-NOT: arith.cmpf uno
// CHECK: arith.minsi
func.func @ignore(%a: tensor<6x8xf32>) -> tensor<8xi32> {
  %0 = tosa.argmax %a {axis = 0 : i32, nan_mode = #tosa<nan_mode<IGNORE>>} : (tensor<6x8xf32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// -----

// Integers: max, then the first index equal to it; no third step.
// CHECK-LABEL: func.func @integers
// CHECK: arith.constant -2147483648 : i32
// CHECK: arith.maxsi
// CHECK: %[[K:.*]] = linalg.generic
// CHECK: arith.cmpi eq
// CHECK: arith.minsi
// CHECK: return %[[K]]
func.func @integers(%a: tensor<3x9x4xi32>) -> tensor<3x4xi32> {
  %0 = tosa.argmax %a {axis = 1 : i32} : (tensor<3x9x4xi32>) -> tensor<3x4xi32>
  return %0 : tensor<3x4xi32>
}

// -----

// An i64 result is left to tosa-to-linalg (and refused by check-sharding).
// CHECK-LABEL: func.func @wide_index
// CHECK: tosa.argmax
func.func @wide_index(%a: tensor<6x8xf32>) -> tensor<6xi64> {
  %0 = tosa.argmax %a {axis = 1 : i32} : (tensor<6x8xf32>) -> tensor<6xi64>
  return %0 : tensor<6xi64>
}

// -----

// nan_mode written as a string (older tosa, upstream's tosa-to-linalg test
// @argmax_nan_propagate) parses to no nan_mode at all: TOSA's default,
// PROPAGATE (this segfaulted: the unset attribute was dereferenced).
// CHECK-LABEL: func.func @nan_mode_unset
// CHECK: arith.cmpf uno
// CHECK: arith.cmpf uno
// CHECK-NOT: tosa.argmax
func.func @nan_mode_unset(%a: tensor<5x4xf32>) -> tensor<4xi32> {
  %0 = tosa.argmax %a {axis = 0 : i32, nan_mode = "PROPAGATE"} : (tensor<5x4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
