// Function.benchmark: mesh-vk-run --benchmark's numbers as a dict, every
// time in seconds (see program.h). The runs go to a traced twin of the
// program on the same device set, as the runner's do, so each dispatch and
// each copy between processes has its device time; the collector below keeps
// what mesh-vk-run's DispatchTimes keeps (that class lives in the runner).
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <tuple>
#include <vector>

#include "errors.h"
#include "meshvk/instance.h"
#include "meshvk/trace.h"
#include "plan_graph.h"  // mesh-vk-run's KernelName: the plan's and the trace's kernel names
#include "program.h"

namespace meshvk_py {
namespace {

// {min, median, max} of `seconds` (not empty).
py::dict Summary(std::vector<double> seconds) {
  std::sort(seconds.begin(), seconds.end());
  const size_t n = seconds.size();
  py::dict d;
  d["min"] = seconds.front();
  d["median"] = n % 2 ? seconds[n / 2] : 0.5 * (seconds[n / 2 - 1] + seconds[n / 2]);
  d["max"] = seconds.back();
  return d;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Device times of the measured runs, from the traced twin's events (called
// on the invoking thread, without the GIL).
struct TraceTimes {
  bool active = false;
  std::map<std::pair<uint32_t, uint32_t>, std::vector<double>> dispatches;  // (process, command) -> s per invoke
  struct Moved {
    double seconds = 0;
    uint64_t bytes = 0;
  };
  // (process, source process, host-staged leg) -> per invoke: summed time and bytes.
  std::map<std::tuple<uint32_t, uint32_t, bool>, std::map<uint64_t, Moved>> copies;

  static void OnEvent(void* user_data, const meshvk_trace_event_t* e) {
    auto* self = static_cast<TraceTimes*>(user_data);
    if (!self->active) return;
    const double seconds = static_cast<double>(e->end_ns - e->begin_ns) / 1e9;
    const bool staged = e->kind == MESHVK_TRACE_HOST_STAGING;
    if ((e->kind == MESHVK_TRACE_COPY || staged) && e->peer != MESHVK_TRACE_NONE && e->peer != e->process) {
      Moved& m = self->copies[{e->process, e->peer, staged}][e->invoke];
      m.seconds += seconds;
      m.bytes += e->bytes;
    } else if (e->kind == MESHVK_TRACE_DISPATCH) {
      self->dispatches[{e->process, e->command}].push_back(seconds);
    }
  }
};

struct Measured {
  std::vector<double> wall;
  std::map<std::pair<uint32_t, uint32_t>, std::vector<double>> phases;  // (phase, process) -> s
  std::string no_phase_times, no_trace;
  meshvk_program_stats_t stats = MESHVK_PROGRAM_STATS_INIT;
  std::map<std::pair<uint32_t, uint32_t>, std::string> copy_paths;  // (process, source) -> path name
};

// One warm-up invoke, then `iterations` timed ones.
void RunTimed(meshvk_program_t* program, meshvk_invoke_info_t invoke, uint32_t iterations, const std::string& fn,
              TraceTimes* trace, Measured* m) {
  Check(meshvk_program_invoke(program, &invoke), fn + ": warm-up run: ");
  invoke.flags |= MESHVK_INVOKE_TIMESTAMPS_BIT;
  trace->active = true;
  std::vector<meshvk_phase_timing_t> timings(1024, meshvk_phase_timing_t MESHVK_PHASE_TIMING_INIT);
  for (uint32_t r = 0; r < iterations; ++r) {
    auto start = std::chrono::steady_clock::now();
    Check(meshvk_program_invoke(program, &invoke), fn + ": benchmark run " + std::to_string(r) + ": ");
    m->wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    uint32_t count = 0;
    if (meshvk_status_t status = meshvk_program_phase_timings(program, timings.data(), 1024, &count)) {
      m->no_phase_times = TakeMessage(status);
      continue;
    }
    for (uint32_t i = 0; i < std::min<uint32_t>(count, 1024); ++i)
      m->phases[{timings[i].phase, timings[i].process}].push_back(timings[i].device_ns / 1e9);
  }
  trace->active = false;
}

py::list PhaseList(const Measured& m) {
  py::list list;
  for (const auto& [key, seconds] : m.phases) {
    py::dict d;
    d["phase"] = key.first;
    d["process"] = key.second;
    d["gpu"] = Summary(seconds);
    list.append(d);
  }
  return list;
}

py::list DispatchList(const TraceTimes& trace, const meshvk_module_t* module, uint32_t function) {
  py::list list;
  for (const auto& [key, seconds] : trace.dispatches) {
    meshvk_command_info_t info = MESHVK_COMMAND_INFO_INIT;
    if (meshvk_status_t status = meshvk_module_command_info(module, function, key.first, key.second, &info)) {
      meshvk_status_free(status);
      continue;
    }
    const double median = Median(seconds);
    py::dict d;
    d["kernel"] = meshvk_run::KernelName(info.name, info.executable);
    d["process"] = key.first;
    d["command"] = key.second;
    d["phase"] = info.phase;
    d["gpu"] = Summary(seconds);
    d["bytes"] = info.bytes;
    d["flops"] = info.flops ? py::object(py::int_(info.flops)) : py::object(py::none());  // None: not recorded
    d["bytes_per_second"] = median > 0 ? info.bytes / median : 0.0;
    d["flops_per_second"] =
        info.flops && median > 0 ? py::object(py::float_(info.flops / median)) : py::object(py::none());
    list.append(d);
  }
  return list;
}

py::list CopyList(const TraceTimes& trace, const Measured& m) {
  py::list list;
  for (const auto& [key, per_invoke] : trace.copies) {
    const auto& [process, source, staged] = key;
    std::vector<double> seconds;
    uint64_t bytes = 0;
    for (const auto& [invoke, moved] : per_invoke) seconds.push_back(moved.seconds), bytes = moved.bytes;
    auto path = m.copy_paths.find({process, source});
    const double median = Median(seconds);
    py::dict d;
    d["process"] = process;
    d["from_process"] = source;
    d["path"] = staged ? std::string("host staging") : path != m.copy_paths.end() ? path->second : "unknown";
    d["leg"] = staged ? "host" : "device";  // host: the host-staged move before the device copy
    d["time"] = Summary(seconds);
    d["bytes"] = bytes;
    d["bytes_per_second"] = median > 0 ? bytes / median : 0.0;
    list.append(d);
  }
  return list;
}

}  // namespace

py::dict Function::Benchmark(const py::args& args, uint32_t iterations) {
  if (iterations == 0) Raise(MESHVK_STATUS_INVALID_ARGUMENT, "iterations: 0 given, expected at least 1 run");
  PreparedCall call = Prepare(signature_, args);
  std::vector<py::array> outputs;
  std::vector<meshvk_host_output_t> host_outputs;
  for (const meshvk_tensor_info_t& info : signature_.results) {
    outputs.push_back(NewArray(info));
    host_outputs.push_back({outputs.back().mutable_data(), static_cast<uint64_t>(outputs.back().nbytes())});
  }
  call.invoke.outputs = host_outputs.data();
  call.invoke.output_count = static_cast<uint32_t>(host_outputs.size());
  meshvk_module_t* module = program_->artifact()->module();
  TraceTimes trace;
  Measured m;
  {
    py::gil_scoped_release release;
    program_->WithProgram([&](meshvk_program_t* program, meshvk_device_set_t* set) {
      meshvk_trace_sink_t sink = MESHVK_TRACE_SINK_INIT;
      sink.event = &TraceTimes::OnEvent;
      sink.user_data = &trace;
      meshvk_program_create_info_t info = MESHVK_PROGRAM_CREATE_INFO_INIT;
      info.next = &sink;
      info.module = module;
      info.set = set;
      meshvk_program_t* traced = nullptr;
      if (meshvk_status_t status = meshvk_program_create_with_info(&info, &traced)) m.no_trace = TakeMessage(status);
      struct Release {
        meshvk_program_t* p;
        ~Release() { meshvk_program_release(p); }
      } release_traced{traced};
      RunTimed(traced ? traced : program, call.invoke, iterations, signature_.name, &trace, &m);
      meshvk_status_free(meshvk_program_stats(traced ? traced : program, &m.stats));
      for (const auto& [key, per_invoke] : trace.copies) {
        meshvk_copy_path_info_t path = MESHVK_COPY_PATH_INFO_INIT;
        if (meshvk_status_t status = meshvk_device_set_copy_path(set, std::get<1>(key), std::get<0>(key), &path))
          meshvk_status_free(status);
        else
          m.copy_paths[{std::get<0>(key), std::get<1>(key)}] = meshvk_copy_path_name(path.path);
      }
    });
  }
  py::dict result;
  result["unit"] = "s";
  result["runs"] = iterations;
  result["warmup_runs"] = 1;
  result["wall"] = Summary(m.wall);
  result["command_buffers"] = m.stats.command_buffer_count;
  result["commands"] = m.stats.command_count;
  result["record"] = m.stats.record_ns / 1e9;
  result["phases"] = PhaseList(m);
  result["dispatches"] = DispatchList(trace, module, signature_.index);
  result["copies"] = CopyList(trace, m);
  // The runner's roofline needs its probe shaders (mesh-vk-run/probes.cc).
  result["roofline"] = py::none();
  if (!m.no_phase_times.empty()) result["no_phase_times"] = m.no_phase_times;
  if (!m.no_trace.empty()) result["no_dispatch_times"] = m.no_trace;
  return result;
}

}  // namespace meshvk_py
