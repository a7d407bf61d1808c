//===- OnnxModel.h - reading, checking and upgrading an ONNX model ---------===//
//
// The protobuf side of the importer (no MLIR): parse, check, convert to opset
// 17, infer shapes, and decode TensorProtos to host tensors.
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_LIB_IMPORT_ONNXMODEL_H_
#define MESHVK_LIB_IMPORT_ONNXMODEL_H_

#include <string>

#include "meshvk/Import/OnnxImport.h"
#include "onnx/onnx_pb.h"

namespace meshvk::onnx_import {

// The opset the importer works at; models at an older one are converted.
constexpr int64_t kTargetOpset = 17;

// Parses, checks, upgrades (falling back to the model's own opset where the
// converter has no adapter) and infers shapes. `*opset` is the default-domain
// opset of the result. false with a one-line *error otherwise. `path` is the
// file the bytes came from ("" for bytes from memory).
bool loadModel(const std::string &bytes, const std::string &name, const std::string &path,
               onnx::ModelProto *model, int64_t *opset, std::string *error);

// Decodes a TensorProto (raw_data or the typed fields). `directory` resolves
// external data. false with *error for a dtype or location it cannot read.
bool decodeTensor(const onnx::TensorProto &tensor, const std::string &directory,
                  OnnxHostTensor *out, std::string *error);

// "FLOAT", "INT64", ... for messages.
std::string onnxTypeName(int32_t type);

} // namespace meshvk::onnx_import

#endif // MESHVK_LIB_IMPORT_ONNXMODEL_H_
