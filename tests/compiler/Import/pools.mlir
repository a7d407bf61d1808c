// Pools and convolutions past TOSA's 2-D ops. Outputs are checked against the
// ONNX backend suite (node test_maxpool_2d_dilations, test_maxpool_3d_default,
// test_averagepool_3d_default; pytorch-converted MaxPool{1,2}d_stride_padding_
// dilation, MaxPool3d*, AvgPool3d*, Conv3d* in tests/onnx).
//
// A dilated MaxPool (TOSA's max_pool2d has no dilation): the input padded
// with f32's lowest value, the window's max at stride 1 by doubling (3 taps
// 2 apart on H: windows of 2 taps, then of 3 as two overlapping ones; 2 taps
// 3 apart on W), every second row kept by a strided slice.
// RUN: %make_model maxpool_dilated %t.dil.onnx
// RUN: mesh-vk-translate --import-onnx %t.dil.onnx | FileCheck %s --check-prefix=DIL
// DIL: tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1xf32>}>
// DIL: tosa.pad {{.*}} -> tensor<1x9x7x2xf32>
// DIL: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 7, 7, 2] [1, 1, 1, 1]
// DIL: tensor.extract_slice %{{.*}}[0, 2, 0, 0] [1, 7, 7, 2] [1, 1, 1, 1]
// DIL: tosa.maximum {{.*}} -> tensor<1x7x7x2xf32>
// DIL: tensor.extract_slice %{{.*}}[0, 2, 0, 0] [1, 5, 7, 2] [1, 1, 1, 1]
// DIL: tosa.maximum {{.*}} -> tensor<1x5x7x2xf32>
// DIL: tensor.extract_slice %{{.*}}[0, 0, 3, 0] [1, 5, 4, 2] [1, 1, 1, 1]
// DIL: tosa.maximum {{.*}} -> tensor<1x5x4x2xf32>
// DIL: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 3, 4, 2] [1, 2, 1, 1]
// DIL-NOT: tosa.max_pool2d
// DIL: tosa.transpose {{.*}} -> tensor<1x2x3x4xf32>
//
// A 3-D pool as two separable 2-D ones: over (H, W) with the depths as
// images, then over D (a D x 1 window on [N, D, OH*OW, C]).
// RUN: %make_model maxpool_3d %t.max3.onnx
// RUN: mesh-vk-translate --import-onnx %t.max3.onnx | FileCheck %s --check-prefix=MAX3
// MAX3: tosa.transpose %arg0 {perms = array<i32: 0, 2, 3, 4, 1>}
// MAX3: tosa.reshape {{.*}} -> tensor<4x4x4x2xf32>
// MAX3: tosa.max_pool2d {{.*}}kernel = array<i64: 2, 2>{{.*}}stride = array<i64: 2, 2>{{.*}} -> tensor<4x2x2x2xf32>
// MAX3: tosa.reshape {{.*}} -> tensor<1x4x4x2xf32>
// MAX3: tosa.max_pool2d {{.*}}kernel = array<i64: 2, 1>{{.*}}stride = array<i64: 2, 1>{{.*}} -> tensor<1x2x4x2xf32>
// MAX3: tosa.transpose {{.*}} {perms = array<i32: 0, 4, 1, 2, 3>} {{.*}} -> tensor<1x2x2x2x2xf32>
//
// The mean without the padding: a window's count of real elements is the
// product of its counts per axis, so the two means compose.
// RUN: %make_model avgpool_3d %t.avg3.onnx
// RUN: mesh-vk-translate --import-onnx %t.avg3.onnx | FileCheck %s --check-prefix=AVG3
// AVG3: tosa.avg_pool2d {{.*}}kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>{{.*}} -> tensor<3x2x2x2xf32>
// AVG3: tosa.avg_pool2d {{.*}}kernel = array<i64: 3, 1>, pad = array<i64: 1, 1, 0, 0>, stride = array<i64: 1, 1>{{.*}} -> tensor<1x3x4x2xf32>
// AVG3: -> tensor<1x2x3x2x2xf32>
//
// Conv over [N, C, D, H, W]: the depth zero-padded, each depth tap a strided
// slice of it (depths as images) convolved in 2-D with the weight's slice of
// that tap; the bias added by tap 0 only, the taps summed.
// RUN: %make_model conv3d %t.conv3.onnx
// RUN: mesh-vk-translate --import-onnx %t.conv3.onnx | FileCheck %s --check-prefix=CONV3
// CONV3: %[[BIAS:.*]] = arith.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00]> : tensor<3xf32>
// CONV3: tosa.const_shape {values = dense<[0, 0, 0, 0, 1, 0, 0, 0, 0, 0]>
// CONV3: tosa.pad {{.*}} -> tensor<1x2x4x4x4xf32>
// CONV3: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<3xf32>
// CONV3: tensor.extract_slice %{{.*}}[0, 0, 0, 0, 0] [1, 2, 4, 4, 2] [1, 2, 1, 1, 1]
// CONV3: tensor.extract_slice %cst[0, 0, 0, 0, 0] [3, 2, 1, 3, 3]
// CONV3: %[[T0:.*]] = tosa.conv2d %{{.*}}, %{{.*}}, %[[BIAS]], {{.*}}pad = array<i64: 1, 1, 1, 1>{{.*}} -> tensor<2x4x4x3xf32>
// CONV3: tensor.extract_slice %{{.*}}[0, 1, 0, 0, 0] [1, 2, 4, 4, 2] [1, 2, 1, 1, 1]
// CONV3: tensor.extract_slice %cst[0, 0, 1, 0, 0] [3, 2, 1, 3, 3]
// CONV3: %[[T1:.*]] = tosa.conv2d %{{.*}}, %{{.*}}, %[[ZERO]], {{.*}} -> tensor<2x4x4x3xf32>
// CONV3: tosa.add %[[T0]], %[[T1]]
// CONV3: tosa.transpose {{.*}} {perms = array<i32: 0, 4, 1, 2, 3>} {{.*}} -> tensor<1x3x2x4x4xf32>
//
// Refusals: one line naming the node, what is wrong and what is expected.
// RUN: %make_model pool_pads %t.pads.onnx
// RUN: not mesh-vk-translate --import-onnx %t.pads.onnx 2>&1 | FileCheck %s --check-prefix=PADS
// PADS: node 'pool' (MaxPool, opset 17): pads has 3 values, expected 4 (begins, then ends, one per spatial axis)
// PADS-NOT: {{.}}
// RUN: %make_model pool_4d %t.p4.onnx
// RUN: not mesh-vk-translate --import-onnx %t.p4.onnx 2>&1 | FileCheck %s --check-prefix=P4
// P4: node 'pool' (MaxPool, opset 17): supported for 1-D, 2-D and 3-D pools only (input rank 6)
// P4-NOT: {{.}}
// RUN: %make_model conv3d_kernel_shape %t.k3.onnx
// RUN: not mesh-vk-translate --import-onnx %t.k3.onnx 2>&1 | FileCheck %s --check-prefix=K3
// K3: node 'conv3' (Conv, opset 17): kernel_shape 3x3x3 differs from the weight's window 2x2x2
// K3-NOT: {{.}}
