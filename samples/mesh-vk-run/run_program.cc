// mesh-vk-run's program path (see run_program.h). Order: everything that can
// be checked without a device (file, function, inputs, outputs, expected
// values) is checked first, so bad input exits 2 before Vulkan starts.
#include "run_program.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

#include "benchmark.h"
#include "copy_path.h"
#include "device_flags.h"
#include "grid_variant.h"
#include "input_names.h"
#include "meshvk/meshvk.h"
#include "meshvk/module.h"
#include "meshvk/trace.h"
#include "meshvk/transport.h"
#include "mpi_session.h"
#include "output_files.h"
#include "plan_graph.h"
#include "plan_print.h"
#include "rank_layout.h"
#include "read_inputs.h"
#include "status_text.h"
#include "tensor_args.h"
#include "tensor_io.h"
#include "trace.h"
#include "verbose.h"
#ifdef MESHVK_RUN_HAS_COMPILER
#include "meshvk/Artifact/CompileProgram.h"
#include "meshvk/Codegen/RuntimeDevice.h"
#endif

namespace meshvk_run {
namespace {

// "rank 1 of 2: " under mpirun, so a failing rank's line says which it is.
std::string g_rank_prefix;
MpiSession* g_mpi = nullptr;

int Error(int code, const std::string& message) {
  // Under mpirun, before the invoke: every rank agrees on the exit code and
  // one rank prints its line (MpiSession::AgreeStart).
  bool report = true;
  if (g_mpi && !g_mpi->started()) code = g_mpi->AgreeStart(code, &report);
  if (report) std::fprintf(stderr, "mesh-vk-run: %s%s\n", g_rank_prefix.c_str(), OneLine(message).c_str());  // one line
  return code;
}

// Consumes `status`; returns its one-line message, in the user's words (status_text.h).
std::string Take(meshvk_status_t status) {
  std::string message = StatusText(status);
  meshvk_status_free(status);
  return message;
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string SignatureString(const meshvk_tensor_info_t& info) {
  std::vector<uint64_t> shape(info.shape, info.shape + info.rank);
  return TypeString(shape, info.element_type);
}

// "x: 1x16xf32" for a named tensor (an ONNX input), else "1x16xf32".
std::string NamedSignature(const meshvk_tensor_info_t& info) {
  return (info.name && *info.name ? std::string(info.name) + ": " : std::string()) + SignatureString(info);
}

bool Matches(const HostTensor& t, const meshvk_tensor_info_t& info) {
  return t.type == info.element_type && t.shape == std::vector<uint64_t>(info.shape, info.shape + info.rank);
}

struct Resources {
  meshvk_module_t* module = nullptr;
  meshvk_instance_t* instance = nullptr;
  meshvk_device_set_t* set = nullptr;
  meshvk_program_t* program = nullptr;
  ~Resources() {
    meshvk_program_release(program);
    meshvk_device_set_release(set);
    meshvk_instance_release(instance);
    meshvk_module_release(module);
  }
};

// Forwards the runtime's trace events to --trace and to --benchmark's
// per-dispatch times (either may be off).
struct EventSinks {
  Trace* trace = nullptr;
  DispatchTimes* dispatches = nullptr;
  static void Forward(void* self_pointer, const meshvk_trace_event_t* event) {
    auto* self = static_cast<EventSinks*>(self_pointer);
    if (self->trace) {
      meshvk_trace_sink_t sink = self->trace->Sink();
      sink.event(sink.user_data, event);
    }
    if (self->dispatches) self->dispatches->OnEvent(*event);
  }
};

#ifdef MESHVK_RUN_HAS_COMPILER
// Kernels are tiled for physical device 0 of this machine (the device the run
// uses by default), exactly as mesh-vk-compile --target-device=auto does; the
// lavapipe preset when discovery fails (the run then reports the device error
// itself).
meshvk::ProgramOptions CompileOptionsForThisMachine() {
  meshvk::ProgramOptions options;
  options.producer = "mesh-vk-run (in-process compile)";
  meshvk_instance_t* instance = nullptr;
  if (meshvk_status_t status = meshvk_instance_create(nullptr, &instance)) {
    meshvk_status_free(status);
    return options;
  }
  meshvk_physical_device_info_t info{};
  if (meshvk_instance_physical_device_count(instance) > 0) {
    if (meshvk_status_t status = meshvk_instance_physical_device_info(instance, 0, &info)) {
      meshvk_status_free(status);
    } else {
      options.device = meshvk::codegen::targetForDevice(info);
    }
  }
  meshvk_instance_release(instance);
  return options;
}
// Compiles a .mlir program or an .onnx model in-process with the same chain
// as mesh-vk-compile; any error in the program is bad input (exit 2) with the
// compiler's one-line message. Returns kExitOk or the exit code after Error.
int CompileInProcess(const std::string& path, const RunFlags& flags, const DeviceChoice& devices, MpiSession* mpi,
                     meshvk::ProgramOptions* options, meshvk::CompiledProgram* compiled) {
  *options = CompileOptionsForThisMachine();
  // Sizes a `shard.grid @g(shape = ?)` as for a .mvk of plans (grid_variant.h),
  // and an ONNX model's data/tensor grid.
  std::string count_source;
  uint32_t processes = 0;
  if (std::string error = DynamicGridProcesses(devices, mpi ? mpi->size() : 0, &processes, &count_source);
      !error.empty())
    return Error(kExitUsage, error);
  options->dynamicGridProcesses = processes;
  options->compileGridVariants = false;  // one count runs: never compile them all
  if (EndsWith(path, ".onnx")) {
    options->onnxShard = flags.shard;
    for (const std::string& spec : flags.input_shapes) {
      std::pair<std::string, std::vector<int64_t>> name_and_shape;
      if (std::string error; !meshvk::parseOnnxInputShape(spec, &name_and_shape, &error))
        return Error(kExitUsage, "--input-shape=" + spec + ": " + error);
      options->onnxInputShapes.push_back(std::move(name_and_shape));
    }
    if (flags.shard == "none" && devices.processes > 1)
      return Error(kExitUsage, "--devices=" + std::to_string(devices.processes) +
                                   ": an ONNX model under --shard=none runs on one process; split it with "
                                   "--shard=data, --shard=tensor or --shard=SPEC.json");
    // data/tensor split over a 1-D grid of the run's processes (mesh-vk-compile's --grid-shape).
    if (flags.shard == "data" || flags.shard == "tensor") {
      if (processes == 0)
        return Error(kExitUsage, "--shard=" + flags.shard +
                                     ": give the process count with --devices=N (e.g. --devices=4); "
                                     "--shard=none runs on one process");
      options->gridShape = {static_cast<int64_t>(processes)};
    }
  }
  std::string error = meshvk::compileProgramFile(path, *options, compiled);
  if (!error.empty()) return Error(kExitUsage, error);
  // `--devices=N` on a program over a 1-D grid of another size compiles it
  // for a grid of N (DESIGN.md: `matmul_rows.mlir --devices=2`); shards must
  // still divide evenly, else that is the error. Other grids keep the
  // mismatch error of the run.
  if (devices.processes != 0 && compiled->gridShape.size() == 1 &&
      compiled->gridShape[0] != static_cast<int64_t>(devices.processes)) {
    options->gridShape = {static_cast<int64_t>(devices.processes)};
    error = meshvk::compileProgramFile(path, *options, compiled);
    if (!error.empty()) return Error(kExitUsage, "--devices=" + std::to_string(devices.processes) + ": " + error);
  }
  return kExitOk;
}
#endif

}  // namespace

int InstanceCreateExitCode(meshvk_status_t status) {
  return meshvk_status_code(status) == MESHVK_STATUS_INVALID_ARGUMENT ? kExitUsage : kExitDevice;
}

int RunProgram(const std::string& path, const RunFlags& flags, const DeviceChoice& devices, MpiSession* mpi) {
  if (mpi) g_rank_prefix = "rank " + std::to_string(mpi->rank()) + " of " + std::to_string(mpi->size()) + ": ";
  g_mpi = mpi;
  // The runtime reads its wait bound from the environment (device_wait.h).
  if (flags.device_timeout_ms) setenv("MESHVK_DEVICE_TIMEOUT_MS", std::to_string(flags.device_timeout_ms).c_str(), 1);
  // The runtime keeps its default for a value it cannot use; a user who set
  // one should hear that it was not used (the range of --device-timeout).
  if (const char* text = std::getenv("MESHVK_DEVICE_TIMEOUT_MS"); text && *text && !flags.device_timeout_ms) {
    char* end = nullptr;
    errno = 0;
    unsigned long long ms = std::strtoull(text, &end, 10);
    if (*end || errno || ms < 1 || ms > 86400000 || text[0] == '-')
      return Error(kExitUsage, "MESHVK_DEVICE_TIMEOUT_MS='" + std::string(text) +
                                   "': expected milliseconds, 1..86400000 (--device-timeout=S overrides it)");
  }
  // Files this run writes besides results: checked before any work, so a bad
  // path is bad usage (exit 2) at once, not a failure after the run.
  for (const auto& [flag, file] :
       {std::pair<const char*, const std::string&>{"--trace", flags.trace}, {"--plan-graph", flags.plan_graph}}) {
    if (std::string error; !file.empty() && !OutputFiles::CheckPath(file, &error))
      return Error(kExitUsage, std::string(flag) + ": " + error);
  }
  Resources r;
  Trace trace;
  Trace* tracing = flags.trace.empty() ? nullptr : &trace;
  uint64_t step_start = NowNs();
  auto step = [&](const char* name, uint64_t bytes = 0) {
    uint64_t now = NowNs();
    if (tracing) tracing->HostStep(name, step_start, now, bytes);
    step_start = now;
  };
  const bool onnx = EndsWith(path, ".onnx"), mlir = EndsWith(path, ".mlir");
  // The ONNX-only flags, with mesh-vk-compile's words.
  if (!onnx && (flags.shard_set || !flags.input_shapes.empty()))
    return Error(kExitUsage,
                 std::string("--shard and --input-shape apply to ONNX models (.onnx); ") +
                     (mlir ? "an .mlir program carries its own shard annotations"
                           : "a .mvk is compiled already (compile the model with mesh-vk-compile --shard)"));
  if (mlir || onnx) {
#ifdef MESHVK_RUN_HAS_COMPILER
    ProgressLine progress;
    progress.Show("mesh-vk-run: compiling " + path + " ...");
    meshvk::ProgramOptions options;
    meshvk::CompiledProgram compiled;
    if (int code = CompileInProcess(path, flags, devices, mpi, &options, &compiled)) return code;
    progress.Done();
    for (const std::string& warning : compiled.warnings) std::fprintf(stderr, "mesh-vk-run: %s\n", warning.c_str());
    Verbose(1, "compiled %s in-process for device '%s': %zu-byte artifact", path.c_str(), options.device.name.c_str(),
            compiled.artifact.size());
    step("compile (in-process)", compiled.artifact.size());
    if (meshvk_status_t status = meshvk_module_load(compiled.artifact.data(), compiled.artifact.size(), &r.module))
      return Error(kExitUsage, path + ": " + Take(status));
    step("load + verify");
#else
    return Error(kExitUsage, path + ": compiling " + (onnx ? ".onnx" : ".mlir") +
                                 " needs the compiler (not built yet: configure with "
                                 "MESHVK_BUILD_COMPILER=ON); pass a compiled .mvk");
#endif
  } else if (meshvk_status_t status = meshvk_module_load_file(path.c_str(), &r.module)) {
    return Error(kExitUsage, Take(status));
  } else {
    step("load + verify");
  }

  // A .mvk of plans for several process counts: the one for this run's count.
  if (std::string error = SelectGridVariant(path, devices, mpi ? mpi->size() : 0,
                                            flags.print_plan && (!mpi || mpi->rank() == 0), &r.module);
      !error.empty())
    return Error(kExitUsage, error);

  uint32_t function = 0;
  if (meshvk_status_t status = meshvk_module_find_function(r.module, flags.function.c_str(), &function))
    return Error(kExitUsage, "--function: " + Take(status));
  meshvk_function_info_t fn{};
  meshvk_status_free(meshvk_module_function_info(r.module, function, &fn));
  std::string fn_name = std::string("'") + fn.name + "'";

  std::vector<meshvk_tensor_info_t> args(fn.argument_count), results(fn.result_count);
  std::string arg_list, result_list;
  for (uint32_t i = 0; i < fn.argument_count; ++i) {
    meshvk_status_free(meshvk_module_argument_info(r.module, function, i, &args[i]));
    arg_list += (i ? ", " : "") + NamedSignature(args[i]);
  }
  for (uint32_t i = 0; i < fn.result_count; ++i) {
    meshvk_status_free(meshvk_module_result_info(r.module, function, i, &results[i]));
    result_list += (i ? ", " : "") + NamedSignature(results[i]);
  }

  // @a.npy / @a.npz values bring their own shape and type (tensor_args.h);
  // an archive expands into one argument per array.
  meshvk_grid_info_t grid{};
  meshvk_module_grid_info(r.module, &grid);
  // Under mpirun: which processes this rank runs, refused before any device
  // work (and known before the inputs are read: each rank reads its part).
  RankLayout layout;
  if (mpi) {
    std::string error;
    if (!ChooseRankLayout(grid, mpi->size(), flags.rank_axes, &layout, &error)) return Error(kExitUsage, error);
  } else if (!flags.rank_axes.empty()) {
    return Error(kExitUsage, "flag --rank-axes: only under an MPI launcher (mpirun); this run has one rank");
  }

  std::vector<TensorArg> input_args, expected_args;
  // Only headers and archive directories are read here: the data is read
  // after program creation (read_inputs.h), and under mpirun only each
  // rank's part of it.
  // By position, or by the program's argument names (input_names.h).
  std::vector<std::string> arg_names(fn.argument_count);
  for (uint32_t i = 0; i < fn.argument_count; ++i) arg_names[i] = args[i].name ? args[i].name : "";
  bool count_error = false;
  size_t given = 0;
  if (std::string error;
      !AssignInputs(flags.inputs, arg_names, &input_args, &count_error, &given, &error) && !count_error)
    return Error(kExitUsage, error);
  if (std::string error; !ExpandTensorArgs(flags.expected, "--expected-output", &expected_args, &error))
    return Error(kExitUsage, error);
  if (count_error)
    return Error(kExitUsage, "--input: " + std::to_string(given) + " given" +
                                 (given != flags.inputs.size() ? " (.npz arrays counted one each)" : "") +
                                 ", function " + fn_name + " takes " + std::to_string(fn.argument_count) + " (" +
                                 arg_list + ")");
  // Each spec's shape is checked against the signature before its values
  // are parsed or its file is read: nothing is allocated from a flag alone.
  std::vector<HostTensor> inputs(fn.argument_count);
  std::vector<TensorSource> input_sources(fn.argument_count);
  for (uint32_t i = 0; i < fn.argument_count; ++i) {
    std::string error;
    if (input_args[i].loaded) {
      inputs[i] = std::move(input_args[i].tensor);
      input_sources[i] = std::move(input_args[i].source);
    } else if (!ParseTensorType(input_args[i].spec, &inputs[i], &error)) {
      return Error(kExitUsage, "--input[" + std::to_string(i) + "]: " + error);
    }
    if (!Matches(inputs[i], args[i]))
      return Error(kExitUsage, "--input[" + std::to_string(i) + "]: " + TypeString(inputs[i].shape, inputs[i].type) +
                                   " given" + (input_args[i].origin.empty() ? "" : " (" + input_args[i].origin + ")") +
                                   ", argument " + std::to_string(i) +
                                   (args[i].name && *args[i].name ? " ('" + std::string(args[i].name) + "')" : "") +
                                   " of " + fn_name + " is " + SignatureString(args[i]));
    if (!input_args[i].loaded && !ParseTensorSpec(input_args[i].spec, &inputs[i], &error, &input_sources[i]))
      return Error(kExitUsage, "--input[" + std::to_string(i) + "]: " + error);
  }
  if (!flags.outputs.empty() && flags.outputs.size() != fn.result_count)
    return Error(kExitUsage, "--output: " + std::to_string(flags.outputs.size()) + " given, function " + fn_name +
                                 " returns " + std::to_string(fn.result_count) + " (" + result_list + ")");
  if (!expected_args.empty() && expected_args.size() != fn.result_count)
    return Error(kExitUsage, "--expected-output: " + std::to_string(expected_args.size()) + " given, function " +
                                 fn_name + " returns " + std::to_string(fn.result_count) + " (" + result_list + ")");
  std::vector<HostTensor> expected(expected_args.size());
  std::vector<TensorSource> expected_sources(expected_args.size());
  for (size_t i = 0; i < expected_args.size(); ++i) {
    std::string error;
    if (expected_args[i].loaded) {
      expected[i] = std::move(expected_args[i].tensor);
      expected_sources[i] = std::move(expected_args[i].source);
    } else if (!ParseTensorType(expected_args[i].spec, &expected[i], &error)) {
      return Error(kExitUsage, "--expected-output[" + std::to_string(i) + "]: " + error);
    }
    if (!Matches(expected[i], results[i]))
      return Error(kExitUsage,
                   "--expected-output[" + std::to_string(i) + "]: " + TypeString(expected[i].shape, expected[i].type) +
                       " given" + (expected_args[i].origin.empty() ? "" : " (" + expected_args[i].origin + ")") +
                       ", result " + std::to_string(i) + " of " + fn_name + " is " + SignatureString(results[i]));
    if (!expected_args[i].loaded && !ParseTensorSpec(expected_args[i].spec, &expected[i], &error, &expected_sources[i]))
      return Error(kExitUsage, "--expected-output[" + std::to_string(i) + "]: " + error);
  }
  for (size_t i = 0; i < flags.outputs.size(); ++i) {
    if (flags.outputs[i] == "-") continue;
    std::string error, path = flags.outputs[i].substr(1);
    if (!OutputFiles::CheckPath(path, &error))
      return Error(kExitUsage, "--output[" + std::to_string(i) + "]: " + error);
    for (size_t j = 0; j < i; ++j)
      if (flags.outputs[j] == flags.outputs[i])
        return Error(kExitUsage,
                     "--output[" + std::to_string(i) + "]: " + path + " is also --output[" + std::to_string(j) + "]");
  }

  step("check inputs");
  if (devices.processes != 0 && devices.processes != grid.process_count)
    return Error(kExitUsage, "--devices=" + std::to_string(devices.processes) + ": " + path + " is compiled for " +
                                 std::to_string(grid.process_count) + " processes");
  const bool root = !mpi || mpi->rank() == 0;

  meshvk_instance_create_info_t instance_info{};
  instance_info.flags = devices.validation ? MESHVK_INSTANCE_VALIDATION_BIT | MESHVK_INSTANCE_SYNC_VALIDATION_BIT : 0;
  instance_info.application_name = "mesh-vk-run";
  if (meshvk_status_t status = meshvk_instance_create(&instance_info, &r.instance)) {
    const int code = InstanceCreateExitCode(status);
    return Error(code, Take(status));
  }
  if (std::string error = CheckDeviceChoice(r.instance, devices); !error.empty()) return Error(kExitUsage, error);
  meshvk_device_set_create_info_t set_info{};
  set_info.topology = devices.group >= 0 ? MESHVK_TOPOLOGY_DEVICE_GROUP : devices.topology;
  set_info.process_count = grid.process_count;
  set_info.device_group_index = devices.group >= 0 ? static_cast<uint32_t>(devices.group) : 0;
  set_info.physical_devices = devices.physical_devices.data();
  set_info.physical_device_count = static_cast<uint32_t>(devices.physical_devices.size());
  // Under mpirun with --devices=I,J: a rank deals ITS processes over the listed
  // devices (by their order among the rank's processes), whichever grid axes
  // are rank axes; other ranks' processes get the same devices and no buffers.
  std::vector<uint32_t> process_devices;
  if (mpi && !devices.physical_devices.empty() && devices.group < 0 &&
      set_info.topology != MESHVK_TOPOLOGY_DEVICE_GROUP) {
    std::vector<uint32_t> next(mpi->size(), 0);
    for (uint32_t p = 0; p < grid.process_count; ++p)
      process_devices.push_back(
          devices.physical_devices[next[layout.process_rank[p]]++ % devices.physical_devices.size()]);
    set_info.process_devices = process_devices.data();
  }
  // INVALID_ARGUMENT: the flags asked for an impossible set (a device listed
  // twice): bad usage, exit 2. Anything else is the machine's answer.
  if (meshvk_status_t status = meshvk_device_set_create(r.instance, &set_info, &r.set)) {
    int code = meshvk_status_code(status) == MESHVK_STATUS_INVALID_ARGUMENT ? kExitUsage : kExitDevice;
    return Error(code, "--devices/--topology: " + Take(status));
  }
  if (Verbosity() >= 1) {
    Verbose(1, "device set: %s, %u processes, %u phases", TopologyText(meshvk_device_set_topology(r.set)),
            grid.process_count, meshvk_module_function_phase_count(r.module, function));
    for (uint32_t p = 0; p < grid.process_count; ++p) {
      meshvk_process_info_t info{};
      if (meshvk_status_t status = meshvk_device_set_process_info(r.set, p, &info)) {
        meshvk_status_free(status);
        continue;
      }
      Verbose(1, "process %u: physical device %u, VkDevice %u, device index %u, queue family %u queue %u", p,
              info.physical_device, info.logical_device, info.device_index, info.queue_family, info.queue_index);
    }
  }
  if (Verbosity() >= 1) {
    // What the plan decided per command: the path of each copy (-v) and each
    // dispatch's kernel and workgroup count (-vv).
    std::map<std::string, std::pair<uint32_t, uint64_t>> paths;  // path -> (copies, bytes)
    for (uint32_t p = 0; p < grid.process_count; ++p) {
      for (uint32_t c = 0; c < meshvk_module_command_count(r.module, function, p); ++c) {
        meshvk_command_info_t info{};
        if (meshvk_status_t status = meshvk_module_command_info(r.module, function, p, c, &info)) {
          meshvk_status_free(status);
          continue;
        }
        if (info.kind == MESHVK_TRACE_COPY) {
          auto& entry = paths[CopyPathName(r.set, info.peer, p)];
          ++entry.first;
          entry.second += info.bytes;
        } else if (info.kind == MESHVK_TRACE_DISPATCH) {
          Verbose(2, "process %u command %u: %s, %ux%ux%u workgroups, phase %u, %llu bytes bound, %llu FLOP", p, c,
                  KernelName(info.name, info.executable).c_str(), info.workgroup_count[0], info.workgroup_count[1],
                  info.workgroup_count[2], info.phase, static_cast<unsigned long long>(info.bytes),
                  static_cast<unsigned long long>(info.flops));
        }
      }
    }
    for (const auto& [name, entry] : paths)
      Verbose(1, "copies by path: %s: %u copies, %llu bytes", name.c_str(), entry.first,
              static_cast<unsigned long long>(entry.second));
  }
  if (!flags.plan_graph.empty()) {
    if (std::string error; !WritePlanGraph(flags.plan_graph, r.module, function, r.set, &error))
      return Error(kExitDevice, "--plan-graph: " + error);
    Verbose(1, "plan graph written to %s (render: dot -Tsvg %s -o plan.svg)", flags.plan_graph.c_str(),
            flags.plan_graph.c_str());
  }
  step("device set");
  // Tracing and benchmarks create the program with a trace sink: every
  // command then carries its own timestamp pair (meshvk/trace.h).
  DispatchTimes dispatches;
  EventSinks sinks;
  sinks.trace = tracing;
  sinks.dispatches = flags.benchmark > 0 ? &dispatches : nullptr;
  meshvk_trace_sink_t sink{&EventSinks::Forward, &sinks};
  meshvk_program_create_info_t create{};
  create.module = r.module;
  create.set = r.set;
  create.trace_sink = tracing || sinks.dispatches ? &sink : nullptr;
  // Under mpirun: only this rank's processes, bytes between ranks through MPI.
  meshvk_program_ranks_t ranks{mpi ? mpi->transport() : nullptr, layout.process_rank.data(), 0};
  create.ranks = mpi ? &ranks : nullptr;
  // OUT_OF_RANGE: the program exceeds a limit of the chosen device (buffer
  // size, workgroup count, binding alignment): bad input for it, not a failure.
  if (meshvk_status_t status = meshvk_program_create_with_info(&create, &r.program)) {
    int code = meshvk_status_code(status) == MESHVK_STATUS_OUT_OF_RANGE ? kExitUsage : kExitDevice;
    return Error(code, path + ": " + Take(status));
  }
  if (tracing) tracing->SetProgram(r.module, function, r.instance, r.set);
  step("create program (allocate, pipelines, record)");
  // After program creation: the plan then includes the bytes by copy path.
  if (flags.print_plan && root) PrintPlan(stdout, r.module, function, r.instance, r.set, r.program);
  std::vector<uint64_t> plan_sent, plan_received;
  if (mpi) {
    plan_sent.assign(mpi->size(), 0);
    plan_received.assign(mpi->size(), 0);
    if (meshvk_status_t status = meshvk_module_rank_bytes(r.module, function, layout.process_rank.data(), mpi->size(),
                                                          0, plan_sent.data(), plan_received.data()))
      return Error(kExitDevice, Take(status));
    if (flags.print_plan && root) {
      std::printf("ranks: %u (MPI) over grid %s; results gathered to rank 0\n", mpi->size(),
                  layout.axes.empty() ? "axes: none" : RankAxesText(grid, layout).c_str());
      for (uint32_t k = 0; k < mpi->size(); ++k) {
        std::string processes;
        for (uint32_t p = 0; p < grid.process_count; ++p)
          if (layout.process_rank[p] == k) processes += (processes.empty() ? "" : ",") + std::to_string(p);
        std::printf("rank %u: processes %s, MPI bytes sent %llu, received %llu (plan, per invoke)\n", k,
                    processes.c_str(), static_cast<unsigned long long>(plan_sent[k]),
                    static_cast<unsigned long long>(plan_received[k]));
      }
      PrintRankCollectives(r.module, function, layout.process_rank.data(), mpi->size());
      std::fflush(stdout);
    }
  }
  // -v: what program creation decided differently from the plan (an import
  // the driver refused: host staging instead), one line each.
  for (uint32_t i = 0; i < meshvk_program_note_count(r.program); ++i)
    Verbose(1, "%s", meshvk_program_note(r.program, i));
  // -vv: the path between every two processes on different VkDevices, and why.
  if (Verbosity() >= 2) {
    for (uint32_t p = 0; p < grid.process_count; ++p) {
      for (uint32_t q = 0; q < grid.process_count; ++q) {
        meshvk_copy_path_info_t path{};
        if (p == q || meshvk_device_set_copy_path(r.set, q, p, &path) != MESHVK_OK) continue;
        if (path.path == MESHVK_COPY_PATH_EXTERNAL_MEMORY || path.path == MESHVK_COPY_PATH_HOST_STAGING)
          Verbose(2, "copies %u -> %u: %s: %s; sync: %s", q, p, meshvk_copy_path_name(path.path), path.reason,
                  path.external_semaphores && path.path == MESHVK_COPY_PATH_EXTERNAL_MEMORY
                      ? "device waits (shared timeline semaphore)"
                      : "host waits");
      }
    }
  }

  // The data, only now that the program exists (its device limits refused it
  // before any input was allocated); under mpirun each rank's part only.
  InputReadStats read_stats;
  if (std::string error;
      !ReadInputData(r.module, function, mpi ? layout.process_rank.data() : nullptr, mpi ? mpi->size() : 1,
                     mpi ? mpi->rank() : 0, input_sources, &inputs, &read_stats, &error))
    return Error(kExitUsage, error);
  for (size_t i = 0; i < expected.size() && root; ++i)  // compared on rank 0 only
    if (std::string error; !ReadTensorSource(expected_sources[i], nullptr, &expected[i], nullptr, &error))
      return Error(kExitUsage, "--expected-output[" + std::to_string(i) + "]: " + OneLine(error));
  step("read inputs", read_stats.bytes_read);
  if (mpi && (flags.print_plan || Verbosity() >= 1)) {
    std::printf(
        "rank %u: read %llu of %llu input data bytes, holds %llu bytes of host inputs (resident set grew by %lld "
        "bytes while reading; only its processes' shards)\n",
        mpi->rank(), static_cast<unsigned long long>(read_stats.bytes_read),
        static_cast<unsigned long long>(read_stats.whole_bytes), static_cast<unsigned long long>(read_stats.held_bytes),
        static_cast<long long>(read_stats.rss_growth));
    std::fflush(stdout);
  }
  // Every rank is ready (or all end here with one line and the same code).
  if (mpi) {
    bool report = false;
    if (int code = mpi->AgreeStart(kExitOk, &report)) return code;
  }

  std::vector<meshvk_host_input_t> host_inputs;
  for (const HostTensor& t : inputs) host_inputs.push_back({t.data.data(), t.data.size()});
  std::vector<HostTensor> outputs(fn.result_count);
  std::vector<meshvk_host_output_t> host_outputs;
  for (uint32_t i = 0; i < fn.result_count && root; ++i) {  // results land on rank 0 only
    outputs[i].shape.assign(results[i].shape, results[i].shape + results[i].rank);
    outputs[i].type = results[i].element_type;
    outputs[i].data.assign(results[i].byte_size, 0);
    host_outputs.push_back({outputs[i].data.data(), outputs[i].data.size()});
  }
  meshvk_invoke_info_t invoke{};
  invoke.function = function;
  invoke.inputs = host_inputs.data();
  invoke.input_count = static_cast<uint32_t>(host_inputs.size());
  invoke.outputs = root ? host_outputs.data() : nullptr;  // other ranks never receive results
  invoke.output_count = fn.result_count;
  invoke.flags = mpi ? MESHVK_INVOKE_RANK_INPUTS_BIT : 0;  // inputs hold the rank's runs only
  if (meshvk_status_t status = meshvk_program_invoke(r.program, &invoke))
    return Error(kExitDevice, path + ": " + Take(status));
  if (mpi && (flags.print_plan || Verbosity() >= 1)) {
    // What this rank handed to MPI in the invoke, next to what the plan says.
    std::printf(
        "rank %u: MPI bytes sent %llu, received %llu (measured at MPI_Isend/MPI_Recv, %llu MPI collective calls "
        "counted as the plan counts them; plan %llu, %llu)\n",
        mpi->rank(), static_cast<unsigned long long>(mpi->bytes_sent()),
        static_cast<unsigned long long>(mpi->bytes_received()),
        static_cast<unsigned long long>(mpi->collective_calls()),
        static_cast<unsigned long long>(plan_sent[mpi->rank()]),
        static_cast<unsigned long long>(plan_received[mpi->rank()]));
    std::fflush(stdout);
  }

  step_start = NowNs();  // the invoke's own steps come from the runtime
  if (flags.benchmark > 0) {
    BenchmarkSetup setup;
    setup.program = r.program;
    setup.invoke = invoke;
    setup.runs = flags.benchmark;
    setup.json = flags.benchmark_format == "json";
    setup.program_path = path;
    setup.function_name = fn.name;
    setup.device_name = ProcessTrackName(r.instance, r.set, 0);
    setup.module = r.module;
    setup.function = function;
    setup.set = r.set;
    setup.dispatches = &dispatches;
    int code = RunBenchmark(setup);
    if (code != kExitOk) return code;
    step_start = NowNs();
  }

  if (!root) {  // results, files and the comparison are rank 0's
    if (devices.validation && meshvk_instance_message_count(r.instance) > 0)
      return Error(kExitDevice, std::to_string(meshvk_instance_message_count(r.instance)) + " validation message(s)");
    return kExitOk;
  }

  // All output files are written to temporaries and renamed only when every
  // one is written and the run had no validation message (output_files.h).
  OutputFiles files;
  for (uint32_t i = 0; i < fn.result_count; ++i) {
    // With --benchmark-format=json, stdout is the JSON document alone: results
    // are printed only where --output=- asks for them.
    const bool json = flags.benchmark > 0 && flags.benchmark_format == "json";
    const std::string target = flags.outputs.empty() ? (expected.empty() && !json ? "-" : "") : flags.outputs[i];
    if (target == "-") {
      PrintTensor(stdout, outputs[i], flags.print_max_element_count);
    } else if (!target.empty()) {
      std::string error;
      if (!files.Stage(target.substr(1), outputs[i], &error)) return Error(kExitDevice, "--output: " + error);
    }
  }
  std::fflush(stdout);

  if (devices.validation && meshvk_instance_message_count(r.instance) > 0)
    return Error(kExitDevice, std::to_string(meshvk_instance_message_count(r.instance)) + " validation message(s)");
  if (std::string error; !files.Commit(&error)) return Error(kExitDevice, "--output: " + error);
  step("write outputs");
  if (tracing) {
    if (std::string error; !tracing->Write(flags.trace, &error)) return Error(kExitDevice, "--trace: " + error);
    Verbose(1, "trace written to %s (%zu device events; open it in https://ui.perfetto.dev)", flags.trace.c_str(),
            tracing->device_event_count());
  }

  int code = kExitOk;
  for (size_t i = 0; i < expected.size(); ++i) {
    std::string report;
    if (!TensorsClose(outputs[i], expected[i], flags.tolerance, &report)) {
      std::fprintf(stderr, "mesh-vk-run: result %zu differs from --expected-output[%zu]: %s\n", i, i, report.c_str());
      code = kExitMismatch;
    } else {
      // The line a newcomer looks for after the README's first command (on
      // stderr when stdout carries the benchmark's JSON).
      std::fprintf(flags.benchmark > 0 && flags.benchmark_format == "json" ? stderr : stdout,
                   "result %zu: ok (matches --expected-output[%zu], atol %g, rtol %g)\n", i, i, flags.tolerance.atol,
                   flags.tolerance.rtol);
    }
  }
  return code;
}

}  // namespace meshvk_run
