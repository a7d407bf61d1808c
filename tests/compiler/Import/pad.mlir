// Pad: 'constant' is tosa.pad; 'reflect' and 'edge' are slices of the input
// (reversed for reflect, tiled for edge) concatenated around it, one axis
// after the other; negative pads crop first (every mode). Outputs are checked
// against the ONNX backend suite (node test_reflect_pad / test_edge_pad,
// pytorch-converted ReflectionPad2d / ReplicationPad2d, pytorch-operator
// test_operator_pad in tests/onnx).
//
// Reflect by 4 before an axis of 3: numpy repeats the reflection, so two
// rounds of at most length - 1 (the edge itself is never repeated).
// RUN: %make_model pad_reflect %t.reflect.onnx
// RUN: mesh-vk-translate --import-onnx %t.reflect.onnx | FileCheck %s --check-prefix=REFLECT
// REFLECT: %[[B1:.*]] = tensor.extract_slice %arg0[0, 1] [2, 2] [1, 1]
// REFLECT: %[[R1:.*]] = tosa.reverse %[[B1]] {axis = 1 : i32}
// REFLECT: %[[E1:.*]] = tensor.extract_slice %arg0[0, 1] [2, 1] [1, 1]
// REFLECT: %[[C1:.*]] = tosa.concat %[[R1]], %arg0, %[[E1]] {axis = 1 : i32} {{.*}} -> tensor<2x6xf32>
// REFLECT: %[[B2:.*]] = tensor.extract_slice %[[C1]][0, 1] [2, 2] [1, 1]
// REFLECT: %[[R2:.*]] = tosa.reverse %[[B2]] {axis = 1 : i32}
// REFLECT: tosa.concat %[[R2]], %[[C1]] {axis = 1 : i32} {{.*}} -> tensor<2x8xf32>
// REFLECT-NOT: tosa.pad
//
// Edge: the first row once before, the last column tiled twice after.
// RUN: %make_model pad_edge %t.edge.onnx
// RUN: mesh-vk-translate --import-onnx %t.edge.onnx | FileCheck %s --check-prefix=EDGE
// EDGE: %[[FIRST:.*]] = tensor.extract_slice %arg0[0, 0] [1, 3] [1, 1]
// EDGE: %[[ROWS:.*]] = tosa.concat %[[FIRST]], %arg0 {axis = 0 : i32} {{.*}} -> tensor<3x3xf32>
// EDGE: %[[LAST:.*]] = tensor.extract_slice %[[ROWS]][0, 2] [3, 1] [1, 1]
// EDGE: %[[TWICE:.*]] = tosa.const_shape {values = dense<[1, 2]>
// EDGE: %[[TILE:.*]] = tosa.tile %[[LAST]], %[[TWICE]] {{.*}} -> tensor<3x2xf32>
// EDGE: tosa.concat %[[ROWS]], %[[TILE]] {axis = 1 : i32} {{.*}} -> tensor<3x5xf32>
//
// Negative pads crop (a slice), the positive ones pad.
// RUN: %make_model pad_negative %t.neg.onnx
// RUN: mesh-vk-translate --import-onnx %t.neg.onnx | FileCheck %s --check-prefix=NEG
// NEG: tensor.extract_slice %arg0[1, 0] [2, 4] [1, 1]
// NEG: tensor.extract_slice %{{.*}}[0, 0] [2, 2] [1, 1]
// NEG: tosa.const_shape {values = dense<[0, 1, 0, 0]>
// NEG: tosa.pad {{.*}} -> tensor<3x2xf32>
//
// Refusals: one line naming the node, what is wrong and what is expected.
// RUN: %make_model pad_bad_mode %t.mode.onnx
// RUN: not mesh-vk-translate --import-onnx %t.mode.onnx 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: node 'pad' (Pad, opset 17): mode 'wrap' is not supported (supported: constant, reflect, edge)
// MODE-NOT: {{.}}
// RUN: %make_model pad_lengths %t.len.onnx
// RUN: not mesh-vk-translate --import-onnx %t.len.onnx 2>&1 | FileCheck %s --check-prefix=LEN
// LEN: node 'pad' (Pad, opset 17): pads has 3 values for 2 axes (expected 4: begins, then ends)
// LEN-NOT: {{.}}
// RUN: %make_model pad_reflect_single %t.single.onnx
// RUN: not mesh-vk-translate --import-onnx %t.single.onnx 2>&1 | FileCheck %s --check-prefix=SINGLE
// SINGLE: node 'pad' (Pad, opset 17): mode 'reflect' pads axis 0 of 1 element (reflect needs at least 2 to mirror)
// SINGLE-NOT: {{.}}
// RUN: %make_model pad_crop_all %t.crop.onnx
// RUN: not mesh-vk-translate --import-onnx %t.crop.onnx 2>&1 | FileCheck %s --check-prefix=CROP
// CROP: node 'pad' (Pad, opset 17): pads -2, -1 remove all 3 elements of axis 1
// CROP-NOT: {{.}}
