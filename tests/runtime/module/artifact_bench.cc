// Measures (prints, never asserts) what the issue asks to note:
//  * load + verify time of a 1000-dispatch artifact (no device);
//  * per dispatch: host time to record it (once, in meshvk_program_create)
//    vs wall time to replay it (each invoke: submit, execute, wait).
// Usage: artifact_bench [dispatches=1000] [elements=64] [replays=20]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "host_invoke.h"
#include "meshvk/meshvk.h"
#include "meshvk/module.h"
#include "meshvk_environment.h"
#include "programs.h"

namespace {

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int Check(meshvk_status_t status, const char* what) {
  if (!status) return 0;
  std::fprintf(stderr, "artifact_bench: %s: %s\n", what, meshvk_status_message(status));
  meshvk_status_free(status);
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  uint32_t dispatches = argc > 1 ? std::atoi(argv[1]) : 1000;
  uint64_t n = argc > 2 ? std::atoi(argv[2]) : 64;
  int replays = argc > 3 ? std::atoi(argv[3]) : 20;
  std::vector<uint8_t> bytes = meshvk_test::DispatchChain(dispatches, n);

  std::vector<double> load_ms;
  meshvk_module_t* module = nullptr;
  for (int i = 0; i < 10; ++i) {
    if (module) meshvk_module_release(module);
    auto start = std::chrono::steady_clock::now();
    Check(meshvk_module_load(bytes.data(), bytes.size(), &module), "load");
    load_ms.push_back(Seconds(start) * 1e3);
  }
  std::sort(load_ms.begin(), load_ms.end());
  std::printf("load+verify: %u dispatches, %zu bytes: median %.3f ms (min %.3f) = %.2f us/dispatch\n", dispatches,
              bytes.size(), load_ms[5], load_ms[0], load_ms[5] * 1e3 / dispatches);

  meshvk_instance_t* instance = nullptr;
  Check(meshvk_environment_create_instance(&instance), "instance");
  meshvk_device_set_create_info_t set_info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
  set_info.topology = MESHVK_TOPOLOGY_LOGICAL;
  set_info.process_count = 1;
  meshvk_device_set_t* set = nullptr;
  Check(meshvk_device_set_create(instance, &set_info, &set), "device set");
  // Recording is measured over 5 program creations (the machine may be busy:
  // the minimum is the cost, the median what a user sees).
  meshvk_program_t* program = nullptr;
  std::vector<double> record_us_list;
  double create_s = 0;
  meshvk_program_stats_t stats = MESHVK_PROGRAM_STATS_INIT;
  for (int i = 0; i < 5; ++i) {
    if (program) meshvk_program_release(program);
    auto create_start = std::chrono::steady_clock::now();
    Check(meshvk_program_create(module, set, &program), "program");
    create_s = Seconds(create_start);
    meshvk_status_free(meshvk_program_stats(program, &stats));
    record_us_list.push_back(stats.record_ns / 1e3 / dispatches);
  }
  std::sort(record_us_list.begin(), record_us_list.end());

  std::vector<float> x(n, 1.0f), z(n);
  meshvk_test::HostInvoke invoke({meshvk_test::HostIn(x)}, {meshvk_test::HostOut(z)});
  meshvk_invoke_info_t& info = invoke.info;
  Check(meshvk_program_invoke(program, &info), "warm-up");
  info.flags = MESHVK_INVOKE_TIMESTAMPS_BIT;
  std::vector<double> replay_ms, device_ms;
  for (int r = 0; r < replays; ++r) {
    auto start = std::chrono::steady_clock::now();
    Check(meshvk_program_invoke(program, &info), "invoke");
    replay_ms.push_back(Seconds(start) * 1e3);
    meshvk_phase_timing_t timing = MESHVK_PHASE_TIMING_INIT;
    uint32_t count = 0;
    if (meshvk_status_t status = meshvk_program_phase_timings(program, &timing, 1, &count)) {
      meshvk_status_free(status);
    } else {
      device_ms.push_back(timing.device_ns / 1e6);
    }
  }
  std::sort(device_ms.begin(), device_ms.end());
  std::sort(replay_ms.begin(), replay_ms.end());
  double record_us = record_us_list[2];
  double replay_us = replay_ms[replay_ms.size() / 2] * 1e3 / dispatches;
  std::printf("program create: %.3f ms total (buffers, pipelines, recording)\n", create_s * 1e3);
  std::printf("record (host, once per program; 5 programs): %u commands: median %.2f us/dispatch (min %.2f)\n",
              stats.command_count, record_us, record_us_list[0]);
  std::printf(
      "replay (invoke wall: write %llu B, submit, execute on the device, wait, read): median %.3f ms = "
      "%.2f us/dispatch\n",
      static_cast<unsigned long long>(n * 4), replay_ms[replay_ms.size() / 2], replay_us);
  if (!device_ms.empty())
    if (!device_ms.empty())
      std::printf(
          "  of which device time (timestamps): median %.3f ms = %.2f us/dispatch; host side of a replay "
          "(write, submit, wait, read): median %.3f ms = %.3f us/dispatch\n",
          device_ms[device_ms.size() / 2], device_ms[device_ms.size() / 2] * 1e3 / dispatches,
          replay_ms[replay_ms.size() / 2] - device_ms[device_ms.size() / 2],
          (replay_ms[replay_ms.size() / 2] - device_ms[device_ms.size() / 2]) * 1e3 / dispatches);
  if (!device_ms.empty()) {
    double replay_host_us = (replay_ms[replay_ms.size() / 2] - device_ms[device_ms.size() / 2]) * 1e3 / dispatches;
    std::printf("host cost per dispatch: record %.2f us once vs replay %.3f us per invoke (%.0fx cheaper)\n", record_us,
                replay_host_us, record_us / replay_host_us);
  }
  std::printf("result check z[0] = %g (expected %g)\n", z[0], 1.0 + dispatches);
  meshvk_program_release(program);
  meshvk_device_set_release(set);
  meshvk_instance_release(instance);
  meshvk_module_release(module);
  return z[0] == 1.0f + dispatches ? 0 : 1;
}
