// ConvTranspose as the stride-1 convolution it is the gradient of: the input
// dilated by the strides (a tosa.pad between pixels), padded by
// dilation * (kernel - 1) - pads (+ output_padding), the window flipped and
// the channel roles swapped per group. Outputs are checked against the ONNX
// backend suite's node tests (tests/onnx) and torch (tests/onnx/torch_models.py).
//
// RUN: %make_model conv_transpose %t.ct.onnx
// RUN: mesh-vk-translate --import-onnx %t.ct.onnx | FileCheck %s --check-prefix=CT
// The initializer w[c][o] (2x3x2x2, arange) stored as the Conv weight
// [o][c] with the window reversed, in TOSA's OHWI: no transpose or reverse
// of the weight on the device.
// CT: arith.constant dense<{{\[\[\[\[}}3.000000e+00, 1.500000e+01], [2.000000e+00, 1.400000e+01]], {{\[\[}}1.000000e+00, 1.300000e+01], [0.000000e+00, 1.200000e+01]]], {{.*}} : tensor<3x2x2x2xf32>
// CT-NOT: tosa.reverse
// CT: tosa.reshape %arg0, {{.*}} -> tensor<1x2x3x1x3x1xf32>
// CT: tosa.const_shape {{.*}}dense<[0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1]>
// CT: tosa.pad {{.*}} -> tensor<1x2x3x2x3x2xf32>
// CT: tosa.reshape {{.*}} -> tensor<1x2x6x6xf32>
// CT-NOT: tosa.transpose %cst
// CT: tosa.conv2d %{{.*}}, %cst, {{.*}}pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 1, 1>{{.*}} -> tensor<1x6x6x3xf32>
// CT: tosa.transpose {{.*}} -> tensor<1x3x6x6xf32>
//
// A weight computed at run time is rearranged and reversed on the device;
// pads past the window crop the input; group 2 = channels is depthwise.
// RUN: %make_model conv_transpose_runtime_weight %t.ctw.onnx
// RUN: mesh-vk-translate --import-onnx %t.ctw.onnx | FileCheck %s --check-prefix=CTW
// CTW: tosa.transpose %{{.*}} {perms = array<i32: 0, 2, 1, 3, 4>} : (tensor<2x1x1x2x2xf32>)
// CTW: tosa.reverse %{{.*}} {axis = 2 : i32}
// CTW: tosa.reverse %{{.*}} {axis = 3 : i32}
// CTW: tensor.extract_slice %arg0[0, 0, 1, 1] [1, 2, 2, 2] [1, 1, 1, 1]
// CTW: tosa.depthwise_conv2d {{.*}}pad = array<i64: 0, 0, 0, 0>{{.*}} -> tensor<1x1x1x2xf32>
//
// Refusals: one line naming the node, what is wrong and what is expected.
// RUN: %make_model conv_transpose_3d %t.ct3.onnx
// RUN: not mesh-vk-translate --import-onnx %t.ct3.onnx 2>&1 | FileCheck %s --check-prefix=CT3
// CT3: node 'up3' (ConvTranspose, opset 17): supported for 1-D and 2-D transposed convolutions only (input rank 5)
// CT3-NOT: {{.}}
// RUN: %make_model conv_transpose_channels %t.ctc.onnx
// RUN: not mesh-vk-translate --import-onnx %t.ctc.onnx 2>&1 | FileCheck %s --check-prefix=CTC
// CTC: node 'up' (ConvTranspose, opset 17): a weight of shape 3x1x2x2 does not fit an input of 2 channels with group = 1 (expected 2x(OUT/group)xKERNEL)
// CTC-NOT: {{.}}
// RUN: %make_model conv_transpose_kernel_shape %t.ctk.onnx
// RUN: not mesh-vk-translate --import-onnx %t.ctk.onnx 2>&1 | FileCheck %s --check-prefix=CTK
// CTK: node 'up' (ConvTranspose, opset 17): kernel_shape 3x3 differs from the weight's window 2x2
// CTK-NOT: {{.}}
// RUN: %make_model conv_transpose_strides %t.cts.onnx
// RUN: not mesh-vk-translate --import-onnx %t.cts.onnx 2>&1 | FileCheck %s --check-prefix=CTS
// CTS: node 'up' (ConvTranspose, opset 17): strides has 3 values, expected 2 (one per spatial axis)
// CTS-NOT: {{.}}
