// mesh-vk-run's in-process compile (see compile_in_process.h).
#include "compile_in_process.h"

#include "grid_variant.h"
#include "meshvk/Codegen/RuntimeDevice.h"
#include "meshvk/meshvk.h"
#include "meshvk_environment.h"
#include "tensor_args.h"

namespace meshvk_run {
namespace {

// The physical devices the run's processes can land on, as far as the flags
// say before the program exists: --devices=I,J; the group of --devices=group:G
// (or of --topology=group); physical device 0 for logical devices; else every
// physical device (independent devices are dealt round robin over them).
std::vector<uint32_t> DevicesTheRunUses(meshvk_instance_t* instance, const DeviceChoice& devices) {
  if (!devices.physical_devices.empty()) return devices.physical_devices;
  if (devices.group >= 0 || devices.topology == MESHVK_TOPOLOGY_DEVICE_GROUP) {
    meshvk_device_group_info_t group = MESHVK_DEVICE_GROUP_INFO_INIT;
    const uint32_t index = devices.group >= 0 ? static_cast<uint32_t>(devices.group) : 0;
    if (meshvk_status_t status = meshvk_instance_device_group_info(instance, index, &group)) {
      meshvk_status_free(status);
      return {};
    }
    return {group.physical_devices, group.physical_devices + group.device_count};
  }
  if (devices.topology == MESHVK_TOPOLOGY_LOGICAL) return {0};
  std::vector<uint32_t> all(meshvk_instance_physical_device_count(instance));
  for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  return all;
}

// Kernels are tiled for the devices the run uses (one target every one of
// them runs: meshvk::codegen::commonTarget), each device mapped as
// mesh-vk-compile --target-device=auto maps one; the lavapipe preset when
// discovery fails (the run then reports the device error itself).
meshvk::ProgramOptions CompileOptionsForTheRunsDevices(const DeviceChoice& devices) {
  meshvk::ProgramOptions options;
  options.producer = "mesh-vk-run (in-process compile)";
  meshvk_instance_t* instance = nullptr;
  if (meshvk_status_t status = meshvk_environment_create_instance(&instance)) {
    meshvk_status_free(status);
    return options;
  }
  std::vector<meshvk::codegen::TargetDescription> targets;
  for (uint32_t index : DevicesTheRunUses(instance, devices)) {
    meshvk_physical_device_info_t info = MESHVK_PHYSICAL_DEVICE_INFO_INIT;
    if (meshvk_status_t status = meshvk_instance_physical_device_info(instance, index, &info)) {
      meshvk_status_free(status);  // an index the machine lacks: the run refuses it by name
      continue;
    }
    targets.push_back(meshvk::codegen::targetForDevice(info));
  }
  if (!targets.empty()) options.device = meshvk::codegen::commonTarget(targets);
  meshvk_instance_release(instance);
  return options;
}

std::vector<int64_t> Signed(const std::vector<uint64_t>& shape) { return {shape.begin(), shape.end()}; }

// The shapes of the --input values that are known before the model is
// compiled (a .npy or .npz header's, a SHAPExTYPE spec's), each with the ONNX
// input name it was given for ("" by position), so that the importer can fix
// the model's dynamic dimensions from the data the run passes. A value whose
// shape cannot be known here keeps its position with an empty shape; its
// errors are the run's to report, when it reads the inputs.
std::vector<std::pair<std::string, std::vector<int64_t>>> InputShapeHints(const std::vector<std::string>& inputs) {
  std::vector<std::pair<std::string, std::vector<int64_t>>> hints;
  for (const std::string& value : inputs) {
    std::string name, source = value;
    HostTensor typed;
    std::string error;
    // NAME=SOURCE unless the text before '=' is a SHAPExTYPE (input_names.h's rule, without the names).
    if (const size_t eq = value.find('=');
        !value.empty() && value[0] != '@' && eq != std::string::npos && !ParseTensorType(value, &typed, &error)) {
      name = value.substr(0, eq);
      source = value.substr(eq + 1);
    }
    std::vector<TensorArg> args;
    if (!ExpandTensorArgs({source}, "--input", &args, &error)) {
      hints.push_back({name, {}});
      continue;
    }
    for (const TensorArg& arg : args) {
      HostTensor spec;
      if (arg.loaded)
        hints.push_back({name, Signed(arg.tensor.shape)});
      else if (ParseTensorType(arg.spec, &spec, &error))
        hints.push_back({name, Signed(spec.shape)});
      else
        hints.push_back({name, {}});
    }
  }
  return hints;
}
}  // namespace

std::string CompileInProcess(const std::string& path, const RunFlags& flags, const DeviceChoice& devices,
                             uint32_t mpi_ranks, meshvk::ProgramOptions* options, meshvk::CompiledProgram* compiled) {
  *options = CompileOptionsForTheRunsDevices(devices);
  // Sizes a `shard.grid @g(shape = ?)` as for a .mvk of plans (grid_variant.h),
  // and an ONNX model's data/tensor grid.
  std::string count_source;
  uint32_t processes = 0;
  if (std::string error = DynamicGridProcesses(devices, mpi_ranks, &processes, &count_source); !error.empty())
    return error;
  options->dynamicGridProcesses = processes;
  options->compileGridVariants = false;  // one count runs: never compile them all
  options->storeInF16 = flags.precision == "f16";
  if (path.size() >= 5 && path.compare(path.size() - 5, 5, ".onnx") == 0) {
    options->onnxShard = flags.shard;
    if (std::string error; !meshvk::parseOnnxInputShapes(flags.input_shapes, options, &error)) return error;
    options->onnxInputShapeHints = InputShapeHints(flags.inputs);
    if (flags.shard == "none" && devices.processes > 1)
      return "--devices=" + std::to_string(devices.processes) +
             ": an ONNX model under --shard=none runs on one process; split it with "
             "--shard=data, --shard=tensor or --shard=SPEC.json";
    // data/tensor split over a 1-D grid of the run's processes, or over
    // --grid-shape (mesh-vk-compile's), whose product is the process count.
    const bool policy = meshvk::onnxShardTakesGrid(flags.shard);
    std::vector<int64_t> grid;
    if (flags.grid_shape_set) {
      if (std::string error; !meshvk::parseGridShape(flags.grid_shape, &grid, &error))
        return "--grid-shape=" + flags.grid_shape + ": " + error;
      if (!policy)
        return "--grid-shape=" + flags.grid_shape +
               ": applies to --shard=data, tensor or data,tensor (got --shard=" + flags.shard +
               "; a SPEC.json names its own grid)";
      int64_t product = 1;
      for (int64_t extent : grid) product *= extent;
      if (processes != 0 && product != static_cast<int64_t>(processes))
        return "--grid-shape=" + flags.grid_shape + ": " + std::to_string(product) +
               " processes, but --devices=" + std::to_string(processes) +
               " (the grid's product must be the process count)";
    }
    if (policy) {
      if (processes == 0 && grid.empty())
        return "--shard=" + flags.shard +
               ": give the process count with --devices=N (e.g. --devices=4); "
               "--shard=none runs on one process";
      // A grid of the wrong rank for the policy: the compiler's one line.
      if (grid.empty()) grid = {static_cast<int64_t>(processes)};
      options->gridShape = grid;
    }
  }
  std::string error = meshvk::compileProgramFile(path, *options, compiled);
  if (!error.empty()) return error;
  // `--devices=N` on a program over a 1-D grid of another size compiles it
  // for a grid of N (DESIGN.md: `matmul_rows.mlir --devices=2`); shards must
  // still divide evenly, else that is the error. Other grids keep the
  // mismatch error of the run.
  if (devices.processes != 0 && compiled->gridShape.size() == 1 &&
      compiled->gridShape[0] != static_cast<int64_t>(devices.processes)) {
    options->gridShape = {static_cast<int64_t>(devices.processes)};
    error = meshvk::compileProgramFile(path, *options, compiled);
    if (!error.empty()) return "--devices=" + std::to_string(devices.processes) + ": " + error;
  }
  return "";
}

}  // namespace meshvk_run
