// Programs on one device set stay concurrent (issue 28): releasing a program
// waits for its own timelines, not for the set's queues, so another
// program's invoke still held by an application's semaphore neither blocks
// the release nor is harmed by it. Ordering only, never timing: the held
// invoke cannot finish before the test opens its gate, so a release that
// waited for the queue would run into the device timeout (2 s here), mark
// the device unresponsive and fail every check after it.
#include <gtest/gtest.h>

#include <vector>

#include "meshvk/module.h"
#include "programs.h"
#include "vulkan_fixture.h"

namespace meshvk_test {
namespace {

using Module = std::unique_ptr<meshvk_module_t, Releaser<meshvk_module_t, meshvk_module_release>>;
using Program = std::unique_ptr<meshvk_program_t, Releaser<meshvk_program_t, meshvk_program_release>>;

constexpr uint64_t kWait = 60ull * 1000 * 1000 * 1000;

class ProgramReleaseTest : public VulkanTest {};

TEST_F(ProgramReleaseTest, ReleasingAProgramDoesNotWaitForAnotherOnTheSameSet) {
  meshvk_device_timeout_t timeout = MESHVK_DEVICE_TIMEOUT_INIT;
  timeout.timeout = 2ull * 1000 * 1000 * 1000;
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1, nullptr, &timeout);
  ASSERT_TRUE(set);
  const std::vector<uint8_t> bytes = Elementwise({1}, {{}, {}}, 4, 4, 0.5f);  // c = a + 0.5 b
  meshvk_module_t* raw_module = nullptr;
  MESHVK_ASSERT_OK(meshvk_module_load(bytes.data(), bytes.size(), &raw_module));
  Module module(raw_module);
  meshvk_program_t* raw = nullptr;
  MESHVK_ASSERT_OK(meshvk_program_create(module.get(), set.get(), &raw));
  Program first(raw);
  MESHVK_ASSERT_OK(meshvk_program_create(module.get(), set.get(), &raw));
  Program second(raw);
  std::vector<float> a(16), b(16), c(16);
  for (int i = 0; i < 16; ++i) {
    a[i] = 1.0f + i;
    b[i] = 2.0f * i;
  }

  // The first program has run and finished.
  meshvk_host_input_t inputs[2] = {{a.data(), 64}, {b.data(), 64}};
  meshvk_host_output_t output = {c.data(), 64};
  meshvk_invoke_info_t invoke = MESHVK_INVOKE_INFO_INIT;
  invoke.inputs = inputs;
  invoke.input_count = 2;
  invoke.outputs = &output;
  invoke.output_count = 1;
  MESHVK_ASSERT_OK(meshvk_program_invoke(first.get(), &invoke));

  // The second one's invoke is submitted, held by a semaphore only the test signals.
  Buffer a_buffer = MakeBuffer(set.get(), 0, 64), b_buffer = MakeBuffer(set.get(), 0, 64),
         c_buffer = MakeBuffer(set.get(), 0, 64);
  MESHVK_ASSERT_OK(meshvk_buffer_write(a_buffer.get(), 0, a.data(), 64));
  MESHVK_ASSERT_OK(meshvk_buffer_write(b_buffer.get(), 0, b.data(), 64));
  meshvk_shard_buffer_t shards[3] = {{a_buffer.get(), 0}, {b_buffer.get(), 0}, {c_buffer.get(), 0}};
  meshvk_device_tensor_t arguments[2] = {{&shards[0], 1}, {&shards[1], 1}}, result = {&shards[2], 1};
  meshvk_semaphore_t* semaphore = nullptr;
  MESHVK_ASSERT_OK(meshvk_semaphore_create(set.get(), 0, 0, &semaphore));
  Semaphore gate(semaphore);
  MESHVK_ASSERT_OK(meshvk_semaphore_create(set.get(), 0, 0, &semaphore));
  Semaphore done(semaphore);
  meshvk_semaphore_value_t wait = {gate.get(), 1}, signal = {done.get(), 1};
  meshvk_async_invoke_info_t async = MESHVK_ASYNC_INVOKE_INFO_INIT;
  async.arguments = arguments;
  async.argument_count = 2;
  async.results = &result;
  async.result_count = 1;
  async.waits = &wait;
  async.wait_count = 1;
  async.signals = &signal;
  async.signal_count = 1;
  MESHVK_ASSERT_OK(meshvk_program_invoke_async(second.get(), &async));

  const uint64_t leaked = meshvk_leaked_object_count();
  first.reset();  // the release under test
  uint64_t value = 99;
  MESHVK_ASSERT_OK(meshvk_semaphore_query(done.get(), &value));
  EXPECT_EQ(value, 0u) << "the held invoke finished before its gate opened";
  EXPECT_EQ(meshvk_leaked_object_count(), leaked) << "the release gave up on the device and leaked its objects";
  MESHVK_ASSERT_OK(meshvk_semaphore_signal(gate.get(), 1));
  MESHVK_ASSERT_OK(meshvk_semaphore_wait(done.get(), 1, kWait));
  std::vector<float> got(16);
  MESHVK_ASSERT_OK(meshvk_buffer_read(c_buffer.get(), 0, got.data(), 64));
  for (int i = 0; i < 16; ++i) EXPECT_EQ(got[i], a[i] + 0.5f * b[i]) << "element " << i;
  second.reset();
}

}  // namespace
}  // namespace meshvk_test
