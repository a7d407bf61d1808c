// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-check-tensor-types
// The first input pass: tensors of complex numbers, quantized values or
// vectors, and unranked tensors, are refused with one line before anything
// else reads them (meshvk's rewrites built a zero of complex<f32> and
// aborted; upstream's tosa-to-linalg segfaults on a quantized conv2d and on
// an unranked tosa.resize). Found by tests/compiler/upstream_inputs.cc.

// expected-error @+1 {{argument #2 of @complex_matmul has type 'tensor<16x32xcomplex<f32>>': meshvk computes ranked tensors of integers and floats only}}
func.func @complex_matmul(%a: tensor<16x8xf32>, %b: tensor<8x32xf32>, %c: tensor<16x32xcomplex<f32>>) -> tensor<16x32xcomplex<f32>> {
  return %c : tensor<16x32xcomplex<f32>>
}

// -----

func.func @quantized_result(%x: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{result of type 'tensor<4x!quant.uniform<i8:f32, 1.000000e-02>>': meshvk computes ranked tensors of integers and floats only}}
  %q = "tosa.const"() <{values = dense<1> : tensor<4xi8>}> : () -> tensor<4x!quant.uniform<i8:f32, 0.01>>
  return %x : tensor<4xi8>
}

// -----

func.func @unranked_resize(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %e = tensor.empty() : tensor<1x4x4x2xf32>
  // expected-error @+1 {{result of type 'tensor<*xf32>': meshvk computes ranked tensors of integers and floats only}}
  %u = tensor.cast %e : tensor<1x4x4x2xf32> to tensor<*xf32>
  return %x : tensor<1x4x4x2xf32>
}

// -----

// Integers, floats and indices of any width pass (the ABI checks storage
// types later).
func.func @accepted(%x: tensor<4xi8>, %y: tensor<4xf64>, %z: tensor<4xindex>) -> tensor<4xi8> {
  return %x : tensor<4xi8>
}
