//===- OnnxModel.cpp - reading, checking and upgrading an ONNX model -----===//
//
// ONNX's own checker, version converter and shape inference, each failure
// turned into one line (they throw; nothing here lets an exception escape).
//
//===----------------------------------------------------------------------===//
#include "OnnxModel.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>

#include "meshvk/Support/CompileStage.h"
#include "onnx/checker.h"
#include "onnx/shape_inference/implementation.h"
#include "onnx/version_converter/convert.h"

namespace meshvk::onnx_import {
namespace {

std::string firstLine(const std::string &text) {
  std::string line = text.substr(0, text.find('\n'));
  while (!line.empty() && (line.back() == ' ' || line.back() == '\r'))
    line.pop_back();
  return line;
}

int64_t defaultOpset(const onnx::ModelProto &model) {
  for (const auto &o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx")
      return o.version();
  return 0;
}

} // namespace

std::string onnxTypeName(int32_t type) {
  if (onnx::TensorProto_DataType_IsValid(type))
    return onnx::TensorProto_DataType_Name(static_cast<onnx::TensorProto_DataType>(type));
  return "type " + std::to_string(type);
}

bool loadModel(const std::string &bytes, const std::string &name, const std::string &path,
               onnx::ModelProto *model, int64_t *opset, std::string *error) {
  setCompileStage("reading the ONNX protobuf", name);
  if (!model->ParseFromString(bytes) ||
      model->graph().node_size() + model->graph().output_size() == 0) {
    *error = name + ": not an ONNX model (the protobuf does not parse, or has no graph)";
    return false;
  }
  setCompileStage("the ONNX checker", name);
  // The checker finds external data relative to the model's folder only when
  // given the path (its ModelProto overload looks in the working directory).
  bool externalData = false;
  for (const auto &t : model->graph().initializer())
    externalData |= t.data_location() == onnx::TensorProto::EXTERNAL;
  try {
    if (externalData && !path.empty())
      onnx::checker::check_model(path);
    else
      onnx::checker::check_model(*model);
  } catch (const std::exception &e) {
    *error = name + ": the ONNX checker refuses the model: " + firstLine(e.what());
    return false;
  }
  for (const auto &o : model->opset_import())
    if (!o.domain().empty() && o.domain() != "ai.onnx") {
      *error = name + ": operator set domain '" + o.domain() +
               "' is not supported (only the default ai.onnx domain)";
      return false;
    }
  *opset = defaultOpset(*model);
  if (*opset < kTargetOpset) {
    // Older models are upgraded so the lowering sees one form of each op;
    // where ONNX 1.12 has no adapter the model is imported at its own opset
    // (the lowering reads the attribute-or-input forms of both).
    setCompileStage("ONNX version conversion to opset " + std::to_string(kTargetOpset), name);
    try {
      onnx::ModelProto converted = onnx::version_conversion::ConvertVersion(*model, kTargetOpset);
      *model = std::move(converted);
      *opset = kTargetOpset;
    } catch (const std::exception &) {
    }
  }
  setCompileStage("ONNX shape inference", name);
  try {
    onnx::ShapeInferenceOptions options{/*check_type=*/false, /*error_mode=*/0,
                                        /*enable_data_propagation=*/true};
    onnx::shape_inference::InferShapes(*model, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception &e) {
    *error = name + ": ONNX shape inference fails: " + firstLine(e.what());
    return false;
  }
  return true;
}

namespace {

template <typename T>
void fromRaw(const std::string &raw, int64_t count, std::vector<T> *out) {
  out->resize(count);
  std::memcpy(out->data(), raw.data(), count * sizeof(T));
}

// A non-negative decimal (external data's offset and length), or false.
bool parseByteCount(const std::string &text, int64_t *value) {
  if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos)
    return false;
  *value = std::stoll(text);
  return true;
}

// `expected` bytes of an initializer's external data: its location must name a
// regular file inside the model's folder (ONNX's rule: a relative path, no
// `..`), and offset + length must lie inside that file. Only those bytes are
// read, and only once their size is known to fit.
bool readExternal(const onnx::TensorProto &tensor, const std::string &directory, size_t expected,
                  std::string *raw, std::string *error) {
  std::string location, offsetText = "0", lengthText;
  for (const auto &entry : tensor.external_data()) {
    if (entry.key() == "location")
      location = entry.value();
    else if (entry.key() == "offset")
      offsetText = entry.value();
    else if (entry.key() == "length")
      lengthText = entry.value();
  }
  std::string what = "initializer '" + tensor.name() + "': external data '" + location + "'";
  std::filesystem::path relative(location);
  bool inside = !location.empty() && relative.is_relative();
  for (const auto &part : relative)
    inside &= part != "..";
  if (!inside) {
    *error = what + " is not a file inside the model's folder (expected a relative path without "
                    "'..', as ONNX's external data format requires)";
    return false;
  }
  int64_t offset = 0, length = static_cast<int64_t>(expected);
  for (auto [key, text, value] :
       {std::tuple("offset", &offsetText, &offset), std::tuple("length", &lengthText, &length)})
    if ((key == std::string("offset") || !text->empty()) && !parseByteCount(*text, value)) {
      *error =
          what + ": " + key + " '" + *text + "' is not a byte count (expected a decimal 0..10^18)";
      return false;
    }
  std::filesystem::path file = std::filesystem::path(directory) / relative;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) {
    *error = what + ": no such file next to the model";
    return false;
  }
  uint64_t size = std::filesystem::file_size(file, ec);
  if (ec || static_cast<uint64_t>(offset) > size || static_cast<uint64_t>(length) > size - offset) {
    *error = what + ": bytes " + std::to_string(offset) + ".." + std::to_string(offset + length) +
             " are past the end of the " + std::to_string(size) + "-byte file";
    return false;
  }
  if (static_cast<size_t>(length) < expected) {
    *error = what + ": " + std::to_string(length) + " bytes, its shape needs " +
             std::to_string(expected);
    return false;
  }
  std::ifstream in(file, std::ios::binary);
  raw->resize(expected);
  in.seekg(offset);
  if (!in || !in.read(raw->data(), static_cast<std::streamsize>(expected))) {
    *error = what + ": cannot read it";
    return false;
  }
  return true;
}

// Bytes per element of an ONNX element type (0: not a fixed-size numeric
// type); decodeTensor then says which of them it reads.
size_t elementBytes(int32_t type) {
  using TP = onnx::TensorProto;
  switch (type) {
  case TP::DOUBLE:
  case TP::INT64:
  case TP::UINT64:
    return 8;
  case TP::FLOAT:
  case TP::INT32:
  case TP::UINT32:
    return 4;
  case TP::FLOAT16:
  case TP::BFLOAT16:
  case TP::INT16:
  case TP::UINT16:
    return 2;
  case TP::INT8:
  case TP::UINT8:
  case TP::BOOL:
    return 1;
  default:
    return 0;
  }
}

// The element count of `tensor`'s shape; false for a negative extent or
// more than 2^34 elements.
bool elementCount(const onnx::TensorProto &tensor, int64_t *count, std::string *error) {
  *count = 1;
  for (int64_t d : tensor.dims()) {
    if (d < 0 || (d > 0 && *count > (int64_t(1) << 34) / d)) {
      *error = "tensor '" + tensor.name() + "' has a negative or huge shape";
      return false;
    }
    *count *= d;
  }
  return true;
}

// The element types decodeTensor reads.
bool decodable(int32_t type) {
  using TP = onnx::TensorProto;
  switch (type) {
  case TP::FLOAT:
  case TP::DOUBLE:
  case TP::FLOAT16:
  case TP::INT64:
  case TP::INT32:
  case TP::INT16:
  case TP::INT8:
  case TP::UINT8:
  case TP::UINT16:
  case TP::BOOL:
    return true;
  default:
    return false;
  }
}

// IEEE half -> double (subnormals, inf and NaN included).
double halfToDouble(uint16_t v) {
  int sign = v >> 15, exponent = (v >> 10) & 31, mantissa = v & 1023;
  double m = exponent == 0    ? mantissa / 1024.0 * std::ldexp(1.0, -14)
             : exponent == 31 ? (mantissa ? NAN : INFINITY)
                              : (1 + mantissa / 1024.0) * std::ldexp(1.0, exponent - 15);
  return sign ? -m : m;
}

// `count` little-endian integers of a type narrower than 64 bits, widened.
void narrowIntsFromRaw(const std::string &raw, int64_t count, int32_t type,
                       std::vector<int64_t> *out) {
  using TP = onnx::TensorProto;
  size_t width = elementBytes(type);
  out->resize(count);
  for (int64_t i = 0; i < count; ++i) {
    const char *p = raw.data() + i * width;
    if (type == TP::INT32) {
      int32_t v;
      std::memcpy(&v, p, 4);
      (*out)[i] = v;
    } else if (type == TP::INT16) {
      int16_t v;
      std::memcpy(&v, p, 2);
      (*out)[i] = v;
    } else if (type == TP::UINT16) {
      uint16_t v;
      std::memcpy(&v, p, 2);
      (*out)[i] = v;
    } else if (type == TP::INT8) {
      (*out)[i] = static_cast<int8_t>(*p);
    } else {
      (*out)[i] = static_cast<uint8_t>(*p);
    }
  }
}

// A decodable tensor's values, from `raw` (its raw or external bytes, long
// enough) or else its typed field: floats into out->reals, integers and
// booleans into out->ints.
void decodeValues(const onnx::TensorProto &tensor, const std::string *raw, int64_t count,
                  OnnxHostTensor *out) {
  using TP = onnx::TensorProto;
  switch (tensor.data_type()) {
  case TP::FLOAT: {
    std::vector<float> f;
    if (raw)
      fromRaw(*raw, count, &f);
    else
      f.assign(tensor.float_data().begin(), tensor.float_data().end());
    out->reals.assign(f.begin(), f.end());
    return;
  }
  case TP::DOUBLE:
    if (raw)
      fromRaw(*raw, count, &out->reals);
    else
      out->reals.assign(tensor.double_data().begin(), tensor.double_data().end());
    return;
  case TP::FLOAT16: {
    std::vector<uint16_t> h;
    if (raw)
      fromRaw(*raw, count, &h);
    else
      h.assign(tensor.int32_data().begin(), tensor.int32_data().end());
    out->reals.resize(h.size());
    for (size_t i = 0; i < h.size(); ++i)
      out->reals[i] = halfToDouble(h[i]);
    return;
  }
  case TP::INT64:
    if (raw)
      fromRaw(*raw, count, &out->ints);
    else
      out->ints.assign(tensor.int64_data().begin(), tensor.int64_data().end());
    return;
  default: // the narrower integers and BOOL
    if (raw)
      narrowIntsFromRaw(*raw, count, tensor.data_type(), &out->ints);
    else
      out->ints.assign(tensor.int32_data().begin(), tensor.int32_data().end());
    return;
  }
}

} // namespace

bool decodeTensor(const onnx::TensorProto &tensor, const std::string &directory,
                  OnnxHostTensor *out, std::string *error) {
  out->shape.assign(tensor.dims().begin(), tensor.dims().end());
  out->onnxType = tensor.data_type();
  int64_t count = 0;
  if (!elementCount(tensor, &count, error))
    return false;
  std::string external;
  const std::string *raw = tensor.has_raw_data() ? &tensor.raw_data() : nullptr;
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL) {
    size_t bytes = elementBytes(tensor.data_type());
    if (bytes == 0) {
      *error = "tensor '" + tensor.name() + "': external data of type " +
               onnxTypeName(tensor.data_type()) + " is not supported";
      return false;
    }
    if (!readExternal(tensor, directory, static_cast<size_t>(count) * bytes, &external, error))
      return false;
    raw = &external;
  }
  if (!decodable(tensor.data_type())) {
    *error = "tensor '" + tensor.name() + "' has dtype " + onnxTypeName(tensor.data_type()) +
             " (supported: FLOAT, FLOAT16, DOUBLE, INT64, INT32, INT16, INT8, UINT8, UINT16, BOOL)";
    return false;
  }
  if (raw && raw->size() < static_cast<size_t>(count) * elementBytes(tensor.data_type())) {
    *error = "tensor '" + tensor.name() + "': its data is shorter than its shape";
    return false;
  }
  decodeValues(tensor, raw, count, out);
  size_t have = out->ints.size() + out->reals.size();
  if (have != static_cast<size_t>(count)) {
    *error = "tensor '" + tensor.name() + "' holds " + std::to_string(have) +
             " values for a shape of " + std::to_string(count);
    return false;
  }
  return true;
}

} // namespace meshvk::onnx_import

bool meshvk::readOnnxTensorFile(const std::string &path, std::string *name, OnnxHostTensor *out,
                                std::string *error) {
  std::ifstream in(path, std::ios::binary);
  onnx::TensorProto tensor;
  if (!in || !tensor.ParseFromIstream(&in)) {
    *error = path + ": not a serialized onnx.TensorProto";
    return false;
  }
  *name = tensor.name();
  std::string directory = path.substr(0, path.find_last_of('/'));
  return onnx_import::decodeTensor(tensor, directory, out, error);
}
