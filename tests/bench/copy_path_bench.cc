// Copy bandwidth of each path between two devices, as ratios measured in the
// same process: host staging against memcpy, external memory against a copy
// inside one device; and the MLP sample's wall time on two independent
// devices against one (when the build compiled it). Needs two physical devices: without them the bench
// registers lavapipe's ICD twice itself (VK_DRIVER_FILES, before Vulkan
// loads), which is what a two-GPU Mesa machine looks like. Under the emulation
// layer in separate mode (MESHVK_EMULATED_TOPOLOGY=separate) shard memory is
// device-local only, so host staging goes through its chunked staging rings.
//
//   build/tests/bench/meshvk_copy_bench
//   VK_LAYER_PATH=build/runtime/layer VK_INSTANCE_LAYERS=VK_LAYER_MESHVK_emulated_device_group \
//     MESHVK_EMULATED_TOPOLOGY=separate build/tests/bench/meshvk_copy_bench
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "meshvk/meshvk.h"
#include "meshvk_environment.h"

namespace {

const char* kLavapipeIcd = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

// Two copies of lavapipe's ICD file unless the environment already chose.
void RegisterTwoDevices() {
  if (std::getenv("VK_DRIVER_FILES") || std::getenv("VK_ICD_FILENAMES") || std::getenv("VK_INSTANCE_LAYERS")) return;
  std::ifstream in(kLavapipeIcd);
  if (!in) return;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string files;
  for (const char* name : {"/tmp/meshvk_bench_icd_a.json", "/tmp/meshvk_bench_icd_b.json"}) {
    std::ofstream(name) << text;
    files += (files.empty() ? "" : ":") + std::string(name);
  }
  setenv("VK_DRIVER_FILES", files.c_str(), 1);
}

struct Setup {
  meshvk_instance_t* instance = nullptr;
  meshvk_device_set_t* set = nullptr;  // 2 processes on 2 VkDevices
  std::string error;
  Setup() {
    RegisterTwoDevices();
    if (meshvk_status_t s = meshvk_environment_create_instance(&instance)) {
      error = meshvk_status_message(s);
      meshvk_status_free(s);
      return;
    }
    if (meshvk_instance_physical_device_count(instance) < 2) {
      error = "needs two physical devices";
      return;
    }
    meshvk_device_set_create_info_t info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
    info.topology = MESHVK_TOPOLOGY_INDEPENDENT;
    info.process_count = 2;
    if (meshvk_status_t s = meshvk_device_set_create(instance, &info, &set)) {
      error = meshvk_status_message(s);
      meshvk_status_free(s);
    }
  }
};

Setup& TheSetup() {
  static Setup setup;
  return setup;
}

bool Check(benchmark::State& state, meshvk_status_t status) {
  if (!status) return true;
  state.SkipWithError(meshvk_status_message(status));
  meshvk_status_free(status);
  return false;
}

meshvk_buffer_t* Make(uint32_t process, uint64_t bytes, bool exportable) {
  meshvk_buffer_create_info_t info = MESHVK_BUFFER_CREATE_INFO_INIT;
  info.process = process;
  info.size = bytes;
  info.flags = exportable ? MESHVK_BUFFER_EXPORTABLE_BIT : 0u;
  meshvk_buffer_t* buffer = nullptr;
  meshvk_status_free(meshvk_buffer_create_with_info(TheSetup().set, &info, &buffer));
  return buffer;
}

// CPU time of the whole process (every thread: lavapipe's queue threads do
// the device copies), in seconds.
double ProcessCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

// memcpy of `bytes` between two host buffers of this process, timed right
// after each timed copy so both see the same load (the machine is shared):
// the best of as many memcpys as the benchmark ran copies, in wall time and
// in CPU time.
class MemcpyProbe {
 public:
  explicit MemcpyProbe(uint64_t bytes) : a_(bytes, 1), b_(bytes, 0) {}
  void Run() {
    auto t0 = std::chrono::steady_clock::now();
    double c0 = ProcessCpuSeconds();
    std::memcpy(b_.data(), a_.data(), a_.size());
    benchmark::DoNotOptimize(b_.data());
    best_cpu_ = std::min(best_cpu_, ProcessCpuSeconds() - c0);
    best_ = std::min(best_, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  double best() const { return best_; }
  double best_cpu() const { return best_cpu_; }

 private:
  std::vector<char> a_, b_;
  double best_ = 1e30, best_cpu_ = 1e30;
};

// One recorded copy `src` -> `dst` on process `process`, submitted and waited.
double DeviceCopySeconds(benchmark::State& state, uint32_t process, meshvk_buffer_t* src, meshvk_buffer_t* dst,
                         uint64_t bytes, MemcpyProbe* probe) {
  meshvk_device_set_t* set = TheSetup().set;
  meshvk_command_buffer_t* cb = nullptr;
  if (!Check(state, meshvk_command_buffer_create(set, process, &cb))) return 0;
  if (!Check(state, meshvk_command_buffer_copy(cb, src, 0, dst, 0, bytes)) ||
      !Check(state, meshvk_command_buffer_end(cb))) {
    meshvk_command_buffer_release(cb);
    return 0;
  }
  meshvk_semaphore_t* done = nullptr;
  meshvk_status_free(meshvk_semaphore_create(set, process, 0, &done));
  double best = 1e30;
  uint64_t value = 0;
  // One untimed run first: the first touch of fresh memory (page faults on a
  // CPU device) is not copy bandwidth.
  {
    meshvk_semaphore_value_t signal{done, ++value};
    meshvk_submit_info_t submit = MESHVK_SUBMIT_INFO_INIT;
    submit.command_buffer = cb;
    submit.signals = &signal;
    submit.signal_count = 1;
    meshvk_status_free(meshvk_queue_submit(set, &submit));
    meshvk_status_free(meshvk_semaphore_wait(done, value, 60ull * 1000000000));
  }
  for (auto _ : state) {
    meshvk_semaphore_value_t signal{done, ++value};
    meshvk_submit_info_t submit = MESHVK_SUBMIT_INFO_INIT;
    submit.command_buffer = cb;
    submit.signals = &signal;
    submit.signal_count = 1;
    auto t0 = std::chrono::steady_clock::now();
    if (!Check(state, meshvk_queue_submit(set, &submit)) ||
        !Check(state, meshvk_semaphore_wait(done, value, 60ull * 1000000000)))
      break;
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    state.SetIterationTime(s);
    best = std::min(best, s);
    if (probe) probe->Run();
  }
  meshvk_command_buffer_release(cb);
  meshvk_semaphore_release(done);
  return best;
}

// Best of `reps` untimed-by-the-framework copies `src` -> `dst` on `process`
// (a reference measured next to a benchmark's own loop).
double DeviceCopySecondsOnce(uint32_t process, meshvk_buffer_t* src, meshvk_buffer_t* dst, uint64_t bytes,
                             uint64_t reps) {
  meshvk_device_set_t* set = TheSetup().set;
  meshvk_command_buffer_t* cb = nullptr;
  meshvk_semaphore_t* done = nullptr;
  meshvk_status_free(meshvk_command_buffer_create(set, process, &cb));
  meshvk_status_free(meshvk_command_buffer_copy(cb, src, 0, dst, 0, bytes));
  meshvk_status_free(meshvk_command_buffer_end(cb));
  meshvk_status_free(meshvk_semaphore_create(set, process, 0, &done));
  double best = 1e30;
  for (uint64_t v = 1; v <= reps + 1; ++v) {
    meshvk_semaphore_value_t signal{done, v};
    meshvk_submit_info_t submit = MESHVK_SUBMIT_INFO_INIT;
    submit.command_buffer = cb;
    submit.signals = &signal;
    submit.signal_count = 1;
    auto t0 = std::chrono::steady_clock::now();
    meshvk_status_free(meshvk_queue_submit(set, &submit));
    meshvk_status_free(meshvk_semaphore_wait(done, v, 60ull * 1000000000));
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (v > 1) best = std::min(best, s);  // the first run warms the memory
  }
  meshvk_command_buffer_release(cb);
  meshvk_semaphore_release(done);
  return best;
}

void Report(benchmark::State& state, uint64_t bytes, double best, double reference, const char* name) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.counters["GBps"] = bytes / best / 1e9;
  state.counters[name] = reference / best;  // > 1: faster than the reference
}

void BM_SameDevice(benchmark::State& state) {
  if (!TheSetup().error.empty()) return state.SkipWithError(TheSetup().error.c_str());
  const uint64_t bytes = static_cast<uint64_t>(state.range(0));
  meshvk_buffer_t *a = Make(0, bytes, false), *b = Make(0, bytes, false);
  MemcpyProbe memcpy_probe(bytes);
  double best = DeviceCopySeconds(state, 0, a, b, bytes, &memcpy_probe);
  if (best > 0) Report(state, bytes, best, memcpy_probe.best(), "vs_memcpy");
  meshvk_buffer_release(a);
  meshvk_buffer_release(b);
}

// Process 1 pulls process 0's exported buffer through its imported view.
void BM_ExternalMemory(benchmark::State& state) {
  if (!TheSetup().error.empty()) return state.SkipWithError(TheSetup().error.c_str());
  const uint64_t bytes = static_cast<uint64_t>(state.range(0));
  meshvk_copy_path_info_t path = MESHVK_COPY_PATH_INFO_INIT;
  meshvk_status_free(meshvk_device_set_copy_path(TheSetup().set, 0, 1, &path));
  if (path.path != MESHVK_COPY_PATH_EXTERNAL_MEMORY) return state.SkipWithError(path.reason);
  meshvk_buffer_t *src = Make(0, bytes, true), *dst = Make(1, bytes, false), *view = nullptr;
  if (Check(state, meshvk_buffer_share(src, 1, &view))) {
    // The same-device reference on the destination device, in this process.
    meshvk_buffer_t* local = Make(1, bytes, false);
    benchmark::State* s = &state;
    double best = DeviceCopySeconds(*s, 1, view, dst, bytes, nullptr);
    double same = DeviceCopySecondsOnce(1, local, dst, bytes, std::max<uint64_t>(5, state.iterations()));
    if (best > 0) Report(state, bytes, best, same, "vs_same_device");
    // The same copy inside device 1 from exportable memory of its own: tells
    // the cost of the memory kind (lavapipe backs exportable memory with a
    // shared memfd) from the cost of crossing devices.
    meshvk_buffer_t* local_exportable = Make(1, bytes, true);
    if (local_exportable && best > 0) {
      double exportable =
          DeviceCopySecondsOnce(1, local_exportable, dst, bytes, std::max<uint64_t>(5, state.iterations()));
      state.counters["vs_same_device_exportable_src"] = exportable / best;
    }
    meshvk_buffer_release(local_exportable);
    meshvk_buffer_release(local);
  }
  meshvk_buffer_release(view);
  meshvk_buffer_release(src);
  meshvk_buffer_release(dst);
}

void BM_HostStaging(benchmark::State& state) {
  if (!TheSetup().error.empty()) return state.SkipWithError(TheSetup().error.c_str());
  const uint64_t bytes = static_cast<uint64_t>(state.range(0));
  meshvk_buffer_t *src = Make(0, bytes, false), *dst = Make(1, bytes, false);
  double best = 1e30;
  if (!Check(state, meshvk_buffer_copy_host_staged(src, 0, dst, 0, bytes, MESHVK_TIMEOUT_INFINITE)))
    return;  // warm-up (first touch)
  MemcpyProbe memcpy_probe(bytes);
  double best_cpu = 1e30;
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    double c0 = ProcessCpuSeconds();
    if (!Check(state, meshvk_buffer_copy_host_staged(src, 0, dst, 0, bytes, MESHVK_TIMEOUT_INFINITE))) break;
    best_cpu = std::min(best_cpu, ProcessCpuSeconds() - c0);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    state.SetIterationTime(s);
    best = std::min(best, s);
    memcpy_probe.Run();
  }
  Report(state, bytes, best, memcpy_probe.best(), "vs_memcpy");
  // CPU seconds a memcpy of the bytes takes over CPU seconds the staged copy
  // takes in all threads: how much work it is, which the load of a shared
  // machine does not change (1/3 for device -> host -> device with a host
  // memcpy: three copies; 1/2 through a host allocation both devices import).
  state.counters["cpu_vs_memcpy"] = memcpy_probe.best_cpu() / best_cpu;
  state.counters["peak_staging_bytes_dst"] =
      static_cast<double>(meshvk_device_set_peak_staging_bytes(TheSetup().set, 1));
  meshvk_buffer_release(src);
  meshvk_buffer_release(dst);
}

void Sizes(benchmark::internal::Benchmark* b) {
  b->Arg(64 << 10)->Arg(1 << 20)->Arg(64 << 20)->Arg(256 << 20)->UseManualTime()->Unit(benchmark::kMillisecond);
}
BENCHMARK(BM_SameDevice)->Apply(Sizes);
BENCHMARK(BM_ExternalMemory)->Apply(Sizes);
BENCHMARK(BM_HostStaging)->Apply(Sizes);

#ifdef MESHVK_BENCH_MLP_ARTIFACT
// One program instantiated on a device set of `physical_devices`, with random
// inputs and room for its results.
struct MlpRun {
  meshvk_device_set_t* set = nullptr;
  meshvk_program_t* program = nullptr;
  std::vector<std::vector<float>> inputs, outputs;
  std::vector<meshvk_host_input_t> in;
  std::vector<meshvk_host_output_t> out;
  ~MlpRun() {
    meshvk_program_release(program);
    meshvk_device_set_release(set);
  }
  bool Create(benchmark::State& state, meshvk_module_t* module, meshvk_topology_t topology,
              std::vector<uint32_t> physical_devices) {
    meshvk_grid_info_t grid = MESHVK_GRID_INFO_INIT;
    meshvk_status_free(meshvk_module_grid_info(module, &grid));
    meshvk_device_set_create_info_t info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
    info.topology = topology;
    info.process_count = grid.process_count;
    info.physical_devices = physical_devices.data();
    info.physical_device_count = static_cast<uint32_t>(physical_devices.size());
    if (!Check(state, meshvk_device_set_create(TheSetup().instance, &info, &set)) ||
        !Check(state, meshvk_program_create(module, set, &program)))
      return false;
    meshvk_function_info_t fn = MESHVK_FUNCTION_INFO_INIT;
    if (!Check(state, meshvk_module_function_info(module, 0, &fn))) return false;
    uint32_t seed = 1;
    for (uint32_t i = 0; i < fn.argument_count; ++i) {
      meshvk_tensor_info_t t = MESHVK_TENSOR_INFO_INIT;
      if (!Check(state, meshvk_module_argument_info(module, 0, i, &t))) return false;
      inputs.emplace_back(t.byte_size / sizeof(float));
      for (float& v : inputs.back())
        v = static_cast<float>((seed = seed * 1664525u + 1013904223u) >> 8) / (1u << 24) - 0.5f;
      in.push_back({inputs.back().data(), t.byte_size});
    }
    for (uint32_t i = 0; i < fn.result_count; ++i) {
      meshvk_tensor_info_t t = MESHVK_TENSOR_INFO_INIT;
      if (!Check(state, meshvk_module_result_info(module, 0, i, &t))) return false;
      outputs.emplace_back(t.byte_size / sizeof(float));
      out.push_back({outputs.back().data(), t.byte_size});
    }
    return true;
  }
  // Wall seconds of one invoke, inputs in and results out included.
  double Invoke(benchmark::State& state) {
    meshvk_invoke_info_t info = MESHVK_INVOKE_INFO_INIT;
    info.inputs = in.data();
    info.input_count = static_cast<uint32_t>(in.size());
    info.outputs = out.data();
    info.output_count = static_cast<uint32_t>(out.size());
    auto t0 = std::chrono::steady_clock::now();
    if (!Check(state, meshvk_program_invoke(program, &info))) return 0;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
};

// The MLP sample (mlp_megatron, grid 4) on two independent devices (its
// all_reduce crosses them) against the same program with every process on
// one device, alternated in one process so both see the same load. Manual
// time: the two-device invoke; `vs_one_device` = one-device time / that.
void BM_MlpTwoDevicesVsOne(benchmark::State& state) {
  if (!TheSetup().error.empty()) {
    state.SkipWithError(TheSetup().error.c_str());
    return;
  }
  meshvk_module_t* module = nullptr;
  if (!Check(state, meshvk_module_load_file(MESHVK_BENCH_MLP_ARTIFACT, &module))) return;
  {
    MlpRun one, two;
    if (one.Create(state, module, MESHVK_TOPOLOGY_LOGICAL, {0}) &&
        two.Create(state, module, MESHVK_TOPOLOGY_INDEPENDENT, {0, 1})) {
      one.Invoke(state);  // warm-up: first touch of the buffers
      two.Invoke(state);
      std::vector<double> one_s, two_s;
      for (auto _ : state) {
        one_s.push_back(one.Invoke(state));
        two_s.push_back(two.Invoke(state));
        state.SetIterationTime(two_s.back());
      }
      std::sort(one_s.begin(), one_s.end());
      std::sort(two_s.begin(), two_s.end());
      if (!two_s.empty()) {
        state.counters["one_device_ms"] = one_s[one_s.size() / 2] * 1e3;
        state.counters["two_devices_ms"] = two_s[two_s.size() / 2] * 1e3;
        state.counters["vs_one_device"] = one_s[one_s.size() / 2] / two_s[two_s.size() / 2];
      }
    }
  }
  meshvk_module_release(module);
}
BENCHMARK(BM_MlpTwoDevicesVsOne)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(30);
#endif

}  // namespace

BENCHMARK_MAIN();
