// mesh-vk-run's program path (see run_program.h). Order: everything that can
// be checked without a device (file, function, inputs, outputs, expected
// values) is checked first, so bad input exits 2 before Vulkan starts.
#include "run_program.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "benchmark.h"
#include "copy_path.h"
#include "device_flags.h"
#include "grid_variant.h"
#include "meshvk/meshvk.h"
#include "meshvk/module.h"
#include "meshvk/trace.h"
#include "meshvk/transport.h"
#include "meshvk_environment.h"
#include "mpi_job.h"
#include "output_files.h"
#include "plan_graph.h"
#include "plan_print.h"
#include "plan_verbose.h"
#include "rank_layout.h"
#include "read_inputs.h"
#include "run_arguments.h"
#include "status_text.h"
#include "tensor_io.h"
#include "trace.h"
#include "verbose.h"
#ifdef MESHVK_RUN_HAS_COMPILER
#include "compile_in_process.h"
#endif

namespace meshvk_run {
namespace {

// "rank 1 of 2: " under mpirun, so a failing rank's line says which it is.
std::string g_rank_prefix;
MpiJob* g_mpi = nullptr;

// How result `result` of `function` is written back: as the model declares it
// (meshvk_module_result_declared_type; SAME when the query fails).
StoredAs DeclaredStorage(const meshvk_module_t* module, uint32_t function, uint32_t result) {
  meshvk_declared_type_t declared = MESHVK_DECLARED_SAME;
  meshvk_status_free(meshvk_module_result_declared_type(module, function, result, &declared));
  return StorageOf(declared);
}

int Error(int code, const std::string& message) {
  // Under mpirun, before the invoke: every rank agrees on the exit code and
  // one rank prints its line (MpiJob::AgreeStart).
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

}  // namespace

int InstanceCreateExitCode(meshvk_status_t status) {
  return meshvk_status_code(status) == MESHVK_STATUS_INVALID_ARGUMENT ? kExitUsage : kExitDevice;
}

namespace {

// One run of one program: the state its steps share. Run() is the order;
// each step returns kExitOk or the exit code after Error.
class ProgramRun {
 public:
  ProgramRun(const std::string& path, const RunFlags& flags, const DeviceChoice& devices, MpiJob* mpi)
      : path_(path), flags_(flags), devices_(devices), mpi_(mpi), root_(!mpi || mpi->rank() == 0) {}

  int Run() {
    if (int code = CheckEnvironment()) return code;
    if (int code = LoadModule()) return code;
    if (int code = ChooseFunctionAndRanks()) return code;
    if (std::string error = CheckRunArguments(flags_, *signature_, &arguments_); !error.empty())
      return Error(kExitUsage, error);
    step("check inputs");
    if (int code = CreateDevices()) return code;
    ReportPlanDecisions(r_.module, function(), r_.set, grid_.process_count);
    if (int code = WritePlanGraphFile()) return code;
    step("device set");
    if (int code = CreateProgram()) return code;
    if (int code = ReportRanks()) return code;
    ReportCopyPaths(r_.set, grid_.process_count);
    if (int code = ReadData()) return code;
    if (int code = Invoke()) return code;
    if (int code = Benchmark()) return code;
    if (!root_) return CheckValidation();  // results, files and the comparison are rank 0's
    if (int code = WriteResults()) return code;
    return CompareResults();
  }

 private:
  void step(const char* name, uint64_t bytes = 0) {
    uint64_t now = NowNs();
    if (tracing()) trace_.HostStep(name, step_start_, now, bytes);
    step_start_ = now;
  }
  Trace* tracing() { return flags_.trace.empty() ? nullptr : &trace_; }
  bool onnx() const { return EndsWith(path_, ".onnx"); }
  bool mlir() const { return EndsWith(path_, ".mlir"); }
  uint32_t rank_count() const { return mpi_ ? mpi_->size() : 1; }
  uint32_t function() const { return signature_->function; }
  const meshvk_function_info_t& fn() const { return signature_->info; }

  int CheckEnvironment();
  int LoadModule();
  int CompileModule();
  int ChooseFunctionAndRanks();
  int CreateDevices();
  int WritePlanGraphFile();
  int CreateProgram();
  int ReportRanks();
  int ReadData();
  int Invoke();
  int Benchmark();
  int CheckValidation();
  int WriteResults();
  int CompareResults();

  const std::string& path_;
  const RunFlags& flags_;
  const DeviceChoice& devices_;
  MpiJob* mpi_;
  const bool root_;
  Resources r_;
  Trace trace_;
  uint64_t step_start_ = NowNs();
  uint64_t create_ns_ = 0;  // meshvk_program_create_with_info's wall time (--benchmark)
  // The set's pipeline caches after it, pipelines counted for it alone.
  meshvk_pipeline_cache_stats_t cache_stats_ = MESHVK_PIPELINE_CACHE_STATS_INIT;
  meshvk_grid_info_t grid_ = MESHVK_GRID_INFO_INIT;
  std::unique_ptr<FunctionSignature> signature_;
  RankLayout layout_;  // under mpirun: which processes this rank runs
  RunArguments arguments_;
  DispatchTimes dispatches_;
  EventSinks sinks_;
  meshvk_trace_sink_t sink_ = MESHVK_TRACE_SINK_INIT;
  std::vector<uint64_t> plan_sent_, plan_received_;                                     // per rank, under mpirun
  meshvk_rank_collective_mode_t rank_collectives_ = MESHVK_RANK_COLLECTIVES_TRANSPORT;  // MESHVK_RANK_COLLECTIVES
  std::vector<meshvk_host_input_t> host_inputs_;
  std::vector<HostTensor> outputs_;
  std::vector<meshvk_host_output_t> host_outputs_;
  meshvk_invoke_info_t invoke_ = MESHVK_INVOKE_INFO_INIT;
};

// The environment and the files this run writes besides results, checked
// before any work: a bad value or path is bad usage (exit 2) at once.
int ProgramRun::CheckEnvironment() {
  // MESHVK_DEVICE_TIMEOUT_MS is the default of --device-timeout (the device
  // set's meshvk_device_timeout_t); a value it cannot use is refused rather
  // than left unused silently (the range of --device-timeout).
  meshvk_device_timeout_t unused = MESHVK_DEVICE_TIMEOUT_INIT;
  if (!flags_.device_timeout_ms && meshvk_environment_device_timeout(&unused) < 0)
    return Error(kExitUsage, "MESHVK_DEVICE_TIMEOUT_MS='" + std::string(std::getenv("MESHVK_DEVICE_TIMEOUT_MS")) +
                                 "': expected milliseconds, 1..86400000 (--device-timeout=S overrides it)");
  // Every rank reads the same mode; a typo would otherwise be a runtime error
  // after the inputs were read.
  if (meshvk_status_t status = meshvk_environment_rank_collectives(&rank_collectives_))
    return Error(kExitUsage, Take(status));
  for (const auto& [flag, file] :
       {std::pair<const char*, const std::string&>{"--trace", flags_.trace}, {"--plan-graph", flags_.plan_graph}}) {
    if (std::string error; !file.empty() && !OutputFiles::CheckPath(file, &error))
      return Error(kExitUsage, std::string(flag) + ": " + error);
  }
  // The ONNX-only flags, with mesh-vk-compile's words.
  if (!onnx() && flags_.grid_shape_set)
    return Error(kExitUsage, "--grid-shape applies to ONNX models (.onnx), with --shard; " +
                                 std::string(mlir() ? "an .mlir program carries its own shard.grid"
                                                    : "a .mvk is compiled for its grid already"));
  if (flags_.precision_set && !onnx() && !mlir())
    return Error(kExitUsage,
                 "--precision applies to programs compiled here (.mlir, .onnx); a .mvk is compiled "
                 "already (compile it with mesh-vk-compile --precision)");
  if (!onnx() && (flags_.shard_set || !flags_.input_shapes.empty()))
    return Error(kExitUsage,
                 std::string("--shard and --input-shape apply to ONNX models (.onnx); ") +
                     (mlir() ? "an .mlir program carries its own shard annotations"
                             : "a .mvk is compiled already (compile the model with mesh-vk-compile --shard)"));
  return kExitOk;
}

// The module: a .mvk loaded and verified, or a .mlir / .onnx compiled here;
// of a file of plans, the one for this run's process count.
int ProgramRun::LoadModule() {
  if (mlir() || onnx()) {
    if (int code = CompileModule()) return code;
  } else if (meshvk_status_t status = meshvk_module_load_file(path_.c_str(), &r_.module)) {
    return Error(kExitUsage, Take(status));
  } else {
    step("load + verify");
  }
  if (std::string error =
          SelectGridVariant(path_, devices_, mpi_ ? mpi_->size() : 0, flags_.print_plan && root_, &r_.module);
      !error.empty())
    return Error(kExitUsage, error);
  meshvk_status_free(meshvk_module_grid_info(r_.module, &grid_));
  return kExitOk;
}

int ProgramRun::CompileModule() {
#ifdef MESHVK_RUN_HAS_COMPILER
  ProgressLine progress;
  progress.Show("mesh-vk-run: compiling " + path_ + " ...");
  meshvk::ProgramOptions options;
  meshvk::CompiledProgram compiled;
  if (std::string error = CompileInProcess(path_, flags_, devices_, mpi_ ? mpi_->size() : 0, &options, &compiled);
      !error.empty())
    return Error(kExitUsage, error);
  progress.Done();
  for (const std::string& warning : compiled.warnings) std::fprintf(stderr, "mesh-vk-run: %s\n", warning.c_str());
  // An ONNX model: which policy split which tensor, and what it left whole and why.
  if (flags_.print_plan && root_)
    for (const std::string& line : compiled.shardingPlan) std::printf("sharding: %s\n", line.c_str());
  Verbose(1, "compiled %s in-process for device '%s': %zu-byte artifact", path_.c_str(), options.device.name.c_str(),
          compiled.artifact.size());
  step("compile (in-process)", compiled.artifact.size());
  if (meshvk_status_t status = meshvk_module_load(compiled.artifact.data(), compiled.artifact.size(), &r_.module))
    return Error(kExitUsage, path_ + ": " + Take(status));
  step("load + verify");
  return kExitOk;
#else
  return Error(kExitUsage, path_ + ": compiling " + (onnx() ? ".onnx" : ".mlir") +
                               " needs the compiler (not built yet: configure with "
                               "MESHVK_BUILD_COMPILER=ON); pass a compiled .mvk");
#endif
}

// --function, and under mpirun which processes this rank runs: refused
// before any device work, and known before the inputs are read (each rank
// reads its part).
int ProgramRun::ChooseFunctionAndRanks() {
  uint32_t function = 0;
  if (meshvk_status_t status = meshvk_module_find_function(r_.module, flags_.function.c_str(), &function))
    return Error(kExitUsage, "--function: " + Take(status));
  signature_ = std::make_unique<FunctionSignature>(r_.module, function);
  if (mpi_) {
    std::string error;
    if (!ChooseRankLayout(r_.module, mpi_->size(), flags_.rank_axes, &layout_, &error)) return Error(kExitUsage, error);
  } else if (!flags_.rank_axes.empty()) {
    return Error(kExitUsage, "flag --rank-axes: only under an MPI launcher (mpirun); this run has one rank");
  }
  return kExitOk;
}

int ProgramRun::CreateDevices() {
  if (devices_.processes != 0 && devices_.processes != grid_.process_count)
    return Error(kExitUsage, "--devices=" + std::to_string(devices_.processes) + ": " + path_ + " is compiled for " +
                                 std::to_string(grid_.process_count) + " processes");
  meshvk_instance_create_info_t instance_info = MESHVK_INSTANCE_CREATE_INFO_INIT;
  instance_info.flags = devices_.validation ? MESHVK_INSTANCE_VALIDATION_BIT | MESHVK_INSTANCE_SYNC_VALIDATION_BIT : 0;
  instance_info.application_name = "mesh-vk-run";
  if (meshvk_status_t status = meshvk_environment_instance_flags(&instance_info))
    return Error(kExitUsage, Take(status));
  if (meshvk_status_t status = meshvk_instance_create(&instance_info, &r_.instance)) {
    const int code = InstanceCreateExitCode(status);
    return Error(code, Take(status));
  }
  if (std::string error = CheckDeviceChoice(r_.instance, devices_); !error.empty()) return Error(kExitUsage, error);
  meshvk_device_set_create_info_t set_info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
  set_info.topology = devices_.group >= 0 ? MESHVK_TOPOLOGY_DEVICE_GROUP : devices_.topology;
  set_info.process_count = grid_.process_count;
  set_info.device_group_index = devices_.group >= 0 ? static_cast<uint32_t>(devices_.group) : 0;
  set_info.physical_devices = devices_.physical_devices.data();
  set_info.physical_device_count = static_cast<uint32_t>(devices_.physical_devices.size());
  // MESHVK_PIPELINE_CACHE and MESHVK_DEVICE_TIMEOUT_MS (checked in
  // CheckEnvironment); --device-timeout in front of the latter (the first
  // chained timeout counts); else the runtime's defaults.
  meshvk_environment_set_chain_t environment;
  set_info.next = meshvk_environment_set_chain(&environment, nullptr);
  meshvk_device_timeout_t device_timeout = MESHVK_DEVICE_TIMEOUT_INIT;
  if (flags_.device_timeout_ms) {
    device_timeout.timeout = flags_.device_timeout_ms * 1000000ull;
    device_timeout.next = set_info.next;
    set_info.next = &device_timeout;
  }
  // Under mpirun with --devices=I,J: a rank deals ITS processes over the listed
  // devices (by their order among the rank's processes), whichever grid axes
  // are rank axes; other ranks' processes get the same devices and no buffers.
  std::vector<uint32_t> process_devices;
  if (mpi_ && !devices_.physical_devices.empty() && devices_.group < 0 &&
      set_info.topology != MESHVK_TOPOLOGY_DEVICE_GROUP) {
    std::vector<uint32_t> next(mpi_->size(), 0);
    for (uint32_t p = 0; p < grid_.process_count; ++p)
      process_devices.push_back(
          devices_.physical_devices[next[layout_.process_rank[p]]++ % devices_.physical_devices.size()]);
    set_info.process_devices = process_devices.data();
  }
  // INVALID_ARGUMENT: the flags asked for an impossible set (a device listed
  // twice): bad usage, exit 2. Anything else is the machine's answer.
  if (meshvk_status_t status = meshvk_device_set_create(r_.instance, &set_info, &r_.set)) {
    int code = meshvk_status_code(status) == MESHVK_STATUS_INVALID_ARGUMENT ? kExitUsage : kExitDevice;
    return Error(code, "--devices/--topology: " + Take(status));
  }
  return kExitOk;
}

int ProgramRun::WritePlanGraphFile() {
  if (flags_.plan_graph.empty()) return kExitOk;
  if (std::string error; !WritePlanGraph(flags_.plan_graph, r_.module, function(), r_.set, &error))
    return Error(kExitDevice, "--plan-graph: " + error);
  Verbose(1, "plan graph written to %s (render: dot -Tsvg %s -o plan.svg)", flags_.plan_graph.c_str(),
          flags_.plan_graph.c_str());
  return kExitOk;
}

int ProgramRun::CreateProgram() {
  // Tracing and benchmarks create the program with a trace sink: every
  // command then carries its own timestamp pair (meshvk/trace.h).
  sinks_.trace = tracing();
  sinks_.dispatches = flags_.benchmark > 0 ? &dispatches_ : nullptr;
  sink_ = meshvk_trace_sink_t MESHVK_TRACE_SINK_INIT;
  sink_.event = &EventSinks::Forward;
  sink_.user_data = &sinks_;
  meshvk_program_create_info_t create = MESHVK_PROGRAM_CREATE_INFO_INIT;
  create.module = r_.module;
  create.set = r_.set;
  // Under mpirun: only this rank's processes, bytes between ranks through MPI.
  meshvk_program_ranks_t ranks = MESHVK_PROGRAM_RANKS_INIT;
  ranks.transport = mpi_ ? mpi_->transport() : nullptr;
  ranks.process_rank = layout_.process_rank.data();
  ranks.collectives = rank_collectives_;
  if (mpi_) create.next = &ranks;
  if (sinks_.trace || sinks_.dispatches) {
    sink_.next = create.next;
    create.next = &sink_;
  }
  meshvk_pipeline_cache_stats_t before = MESHVK_PIPELINE_CACHE_STATS_INIT;
  meshvk_status_free(meshvk_device_set_pipeline_cache_stats(r_.set, &before));
  const uint64_t create_start = NowNs();
  // OUT_OF_RANGE: the program exceeds a limit of the chosen device (buffer
  // size, workgroup count, binding alignment): bad input for it, not a failure.
  if (meshvk_status_t status = meshvk_program_create_with_info(&create, &r_.program)) {
    int code = meshvk_status_code(status) == MESHVK_STATUS_OUT_OF_RANGE ? kExitUsage : kExitDevice;
    return Error(code, path_ + ": " + Take(status));
  }
  create_ns_ = NowNs() - create_start;
  // The pipelines of this program creation (the set may have made built-ins before).
  meshvk_status_free(meshvk_device_set_pipeline_cache_stats(r_.set, &cache_stats_));
  cache_stats_.pipelines -= before.pipelines;
  cache_stats_.cache_hits -= before.cache_hits;
  cache_stats_.pipeline_create_ns -= before.pipeline_create_ns;
  if (tracing()) tracing()->SetProgram(r_.module, function(), r_.instance, r_.set);
  step("create program (allocate, pipelines, record)");
  // After program creation: the plan then includes the bytes by copy path.
  if (flags_.print_plan && root_) PrintPlan(stdout, r_.module, function(), r_.instance, r_.set, r_.program);
  // -v: what program creation decided differently from the plan (an import
  // the driver refused: host staging instead), one line each.
  for (uint32_t i = 0; i < meshvk_program_note_count(r_.program); ++i)
    Verbose(1, "%s", meshvk_program_note(r_.program, i));
  return kExitOk;
}

// Under mpirun: the plan's bytes between ranks (and --print-plan's lines).
int ProgramRun::ReportRanks() {
  if (!mpi_) return kExitOk;
  plan_sent_.assign(mpi_->size(), 0);
  plan_received_.assign(mpi_->size(), 0);
  if (meshvk_status_t status =
          meshvk_module_rank_bytes(r_.module, function(), layout_.process_rank.data(), mpi_->size(), 0,
                                   rank_collectives_, plan_sent_.data(), plan_received_.data()))
    return Error(kExitDevice, Take(status));
  if (!flags_.print_plan || !root_) return kExitOk;
  std::printf("ranks: %u (MPI) over grid %s; results gathered to rank 0\n", mpi_->size(),
              layout_.axes.empty() ? "axes: none" : RankAxesText(grid_, layout_).c_str());
  for (uint32_t k = 0; k < mpi_->size(); ++k) {
    std::string processes;
    for (uint32_t p = 0; p < grid_.process_count; ++p)
      if (layout_.process_rank[p] == k) processes += (processes.empty() ? "" : ",") + std::to_string(p);
    std::printf("rank %u: processes %s, MPI bytes sent %llu, received %llu (plan, per invoke)\n", k, processes.c_str(),
                static_cast<unsigned long long>(plan_sent_[k]), static_cast<unsigned long long>(plan_received_[k]));
  }
  PrintRankCollectives(r_.module, function(), layout_.process_rank.data(), mpi_->size(), rank_collectives_);
  std::fflush(stdout);
  return kExitOk;
}

// The data, only now that the program exists (its device limits refused it
// before any input was allocated); under mpirun each rank's part only. Then
// every rank is ready (or all end here with one line and the same code).
int ProgramRun::ReadData() {
  InputReadStats read_stats;
  if (std::string error;
      !ReadInputData(r_.module, function(), mpi_ ? layout_.process_rank.data() : nullptr, rank_count(),
                     mpi_ ? mpi_->rank() : 0, arguments_.input_sources, &arguments_.inputs, &read_stats, &error))
    return Error(kExitUsage, error);
  for (size_t i = 0; i < arguments_.expected.size() && root_; ++i)  // compared on rank 0 only
    if (std::string error;
        !ReadTensorSource(arguments_.expected_sources[i], nullptr, &arguments_.expected[i], nullptr, &error))
      return Error(kExitUsage, "--expected-output[" + std::to_string(i) + "]: " + OneLine(error));
  step("read inputs", read_stats.bytes_read);
  if (!mpi_) return kExitOk;
  if (flags_.print_plan || Verbosity() >= 1) {
    std::printf(
        "rank %u: read %llu of %llu input data bytes, holds %llu bytes of host inputs (resident set grew by %lld "
        "bytes while reading; only its processes' shards)\n",
        mpi_->rank(), static_cast<unsigned long long>(read_stats.bytes_read),
        static_cast<unsigned long long>(read_stats.whole_bytes), static_cast<unsigned long long>(read_stats.held_bytes),
        static_cast<long long>(read_stats.rss_growth));
    std::fflush(stdout);
  }
  bool report = false;
  return mpi_->AgreeStart(kExitOk, &report);
}

int ProgramRun::Invoke() {
  for (const HostTensor& t : arguments_.inputs) host_inputs_.push_back({t.data.data(), t.data.size()});
  const std::vector<meshvk_tensor_info_t>& results = signature_->results;
  outputs_.resize(fn().result_count);
  for (uint32_t i = 0; i < fn().result_count && root_; ++i) {  // results land on rank 0 only
    outputs_[i].shape.assign(results[i].shape, results[i].shape + results[i].rank);
    outputs_[i].type = results[i].element_type;
    outputs_[i].data.assign(results[i].byte_size, 0);
    outputs_[i].stored = DeclaredStorage(r_.module, function(), i);  // written back as the model declares it
    host_outputs_.push_back({outputs_[i].data.data(), outputs_[i].data.size()});
  }
  invoke_.function = function();
  invoke_.inputs = host_inputs_.data();
  invoke_.input_count = static_cast<uint32_t>(host_inputs_.size());
  invoke_.outputs = root_ ? host_outputs_.data() : nullptr;  // other ranks never receive results
  invoke_.output_count = fn().result_count;
  invoke_.flags = mpi_ ? MESHVK_INVOKE_RANK_INPUTS_BIT : 0;  // inputs hold the rank's runs only
  if (meshvk_status_t status = meshvk_program_invoke(r_.program, &invoke_))
    return Error(kExitDevice, path_ + ": " + Take(status));
  if (mpi_ && (flags_.print_plan || Verbosity() >= 1)) {
    // What this rank handed to MPI in the invoke, next to what the plan says.
    const meshvk_mpi_transport_stats_t stats = mpi_->stats();
    std::printf(
        "rank %u: MPI bytes sent %llu, received %llu (measured at MPI_Isend/MPI_Recv, %llu MPI collective calls "
        "counted as the plan counts them; plan %llu, %llu)\n",
        mpi_->rank(), static_cast<unsigned long long>(stats.bytes_sent),
        static_cast<unsigned long long>(stats.bytes_received), static_cast<unsigned long long>(stats.collective_calls),
        static_cast<unsigned long long>(plan_sent_[mpi_->rank()]),
        static_cast<unsigned long long>(plan_received_[mpi_->rank()]));
    std::fflush(stdout);
  }
  step_start_ = NowNs();  // the invoke's own steps come from the runtime
  return kExitOk;
}

int ProgramRun::Benchmark() {
  if (flags_.benchmark <= 0) return kExitOk;
  BenchmarkSetup setup;
  setup.program = r_.program;
  setup.invoke = invoke_;
  setup.runs = flags_.benchmark;
  setup.json = flags_.benchmark_format == "json";
  setup.program_path = path_;
  setup.function_name = fn().name;
  setup.device_name = ProcessTrackName(r_.instance, r_.set, 0);
  setup.module = r_.module;
  setup.function = function();
  setup.set = r_.set;
  setup.dispatches = &dispatches_;
  setup.create_ns = create_ns_;
  setup.cache = cache_stats_;
  int code = RunBenchmark(setup);
  step_start_ = NowNs();
  return code;
}

int ProgramRun::CheckValidation() {
  if (devices_.validation && meshvk_instance_message_count(r_.instance) > 0)
    return Error(kExitDevice, std::to_string(meshvk_instance_message_count(r_.instance)) + " validation message(s)");
  return kExitOk;
}

// All output files are written to temporaries and renamed only when every
// one is written and the run had no validation message (output_files.h).
int ProgramRun::WriteResults() {
  OutputFiles files;
  // With --benchmark-format=json, stdout is the JSON document alone: results
  // are printed only where --output=- asks for them.
  const bool json = flags_.benchmark > 0 && flags_.benchmark_format == "json";
  for (uint32_t i = 0; i < fn().result_count; ++i) {
    const std::string target =
        flags_.outputs.empty() ? (arguments_.expected.empty() && !json ? "-" : "") : flags_.outputs[i];
    if (target == "-") {
      PrintTensor(stdout, outputs_[i], flags_.print_max_element_count);
    } else if (!target.empty()) {
      std::string error;
      if (!files.Stage(target.substr(1), outputs_[i], &error)) return Error(kExitDevice, "--output: " + error);
    }
  }
  std::fflush(stdout);
  if (int code = CheckValidation()) return code;
  if (std::string error; !files.Commit(&error)) return Error(kExitDevice, "--output: " + error);
  step("write outputs");
  if (tracing()) {
    if (std::string error; !tracing()->Write(flags_.trace, &error)) return Error(kExitDevice, "--trace: " + error);
    Verbose(1, "trace written to %s (%zu device events; open it in https://ui.perfetto.dev)", flags_.trace.c_str(),
            tracing()->device_event_count());
  }
  return kExitOk;
}

int ProgramRun::CompareResults() {
  int code = kExitOk;
  for (size_t i = 0; i < arguments_.expected.size(); ++i) {
    std::string report;
    if (!TensorsClose(outputs_[i], arguments_.expected[i], flags_.tolerance, &report)) {
      std::fprintf(stderr, "mesh-vk-run: result %zu differs from --expected-output[%zu]: %s\n", i, i, report.c_str());
      code = kExitMismatch;
    } else {
      // The line a newcomer looks for after the README's first command (on
      // stderr when stdout carries the benchmark's JSON).
      std::fprintf(flags_.benchmark > 0 && flags_.benchmark_format == "json" ? stderr : stdout,
                   "result %zu: ok (matches --expected-output[%zu], atol %g, rtol %g)\n", i, i, flags_.tolerance.atol,
                   flags_.tolerance.rtol);
    }
  }
  return code;
}

}  // namespace

int RunProgram(const std::string& path, const RunFlags& flags, const DeviceChoice& devices, MpiJob* mpi) {
  if (mpi) g_rank_prefix = "rank " + std::to_string(mpi->rank()) + " of " + std::to_string(mpi->size()) + ": ";
  g_mpi = mpi;
  return ProgramRun(path, flags, devices, mpi).Run();
}

}  // namespace meshvk_run
