// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// The plan dialect round-trips and its verifiers reject malformed copies/launches.

// CHECK-LABEL: func.func @roundtrip
func.func @roundtrip(%a: tensor<8x6xf32>, %b: tensor<4x6xf32>) -> tensor<4x6xf32> {
  // CHECK: %[[E:.*]] = meshvk.empty on 1 : tensor<4x6xf32>
  %e = meshvk.empty on 1 : tensor<4x6xf32>
  // CHECK: meshvk.copy %{{.*}}[4, 0] from 0 into %[[E]][0, 0] on 1 sizes [4, 6] : tensor<8x6xf32> into tensor<4x6xf32>
  %c = meshvk.copy %a[4, 0] from 0 into %e[0, 0] on 1 sizes [4, 6] : tensor<8x6xf32> into tensor<4x6xf32>
  // CHECK: meshvk.launch @kernel_0(%{{.*}}, %{{.*}}) on 1 : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %r = meshvk.launch @kernel_0(%c, %b) on 1 : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
func.func private @kernel_0(%x: tensor<4x6xf32>, %y: tensor<4x6xf32>) -> tensor<4x6xf32> attributes {meshvk.kernel} {
  %e = tensor.empty() : tensor<4x6xf32>
  %0 = linalg.add ins(%x, %y : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

func.func @copy_out_of_bounds(%a: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %e = meshvk.empty on 1 : tensor<4x6xf32>
  // expected-error @+1 {{source box leaves the source tensor in dimension 0}}
  %c = meshvk.copy %a[6, 0] from 0 into %e[0, 0] on 1 sizes [4, 6] : tensor<8x6xf32> into tensor<4x6xf32>
  return %c : tensor<4x6xf32>
}

// -----

func.func @copy_bad_rank(%a: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %e = meshvk.empty on 1 : tensor<4x6xf32>
  // expected-error @+1 {{source, dest, offsets and sizes must all have rank 2}}
  %c = meshvk.copy %a[0] from 0 into %e[0, 0] on 1 sizes [4, 6] : tensor<8x6xf32> into tensor<4x6xf32>
  return %c : tensor<4x6xf32>
}

// -----

func.func @launch_not_a_kernel(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{function 'helper' is not marked meshvk.kernel}}
  %r = meshvk.launch @helper(%a) on 0 : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

func.func @launch_wrong_types(%a: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{operand/result types do not match kernel type}}
  %r = meshvk.launch @k(%a) on 0 : (tensor<4xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
func.func private @k(%x: tensor<4xf32>) -> tensor<4xf32> attributes {meshvk.kernel} {
  return %x : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @constant_forms
// CHECK: meshvk.constant dense<[1, 2, 3]> : tensor<3xi32> : tensor<3xi32>
// CHECK: meshvk.constant dense<[1, 2, 3]> : tensor<3xi32> on @g split {{\[\[}}0]] offsets [] : tensor<?xi32>
shard.grid @g(shape = 2)
func.func @constant_forms() -> (tensor<3xi32>, tensor<?xi32>) {
  %0 = meshvk.constant dense<[1, 2, 3]> : tensor<3xi32> : tensor<3xi32>
  %1 = meshvk.constant dense<[1, 2, 3]> : tensor<3xi32> on @g split [[0]] offsets [] : tensor<?xi32>
  return %0, %1 : tensor<3xi32>, tensor<?xi32>
}

// -----

func.func @constant_wrong_type() -> tensor<2xi32> {
  // expected-error @+1 {{value of type 'tensor<3xi32>' must have the result type 'tensor<2xi32>' when it is not sharded}}
  %0 = meshvk.constant dense<[1, 2, 3]> : tensor<3xi32> : tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @constant_wrong_element() -> tensor<3xf32> {
  // expected-error @+1 {{value of type 'tensor<3xi32>' does not match the result type 'tensor<3xf32>'}}
  %0 = meshvk.constant dense<[1, 2, 3]> : tensor<3xi32> : tensor<3xf32>
  return %0 : tensor<3xf32>
}
