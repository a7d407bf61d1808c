// mesh-vk-run's --input, --expected-output and --output checked against the
// function's signature before any device work: counts, shapes and types
// (from specs and file headers; no data is read), output paths. Every
// failure is bad usage (exit 2) with one line.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_RUN_ARGUMENTS_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_RUN_ARGUMENTS_H_

#include <string>
#include <vector>

#include "meshvk/module.h"
#include "run_flags.h"
#include "tensor_io.h"
#include "tensor_source.h"

namespace meshvk_run {

// One function of the loaded module, as the messages name it.
struct FunctionSignature {
  explicit FunctionSignature(const meshvk_module_t* module, uint32_t function);
  uint32_t function = 0;
  meshvk_function_info_t info = MESHVK_FUNCTION_INFO_INIT;
  std::string quoted_name;  // 'main'
  std::vector<meshvk_tensor_info_t> args, results;
  // The model's dtypes where the device holds another (SAME elsewhere).
  std::vector<meshvk_declared_type_t> arg_declared, result_declared;
  std::string arg_list, result_list;  // "x: 2x3xf32, 3x2xf32"
};

// "2x3xf32" of a signature entry.
std::string SignatureString(const meshvk_tensor_info_t& info);

// Inputs and expected outputs: shapes and types known, data still in their
// sources (read after program creation, read_inputs.h).
struct RunArguments {
  std::vector<HostTensor> inputs;
  std::vector<TensorSource> input_sources;
  std::vector<HostTensor> expected;
  std::vector<TensorSource> expected_sources;
};

// "" when the flags fit the signature, else the one-line error.
std::string CheckRunArguments(const RunFlags& flags, const FunctionSignature& signature, RunArguments* out);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_RUN_ARGUMENTS_H_
