#include "program_runner.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>

namespace meshvk_e2e {
namespace {

std::string Take(meshvk_status_t status) {
  if (!status) return "";
  std::string text =
      std::string(meshvk_status_code_name(meshvk_status_code(status))) + ": " + meshvk_status_message(status);
  meshvk_status_free(status);
  return text;
}

}  // namespace

meshvk_topology_t TopologyFromEnvironment() {
  const char* v = std::getenv("MESHVK_E2E_TOPOLOGY");
  if (v && std::strcmp(v, "group") == 0) return MESHVK_TOPOLOGY_DEVICE_GROUP;
  if (v && std::strcmp(v, "independent") == 0) return MESHVK_TOPOLOGY_INDEPENDENT;
  return MESHVK_TOPOLOGY_LOGICAL;
}

std::string TargetFromEnvironment(meshvk::codegen::TargetDescription* target) {
  const char* v = std::getenv("MESHVK_E2E_TARGET");
  if (!v || !*v) return "";
  if (!meshvk::codegen::lookupTarget(v, target))
    return std::string("MESHVK_E2E_TARGET: unknown target '") + v + "' (expected lavapipe, gpu or generic)";
  return "";
}

uint32_t ProcessCount(const std::string& grid) {
  std::vector<int64_t> shape;
  std::string error;
  if (!meshvk::parseGridShape(grid, &shape, &error)) return 0;
  uint32_t p = 1;
  for (int64_t e : shape) p *= static_cast<uint32_t>(e);
  return p;
}

std::string CompileSample(const std::string& name, const std::string& grid, const meshvk::CompiledProgram** out) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, std::string>, std::pair<std::string, meshvk::CompiledProgram>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto key = std::make_pair(name, grid);
  auto it = cache.find(key);
  if (it == cache.end()) {
    meshvk::ProgramOptions options;
    options.producer = "meshvk e2e test";
    std::string error = TargetFromEnvironment(&options.device);
    if (!error.empty()) return error;
    if (!grid.empty() && !meshvk::parseGridShape(grid, &options.gridShape, &error)) return error;
    meshvk::CompiledProgram program;
    error = meshvk::compileProgramFile(SamplePath(name), options, &program);
    it = cache.emplace(key, std::make_pair(error, std::move(program))).first;
  }
  *out = &it->second.second;
  return it->second.first;
}

std::string CaseName(const ProgramCase& c) { return c.program + "_grid" + (c.grid.empty() ? "asis" : c.grid); }

void PrintTo(const ProgramCase& c, std::ostream* os) {
  *os << c.program << " on " << (c.grid.empty() ? "its grid" : c.grid);
}

std::string CompileCase(const std::string& dir, const ProgramCase& c, const std::string& producer,
                        meshvk::CompiledProgram* out) {
  meshvk::ProgramOptions options;
  options.producer = producer;
  std::string error = TargetFromEnvironment(&options.device);
  if (!error.empty()) return error;
  if (!c.grid.empty() && c.grid[0] == 'd')
    options.dynamicGridProcesses = std::stoll(c.grid.substr(1));
  else if (!c.grid.empty() && !meshvk::parseGridShape(c.grid, &options.gridShape, &error))
    return error;
  return meshvk::compileProgramFile(dir + "/" + c.program + ".mlir", options, out);
}

std::string RunOnce(const std::vector<uint8_t>& artifact, meshvk_device_set_t* set,
                    const std::vector<HostTensor>& inputs, std::vector<HostTensor>* outputs, ProgramPtr* program_out,
                    ModulePtr* module_out) {
  meshvk_module_t* raw_module = nullptr;
  if (std::string e = Take(meshvk_module_load(artifact.data(), artifact.size(), &raw_module)); !e.empty())
    return "load: " + e;
  ModulePtr module(raw_module);
  meshvk_function_info_t fn = MESHVK_FUNCTION_INFO_INIT;
  if (std::string e = Take(meshvk_module_function_info(module.get(), 0, &fn)); !e.empty()) return e;
  if (fn.argument_count != inputs.size()) return "argument count differs";
  outputs->clear();
  for (uint32_t r = 0; r < fn.result_count; ++r) {
    meshvk_tensor_info_t info = MESHVK_TENSOR_INFO_INIT;
    if (std::string e = Take(meshvk_module_result_info(module.get(), 0, r, &info)); !e.empty()) return e;
    outputs->push_back(HostTensor::Zeros(std::vector<int64_t>(info.shape, info.shape + info.rank), info.element_type));
  }
  meshvk_program_t* raw_program = nullptr;
  if (std::string e = Take(meshvk_program_create(module.get(), set, &raw_program)); !e.empty())
    return "program_create: " + e;
  ProgramPtr program(raw_program);
  std::vector<meshvk_host_input_t> in;
  for (const HostTensor& t : inputs) in.push_back({t.data(), t.bytes()});
  std::vector<meshvk_host_output_t> out;
  for (HostTensor& t : *outputs) out.push_back({t.data(), t.bytes()});
  meshvk_invoke_info_t invoke = MESHVK_INVOKE_INFO_INIT;
  invoke.function = 0;
  invoke.inputs = in.data();
  invoke.input_count = static_cast<uint32_t>(in.size());
  invoke.outputs = out.data();
  invoke.output_count = static_cast<uint32_t>(out.size());
  if (std::string e = Take(meshvk_program_invoke(program.get(), &invoke)); !e.empty()) return "invoke: " + e;
  if (program_out) *program_out = std::move(program);
  if (module_out) *module_out = std::move(module);
  return "";
}

}  // namespace meshvk_e2e
