// mesh-vk-run --self-check (see self_check.h).
#include "self_check.h"

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "plan_print.h"

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

meshvk_status_t Record(meshvk_device_set_t* set, meshvk_executable_t* fill, uint32_t p, ProcessWork* work) {
  const uint64_t bytes = kWords * sizeof(float);
  meshvk_status_t status = nullptr;
  if ((status = meshvk_buffer_create(set, p, bytes, &work->a))) return status;
  if ((status = meshvk_buffer_create(set, p, bytes, &work->b))) return status;
  // c is what the successor pulls: exportable when their path is external memory.
  const uint32_t next = (p + 1) % meshvk_device_set_process_count(set);
  meshvk_copy_path_info_t path = MESHVK_COPY_PATH_INFO_INIT;
  if ((status = meshvk_device_set_copy_path(set, p, next, &path))) return status;
  meshvk_buffer_create_info_t c_info = MESHVK_BUFFER_CREATE_INFO_INIT;
  c_info.process = p;
  c_info.size = bytes;
  if (path.path == MESHVK_COPY_PATH_EXTERNAL_MEMORY) c_info.flags = MESHVK_BUFFER_EXPORTABLE_BIT;
  if ((status = meshvk_buffer_create_with_info(set, &c_info, &work->c))) return status;
  if ((status = meshvk_semaphore_create(set, p, 0, &work->done))) return status;
  std::vector<float> a(kWords);
  for (uint32_t i = 0; i < kWords; ++i) a[i] = HostA(p, i);
  if ((status = meshvk_buffer_write(work->a, 0, a.data(), bytes))) return status;

  if ((status = meshvk_command_buffer_create(set, p, &work->cb))) return status;
  float b_value = HostB(p);
  uint32_t push[3] = {0, kWords, 0};
  std::memcpy(&push[2], &b_value, sizeof(float));
  meshvk_binding_t binding = {work->b, 0, 0, 1};
  meshvk_dispatch_info_t dispatch = MESHVK_DISPATCH_INFO_INIT;
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

// Process p pulls c of its predecessor q by the pair's path into a fresh
// buffer and compares it with the host's values; one line per pair.
meshvk_status_t CheckNeighbourPull(meshvk_device_set_t* set, uint32_t p, uint32_t q, meshvk_buffer_t* src, FILE* out,
                                   std::string* mismatch) {
  const uint64_t bytes = kWords * sizeof(float);
  meshvk_copy_path_info_t path = MESHVK_COPY_PATH_INFO_INIT;
  meshvk_status_t status = nullptr;
  if ((status = meshvk_device_set_copy_path(set, q, p, &path))) return status;
  meshvk_buffer_t* dst = nullptr;
  if ((status = meshvk_buffer_create(set, p, bytes, &dst))) return status;
  std::unique_ptr<meshvk_buffer_t, void (*)(meshvk_buffer_t*)> dst_owner(dst, meshvk_buffer_release);
  meshvk_buffer_t* view = nullptr;
  if (path.path == MESHVK_COPY_PATH_HOST_STAGING) {
    if ((status = meshvk_buffer_copy_host_staged(src, 0, dst, 0, bytes, kWaitNs))) return status;
  } else {
    if (path.path == MESHVK_COPY_PATH_GROUP_PEER && !(meshvk_device_set_peer_features(set, p, q) & 0x1u)) {
      std::fprintf(out, "process %u <- %u: group peer memory without copy access: not checked\n", p, q);
      return nullptr;
    }
    if (path.path == MESHVK_COPY_PATH_EXTERNAL_MEMORY && (status = meshvk_buffer_share(src, p, &view))) return status;
    std::unique_ptr<meshvk_buffer_t, void (*)(meshvk_buffer_t*)> view_owner(view, meshvk_buffer_release);
    meshvk_command_buffer_t* cb = nullptr;
    if ((status = meshvk_command_buffer_create(set, p, &cb))) return status;
    std::unique_ptr<meshvk_command_buffer_t, void (*)(meshvk_command_buffer_t*)> cb_owner(
        cb, meshvk_command_buffer_release);
    meshvk_semaphore_t* done = nullptr;
    if ((status = meshvk_semaphore_create(set, p, 0, &done))) return status;
    std::unique_ptr<meshvk_semaphore_t, void (*)(meshvk_semaphore_t*)> done_owner(done, meshvk_semaphore_release);
    if ((status = meshvk_command_buffer_copy(cb, view ? view : src, 0, dst, 0, bytes))) return status;
    if ((status = meshvk_command_buffer_end(cb))) return status;
    meshvk_semaphore_value_t signal = {done, 1};
    meshvk_submit_info_t submit = MESHVK_SUBMIT_INFO_INIT;
    submit.command_buffer = cb;
    submit.signals = &signal;
    submit.signal_count = 1;
    if ((status = meshvk_queue_submit(set, &submit))) return status;
    if ((status = meshvk_semaphore_wait(done, 1, kWaitNs))) return status;
  }
  std::vector<float> got(kWords);
  if ((status = meshvk_buffer_read(dst, 0, got.data(), bytes))) return status;
  for (uint32_t i = 0; i < kWords; ++i) {
    float expected = HostA(q, i) + HostB(q);
    if (got[i] != expected) {
      *mismatch = "process " + std::to_string(p) + " pulling from process " + std::to_string(q) + " by " +
                  meshvk_copy_path_name(path.path) + ", word " + std::to_string(i) + ": got " + std::to_string(got[i]) +
                  ", host computed " + std::to_string(expected);
      return nullptr;
    }
  }
  std::fprintf(out, "process %u <- %u: %s: %u floats match the host\n", p, q, meshvk_copy_path_name(path.path), kWords);
  return nullptr;
}

}  // namespace

meshvk_status_t SelfCheck(meshvk_instance_t* instance, uint32_t processes, meshvk_topology_t topology,
                          const std::vector<uint32_t>& physical_devices, FILE* out, std::string* mismatch) {
  meshvk_device_set_create_info_t info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
  info.topology = topology;
  info.process_count = processes;
  info.physical_devices = physical_devices.data();
  info.physical_device_count = static_cast<uint32_t>(physical_devices.size());
  meshvk_device_set_t* set = nullptr;
  if (meshvk_status_t status = meshvk_device_set_create(instance, &info, &set)) return status;
  std::unique_ptr<meshvk_device_set_t, void (*)(meshvk_device_set_t*)> set_owner(set, meshvk_device_set_release);
  meshvk_executable_t* fill = nullptr;
  if (meshvk_status_t status = meshvk_executable_builtin(set, MESHVK_BUILTIN_FILL, &fill)) {
    return status;
  }
  std::unique_ptr<meshvk_executable_t, void (*)(meshvk_executable_t*)> fill_owner(fill, meshvk_executable_release);

  std::vector<ProcessWork> work(processes);
  for (uint32_t p = 0; p < processes; ++p) {
    if (meshvk_status_t status = Record(set, fill, p, &work[p])) return status;
  }
  // Submit everything first, then wait: processes run concurrently.
  for (uint32_t p = 0; p < processes; ++p) {
    meshvk_semaphore_value_t signal = {work[p].done, 1};
    meshvk_submit_info_t submit = MESHVK_SUBMIT_INFO_INIT;
    submit.command_buffer = work[p].cb;
    submit.signals = &signal;
    submit.signal_count = 1;
    if (meshvk_status_t status = meshvk_queue_submit(set, &submit)) return status;
  }
  const char* topology_name = TopologyText(meshvk_device_set_topology(set));
  for (uint32_t p = 0; p < processes; ++p) {
    if (meshvk_status_t status = meshvk_semaphore_wait(work[p].done, 1, kWaitNs)) return status;
    std::vector<float> c(kWords);
    if (meshvk_status_t status = meshvk_buffer_read(work[p].c, 0, c.data(), kWords * sizeof(float))) {
      return status;
    }
    for (uint32_t i = 0; i < kWords; ++i) {
      float expected = HostA(p, i) + HostB(p);
      if (c[i] != expected) {
        *mismatch = "process " + std::to_string(p) + " word " + std::to_string(i) + ": got " + std::to_string(c[i]) +
                    ", host computed " + std::to_string(expected);
        return nullptr;
      }
    }
    meshvk_process_info_t process_info = MESHVK_PROCESS_INFO_INIT;
    if (meshvk_status_t status = meshvk_device_set_process_info(set, p, &process_info)) {
      return status;
    }
    meshvk_physical_device_info_t device = MESHVK_PHYSICAL_DEVICE_INFO_INIT;
    if (meshvk_status_t status =
            meshvk_instance_physical_device_info(instance, process_info.physical_device, &device)) {
      return status;
    }
    std::fprintf(out,
                 "process %u: %s, physical device %u '%s', device index %u, queue %u: "
                 "fill + sum_f32 over %u floats match the host\n",
                 p, topology_name, process_info.physical_device, device.name, process_info.device_index,
                 process_info.queue_index, kWords);
  }
  for (uint32_t p = 0; processes > 1 && p < processes; ++p) {
    const uint32_t q = (p + processes - 1) % processes;
    if (meshvk_status_t status = CheckNeighbourPull(set, p, q, work[q].c, out, mismatch)) return status;
    if (!mismatch->empty()) return nullptr;
  }
  std::fprintf(out, "self-check: ok\n");
  return nullptr;
}

}  // namespace meshvk_run
