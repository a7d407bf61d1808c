// The tensor policy by data flow, attention, embeddings and the 2-D grid
// (Inputs/make_shard_model.py: transformer-shaped graphs as torch exports them).
//
// A fused QKV projection is cut into its Q, K and V column blocks, each split
// by columns (whole heads per process), its biases with it; the output
// projection, which the attention output flows into, by rows; the MLP pair
// column- then row-wise. Attention runs heads-major, and the partitioned
// program has one all_reduce per pair and nothing else.
// RUN: %make_shard_model attention %t.att.onnx
// RUN: mesh-vk-translate --import-onnx %t.att.onnx --shard=tensor --devices=2 --print-plan | FileCheck %s --check-prefix=ATT
// ATT-DAG: // plan: wqkv: cut into 3 column blocks (tensor: fused projection of 4 heads x 3 read by Split 'split': whole heads per process)
// ATT-DAG: // plan: attention 'scores': computed heads-major, [H, B, T, D]
// ATT-DAG: // plan: wqkv[:, 0:16]: split_axes = {{\[\[}}], [0]] (tensor: attention projection, columns: 2 heads per process)
// ATT-DAG: // plan: wqkv[:, 32:48]: split_axes = {{\[\[}}], [0]] (tensor: attention projection, columns: 2 heads per process)
// ATT-DAG: // plan: bqkv[16:32]: split_axes = {{\[\[}}0]] (tensor: bias of the column-split 'wqkv[:, 16:32]')
// ATT-DAG: // plan: wo: split_axes = {{\[\[}}0]] (tensor: rows, fed by the column split of 'wqkv[:, 0:16]')
// ATT-DAG: // plan: wfc: split_axes = {{\[\[}}], [0]] (tensor: first of a MatMul pair, columns)
// ATT-DAG: // plan: wout: split_axes = {{\[\[}}0]] (tensor: rows, fed by the column split of 'wfc')
// ATT: tosa.transpose %{{.*}} {perms = array<i32: 2, 0, 1, 3>}
// RUN: mesh-vk-translate --import-onnx %t.att.onnx --shard=tensor --devices=2 | mesh-vk-opt --meshvk-partition | FileCheck %s --check-prefix=ATT-PART
// ATT-PART-NOT: shard.all_gather
// ATT-PART-NOT: shard.all_slice
// ATT-PART-NOT: shard.all_to_all
// ATT-PART-COUNT-2: shard.all_reduce
// ATT-PART-NOT: shard.all_
//
// Separate Q/K/V projections (and their bias Adds) the same, without the cut.
// RUN: %make_shard_model attention_separate %t.sep.onnx
// RUN: mesh-vk-translate --import-onnx %t.sep.onnx --shard=tensor --devices=2 --print-plan | FileCheck %s --check-prefix=SEP
// SEP-DAG: // plan: wq: split_axes = {{\[\[}}], [0]] (tensor: attention projection, columns: 2 heads per process)
// SEP-DAG: // plan: wv: split_axes = {{\[\[}}], [0]] (tensor: attention projection, columns: 2 heads per process)
// SEP-DAG: // plan: bk: split_axes = {{\[\[}}0]] (tensor: bias of the column-split 'wk')
// SEP-DAG: // plan: wo: split_axes = {{\[\[}}0]] (tensor: rows, fed by the column split of 'wq')
// SEP-NOT: cut into
//
// 3 heads over 2 processes: the projection and the output projection stay
// whole, and the plan says why; the MLP is split as before.
// RUN: %make_shard_model attention_3_heads %t.h3.onnx
// RUN: mesh-vk-translate --import-onnx %t.h3.onnx --shard=tensor --devices=2 --print-plan | FileCheck %s --check-prefix=H3
// H3-DAG: // plan: wqkv: replicated (tensor: fused projection of 3 heads x 3 (Split 'split'): 3 heads do not divide over 2 processes; left replicated)
// H3-DAG: // plan: wo: replicated (tensor: its input comes from 'wqkv', which is not split)
// H3-DAG: // plan: wfc: split_axes = {{\[\[}}], [0]] (tensor: first of a MatMul pair, columns)
//
// The token table: a vocabulary-parallel one-hot lookup, the table split by
// rows, one all_reduce; the position table (constant positions) stays whole;
// the LM head by columns (vocabulary).
// RUN: %make_shard_model embedding %t.emb.onnx
// RUN: mesh-vk-translate --import-onnx %t.emb.onnx --shard=tensor --devices=2 --print-plan | FileCheck %s --check-prefix=EMB
// EMB-DAG: // plan: lookup 'wte' of 'wte': vocabulary-parallel, one_hot(ids) @ table
// EMB-DAG: // plan: wte: split_axes = {{\[\[}}0]] (tensor: embedding table, vocabulary rows (one-hot lookup, one all_reduce of its result))
// EMB-DAG: // plan: wpe: replicated (tensor: embedding table read at constant positions
// EMB-DAG: // plan: head: split_axes = {{\[\[}}], [0]] (tensor: columns (output features)
// EMB-NOT: tosa.gather
// RUN: mesh-vk-translate --import-onnx %t.emb.onnx --shard=tensor --devices=2 | mesh-vk-opt --meshvk-partition | FileCheck %s --check-prefix=EMB-PART
// EMB-PART-NOT: shard.all_gather
// EMB-PART: shard.all_reduce
// EMB-PART-NOT: shard.all_
//
// data,tensor on 2x2: the batch over grid axis 0, the weights over axis 1.
// RUN: mesh-vk-translate --import-onnx %t.att.onnx --shard=data,tensor --grid-shape=2x2 --print-plan | FileCheck %s --check-prefix=GRID
// GRID-DAG: // plan: x: split_axes = {{\[\[}}0]] (data: leading dimension)
// GRID-DAG: // plan: wqkv[:, 0:16]: split_axes = {{\[\[}}], [1]] (tensor: attention projection, columns: 2 heads per process)
// GRID-DAG: // plan: wo: split_axes = {{\[\[}}1]] (tensor: rows, fed by the column split of 'wqkv[:, 0:16]')
// GRID: shard.grid @grid(shape = 2x2)
//
// Refusals: one line, exit 2.
// RUN: not mesh-vk-translate --import-onnx %t.att.onnx --shard=data,data --grid-shape=2x2 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: mesh-vk-translate: --shard=data,data: 'data' is listed twice (expected each policy once: data,tensor or tensor,data)
// RUN: not mesh-vk-translate --import-onnx %t.att.onnx --shard=tensor,none --grid-shape=2x2 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: mesh-vk-translate: --shard=tensor,none: 'none' cannot be in a policy list
// RUN: not mesh-vk-translate --import-onnx %t.att.onnx --shard=data,tensor --devices=4 2>&1 | FileCheck %s --check-prefix=RANK
// RANK: mesh-vk-translate: --shard=data,tensor needs a grid of 2 axes, one per policy: give --grid-shape (e.g. --grid-shape=2x2)
// RUN: not mesh-vk-translate --import-onnx %t.att.onnx --shard=tensor --grid-shape=2x2 2>&1 | FileCheck %s --check-prefix=ONE
// ONE: mesh-vk-translate: --shard=tensor splits over a 1-D grid, got the grid 2x2 (give --shard=data,tensor for a 2-D grid)
// RUN: not mesh-vk-translate --import-onnx %t.att.onnx --shard=data,tensor --grid-shape=2x2 --devices=8 2>&1 | FileCheck %s --check-prefix=PRODUCT
// PRODUCT: mesh-vk-translate: --grid-shape=2x2: 4 processes, but --devices=8
