// mesh-vk-run's arguments against the signature (see run_arguments.h).
#include "run_arguments.h"

#include "input_names.h"
#include "output_files.h"
#include "tensor_args.h"

namespace meshvk_run {
namespace {

// "x: 1x16xf32" for a named tensor (an ONNX input), else "1x16xf32".
std::string NamedSignature(const meshvk_tensor_info_t& info) {
  return (info.name && *info.name ? std::string(info.name) + ": " : std::string()) + SignatureString(info);
}

// A float tensor given in the model's declared dtype for an argument the
// device holds in another width (f32 for --precision=f16's f16, f64 for an
// f32 on a device without f64): converted when read (StoredAs).
void ConvertDeclaredFloat(meshvk_declared_type_t declared, const meshvk_tensor_info_t& want, HostTensor* tensor,
                          TensorSource* source) {
  StoredAs stored = StoredAs::kType;
  if (declared == MESHVK_DECLARED_F32 && want.element_type == MESHVK_ELEMENT_F16 && tensor->type == MESHVK_ELEMENT_F32)
    stored = StoredAs::kFloat32;
  else if (declared == MESHVK_DECLARED_F64 && want.element_type == MESHVK_ELEMENT_F32 &&
           tensor->type == MESHVK_ELEMENT_F64)
    stored = StoredAs::kFloat64;
  if (stored == StoredAs::kType || tensor->stored != StoredAs::kType) return;
  tensor->type = want.element_type;
  tensor->stored = stored;
  // Values of a spec are stored in the tensor's type as they are read.
  if (source->kind != TensorSource::Kind::kValues) source->stored = stored;
}

bool Matches(const HostTensor& t, const meshvk_tensor_info_t& info) {
  return t.type == info.element_type && t.shape == std::vector<uint64_t>(info.shape, info.shape + info.rank);
}

// The tensor of one --input / --expected-output: from its file's header, or
// its spec's type; then the shape against the signature before any value
// is parsed (nothing is allocated from a flag alone); then the spec's values.
std::string CheckTensor(const std::string& flag, size_t i, TensorArg* arg, const meshvk_tensor_info_t& want,
                        meshvk_declared_type_t declared, const std::string& want_text, HostTensor* tensor,
                        TensorSource* source) {
  const std::string where = flag + "[" + std::to_string(i) + "]: ";
  std::string error;
  if (arg->loaded) {
    *tensor = std::move(arg->tensor);
    *source = std::move(arg->source);
  } else if (!ParseTensorType(arg->spec, tensor, &error)) {
    return where + error;
  }
  ConvertDeclaredFloat(declared, want, tensor, source);
  if (!Matches(*tensor, want))
    return where + TypeString(*tensor) + " given" + (arg->origin.empty() ? "" : " (" + arg->origin + ")") + ", " +
           want_text + " is " + SignatureString(want);
  if (!arg->loaded) {
    const HostTensor converted = *tensor;
    if (!ParseTensorSpec(arg->spec, tensor, &error, source)) return where + error;
    tensor->type = converted.type;  // the spec's own type, converted as its values are read
    if (converted.stored != StoredAs::kType && source->kind != TensorSource::Kind::kValues)
      source->stored = converted.stored;
  }
  return "";
}

std::string CheckInputs(const RunFlags& flags, const FunctionSignature& s, RunArguments* out) {
  std::vector<std::string> names(s.info.argument_count);
  for (uint32_t i = 0; i < s.info.argument_count; ++i) names[i] = s.args[i].name ? s.args[i].name : "";
  std::vector<TensorArg> args;
  bool count_error = false;
  size_t given = 0;
  if (std::string error; !AssignInputs(flags.inputs, names, &args, &count_error, &given, &error))
    return count_error ? "--input: " + std::to_string(given) + " given" +
                             (given != flags.inputs.size() ? " (.npz arrays counted one each)" : "") + ", function " +
                             s.quoted_name + " takes " + std::to_string(s.info.argument_count) + " (" + s.arg_list + ")"
                       : error;
  out->inputs.resize(s.info.argument_count);
  out->input_sources.resize(s.info.argument_count);
  for (uint32_t i = 0; i < s.info.argument_count; ++i) {
    const std::string want = "argument " + std::to_string(i) +
                             (s.args[i].name && *s.args[i].name ? " ('" + std::string(s.args[i].name) + "')" : "") +
                             " of " + s.quoted_name;
    if (std::string error = CheckTensor("--input", i, &args[i], s.args[i], s.arg_declared[i], want, &out->inputs[i],
                                        &out->input_sources[i]);
        !error.empty())
      return error;
  }
  return "";
}

std::string CheckExpected(const RunFlags& flags, const FunctionSignature& s, RunArguments* out) {
  std::vector<TensorArg> args;
  if (std::string error; !ExpandTensorArgs(flags.expected, "--expected-output", &args, &error)) return error;
  if (!args.empty() && args.size() != s.info.result_count)
    return "--expected-output: " + std::to_string(args.size()) + " given, function " + s.quoted_name + " returns " +
           std::to_string(s.info.result_count) + " (" + s.result_list + ")";
  out->expected.resize(args.size());
  out->expected_sources.resize(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string want = "result " + std::to_string(i) + " of " + s.quoted_name;
    if (std::string error = CheckTensor("--expected-output", i, &args[i], s.results[i], s.result_declared[i], want,
                                        &out->expected[i], &out->expected_sources[i]);
        !error.empty())
      return error;
  }
  return "";
}

std::string CheckOutputs(const RunFlags& flags, const FunctionSignature& s) {
  if (!flags.outputs.empty() && flags.outputs.size() != s.info.result_count)
    return "--output: " + std::to_string(flags.outputs.size()) + " given, function " + s.quoted_name + " returns " +
           std::to_string(s.info.result_count) + " (" + s.result_list + ")";
  for (size_t i = 0; i < flags.outputs.size(); ++i) {
    if (flags.outputs[i] == "-") continue;
    std::string error, path = flags.outputs[i].substr(1);
    if (!OutputFiles::CheckPath(path, &error)) return "--output[" + std::to_string(i) + "]: " + error;
    for (size_t j = 0; j < i; ++j)
      if (flags.outputs[j] == flags.outputs[i])
        return "--output[" + std::to_string(i) + "]: " + path + " is also --output[" + std::to_string(j) + "]";
  }
  return "";
}

}  // namespace

FunctionSignature::FunctionSignature(const meshvk_module_t* module, uint32_t function_index)
    : function(function_index) {
  meshvk_status_free(meshvk_module_function_info(module, function, &info));
  quoted_name = std::string("'") + info.name + "'";
  args.resize(info.argument_count, meshvk_tensor_info_t MESHVK_TENSOR_INFO_INIT);
  results.resize(info.result_count, meshvk_tensor_info_t MESHVK_TENSOR_INFO_INIT);
  arg_declared.resize(info.argument_count, MESHVK_DECLARED_SAME);
  result_declared.resize(info.result_count, MESHVK_DECLARED_SAME);
  for (uint32_t i = 0; i < info.argument_count; ++i) {
    meshvk_status_free(meshvk_module_argument_info(module, function, i, &args[i]));
    meshvk_status_free(meshvk_module_argument_declared_type(module, function, i, &arg_declared[i]));
    arg_list += (i ? ", " : "") + NamedSignature(args[i]);
  }
  for (uint32_t i = 0; i < info.result_count; ++i) {
    meshvk_status_free(meshvk_module_result_info(module, function, i, &results[i]));
    meshvk_status_free(meshvk_module_result_declared_type(module, function, i, &result_declared[i]));
    result_list += (i ? ", " : "") + NamedSignature(results[i]);
  }
}

std::string SignatureString(const meshvk_tensor_info_t& info) {
  return TypeString(std::vector<uint64_t>(info.shape, info.shape + info.rank), info.element_type);
}

std::string CheckRunArguments(const RunFlags& flags, const FunctionSignature& signature, RunArguments* out) {
  // Order as before: the inputs, then the output count, then the expected
  // values, then the output paths.
  if (std::string error = CheckInputs(flags, signature, out); !error.empty()) return error;
  if (!flags.outputs.empty() && flags.outputs.size() != signature.info.result_count)
    return CheckOutputs(flags, signature);
  if (std::string error = CheckExpected(flags, signature, out); !error.empty()) return error;
  return CheckOutputs(flags, signature);
}

}  // namespace meshvk_run
