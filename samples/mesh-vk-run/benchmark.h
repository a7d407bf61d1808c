// mesh-vk-run --benchmark=N: N invokes after one warm-up, reported as text
// (times in ms) or as Google-Benchmark-like JSON (--benchmark-format=json,
// fields documented in README.md): wall time and per-(phase, process) GPU
// time as min/median/max, per-dispatch GPU time with bytes/s (and FLOP/s
// where the artifact says how many FLOPs a dispatch does), and a roofline
// line per dispatch against the device's measured copy bandwidth and FMA
// peak (probes.h). On a terminal, a progress line on stderr while it runs.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_BENCHMARK_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_BENCHMARK_H_

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "meshvk/meshvk.h"
#include "meshvk/module.h"
#include "meshvk/trace.h"

namespace meshvk_run {

// Collects per-dispatch device times of the benchmark's invokes from trace
// events (forwarded to it by the run's sink).
class DispatchTimes {
 public:
  void OnEvent(const meshvk_trace_event_t& event);
  void set_active(bool active) { active_ = active; }
  // (process, command) -> kernel name and its device times in ns, one per invoke.
  struct Series {
    std::string kernel;
    std::vector<double> ns;
  };
  const std::map<std::pair<uint32_t, uint32_t>, Series>& series() const { return series_; }
  // Copies between processes, per (process, source process, leg): the leg is
  // the device copy into the process (its GPU time) or the host-staged move
  // before it (MESHVK_TRACE_HOST_STAGING, host time). Per invoke: summed ns
  // and bytes.
  enum class Leg { kDevice, kHostStaging };
  struct Moved {
    double ns = 0;
    uint64_t bytes = 0;
  };
  using CopyKey = std::tuple<uint32_t, uint32_t, Leg>;
  const std::map<CopyKey, std::map<uint64_t, Moved>>& copies() const { return copies_; }

 private:
  bool active_ = false;
  std::map<std::pair<uint32_t, uint32_t>, Series> series_;
  std::map<CopyKey, std::map<uint64_t, Moved>> copies_;
};

struct BenchmarkSetup {
  meshvk_program_t* program = nullptr;
  meshvk_invoke_info_t invoke = MESHVK_INVOKE_INFO_INIT;
  uint32_t runs = 0;
  bool json = false;  // --benchmark-format=json
  std::string program_path, function_name, device_name;
  const meshvk_module_t* module = nullptr;
  uint32_t function = 0;
  meshvk_device_set_t* set = nullptr;
  DispatchTimes* dispatches = nullptr;  // null: no per-dispatch times (no trace sink)
  uint64_t create_ns = 0;               // wall time of meshvk_program_create_with_info
  // The set's pipeline caches right after it, cold (no file loaded) or warm,
  // with the pipelines, hits and time of program creation alone.
  meshvk_pipeline_cache_stats_t cache = MESHVK_PIPELINE_CACHE_STATS_INIT;
};

// Runs and prints the benchmark (stdout); returns the exit code.
int RunBenchmark(const BenchmarkSetup& setup);

// A progress line on stderr, only when stderr is a terminal: "\r<text>" as
// work goes, erased by Done().
class ProgressLine {
 public:
  ProgressLine();
  void Show(const std::string& text);
  void Done();
  ~ProgressLine() { Done(); }

 private:
  bool enabled_ = false;
  bool shown_ = false;
  uint64_t last_ns_ = 0;
};

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_BENCHMARK_H_
