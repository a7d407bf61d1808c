// Uses the installed C API end to end: a device set, a buffer, the built-in
// fill kernel, a submit and a host check. Prints "consumer: ok" on success.
#include <meshvk/meshvk.h>

#include <cstdio>
#include <vector>

namespace {
bool Ok(meshvk_status_t status, const char* what) {
  if (!status) return true;
  std::fprintf(stderr, "consumer: %s: %s: %s\n", what, meshvk_status_code_name(meshvk_status_code(status)),
               meshvk_status_message(status));
  meshvk_status_free(status);
  return false;
}
}  // namespace

int main() {
  if (meshvk_version() != MESHVK_VERSION) {
    std::fprintf(stderr, "consumer: library version 0x%x, headers 0x%x\n", meshvk_version(), MESHVK_VERSION);
    return 1;
  }
  meshvk_instance_t* instance = nullptr;
  meshvk_instance_create_info_t instance_info = MESHVK_INSTANCE_CREATE_INFO_INIT;
  if (!Ok(meshvk_instance_create(&instance_info, &instance), "instance")) return 1;
  meshvk_device_set_create_info_t set_info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
  set_info.topology = MESHVK_TOPOLOGY_LOGICAL;
  set_info.process_count = 1;
  meshvk_device_set_t* set = nullptr;
  meshvk_buffer_t* buffer = nullptr;
  meshvk_executable_t* fill = nullptr;
  meshvk_command_buffer_t* cb = nullptr;
  meshvk_semaphore_t* done = nullptr;
  const uint32_t n = 1024;
  bool ok = Ok(meshvk_device_set_create(instance, &set_info, &set), "device set") &&
            Ok(meshvk_buffer_create(set, 0, n * 4, &buffer), "buffer") &&
            Ok(meshvk_executable_builtin(set, MESHVK_BUILTIN_FILL, &fill), "builtin") &&
            Ok(meshvk_command_buffer_create(set, 0, &cb), "command buffer") &&
            Ok(meshvk_semaphore_create(set, 0, 0, &done), "semaphore");
  if (ok) {
    meshvk_binding_t binding = {buffer, 0, 0, 1};
    uint32_t push[3] = {0, n, 0xC0FFEEu};
    meshvk_dispatch_info_t dispatch = MESHVK_DISPATCH_INFO_INIT;
    dispatch.executable = fill;
    dispatch.bindings = &binding;
    dispatch.binding_count = 1;
    dispatch.push_constants = push;
    dispatch.push_constant_size = sizeof(push);
    dispatch.workgroup_count[0] = dispatch.workgroup_count[1] = dispatch.workgroup_count[2] = 1;
    meshvk_semaphore_value_t signal = {done, 1};
    meshvk_submit_info_t submit = MESHVK_SUBMIT_INFO_INIT;
    submit.command_buffer = cb;
    submit.signals = &signal;
    submit.signal_count = 1;
    ok = Ok(meshvk_command_buffer_dispatch(cb, &dispatch), "dispatch") && Ok(meshvk_command_buffer_end(cb), "end") &&
         Ok(meshvk_queue_submit(set, &submit), "submit") &&
         Ok(meshvk_semaphore_wait(done, 1, 60ull * 1000 * 1000 * 1000), "wait");
  }
  std::vector<uint32_t> words(n);
  if (ok) ok = Ok(meshvk_buffer_read(buffer, 0, words.data(), n * 4), "read");
  for (uint32_t i = 0; ok && i < n; ++i) {
    if (words[i] != 0xC0FFEEu) {
      std::fprintf(stderr, "consumer: word %u is 0x%x, expected 0xc0ffee\n", i, words[i]);
      ok = false;
    }
  }
  meshvk_command_buffer_release(cb);
  meshvk_semaphore_release(done);
  meshvk_executable_release(fill);
  meshvk_buffer_release(buffer);
  meshvk_device_set_release(set);
  meshvk_instance_release(instance);
  if (ok) std::printf("consumer: ok\n");
  return ok ? 0 : 1;
}
