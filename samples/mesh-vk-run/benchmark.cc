// --benchmark (see benchmark.h).
#include "benchmark.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>

#include "plan_graph.h"
#include "probes.h"
#include "status_text.h"
#include "trace.h"
#include "verbose.h"

#ifndef MESHVK_VERSION_STRING
#define MESHVK_VERSION_STRING "unknown"
#endif

namespace meshvk_run {
namespace {

struct Summary {
  double min = 0, median = 0, max = 0;
};

Summary Summarize(std::vector<double> v) {
  Summary s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  s.min = v.front();
  s.max = v.back();
  s.median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  return s;
}

std::string Escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
      continue;
    }
    out += c;
  }
  return out;
}

std::string Number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  return buf;
}

// One measured series (ms) with its counters, in both output formats.
struct Series {
  std::string name;   // e.g. "main/phase_0/process_1/gpu"
  std::string label;  // the text line's subject
  Summary ms;
  std::vector<std::pair<std::string, double>> counters;  // JSON user counters
};

// "warm" when every VkDevice of the set started from its pipeline cache file,
// "cold" when none did, "partly warm" between.
std::string CacheState(const meshvk_pipeline_cache_stats_t& cache) {
  if (cache.files_loaded == 0) return "cold";
  return cache.files_loaded == cache.device_count ? "warm" : "partly warm";
}

void PrintJson(const BenchmarkSetup& setup, const std::vector<Series>& series, const DeviceRoofs& roofs,
               bool have_roofs, const meshvk_program_stats_t& stats, const std::vector<std::string>& roofline) {
  char date[64];
  std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S%z", std::localtime(&now));
  char host[256] = "";
  gethostname(host, sizeof(host) - 1);
  std::string out = "{\n  \"context\": {\n";
  out += "    \"date\": \"" + std::string(date) + "\",\n";
  out += "    \"host_name\": \"" + Escape(host) + "\",\n";
  out += "    \"executable\": \"mesh-vk-run\",\n";
  out += "    \"num_cpus\": " + std::to_string(sysconf(_SC_NPROCESSORS_ONLN)) + ",\n";
  out += "    \"library_build_type\": \"release\",\n";
  out += "    \"meshvk_version\": \"" MESHVK_VERSION_STRING "\",\n";
  out += "    \"program\": \"" + Escape(setup.program_path) + "\",\n";
  out += "    \"function\": \"" + Escape(setup.function_name) + "\",\n";
  out += "    \"device\": \"" + Escape(setup.device_name) + "\",\n";
  out += "    \"processes\": " + std::to_string(meshvk_device_set_process_count(setup.set)) + ",\n";
  out += "    \"warmup_runs\": 1,\n";
  out += "    \"command_buffers\": " + std::to_string(stats.command_buffer_count) + ",\n";
  out += "    \"commands\": " + std::to_string(stats.command_count) + ",\n";
  out += "    \"record_ms\": " + Number(stats.record_ns / 1e6) + ",\n";
  out += "    \"create_ms\": " + Number(setup.create_ns / 1e6) + ",\n";
  out += "    \"pipelines\": " + std::to_string(setup.cache.pipelines) + ",\n";
  out += "    \"pipeline_create_ms\": " + Number(setup.cache.pipeline_create_ns / 1e6) + ",\n";
  out += "    \"pipeline_cache\": \"" + CacheState(setup.cache) + "\",\n";
  out += "    \"pipeline_cache_loaded_bytes\": " + std::to_string(setup.cache.loaded_bytes) + ",\n";
  out += "    \"pipeline_cache_hits\": " + std::to_string(setup.cache.cache_hits) + ",\n";
  out += "    \"copy_bytes_per_second\": " + Number(have_roofs ? roofs.copy_bytes_per_second : 0) + ",\n";
  out += "    \"fma_flops_per_second\": " + Number(have_roofs ? roofs.fma_flops_per_second : 0) + ",\n";
  out += "    \"roofline\": [";
  for (size_t i = 0; i < roofline.size(); ++i) out += (i ? ", " : "") + std::string("\"") + Escape(roofline[i]) + "\"";
  out += "]\n  },\n  \"benchmarks\": [\n";
  bool first = true;
  int family = 0;
  for (const Series& s : series) {
    const std::pair<const char*, double> aggregates[] = {{"min", s.ms.min}, {"median", s.ms.median}, {"max", s.ms.max}};
    for (const auto& [aggregate, value] : aggregates) {
      out += first ? "    {\n" : ",\n    {\n";
      first = false;
      out += "      \"name\": \"" + Escape(s.name) + "_" + aggregate + "\",\n";
      out += "      \"family_index\": " + std::to_string(family) + ",\n";
      out += "      \"per_family_instance_index\": 0,\n";
      out += "      \"run_name\": \"" + Escape(s.name) + "\",\n";
      out += "      \"run_type\": \"aggregate\",\n";
      out += "      \"repetitions\": " + std::to_string(setup.runs) + ",\n";
      out += "      \"threads\": 1,\n";
      out += "      \"aggregate_name\": \"" + std::string(aggregate) + "\",\n";
      out += "      \"aggregate_unit\": \"time\",\n";
      out += "      \"iterations\": " + std::to_string(setup.runs) + ",\n";
      out += "      \"real_time\": " + Number(value) + ",\n";
      out += "      \"cpu_time\": " + Number(value) + ",\n";
      out += "      \"time_unit\": \"ms\"";
      for (const auto& [key, v] : s.counters) out += ",\n      \"" + key + "\": " + Number(v);
      out += "\n    }";
    }
    ++family;
  }
  out += "\n  ]\n}\n";
  std::fputs(out.c_str(), stdout);
}

// One series per (process, source process, leg) of the copies between
// processes: the device copies by the pair's path (GPU time) and the
// host-staged moves before them (host time), summed per invoke.
void AddCopySeries(const BenchmarkSetup& setup, const std::string& base, std::vector<Series>* out) {
  for (const auto& [key, per_invoke] : setup.dispatches->copies()) {
    const auto& [process, peer, leg] = key;
    meshvk_copy_path_info_t path = MESHVK_COPY_PATH_INFO_INIT;
    meshvk_status_free(meshvk_device_set_copy_path(setup.set, peer, process, &path));
    const bool staged = leg == DispatchTimes::Leg::kHostStaging;
    std::string path_name = staged ? "host staging" : meshvk_copy_path_name(path.path);
    std::string slug;
    for (char c : path_name) slug += c == ' ' ? '_' : c;
    std::vector<double> ms;
    uint64_t bytes = 0;
    for (const auto& [invoke, moved] : per_invoke) ms.push_back(moved.ns / 1e6), bytes = moved.bytes;
    Series row{base + "/copy/process_" + std::to_string(process) + "/from_" + std::to_string(peer) + "/" + slug +
                   (staged ? "/host" : "/gpu"),
               "copies into process " + std::to_string(process) + " from " + std::to_string(peer) + " (" + path_name +
                   (staged ? ", host legs" : ", device copies") + ")",
               Summarize(ms),
               {}};
    row.counters.push_back({"bytes", static_cast<double>(bytes)});
    if (row.ms.median > 0) row.counters.push_back({"bytes_per_second", bytes / (row.ms.median / 1e3)});
    out->push_back(std::move(row));
  }
}

}  // namespace

void DispatchTimes::OnEvent(const meshvk_trace_event_t& e) {
  if (!active_) return;
  const bool staged = e.kind == MESHVK_TRACE_HOST_STAGING;
  if ((e.kind == MESHVK_TRACE_COPY || staged) && e.peer != MESHVK_TRACE_NONE && e.peer != e.process) {
    Moved& m = copies_[{e.process, e.peer, staged ? Leg::kHostStaging : Leg::kDevice}][e.invoke];
    m.ns += static_cast<double>(e.end_ns - e.begin_ns);
    m.bytes += e.bytes;
    return;
  }
  if (e.kind != MESHVK_TRACE_DISPATCH) return;
  Series& s = series_[{e.process, e.command}];
  if (s.kernel.empty() && e.name) s.kernel = e.name;
  s.ns.push_back(static_cast<double>(e.end_ns - e.begin_ns));
}

ProgressLine::ProgressLine() : enabled_(isatty(STDERR_FILENO) != 0) {}

void ProgressLine::Show(const std::string& text) {
  if (!enabled_) return;
  uint64_t now = NowNs();
  if (shown_ && now - last_ns_ < 100'000'000) return;  // at most 10 updates a second
  last_ns_ = now;
  std::fprintf(stderr, "\r\033[K%s", text.c_str());
  std::fflush(stderr);
  shown_ = true;
}

void ProgressLine::Done() {
  if (!shown_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  shown_ = false;
}

namespace {

// Wall and per-phase GPU times of setup.runs invokes; false after an invoke
// failed (its line printed).
struct RunTimes {
  std::vector<double> wall_ms;
  std::map<std::pair<uint32_t, uint32_t>, std::vector<double>> phase_ms;  // (phase, process)
};
bool TimeRuns(const BenchmarkSetup& setup, RunTimes* out) {
  meshvk_invoke_info_t invoke = setup.invoke;
  invoke.flags |= MESHVK_INVOKE_TIMESTAMPS_BIT;
  bool have_timings = true;
  ProgressLine progress;
  if (setup.dispatches) setup.dispatches->set_active(true);
  for (uint32_t r = 0; r < setup.runs; ++r) {
    auto start = std::chrono::steady_clock::now();
    if (meshvk_status_t status = meshvk_program_invoke(setup.program, &invoke)) {
      progress.Done();
      std::fprintf(stderr, "mesh-vk-run: benchmark run %u: %s\n", r, StatusText(status).c_str());
      meshvk_status_free(status);
      return false;
    }
    out->wall_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    char text[160];
    std::snprintf(text, sizeof(text), "benchmark: run %u/%u, median so far %.3f ms", r + 1, setup.runs,
                  Summarize(out->wall_ms).median);
    progress.Show(text);
    uint32_t count = 0;
    std::vector<meshvk_phase_timing_t> timings(1024, meshvk_phase_timing_t MESHVK_PHASE_TIMING_INIT);
    meshvk_status_t status = meshvk_program_phase_timings(setup.program, timings.data(), 1024, &count);
    if (status) {
      if (have_timings) Verbose(1, "no per-phase GPU times: %s", StatusText(status).c_str());
      meshvk_status_free(status);
      have_timings = false;
      continue;
    }
    for (uint32_t i = 0; i < std::min<uint32_t>(count, 1024); ++i)
      out->phase_ms[{timings[i].phase, timings[i].process}].push_back(timings[i].device_ns / 1e6);
  }
  if (setup.dispatches) setup.dispatches->set_active(false);
  progress.Done();
  return true;
}

// The roofs of the device of process 0 (every process of a logical set
// shares it; on other sets, the first device speaks for all).
bool MeasureProcessRoofs(const BenchmarkSetup& setup, DeviceRoofs* roofs) {
  ProgressLine progress;
  progress.Show("benchmark: measuring copy bandwidth and FMA peak");
  meshvk_status_t status = MeasureRoofs(setup.set, 0, roofs);
  progress.Done();
  if (!status) return true;
  Verbose(1, "no roofline: the probes failed: %s", StatusText(status).c_str());
  meshvk_status_free(status);
  return false;
}

// The roofline's lower bound on a dispatch's time: its bytes at the measured
// copy bandwidth, or its FLOPs at the measured FMA peak, whichever is longer;
// the counters on `row` and the text line.
std::string RooflineLine(const std::string& who, const meshvk_command_info_t& info, const DeviceRoofs& roofs,
                         const Summary& s, Series* row) {
  double memory_ms = info.bytes / roofs.copy_bytes_per_second * 1e3;
  double compute_ms = info.flops ? info.flops / roofs.fma_flops_per_second * 1e3 : 0;
  double bound_ms = std::max(memory_ms, compute_ms);
  row->counters.push_back({"roofline_ms", bound_ms});
  row->counters.push_back({"roofline_fraction", bound_ms / s.median});
  char line[512];
  if (info.flops) {
    double intensity = static_cast<double>(info.flops) / std::max<uint64_t>(info.bytes, 1);
    std::snprintf(line, sizeof(line),
                  "%s: %.3f ms measured; %llu B, %llu FLOP (%.2f FLOP/B): roof %.4f ms (%s-bound: "
                  "%.4f ms at %.2f GB/s, %.4f ms at %.2f GFLOP/s); %.1f%% of roofline",
                  who.c_str(), s.median, static_cast<unsigned long long>(info.bytes),
                  static_cast<unsigned long long>(info.flops), intensity, bound_ms,
                  memory_ms >= compute_ms ? "bandwidth" : "compute", memory_ms, roofs.copy_bytes_per_second / 1e9,
                  compute_ms, roofs.fma_flops_per_second / 1e9, 100.0 * bound_ms / s.median);
  } else {
    std::snprintf(line, sizeof(line),
                  "%s: %.3f ms measured; %llu B bound: roof %.4f ms at %.2f GB/s (FLOPs not in the "
                  "artifact: bandwidth roof only); %.1f%% of roofline",
                  who.c_str(), s.median, static_cast<unsigned long long>(info.bytes), bound_ms,
                  roofs.copy_bytes_per_second / 1e9, 100.0 * bound_ms / s.median);
  }
  return line;
}

// One series per dispatch (GPU time, bytes, FLOPs), and its roofline line
// when the roofs were measured.
void AddDispatchSeries(const BenchmarkSetup& setup, const std::string& base, const DeviceRoofs* roofs,
                       std::vector<Series>* series, std::vector<std::string>* roofline) {
  for (const auto& [key, times] : setup.dispatches->series()) {
    const auto& [process, command] = key;
    meshvk_command_info_t info = MESHVK_COMMAND_INFO_INIT;
    if (meshvk_status_t status = meshvk_module_command_info(setup.module, setup.function, process, command, &info)) {
      meshvk_status_free(status);
      continue;
    }
    std::vector<double> ms;
    for (double ns : times.ns) ms.push_back(ns / 1e6);
    Summary s = Summarize(ms);
    std::string who = KernelName(info.name, info.executable) + " process " + std::to_string(process) + " command " +
                      std::to_string(command);
    Series row{base + "/" + KernelName(info.name, info.executable) + "/process_" + std::to_string(process) +
                   "/command_" + std::to_string(command) + "/gpu",
               "dispatch " + who + ": GPU",
               s,
               {}};
    double seconds = s.median / 1e3;
    row.counters.push_back({"bytes", static_cast<double>(info.bytes)});
    if (seconds > 0) row.counters.push_back({"bytes_per_second", info.bytes / seconds});
    if (info.flops) {
      row.counters.push_back({"flops", static_cast<double>(info.flops)});
      if (seconds > 0) row.counters.push_back({"flops_per_second", info.flops / seconds});
    }
    if (roofs && seconds > 0) roofline->push_back(RooflineLine(who, info, *roofs, s, &row));
    series->push_back(std::move(row));
  }
}

void PrintText(const BenchmarkSetup& setup, const std::vector<Series>& series, const DeviceRoofs* roofs,
               const meshvk_program_stats_t& stats, const std::vector<std::string>& roofline) {
  const Summary& wall = series[0].ms;
  std::printf("benchmark: %u runs after 1 warm-up: wall min %.3f ms, median %.3f ms, max %.3f ms\n", setup.runs,
              wall.min, wall.median, wall.max);
  std::printf("benchmark: %u command buffers, %u commands recorded once in %.3f ms\n", stats.command_buffer_count,
              stats.command_count, stats.record_ns / 1e6);
  std::printf(
      "benchmark: program created in %.3f ms: %llu pipelines in %.3f ms, pipeline cache %s (%u of %u devices "
      "loaded %llu bytes, %llu hits)\n",
      setup.create_ns / 1e6, static_cast<unsigned long long>(setup.cache.pipelines),
      setup.cache.pipeline_create_ns / 1e6, CacheState(setup.cache).c_str(), setup.cache.files_loaded,
      setup.cache.device_count, static_cast<unsigned long long>(setup.cache.loaded_bytes),
      static_cast<unsigned long long>(setup.cache.cache_hits));
  for (size_t i = 1; i < series.size(); ++i) {
    const Series& s = series[i];
    std::string extra;
    for (const auto& [key, v] : s.counters) {
      char buf[96];
      if (key == "bytes_per_second")
        std::snprintf(buf, sizeof(buf), ", %.3f GB/s", v / 1e9);
      else if (key == "flops_per_second")
        std::snprintf(buf, sizeof(buf), ", %.3f GFLOP/s", v / 1e9);
      else
        continue;
      extra += buf;
    }
    std::printf("benchmark: %s median %.3f ms (min %.3f, max %.3f)%s\n", s.label.c_str(), s.ms.median, s.ms.min,
                s.ms.max, extra.c_str());
  }
  if (roofs)
    std::printf("benchmark: device roofs (probes): copy %.2f GB/s (%llu MiB copy), FMA peak %.2f GFLOP/s\n",
                roofs->copy_bytes_per_second / 1e9, static_cast<unsigned long long>(roofs->copy_bytes >> 20),
                roofs->fma_flops_per_second / 1e9);
  for (const std::string& line : roofline) std::printf("roofline: %s\n", line.c_str());
}

}  // namespace

int RunBenchmark(const BenchmarkSetup& setup) {
  RunTimes times;
  if (!TimeRuns(setup, &times)) return 3;
  DeviceRoofs roofs;
  const bool have_roofs = setup.dispatches && MeasureProcessRoofs(setup, &roofs);
  meshvk_program_stats_t stats = MESHVK_PROGRAM_STATS_INIT;
  meshvk_status_free(meshvk_program_stats(setup.program, &stats));
  std::vector<Series> series;
  const std::string& base = setup.function_name;
  series.push_back({base + "/wall", "wall", Summarize(times.wall_ms), {}});
  for (const auto& [key, values] : times.phase_ms)
    series.push_back({base + "/phase_" + std::to_string(key.first) + "/process_" + std::to_string(key.second) + "/gpu",
                      "phase " + std::to_string(key.first) + " process " + std::to_string(key.second) + ": GPU",
                      Summarize(values),
                      {}});
  std::vector<std::string> roofline;
  if (setup.dispatches) {
    AddCopySeries(setup, base, &series);
    AddDispatchSeries(setup, base, have_roofs ? &roofs : nullptr, &series, &roofline);
  }
  if (setup.json) {
    PrintJson(setup, series, roofs, have_roofs, stats, roofline);
    return 0;
  }
  PrintText(setup, series, have_roofs ? &roofs : nullptr, stats, roofline);
  return 0;
}

}  // namespace meshvk_run
