//===- Sharding.h - the sharding policies of the ONNX importer -------------===//
#ifndef MESHVK_LIB_IMPORT_SHARDING_H_
#define MESHVK_LIB_IMPORT_SHARDING_H_

#include "Importer.h"

namespace meshvk::onnx_import {

// Before the import, under the tensor policy, two rewrites that keep
// attention heads split. (1) A fused attention projection (MatMul by one
// weight [K, n*D], its bias Add, a Split of the last axis into n equal parts,
// each reshaped to [.., heads, D/heads]) becomes n MatMuls by the n column
// blocks of the weight, so that a column split of each block puts whole heads
// on each process (a split of the fused weight would cut across the Split).
// Weights that are not f32, read by other nodes, or whose heads do not divide
// over the processes stay fused and replicated, with the reason in the plan.
// (2) Attention in torch's [B, H, T, D] layout is computed as [H, B, T, D]
// (see headMajorAttention). (3) A token embedding (Gather from an f32 table
// read by it only, by run-time ids) becomes one_hot(ids) @ table with the
// table split by vocabulary rows (one all_reduce; a Gather would read a split
// table whole, all-gathering it on every call). false with im.error when a
// weight cannot be decoded.
bool rewriteAttentionForSharding(Importer &im, onnx::GraphProto &graph, OnnxSignature *signature);

// Fills Importer::splits from the policy in the options (data: the leading
// dimension of every activation input; tensor: Megatron by data flow (a
// MatMul/Gemm weight split by columns, the weights its output flows into
// split by rows), attention heads, embedding tables by vocabulary (see
// rewriteAttentionForSharding),
// convolution output channels; spec: the JSON file; grid: data and tensor on
// their own grid axes). Tensors a policy leaves replicated are named in the
// plan with the reason. false with the error (a spec naming no tensor, an
// unreadable spec, a grid that does not fit the policy). *grid: the grid the
// policy runs on (the spec's "grid", else options.gridShape, else {devices}).
bool planSharding(Importer &im, const onnx::GraphProto &graph, OnnxSignature *signature,
                  std::vector<int64_t> *grid);

} // namespace meshvk::onnx_import

#endif // MESHVK_LIB_IMPORT_SHARDING_H_
