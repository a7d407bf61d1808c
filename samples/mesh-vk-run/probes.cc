// Copy-bandwidth and FMA-peak probes (see probes.h).
#include "probes.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>

#include "meshvk_probe_shaders.h"

namespace meshvk_run {
namespace {

constexpr uint64_t kWaitNs = 60ull * 1000 * 1000 * 1000;
constexpr uint64_t kCopyBytes = 64ull << 20;  // 64 MiB
constexpr uint32_t kFmaWorkgroups = 256;      // x 64 invocations
constexpr uint32_t kFmaIterations = 4096;
constexpr int kRepeats = 3;

template <typename T, void (*Release)(T*)>
struct Owned {
  T* p = nullptr;
  ~Owned() { Release(p); }
};
using Buffer = Owned<meshvk_buffer_t, meshvk_buffer_release>;
using Commands = Owned<meshvk_command_buffer_t, meshvk_command_buffer_release>;
using Semaphore = Owned<meshvk_semaphore_t, meshvk_semaphore_release>;
using Executable = Owned<meshvk_executable_t, meshvk_executable_release>;

// Best wall time of kRepeats submissions of `cb` (seconds).
meshvk_status_t BestOf(meshvk_device_set_t* set, uint32_t process, meshvk_command_buffer_t* cb, double* out) {
  Semaphore done;
  if (meshvk_status_t s = meshvk_semaphore_create(set, process, 0, &done.p)) return s;
  *out = 1e30;
  for (int r = 0; r < kRepeats; ++r) {
    meshvk_semaphore_value_t signal{done.p, static_cast<uint64_t>(r + 1)};
    meshvk_submit_info_t submit = MESHVK_SUBMIT_INFO_INIT;
    submit.command_buffer = cb;
    submit.signals = &signal;
    submit.signal_count = 1;
    auto start = std::chrono::steady_clock::now();
    if (meshvk_status_t s = meshvk_queue_submit(set, &submit)) return s;
    if (meshvk_status_t s = meshvk_semaphore_wait(done.p, signal.value, kWaitNs)) return s;
    *out = std::min(*out, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return nullptr;
}

}  // namespace

meshvk_status_t MeasureRoofs(meshvk_device_set_t* set, uint32_t process, DeviceRoofs* out) {
  *out = DeviceRoofs{};
  {  // copy bandwidth
    Buffer src, dst;
    Commands cb;
    if (meshvk_status_t s = meshvk_buffer_create(set, process, kCopyBytes, &src.p)) return s;
    if (meshvk_status_t s = meshvk_buffer_create(set, process, kCopyBytes, &dst.p)) return s;
    if (meshvk_status_t s = meshvk_command_buffer_create(set, process, &cb.p)) return s;
    // Touch the source once first, so the copy reads committed memory.
    if (meshvk_status_t s = meshvk_command_buffer_fill(cb.p, src.p, 0, kCopyBytes, 0x3f800000u)) return s;
    if (meshvk_status_t s = meshvk_command_buffer_end(cb.p)) return s;
    double fill_seconds = 0;
    if (meshvk_status_t s = BestOf(set, process, cb.p, &fill_seconds)) return s;
    Commands copy;
    if (meshvk_status_t s = meshvk_command_buffer_create(set, process, &copy.p)) return s;
    if (meshvk_status_t s = meshvk_command_buffer_copy(copy.p, src.p, 0, dst.p, 0, kCopyBytes)) return s;
    if (meshvk_status_t s = meshvk_command_buffer_end(copy.p)) return s;
    double seconds = 0;
    if (meshvk_status_t s = BestOf(set, process, copy.p, &seconds)) return s;
    out->copy_bytes = kCopyBytes;
    out->copy_bytes_per_second = kCopyBytes / seconds;
  }
  {  // FMA peak
    meshvk_executable_create_info_t info = MESHVK_EXECUTABLE_CREATE_INFO_INIT;
    info.spirv = meshvk::probe_spirv::fma_peak;
    info.spirv_size = meshvk::probe_spirv::fma_peak_word_count * sizeof(uint32_t);
    info.binding_count = 1;
    info.push_constant_size = 8;
    info.workgroup_size[0] = 64;
    info.workgroup_size[1] = info.workgroup_size[2] = 1;
    Executable fma;
    if (meshvk_status_t s = meshvk_executable_create(set, &info, &fma.p)) return s;
    Buffer values;
    const uint64_t invocations = uint64_t(kFmaWorkgroups) * 64;
    if (meshvk_status_t s = meshvk_buffer_create(set, process, invocations * 16, &values.p)) return s;
    Commands cb;
    if (meshvk_status_t s = meshvk_command_buffer_create(set, process, &cb.p)) return s;
    uint32_t push[2] = {kFmaIterations, 0};
    float seed = 0.5f;
    std::memcpy(&push[1], &seed, sizeof(seed));
    meshvk_binding_t binding{values.p, 0, 0, 1};
    meshvk_dispatch_info_t dispatch = MESHVK_DISPATCH_INFO_INIT;
    dispatch.executable = fma.p;
    dispatch.bindings = &binding;
    dispatch.binding_count = 1;
    dispatch.push_constants = push;
    dispatch.push_constant_size = sizeof(push);
    dispatch.workgroup_count[0] = kFmaWorkgroups;
    dispatch.workgroup_count[1] = dispatch.workgroup_count[2] = 1;
    if (meshvk_status_t s = meshvk_command_buffer_dispatch(cb.p, &dispatch)) return s;
    if (meshvk_status_t s = meshvk_command_buffer_end(cb.p)) return s;
    double seconds = 0;
    if (meshvk_status_t s = BestOf(set, process, cb.p, &seconds)) return s;
    out->fma_flops = invocations * kFmaIterations * 8 * 4 * 2;
    out->fma_flops_per_second = out->fma_flops / seconds;
  }
  return nullptr;
}

}  // namespace meshvk_run
