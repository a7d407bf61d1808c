// The sharding policies write shard.grid + shard.shard annotations.
// RUN: %make_model mlp %t.mlp.onnx
// RUN: mesh-vk-translate --import-onnx %t.mlp.onnx --shard=data --devices=2 --print-plan | FileCheck %s --check-prefix=DATA
// DATA: // plan: x: split_axes = {{\[\[}}0]] (data: leading dimension)
// DATA: shard.grid @grid(shape = 2)
// DATA: func.func @main(%[[X:.*]]: tensor<4x8xf32>)
// DATA: shard.sharding @grid split_axes = {{\[\[}}0]]
// DATA: shard.shard %[[X]] to %{{.*}} annotate_for_users
//
// Megatron: the first weight by columns, the second by rows.
// RUN: mesh-vk-translate --import-onnx %t.mlp.onnx --shard=tensor --devices=2 --print-plan | FileCheck %s --check-prefix=TP
// TP-DAG: // plan: w1: split_axes = {{\[\[}}], [0]] (tensor: first of a MatMul pair, columns)
// TP-DAG: // plan: w2: split_axes = {{\[\[}}0]] (tensor: rows, fed by the column split of 'w1')
// TP: shard.grid @grid(shape = 2)
// TP: shard.sharding @grid split_axes = {{\[\[}}], [0]]
// TP: shard.shard %{{.*}} to %{{.*}} annotate_for_users : tensor<8x16xf32>
// TP: shard.sharding @grid split_axes = {{\[\[}}0]]
// TP: shard.shard %{{.*}} to %{{.*}} annotate_for_users : tensor<16x4xf32>
//
// torch.nn.Linear's Gemm(transB=1): w1 (16x8, out x in) split by output
// features (its rows) is stored as 8x16 split by columns; w2, also read by an
// Add, keeps its layout and a device transpose.
// RUN: %make_model linear_mlp %t.linear.onnx
// RUN: mesh-vk-translate --import-onnx %t.linear.onnx --shard=tensor --devices=2 --print-plan | FileCheck %s --check-prefix=LINEAR
// LINEAR-DAG: // plan: w1: split_axes = {{\[\[}}], [0]] (tensor: first of a MatMul pair, columns, stored transposed for Gemm transB)
// LINEAR-DAG: // plan: w2: split_axes = {{\[\[}}], [0]] (tensor: rows, fed by the column split of 'w1')
// LINEAR: shard.shard %{{.*}} to %{{.*}} annotate_for_users : tensor<8x16xf32>
// LINEAR: shard.shard %{{.*}} to %{{.*}} annotate_for_users : tensor<4x16xf32>
// LINEAR: tosa.transpose %{{.*}} (tensor<4x16xf32>) -> tensor<16x4xf32>
// LINEAR-NOT: tosa.transpose
//
// RUN: echo '{"grid": [2], "tensors": {"h": [[], [0]]}}' > %t.spec.json
// RUN: mesh-vk-translate --import-onnx %t.mlp.onnx --shard=%t.spec.json --print-plan | FileCheck %s --check-prefix=SPEC
// SPEC: // plan: h: split_axes = {{\[\[}}], [0]] (spec)
// SPEC: linalg.matmul
// SPEC: shard.shard %{{.*}} to %{{.*}} : tensor<4x16xf32>
//
// RUN: echo '{"grid": [2], "tensors": {"nope": [[0]]}}' > %t.bad.json
// RUN: not mesh-vk-translate --import-onnx %t.mlp.onnx --shard=%t.bad.json 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: bad.json: tensor 'nope' is not in the model
//
// ConvTranspose's weight [C, OUT, k, k] split by output channels (its
// dimension 1) is stored as the Conv weight [OUT, k, k, C] (OHWI): the split moves to 0.
// RUN: %make_model conv_transpose %t.ct.onnx
// RUN: mesh-vk-translate --import-onnx %t.ct.onnx --shard=tensor --devices=3 --print-plan | FileCheck %s --check-prefix=CT
// CT: // plan: w: split_axes = {{\[\[}}0], [], [], []] (tensor: transposed-convolution output channels, stored as the equivalent Conv weight, stored OHWI)
// CT: shard.shard %{{.*}} to %{{.*}} annotate_for_users : tensor<3x2x2x2xf32>
