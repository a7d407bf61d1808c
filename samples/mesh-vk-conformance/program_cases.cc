// Conformance programs on one topology (cases.h). Oracles: host loops
// (host_references.cc) for results; the artifact's own plan, read through the
// public module API, for bytes, placement and memory.
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "cases.h"
#include "host_references.h"
#include "meshvk/module.h"
#include "meshvk/trace.h"

namespace meshvk_conformance {
namespace {

const char* const kChecks[] = {"results", "bytes", "placement", "allocations"};

struct ModuleRef {
  meshvk_module_t* m = nullptr;
  ~ModuleRef() { meshvk_module_release(m); }
};
struct SetRef {
  meshvk_device_set_t* s = nullptr;
  ~SetRef() { meshvk_device_set_release(s); }
};
struct ProgramRef {
  meshvk_program_t* p = nullptr;
  ~ProgramRef() { meshvk_program_release(p); }
};

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Every check of one program gets the same outcome (the program could not be
// loaded, placed or run).
void AllChecks(const std::string& program, Outcome outcome, const std::string& reason, double seconds,
               TopologyResult& out) {
  for (const char* check : kChecks) out.cases.push_back({"program." + program + "." + check, outcome, reason, seconds});
}

std::string TimeoutReason(const Status& s, const KitOptions& options) {
  if (s.code() != MESHVK_STATUS_DEADLINE_EXCEEDED) return s.Message();
  return "timed out after " + std::to_string(options.timeout_ns / 1000000) + " ms: " + s.Message();
}

// Runs the program's only function on seeded inputs (three times; the median
// wall time is the case's time) and returns its results, or "" with the error.
std::string Invoke(meshvk_module_t* module, meshvk_program_t* program, const KitOptions& options,
                   std::vector<HostTensor>& inputs, std::vector<HostTensor>& results, double& seconds) {
  meshvk_function_info_t fn = MESHVK_FUNCTION_INFO_INIT;
  Status s(meshvk_module_function_info(module, 0, &fn));
  if (!s.ok()) return s.Message();
  std::vector<std::vector<uint8_t>> in_bytes, out_bytes;
  std::vector<meshvk_tensor_info_t> result_info(fn.result_count, meshvk_tensor_info_t MESHVK_TENSOR_INFO_INIT);
  for (uint32_t a = 0; a < fn.argument_count; ++a) {
    meshvk_tensor_info_t info = MESHVK_TENSOR_INFO_INIT;
    Status sa(meshvk_module_argument_info(module, 0, a, &info));
    if (!sa.ok()) return sa.Message();
    inputs.push_back(RandomInput(info, 1000 + a));
    in_bytes.push_back(inputs.back().Bytes());
  }
  for (uint32_t r = 0; r < fn.result_count; ++r) {
    Status sr(meshvk_module_result_info(module, 0, r, &result_info[r]));
    if (!sr.ok()) return sr.Message();
    out_bytes.emplace_back(result_info[r].byte_size);
  }
  std::vector<meshvk_host_input_t> in(fn.argument_count);
  std::vector<meshvk_host_output_t> outs(fn.result_count);
  for (uint32_t a = 0; a < fn.argument_count; ++a) in[a] = {in_bytes[a].data(), in_bytes[a].size()};
  for (uint32_t r = 0; r < fn.result_count; ++r) outs[r] = {out_bytes[r].data(), out_bytes[r].size()};
  meshvk_invoke_info_t info = MESHVK_INVOKE_INFO_INIT;
  info.inputs = in.data();
  info.input_count = fn.argument_count;
  info.outputs = outs.data();
  info.output_count = fn.result_count;
  info.timeout = options.timeout_ns;
  std::vector<double> times;
  for (int i = 0; i < 3; ++i) {
    auto start = std::chrono::steady_clock::now();
    Status si(meshvk_program_invoke(program, &info));
    if (!si.ok()) return TimeoutReason(si, options);
    times.push_back(Seconds(start));
  }
  std::sort(times.begin(), times.end());
  seconds = times[1];
  for (uint32_t r = 0; r < fn.result_count; ++r) results.push_back(HostTensor::FromBytes(result_info[r], out_bytes[r]));
  return "";
}

// The copy commands of process `p`'s stream in function 0, with their
// indices; "" or the error.
std::string CopiesOf(meshvk_module_t* module, uint32_t p,
                     std::vector<std::pair<uint32_t, meshvk_command_info_t>>* out) {
  for (uint32_t c = 0; c < meshvk_module_command_count(module, 0, p); ++c) {
    meshvk_command_info_t info = MESHVK_COMMAND_INFO_INIT;
    Status sc(meshvk_module_command_info(module, 0, p, c, &info));
    if (!sc.ok()) return sc.Message();
    if (info.kind == MESHVK_TRACE_COPY) out->push_back({c, info});
  }
  return "";
}

// Bytes that arrive at each process by each path, as the runtime counts them,
// vs the plan: every copy of the process's stream counted under the path the
// set has from its source (a copy from the process itself: the same device),
// and the copies from other processes summing to the plan's peer bytes. An
// import the driver refused (a program note) moves bytes to host staging, so
// then only the total must match.
std::string CheckBytes(meshvk_module_t* module, meshvk_program_t* program, meshvk_device_set_t* set,
                       uint32_t processes) {
  bool rerouted = meshvk_program_note_count(program) > 0;
  for (uint32_t p = 0; p < processes; ++p) {
    meshvk_process_summary_t plan = MESHVK_PROCESS_SUMMARY_INIT;
    Status s(meshvk_module_function_process_summary(module, 0, p, &plan));
    if (!s.ok()) return s.Message();
    uint64_t want[MESHVK_COPY_PATH_COUNT] = {}, got[MESHVK_COPY_PATH_COUNT] = {}, from_peers = 0;
    std::vector<std::pair<uint32_t, meshvk_command_info_t>> copies;
    if (std::string e = CopiesOf(module, p, &copies); !e.empty()) return e;
    for (const auto& [c, info] : copies) {
      meshvk_copy_path_info_t path = MESHVK_COPY_PATH_INFO_INIT;
      path.path = MESHVK_COPY_PATH_SAME_DEVICE;
      if (info.peer != p) {
        Status sp(meshvk_device_set_copy_path(set, info.peer, p, &path));
        if (!sp.ok()) return sp.Message();
        from_peers += info.bytes;
      }
      want[path.path] += info.bytes;
    }
    if (from_peers != plan.peer_bytes_in)
      return "process " + std::to_string(p) + ": its copies from peers move " + std::to_string(from_peers) +
             " bytes, the plan says " + std::to_string(plan.peer_bytes_in);
    Status c(meshvk_program_copy_bytes(program, 0, p, got));
    if (!c.ok()) return c.Message();
    uint64_t want_total = 0, got_total = 0;
    for (int path = 0; path < MESHVK_COPY_PATH_COUNT; ++path) want_total += want[path], got_total += got[path];
    for (int path = 0; path < MESHVK_COPY_PATH_COUNT; ++path)
      if ((rerouted ? want_total != got_total : want[path] != got[path]))
        return "process " + std::to_string(p) + " received " + std::to_string(got[path]) + " bytes by " +
               meshvk_copy_path_name(meshvk_copy_path_t(path)) + ", its copies by that path are " +
               std::to_string(want[path]) + " bytes";
  }
  return "";
}

// Every copy is in its destination's stream (the artifact's form: a pull),
// reads another process by a path the set has, and copies from the process
// itself are only its local copies.
std::string CheckPlacement(meshvk_module_t* module, meshvk_device_set_t* set, uint32_t processes) {
  for (uint32_t p = 0; p < processes; ++p) {
    meshvk_process_summary_t plan = MESHVK_PROCESS_SUMMARY_INIT;
    Status s(meshvk_module_function_process_summary(module, 0, p, &plan));
    if (!s.ok()) return s.Message();
    uint64_t local = 0;
    std::vector<std::pair<uint32_t, meshvk_command_info_t>> copies;
    if (std::string e = CopiesOf(module, p, &copies); !e.empty()) return e;
    for (const auto& [c, info] : copies) {
      if (info.peer == p) {
        local += info.bytes;
        continue;
      }
      meshvk_copy_path_info_t path = MESHVK_COPY_PATH_INFO_INIT;
      Status sp(meshvk_device_set_copy_path(set, info.peer, p, &path));
      if (!sp.ok() || path.path == MESHVK_COPY_PATH_NONE)
        return "process " + std::to_string(p) + " command " + std::to_string(c) + " copies from process " +
               std::to_string(info.peer) + " with no path between them";
    }
    if (local != plan.local_copy_bytes)
      return "process " + std::to_string(p) + " copies " + std::to_string(local) +
             " bytes from itself, the plan's local copies are " + std::to_string(plan.local_copy_bytes);
  }
  return "";
}

// Device memory per process: at least what the plan allocates (arguments,
// results, transients after reuse, constants), and not more than twice that
// plus 4 MiB (allocation granularity and host-allocation alignment).
std::string CheckAllocations(meshvk_module_t* module, meshvk_device_set_t* set, uint32_t processes) {
  for (uint32_t p = 0; p < processes; ++p) {
    meshvk_process_summary_t plan = MESHVK_PROCESS_SUMMARY_INIT;
    Status s(meshvk_module_process_summary(module, p, &plan));
    if (!s.ok()) return s.Message();
    uint64_t want = plan.argument_bytes + plan.result_bytes + plan.transient_bytes + plan.constant_bytes;
    uint64_t got = meshvk_device_set_allocated_bytes(set, p);
    if (got < want || got > 2 * want + (4ull << 20))
      return "process " + std::to_string(p) + " allocated " + std::to_string(got) + " bytes, the plan needs " +
             std::to_string(want);
  }
  return "";
}

void Record(const std::string& program, const char* check, const std::string& failure, double seconds,
            TopologyResult& out) {
  out.cases.push_back(
      {"program." + program + "." + check, failure.empty() ? Outcome::kPass : Outcome::kFail, failure, seconds});
}

void RunOneProgram(meshvk_instance_t* instance, const Topology& topology, const KitOptions& options,
                   const ProgramReference& ref, TopologyResult& out) {
  auto start = std::chrono::steady_clock::now();
  std::string path = options.programs_dir + "/" + ref.program + ".mvk";
  ModuleRef module;
  Status load(meshvk_module_load_file(path.c_str(), &module.m));
  if (!load.ok()) return AllChecks(ref.program, Outcome::kFail, "the installed program: " + load.Message(), 0, out);
  meshvk_grid_info_t grid = MESHVK_GRID_INFO_INIT;
  meshvk_status_free(meshvk_module_grid_info(module.m, &grid));
  SetRef set;
  meshvk_status_t raw = MESHVK_OK;
  set.s = CreateDeviceSet(instance, topology, grid.process_count, options.timeout_ns, &raw);
  Status made(raw);
  if (!made.ok())
    return AllChecks(ref.program, made.NotSupported() ? Outcome::kNotSupported : Outcome::kFail,
                     "device set: " + made.Message(), Seconds(start), out);
  ProgramRef program;
  Status created(meshvk_program_create(module.m, set.s, &program.p));
  if (!created.ok())
    return AllChecks(ref.program, created.NotSupported() ? Outcome::kNotSupported : Outcome::kFail,
                     "program creation: " + created.Message(), Seconds(start), out);
  std::vector<HostTensor> inputs, results;
  double seconds = 0;
  std::string failed = Invoke(module.m, program.p, options, inputs, results, seconds);
  if (!failed.empty()) return AllChecks(ref.program, Outcome::kFail, failed, Seconds(start), out);
  Record(ref.program, "results", FirstDifference(results, ref.compute(inputs), ref.atol, ref.rtol), seconds, out);
  Record(ref.program, "bytes", CheckBytes(module.m, program.p, set.s, grid.process_count), 0, out);
  Record(ref.program, "placement", CheckPlacement(module.m, set.s, grid.process_count), 0, out);
  Record(ref.program, "allocations", CheckAllocations(module.m, set.s, grid.process_count), 0, out);
}

bool AnySelected(const Topology& topology, const KitOptions& options, const std::string& program) {
  for (const char* check : kChecks)
    if (options.selected(topology.name + "/program." + program + "." + check)) return true;
  return false;
}

}  // namespace

std::vector<std::string> ProgramCaseNames(const KitOptions& options) {
  std::vector<std::string> names;
  for (const ProgramReference& ref : ProgramReferences()) {
    if (!Exists(options.programs_dir + "/" + ref.program + ".mvk")) continue;
    for (const char* check : kChecks) names.push_back(std::string("program.") + ref.program + "." + check);
  }
  return names;
}

void RunProgramCases(meshvk_instance_t* instance, const Topology& topology, const KitOptions& options,
                     TopologyResult& out) {
  for (const ProgramReference& ref : ProgramReferences()) {
    if (!Exists(options.programs_dir + "/" + ref.program + ".mvk")) continue;
    if (!AnySelected(topology, options, ref.program)) continue;
    size_t first = out.cases.size();
    RunOneProgram(instance, topology, options, ref, out);
    // A filter may name single checks: drop the others of this program.
    out.cases.erase(
        std::remove_if(out.cases.begin() + first, out.cases.end(),
                       [&](const CaseResult& r) { return !options.selected(topology.name + "/" + r.name); }),
        out.cases.end());
  }
}

}  // namespace meshvk_conformance
