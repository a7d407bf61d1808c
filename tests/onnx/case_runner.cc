#include "case_runner.h"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <vector>

#include "llvm/Support/raw_ostream.h"
#include "meshvk/Artifact/CompileProgram.h"
#include "meshvk/Import/OnnxImport.h"
#include "meshvk/meshvk.h"
#include "meshvk/module.h"
#include "meshvk_environment.h"
#include "mlir/IR/MLIRContext.h"
#include "onnx/onnx_pb.h"

namespace meshvk_onnx_suite {
namespace {

using TP = onnx::TensorProto;

std::string Take(meshvk_status_t status) {
  if (!status) return "";
  std::string text =
      std::string(meshvk_status_code_name(meshvk_status_code(status))) + ": " + meshvk_status_message(status);
  meshvk_status_free(status);
  return text;
}

uint16_t ToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000, exp = (x >> 23) & 0xff, man = x & 0x7fffff;
  if (exp == 0xff) return sign | 0x7c00 | (man ? 0x200 : 0);
  int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    man |= 0x800000;
    uint32_t shift = 14 - e;
    uint32_t half = man >> shift, rest = man & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1))) ++half;
    return sign | half;
  }
  uint32_t half = sign | (e << 10) | (man >> 13), rest = man & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) ++half;
  return half;
}

float FromHalf(uint16_t h) {
  int sign = h >> 15, exponent = (h >> 10) & 31, mantissa = h & 1023;
  float m = exponent == 0    ? std::ldexp(mantissa / 1024.0f, -14)
            : exponent == 31 ? (mantissa ? NAN : INFINITY)
                             : std::ldexp(1 + mantissa / 1024.0f, exponent - 15);
  return sign ? -m : m;
}

size_t ElementBytes(meshvk_element_type_t type) {
  return type == MESHVK_ELEMENT_F16 ? 2 : type == MESHVK_ELEMENT_F64 ? 8 : 4;
}

// Host bytes of `t` as the program's argument type.
bool Encode(const meshvk::OnnxHostTensor& t, meshvk_element_type_t type, std::vector<uint8_t>* bytes,
            std::string* error) {
  size_t n = t.ints.size() + t.reals.size();
  bool isReal = !t.reals.empty() ||
                (t.ints.empty() && (t.onnxType == TP::FLOAT || t.onnxType == TP::DOUBLE || t.onnxType == TP::FLOAT16));
  bytes->resize(n * ElementBytes(type));
  for (size_t i = 0; i < n; ++i) {
    if (type == MESHVK_ELEMENT_I32) {
      int64_t v = isReal ? static_cast<int64_t>(t.reals[i]) : t.ints[i];
      if (v < INT32_MIN || v > INT32_MAX) {
        *error = "an input element (" + std::to_string(v) + ") does not fit int32";
        return false;
      }
      int32_t w = static_cast<int32_t>(v);
      std::memcpy(bytes->data() + 4 * i, &w, 4);
    } else if (type == MESHVK_ELEMENT_F64) {
      double d = isReal ? t.reals[i] : static_cast<double>(t.ints[i]);
      std::memcpy(bytes->data() + 8 * i, &d, 8);
    } else {
      if (isReal && t.onnxType == TP::DOUBLE && std::isfinite(t.reals[i]) && std::fabs(t.reals[i]) > FLT_MAX) {
        // DOUBLE is computed as f32 (a target without f64): a finite value beyond f32's range is refused
        // (it would become inf); one below f32's normal range is rounded as a
        // cast rounds it (to a subnormal or to zero), which is not a wrong answer.
        std::ostringstream s;
        s << "a DOUBLE input element (" << t.reals[i] << ") is beyond f32's finite range";
        *error = s.str();
        return false;
      }
      float f = isReal ? static_cast<float>(t.reals[i]) : static_cast<float>(t.ints[i]);
      if (type == MESHVK_ELEMENT_F16) {
        uint16_t h = ToHalf(f);
        std::memcpy(bytes->data() + 2 * i, &h, 2);
      } else {
        std::memcpy(bytes->data() + 4 * i, &f, 4);
      }
    }
  }
  return true;
}

std::string Compare(const meshvk::OnnxHostTensor& want, const std::vector<uint8_t>& got, meshvk_element_type_t type,
                    const std::vector<int64_t>& shape) {
  if (shape != want.shape) {
    std::string s = "shape [";
    for (int64_t d : shape) s += std::to_string(d) + " ";
    s += "] vs expected [";
    for (int64_t d : want.shape) s += std::to_string(d) + " ";
    return s + "]";
  }
  bool isFloat =
      !want.reals.empty() || want.onnxType == TP::FLOAT || want.onnxType == TP::DOUBLE || want.onnxType == TP::FLOAT16;
  double rtol = want.onnxType == TP::FLOAT16 ? 1e-2 : 1e-3, atol = want.onnxType == TP::FLOAT16 ? 1e-3 : 1e-5;
  size_t n = want.ints.size() + want.reals.size();
  for (size_t i = 0; i < n; ++i) {
    double g;
    if (type == MESHVK_ELEMENT_I32) {
      int32_t v;
      std::memcpy(&v, got.data() + 4 * i, 4);
      g = v;
    } else if (type == MESHVK_ELEMENT_F64) {
      std::memcpy(&g, got.data() + 8 * i, 8);
    } else if (type == MESHVK_ELEMENT_F16) {
      uint16_t h;
      std::memcpy(&h, got.data() + 2 * i, 2);
      g = FromHalf(h);
    } else {
      float f;
      std::memcpy(&f, got.data() + 4 * i, 4);
      g = f;
    }
    if (isFloat) {
      double w = want.reals[i];
      if (std::isnan(w) && std::isnan(g)) continue;
      if (std::isinf(w) && g == w) continue;
      if (std::fabs(g - w) <= atol + rtol * std::fabs(w)) continue;
    } else if (g == static_cast<double>(want.ints[i])) {
      continue;
    }
    std::ostringstream s;
    s << "element " << i << ": " << g << " vs expected " << (isFloat ? want.reals[i] : want.ints[i]);
    return s.str();
  }
  return "";
}

bool ReadData(const std::string& dir, const char* prefix, std::vector<std::string>* names,
              std::vector<meshvk::OnnxHostTensor>* tensors, std::string* error) {
  for (int i = 0;; ++i) {
    std::string path = dir + "/test_data_set_0/" + prefix + std::to_string(i) + ".pb";
    if (!std::ifstream(path)) return true;
    std::string name;
    meshvk::OnnxHostTensor t;
    if (!meshvk::readOnnxTensorFile(path, &name, &t, error)) return false;
    names->push_back(name);
    tensors->push_back(std::move(t));
  }
}

std::string StripPath(std::string line, const std::string& path) {
  for (size_t at; (at = line.find(path)) != std::string::npos;) line.replace(at, path.size(), "model.onnx");
  return line;
}

// Compiles `module` text and runs it with `inputs`; "" or the failing step.
std::string CompileAndRun(const std::string& source, int devices, const std::vector<std::vector<uint8_t>>& inputs,
                          std::vector<std::vector<uint8_t>>* outputs, std::vector<meshvk_tensor_info_t>* infos) {
  meshvk::ProgramOptions options;
  if (devices > 1) options.gridShape = {devices};
  options.producer = "meshvk onnx suite";
  meshvk::CompiledProgram program;
  if (std::string e = meshvk::compileProgramSource(source, "model.mlir", options, &program); !e.empty())
    return "REFUSED compile: " + e;
  meshvk_instance_t* instance = nullptr;
  if (std::string e = Take(meshvk_environment_create_instance(&instance)); !e.empty()) return "REFUSED run: " + e;
  meshvk_device_set_create_info_t setInfo = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
  setInfo.topology = MESHVK_TOPOLOGY_LOGICAL;
  setInfo.process_count = static_cast<uint32_t>(devices);
  meshvk_device_set_t* set = nullptr;
  if (std::string e = Take(meshvk_device_set_create(instance, &setInfo, &set)); !e.empty()) return "REFUSED run: " + e;
  meshvk_module_t* module = nullptr;
  if (std::string e = Take(meshvk_module_load(program.artifact.data(), program.artifact.size(), &module)); !e.empty())
    return "REFUSED load: " + e;
  meshvk_function_info_t fn = MESHVK_FUNCTION_INFO_INIT;
  if (std::string e = Take(meshvk_module_function_info(module, 0, &fn)); !e.empty()) return "REFUSED load: " + e;
  for (uint32_t r = 0; r < fn.result_count; ++r) {
    meshvk_tensor_info_t info = MESHVK_TENSOR_INFO_INIT;
    if (std::string e = Take(meshvk_module_result_info(module, 0, r, &info)); !e.empty()) return "REFUSED load: " + e;
    uint64_t n = 1;
    for (uint32_t d = 0; d < info.rank; ++d) n *= info.shape[d];
    outputs->emplace_back(n * ElementBytes(info.element_type));
    infos->push_back(info);
  }
  meshvk_program_t* prog = nullptr;
  if (std::string e = Take(meshvk_program_create(module, set, &prog)); !e.empty()) return "REFUSED run: " + e;
  std::vector<meshvk_host_input_t> in;
  for (const auto& b : inputs) in.push_back({b.data(), b.size()});
  std::vector<meshvk_host_output_t> out;
  for (auto& b : *outputs) out.push_back({b.data(), b.size()});
  meshvk_invoke_info_t invoke = MESHVK_INVOKE_INFO_INIT;
  invoke.inputs = in.data();
  invoke.input_count = static_cast<uint32_t>(in.size());
  invoke.outputs = out.data();
  invoke.output_count = static_cast<uint32_t>(out.size());
  if (std::string e = Take(meshvk_program_invoke(prog, &invoke)); !e.empty()) return "REFUSED run: " + e;
  meshvk_program_release(prog);
  meshvk_module_release(module);
  meshvk_device_set_release(set);
  meshvk_instance_release(instance);
  return "";
}

}  // namespace

std::string RunCase(const std::string& dir, int devices) {
  std::string modelPath = dir + "/model.onnx", error;
  std::vector<std::string> inputNames, outputNames;
  std::vector<meshvk::OnnxHostTensor> inputs, outputs;
  if (!ReadData(dir, "input_", &inputNames, &inputs, &error) ||
      !ReadData(dir, "output_", &outputNames, &outputs, &error))
    return "REFUSED data: " + error;
  // The graph's runtime inputs in order, to name the input_N.pb files.
  onnx::ModelProto model;
  {
    std::ifstream in(modelPath, std::ios::binary);
    if (!model.ParseFromIstream(&in)) return "REFUSED import: model.onnx does not parse";
  }
  std::vector<std::string> graphInputs;
  std::set<std::string> initializers;
  for (const auto& init : model.graph().initializer()) initializers.insert(init.name());
  for (const auto& v : model.graph().input())
    if (!initializers.count(v.name())) graphInputs.push_back(v.name());
  meshvk::OnnxImportOptions options;
  options.float64 = meshvk::ProgramOptions().device.shaderFloat64;  // the target CompileAndRun compiles for
  if (devices > 1) {
    if (inputs.empty() || inputs[0].shape.empty() || inputs[0].shape[0] < devices) return "SKIP";
    options.shard = meshvk::OnnxShardPolicy::Data;
    options.devices = devices;
  }
  std::map<std::string, size_t> byName;
  for (size_t i = 0; i < inputs.size() && i < graphInputs.size(); ++i) {
    std::string name = graphInputs[i];
    byName[name] = i;
    options.inputShapes[name] = inputs[i].shape;  // dynamic dims fixed from the given input
    // int64 (and int32: CumSum's axis) inputs may be shape operands
    // (Reshape's shape, ...): their values are given to the importer, which
    // uses them only where it needs them.
    if (inputs[i].onnxType == TP::INT64 || inputs[i].onnxType == TP::INT32) options.shapeInputValues[name] = inputs[i];
  }
  mlir::MLIRContext context;
  meshvk::OnnxSignature signature;
  auto module = meshvk::importOnnxFile(modelPath, options, context, &signature, &error);
  if (failed(module)) return "REFUSED import: " + StripPath(error, modelPath);
  std::string source;
  llvm::raw_string_ostream text(source);
  (*module)->print(text);
  std::vector<std::vector<uint8_t>> argumentBytes;
  auto func = (*module)->lookupSymbol("main");
  (void)func;
  for (size_t a = 0; a < signature.argumentNames.size(); ++a) {
    auto it = byName.find(signature.argumentNames[a]);
    if (it == byName.end()) return "REFUSED data: no input_N.pb for input '" + signature.argumentNames[a] + "'";
    int32_t t = signature.argumentTypes[a];
    meshvk_element_type_t type = t == TP::FLOAT16                       ? MESHVK_ELEMENT_F16
                                 : (t == TP::DOUBLE && options.float64) ? MESHVK_ELEMENT_F64
                                 : (t == TP::FLOAT || t == TP::DOUBLE)  ? MESHVK_ELEMENT_F32
                                                                        : MESHVK_ELEMENT_I32;
    argumentBytes.emplace_back();
    if (!Encode(inputs[it->second], type, &argumentBytes.back(), &error))
      return "REFUSED data: input '" + signature.argumentNames[a] + "': " + error;
  }
  std::vector<std::vector<uint8_t>> results;
  std::vector<meshvk_tensor_info_t> infos;
  if (std::string e = CompileAndRun(source, devices, argumentBytes, &results, &infos); !e.empty()) return e;
  if (results.size() != outputs.size())
    return "WRONG " + std::to_string(results.size()) + " results for " + std::to_string(outputs.size()) + " outputs";
  for (size_t r = 0; r < results.size(); ++r) {
    std::vector<int64_t> shape(infos[r].shape, infos[r].shape + infos[r].rank);
    if (std::string e = Compare(outputs[r], results[r], infos[r].element_type, shape); !e.empty())
      return "WRONG output " + std::to_string(r) + " ('" + signature.resultNames[r] + "'): " + e;
  }
  return "PASS";
}

std::string ReasonGroup(const std::string& reason) {
  // "import: model.onnx: node 'n' (Op, opset 17): what (supported: ...)" ->
  // "import Op: what"
  std::string stage = reason.substr(0, reason.find(':'));
  size_t node = reason.find("node '");
  std::string what = reason;
  if (node != std::string::npos) {
    size_t open = reason.find(" (", node), comma = reason.find(',', open);
    std::string op = reason.substr(open + 2, comma - open - 2);
    size_t colon = reason.find("): ", comma);
    what = colon == std::string::npos ? "" : reason.substr(colon + 3);
    stage += " " + op;
  } else {
    size_t colon = reason.find(": ");
    what = colon == std::string::npos ? reason : reason.substr(colon + 2);
  }
  // Drop case specifics: operand names in quotes, numbers, the supported lists.
  std::string out;
  bool quoted = false;
  for (char c : what.substr(0, what.find(" (supported"))) {
    if (c == '\'') {
      quoted = !quoted;
      if (quoted) out += "'*'";
      continue;
    }
    if (!quoted) out += std::isdigit(static_cast<unsigned char>(c)) ? '#' : c;
  }
  if (out.size() > 110) out = out.substr(0, 110) + "...";
  return stage + ": " + out;
}

}  // namespace meshvk_onnx_suite
