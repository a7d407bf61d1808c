//===- Sharding.h - the sharding policies of the ONNX importer -------------===//
#ifndef MESHVK_LIB_IMPORT_SHARDING_H_
#define MESHVK_LIB_IMPORT_SHARDING_H_

#include "Importer.h"

namespace meshvk::onnx_import {

// Fills Importer::splits from the policy in the options (data: the leading
// dimension of every activation input; tensor: MatMul/Gemm weight pairs
// column- then row-split, convolution output channels; spec: the JSON file).
// false with the error (a spec naming no tensor, an unreadable spec).
bool planSharding(Importer &im, const onnx::GraphProto &graph, OnnxSignature *signature);
// The grid the policy runs on (the spec's "grid", else {devices}).
std::vector<int64_t> gridShape(const Importer &im);

} // namespace meshvk::onnx_import

#endif // MESHVK_LIB_IMPORT_SHARDING_H_
