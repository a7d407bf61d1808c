// meshvk._compiler: the compiler chain in-process, through the same entry
// point mesh-vk-compile and mesh-vk-run use (meshvk/Artifact/CompileProgram.h).
// A separate extension so that `import meshvk` maps libMLIR only when a
// program is compiled. Errors come back as the compiler's one line; the
// Python side raises meshvk.CompileError with it.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "meshvk/Artifact/CompileProgram.h"
#include "meshvk/Codegen/TargetDescription.h"

namespace py = pybind11;

namespace {

// The codegen target of a probed device (a dict of meshvk.devices()), tuned
// like its preset, as mesh-vk-compile --target-device=auto does.
meshvk::codegen::TargetDescription ProbedTarget(const py::dict& device) {
  py::dict limits = device["limits"].cast<py::dict>();
  meshvk::codegen::DeviceProperties d;
  d.name = device["name"].cast<std::string>();
  py::tuple size = limits["max_workgroup_size"].cast<py::tuple>();
  py::tuple count = limits["max_workgroup_count"].cast<py::tuple>();
  for (int i = 0; i < 3; ++i) {
    d.maxWorkgroupSize[i] = size[i].cast<uint32_t>();
    d.maxWorkgroupCount[i] = count[i].cast<uint32_t>();
  }
  d.maxWorkgroupInvocations = limits["max_workgroup_invocations"].cast<uint32_t>();
  d.maxSharedMemoryBytes = limits["max_shared_memory_bytes"].cast<uint32_t>();
  d.subgroupSize = limits["subgroup_size"].cast<uint32_t>();
  d.shaderFloat16 = device["float16"].cast<bool>();
  d.storageBuffer16BitAccess = device["storage_16bit"].cast<bool>();
  d.shaderFloat64 = device.contains("float64") && device["float64"].cast<bool>();
  // The one mapping mesh-vk-compile --target-device=auto and mesh-vk-run use.
  return meshvk::codegen::targetForDevice(d);
}

// A target from a preset name, or from probed devices (the list meshvk.compile
// makes of meshvk.devices() for target="auto"): one target every listed
// device runs (meshvk::codegen::commonTarget), as mesh-vk-run tiles for the
// devices it uses.
bool TargetFrom(const py::object& target, meshvk::codegen::TargetDescription* out, std::string* error) {
  if (py::isinstance<py::str>(target)) {
    std::string name = target.cast<std::string>();
    if (meshvk::codegen::lookupTarget(name, out)) return true;
    *error = "target: unknown device '" + name + "' (expected 'lavapipe', 'generic' or 'auto')";
    return false;
  }
  std::vector<meshvk::codegen::TargetDescription> targets;
  for (const py::handle& device : target.cast<py::list>()) targets.push_back(ProbedTarget(device.cast<py::dict>()));
  *out = meshvk::codegen::commonTarget(targets);
  return true;
}

// (error or "", artifact bytes, grid shape, [per-process memory], [collectives])
py::tuple Result(const std::string& error, const meshvk::CompiledProgram& compiled) {
  if (!error.empty()) return py::make_tuple(error, py::none(), py::none(), py::none(), py::none());
  py::list memory, collectives;
  for (const auto& p : compiled.memory) {
    py::dict d;
    d["argument_bytes"] = p.argumentBytes;
    d["result_bytes"] = p.resultBytes;
    d["transient_bytes"] = p.transientBytes;
    d["constant_bytes"] = p.constantBytes;
    memory.append(d);
  }
  for (const auto& c : compiled.collectives) {
    py::dict d;
    d["kind"] = c.kind;
    d["algorithm"] = c.algorithm;
    d["group_size"] = c.groupSize;
    d["pulled_bytes"] = c.pulledBytes;
    collectives.append(d);
  }
  py::bytes artifact(reinterpret_cast<const char*>(compiled.artifact.data()), compiled.artifact.size());
  return py::make_tuple(std::string(), artifact, py::tuple(py::cast(compiled.gridShape)), memory, collectives);
}

// The options every compile takes; "" or the error.
std::string CommonOptions(const std::string& grid_shape, const py::object& target, const std::string& vulkan_version,
                          const std::string& precision, meshvk::ProgramOptions* options) {
  options->producer = "meshvk Python (in-process compile)";
  std::string error;
  if (!TargetFrom(target, &options->device, &error)) return error;
  if (!meshvk::parseVulkanVersion(vulkan_version, &options->vulkanVersion, &error)) return "vulkan_version: " + error;
  if (!grid_shape.empty() && !meshvk::parseGridShape(grid_shape, &options->gridShape, &error))
    return "grid_shape: " + error;
  if (!meshvk::parsePrecision(precision, &options->storeInF16, &error)) return "precision: " + error;
  return "";
}

}  // namespace

PYBIND11_MODULE(_compiler, m) {
  m.doc() = "meshvk compiler bindings (use meshvk.compile)";
  // compile(source, name, grid_shape, target, vulkan_version, precision) -> Result
  m.def("compile", [](const std::string& source, const std::string& name, const std::string& grid_shape,
                      const py::object& target, const std::string& vulkan_version, const std::string& precision) {
    meshvk::ProgramOptions options;
    meshvk::CompiledProgram compiled;
    std::string error = CommonOptions(grid_shape, target, vulkan_version, precision, &options);
    if (error.empty()) {
      py::gil_scoped_release release;  // compiling takes a while; other threads may run
      error = meshvk::compileProgramSource(source, name, options, &compiled);
    }
    return Result(error, compiled);
  });
  // compile_onnx(path, grid_shape, target, vulkan_version, shard, input_shapes, precision) -> Result;
  // input_shapes: ["x=1x3x8x8", ...] (mesh-vk-compile's --input-shape values).
  m.def("compile_onnx", [](const std::string& path, const std::string& grid_shape, const py::object& target,
                           const std::string& vulkan_version, const std::string& shard,
                           const std::vector<std::string>& input_shapes, const std::string& precision) {
    meshvk::ProgramOptions options;
    meshvk::CompiledProgram compiled;
    std::string error = CommonOptions(grid_shape, target, vulkan_version, precision, &options);
    options.onnxShard = shard;
    // The parser names mesh-vk-compile's flag ("--input-shape=SPEC: ..."); here it is the keyword.
    if (error.empty() && !meshvk::parseOnnxInputShapes(input_shapes, &options, &error))
      error = "input_shapes: " + error.substr(error.find('=') + 1);
    if (error.empty()) {
      py::gil_scoped_release release;
      error = meshvk::compileProgramFile(path, options, &compiled);
    }
    return Result(error, compiled);
  });
}
