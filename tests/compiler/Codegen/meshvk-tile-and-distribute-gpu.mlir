// RUN: mesh-vk-opt %s --meshvk-tile-and-distribute=target=gpu | FileCheck %s

// The GPU family: 128 invocations with an 8x8 register tile for a matmul
// (64 accumulators carried through K), a 4x4 tile for a convolution (its
// window loops nest around the tile's body).
// CHECK-LABEL: func.func @gpu_matmul
// CHECK: threads({{.*}}) in ({{.*}} = %c128,
// CHECK: %{{.*}}:64 = scf.for
// CHECK-LABEL: func.func @gpu_conv
// CHECK: %{{.*}}:16 = scf.for
func.func @gpu_matmul(%a: tensor<256x64xf32>, %b: tensor<64x256xf32>) -> tensor<256x256xf32> attributes {meshvk.kernel} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %m = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %m : tensor<256x256xf32>
}
func.func @gpu_conv(%x: tensor<1x18x18x64xf32>, %w: tensor<3x3x64x64xf32>) -> tensor<1x16x16x64xf32> attributes {meshvk.kernel} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x16x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<1x18x18x64xf32>, tensor<3x3x64x64xf32>) outs(%f : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  return %c : tensor<1x16x16x64xf32>
}
