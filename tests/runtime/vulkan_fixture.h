// Shared fixture of the runtime tests: a meshvk instance with the Khronos
// validation layer and synchronization validation ON. Any validation message
// during a test fails it (the message is printed).
#ifndef MESHVK_TESTS_RUNTIME_VULKAN_FIXTURE_H_
#define MESHVK_TESTS_RUNTIME_VULKAN_FIXTURE_H_

#include <gtest/gtest.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "meshvk/meshvk.h"

namespace meshvk_test {

// Consumes `status`; returns "" for OK, else "CODE: message".
std::string StatusText(meshvk_status_t status);

// Expect/assert that a call returns OK; the message is shown on failure.
#define MESHVK_EXPECT_OK(expr) EXPECT_EQ(::meshvk_test::StatusText(expr), "")
#define MESHVK_ASSERT_OK(expr) ASSERT_EQ(::meshvk_test::StatusText(expr), "")

// Consumes `status`; checks its code and that its message contains `needle`.
::testing::AssertionResult HasCode(meshvk_status_t status, meshvk_status_code_t code, const std::string& needle = "");

// Owning handles for test code.
template <typename T, void (*Release)(T*)>
struct Releaser {
  void operator()(T* p) const { Release(p); }
};
using Instance = std::unique_ptr<meshvk_instance_t, Releaser<meshvk_instance_t, meshvk_instance_release>>;
using DeviceSet = std::unique_ptr<meshvk_device_set_t, Releaser<meshvk_device_set_t, meshvk_device_set_release>>;
using Buffer = std::unique_ptr<meshvk_buffer_t, Releaser<meshvk_buffer_t, meshvk_buffer_release>>;
using Executable = std::unique_ptr<meshvk_executable_t, Releaser<meshvk_executable_t, meshvk_executable_release>>;
using CommandBuffer =
    std::unique_ptr<meshvk_command_buffer_t, Releaser<meshvk_command_buffer_t, meshvk_command_buffer_release>>;
using Semaphore = std::unique_ptr<meshvk_semaphore_t, Releaser<meshvk_semaphore_t, meshvk_semaphore_release>>;

// The submit info of `cb` (ended): after `waits`, signalling `signals`
// (NULL and 0: none).
inline meshvk_submit_info_t SubmitInfo(meshvk_command_buffer_t* cb, const meshvk_semaphore_value_t* waits = nullptr,
                                       uint32_t wait_count = 0, const meshvk_semaphore_value_t* signals = nullptr,
                                       uint32_t signal_count = 0) {
  return {MESHVK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, cb, waits, wait_count, signals, signal_count};
}

// A dispatch of the fill builtin (MESHVK_BUILTIN_FILL) over `*binding` with
// its push constants `push` (3 words), `workgroups` x 1 x 1 workgroups.
inline meshvk_dispatch_info_t FillDispatch(meshvk_executable_t* fill, const meshvk_binding_t* binding,
                                           const uint32_t* push, uint32_t workgroups) {
  return {MESHVK_STRUCTURE_TYPE_DISPATCH_INFO, nullptr, fill, binding, 1, push, 12, {workgroups, 1, 1}, {0, 0, 0}};
}

class VulkanTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // A device set of `processes` processes; fails the test on error.
  // `chain`: structs chained to the create info after the environment's (of a
  // type the environment sets, the environment's counts).
  DeviceSet MakeSet(meshvk_topology_t topology, uint32_t processes, const uint32_t* process_devices = nullptr,
                    const void* chain = nullptr);
  Buffer MakeBuffer(meshvk_device_set_t* set, uint32_t process, uint64_t bytes);
  // Through meshvk_buffer_create_with_info, with `flags`.
  Buffer MakeBuffer(meshvk_device_set_t* set, uint32_t process, uint64_t bytes, meshvk_buffer_flags_t flags);
  Executable Builtin(meshvk_device_set_t* set, meshvk_builtin_t builtin);
  CommandBuffer MakeCommandBuffer(meshvk_device_set_t* set, uint32_t process);
  // Submits `cb` (ended, recorded for `process`) signalling a fresh semaphore
  // and waits for it.
  void SubmitAndWait(meshvk_device_set_t* set, uint32_t process, meshvk_command_buffer_t* cb);
  // Returns and forgets the validation messages seen so far (for the test
  // that proves the layer is live).
  std::vector<std::string> TakeMessages();
  // Size of device group 0 (1 on lavapipe; 2..8 under the emulation layer).
  uint32_t Group0Size();

  std::vector<uint32_t> ReadWords(meshvk_buffer_t* buffer);
  std::vector<float> ReadFloats(meshvk_buffer_t* buffer);

  meshvk_instance_t* instance() { return instance_.get(); }

 private:
  static void OnMessage(meshvk_message_severity_t severity, const char* message, void* self);
  Instance instance_;
  std::mutex mutex_;
  std::vector<std::string> messages_;
};

}  // namespace meshvk_test

#endif  // MESHVK_TESTS_RUNTIME_VULKAN_FIXTURE_H_
