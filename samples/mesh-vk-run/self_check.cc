// mesh-vk-run --self-check (see self_check.h).
#include "self_check.h"

#include "plan_print.h"

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace meshvk_run {
namespace {

constexpr uint32_t kWords = 4096;
constexpr uint64_t kWaitNs = 60ull * 1000 * 1000 * 1000;

// Per-process objects, released in reverse order of creation.
struct ProcessWork {
  meshvk_buffer_t* a = nullptr;
  meshvk_buffer_t* b = nullptr;
  meshvk_buffer_t* c = nullptr;
  meshvk_command_buffer_t* cb = nullptr;
  meshvk_semaphore_t* done = nullptr;
  ~ProcessWork() {
    meshvk_command_buffer_release(cb);
    meshvk_semaphore_release(done);
    meshvk_buffer_release(c);
    meshvk_buffer_release(b);
    meshvk_buffer_release(a);
  }
};

float HostA(uint32_t process, uint32_t i) { return 0.5f * static_cast<float>(i) - process; }
float HostB(uint32_t process) { return static_cast<float>(process + 1) * 0.25f; }

meshvk_status_t Record(meshvk_device_set_t* set, meshvk_executable_t* fill, uint32_t p,
                       ProcessWork* work) {
  const uint64_t bytes = kWords * sizeof(float);
  meshvk_status_t status = nullptr;
  if ((status = meshvk_buffer_create(set, p, bytes, &work->a))) return status;
  if ((status = meshvk_buffer_create(set, p, bytes, &work->b))) return status;
  if ((status = meshvk_buffer_create(set, p, bytes, &work->c))) return status;
  if ((status = meshvk_semaphore_create(set, p, 0, &work->done))) return status;
  std::vector<float> a(kWords);
  for (uint32_t i = 0; i < kWords; ++i) a[i] = HostA(p, i);
  if ((status = meshvk_buffer_write(work->a, 0, a.data(), bytes))) return status;

  if ((status = meshvk_command_buffer_create(set, p, &work->cb))) return status;
  float b_value = HostB(p);
  uint32_t push[3] = {0, kWords, 0};
  std::memcpy(&push[2], &b_value, sizeof(float));
  meshvk_binding_t binding = {work->b, 0, 0, 1};
  meshvk_dispatch_info_t dispatch = {};
  dispatch.executable = fill;
  dispatch.bindings = &binding;
  dispatch.binding_count = 1;
  dispatch.push_constants = push;
  dispatch.push_constant_size = sizeof(push);
  dispatch.workgroup_count[0] = 7;  // deliberately few: the kernel loops
  dispatch.workgroup_count[1] = dispatch.workgroup_count[2] = 1;
  if ((status = meshvk_command_buffer_dispatch(work->cb, &dispatch))) return status;
  meshvk_buffer_t* sources[2] = {work->a, work->b};
  if ((status = meshvk_command_buffer_sum_f32(work->cb, sources, 2, work->c, kWords))) {
    return status;
  }
  return meshvk_command_buffer_end(work->cb);
}

}  // namespace

meshvk_status_t SelfCheck(meshvk_instance_t* instance, uint32_t processes,
                          meshvk_topology_t topology, FILE* out, std::string* mismatch) {
  meshvk_device_set_create_info_t info = {};
  info.topology = topology;
  info.process_count = processes;
  meshvk_device_set_t* set = nullptr;
  if (meshvk_status_t status = meshvk_device_set_create(instance, &info, &set)) return status;
  std::unique_ptr<meshvk_device_set_t, void (*)(meshvk_device_set_t*)> set_owner(
      set, meshvk_device_set_release);
  meshvk_executable_t* fill = nullptr;
  if (meshvk_status_t status = meshvk_executable_builtin(set, MESHVK_BUILTIN_FILL, &fill)) {
    return status;
  }
  std::unique_ptr<meshvk_executable_t, void (*)(meshvk_executable_t*)> fill_owner(
      fill, meshvk_executable_release);

  std::vector<ProcessWork> work(processes);
  for (uint32_t p = 0; p < processes; ++p) {
    if (meshvk_status_t status = Record(set, fill, p, &work[p])) return status;
  }
  // Submit everything first, then wait: processes run concurrently.
  for (uint32_t p = 0; p < processes; ++p) {
    meshvk_semaphore_value_t signal = {work[p].done, 1};
    meshvk_submit_info_t submit = {};
    submit.command_buffer = work[p].cb;
    submit.signals = &signal;
    submit.signal_count = 1;
    if (meshvk_status_t status = meshvk_queue_submit(set, &submit)) return status;
  }
  const char* topology_name = TopologyText(meshvk_device_set_topology(set));
  for (uint32_t p = 0; p < processes; ++p) {
    if (meshvk_status_t status = meshvk_semaphore_wait(work[p].done, 1, kWaitNs)) return status;
    std::vector<float> c(kWords);
    if (meshvk_status_t status =
            meshvk_buffer_read(work[p].c, 0, c.data(), kWords * sizeof(float))) {
      return status;
    }
    for (uint32_t i = 0; i < kWords; ++i) {
      float expected = HostA(p, i) + HostB(p);
      if (c[i] != expected) {
        *mismatch = "process " + std::to_string(p) + " word " + std::to_string(i) +
                    ": got " + std::to_string(c[i]) + ", host computed " +
                    std::to_string(expected);
        return nullptr;
      }
    }
    meshvk_process_info_t process_info;
    if (meshvk_status_t status = meshvk_device_set_process_info(set, p, &process_info)) {
      return status;
    }
    meshvk_physical_device_info_t device;
    if (meshvk_status_t status =
            meshvk_instance_physical_device_info(instance, process_info.physical_device, &device)) {
      return status;
    }
    std::fprintf(out,
                 "process %u: %s, physical device %u '%s', device index %u, queue %u: "
                 "fill + sum_f32 over %u floats match the host\n",
                 p, topology_name, process_info.physical_device, device.name,
                 process_info.device_index, process_info.queue_index, kWords);
  }
  std::fprintf(out, "self-check: ok\n");
  return nullptr;
}

}  // namespace meshvk_run
