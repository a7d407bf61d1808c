// Every public C API function called with live handles and hostile values
// everywhere else (NULL pointers; integers 0 or their maximum; zero-filled
// input structs), on lavapipe
// with validation on: each call must return a status or do nothing, without
// a crash and without a validation message. The calls are generated from the
// headers (tests/runtime/null_argument_sweep.py), so a new function is
// covered the day it is declared.
#include <cstdio>
#include <limits>
#include <vector>

#include "handles.h"
#include "meshvk/meshvk.h"
#include "meshvk/trace.h"
#include "meshvk/transport.h"
#include "meshvk/transport_mpi.h"
#include "meshvk/vulkan.h"
#include "programs.h"
#include "vulkan_fixture.h"

namespace meshvk_test {
namespace {

// A zero-filled input struct (an info whose every field was left unset).
template <typename T>
const T kZeroed{};

struct Call {
  const char* label;
  void (*run)(const Handles&);
};

const Call kCalls[] = {
#include "hostile_argument_calls.inc"
};

class HostileArgumentsTest : public VulkanTest {};

TEST_F(HostileArgumentsTest, EveryFunctionRefusesOrIgnoresThem) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 2);
  ASSERT_TRUE(set);
  Buffer buffer = MakeBuffer(set.get(), 0, 256);
  CommandBuffer command_buffer = MakeCommandBuffer(set.get(), 0);
  Executable executable = Builtin(set.get(), MESHVK_BUILTIN_FILL);
  meshvk_semaphore_t* semaphore = nullptr;
  MESHVK_ASSERT_OK(meshvk_semaphore_create(set.get(), 0, 0, &semaphore));
  Semaphore semaphore_owner(semaphore);
  std::vector<uint8_t> artifact = Elementwise({2}, {{0}, {}}, 4, 4, 1.0f);
  meshvk_module_t* module = nullptr;
  MESHVK_ASSERT_OK(meshvk_module_load(artifact.data(), artifact.size(), &module));
  meshvk_program_t* program = nullptr;
  MESHVK_ASSERT_OK(meshvk_program_create(module, set.get(), &program));

  Handles handles{instance(),       set.get(), buffer.get(), command_buffer.get(),
                  executable.get(), semaphore, module,       program};
  for (const Call& call : kCalls) {
    // Printed first: a crash then names the call that caused it.
    std::printf("%s\n", call.label);
    std::fflush(stdout);
    call.run(handles);
    std::vector<std::string> messages = TakeMessages();
    EXPECT_TRUE(messages.empty()) << call.label << " raised a validation message: " << messages.front();
  }
  MESHVK_EXPECT_OK(meshvk_device_set_wait_idle(set.get()));
  meshvk_program_release(program);
  meshvk_module_release(module);
}

}  // namespace
}  // namespace meshvk_test
