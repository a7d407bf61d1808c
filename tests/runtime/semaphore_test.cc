// meshvk_semaphore_t: timeline values, host signal, device waits, timeouts.
#include <vector>

#include "vulkan_fixture.h"

namespace meshvk_test {
namespace {

using SemaphoreTest = VulkanTest;

constexpr uint64_t kSecond = 1000ull * 1000 * 1000;

Semaphore MakeSemaphore(meshvk_device_set_t* set, uint32_t process, uint64_t initial) {
  meshvk_semaphore_t* raw = nullptr;
  EXPECT_EQ(StatusText(meshvk_semaphore_create(set, process, initial, &raw)), "");
  return Semaphore(raw);
}

TEST_F(SemaphoreTest, HostSignalAndQuery) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(set);
  Semaphore semaphore = MakeSemaphore(set.get(), 0, 5);
  ASSERT_TRUE(semaphore);
  uint64_t value = 0;
  MESHVK_ASSERT_OK(meshvk_semaphore_query(semaphore.get(), &value));
  EXPECT_EQ(value, 5u);
  MESHVK_ASSERT_OK(meshvk_semaphore_signal(semaphore.get(), 9));
  MESHVK_ASSERT_OK(meshvk_semaphore_query(semaphore.get(), &value));
  EXPECT_EQ(value, 9u);
  MESHVK_EXPECT_OK(meshvk_semaphore_wait(semaphore.get(), 9, 0));
  EXPECT_TRUE(HasCode(meshvk_semaphore_signal(semaphore.get(), 9), MESHVK_STATUS_INVALID_ARGUMENT, "not above"));
}

TEST_F(SemaphoreTest, WaitTimesOutWithDeadlineExceeded) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(set);
  Semaphore semaphore = MakeSemaphore(set.get(), 0, 0);
  ASSERT_TRUE(semaphore);
  EXPECT_TRUE(
      HasCode(meshvk_semaphore_wait(semaphore.get(), 1, 1000 * 1000), MESHVK_STATUS_DEADLINE_EXCEEDED, "process 0"));
}

TEST_F(SemaphoreTest, DeviceWorkWaitsForAHostSignal) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 2);
  ASSERT_TRUE(set);
  meshvk_process_info_t info = MESHVK_PROCESS_INFO_INIT;
  MESHVK_ASSERT_OK(meshvk_device_set_process_info(set.get(), 1, &info));
  Semaphore gate = MakeSemaphore(set.get(), 1, 0);
  Semaphore done = MakeSemaphore(set.get(), 1, 0);
  Buffer buffer = MakeBuffer(set.get(), 1, 256);
  CommandBuffer cb = MakeCommandBuffer(set.get(), 1);
  ASSERT_TRUE(gate && done && buffer && cb);
  MESHVK_ASSERT_OK(meshvk_command_buffer_fill(cb.get(), buffer.get(), 0, 256, 0x01020304u));
  MESHVK_ASSERT_OK(meshvk_command_buffer_end(cb.get()));
  meshvk_semaphore_value_t wait = {gate.get(), 1};
  meshvk_semaphore_value_t signal = {done.get(), 1};
  meshvk_submit_info_t submit = SubmitInfo(cb.get(), &wait, 1, &signal, 1);
  MESHVK_ASSERT_OK(meshvk_queue_submit(set.get(), &submit));
  // The device cannot run ahead of the gate.
  EXPECT_TRUE(HasCode(meshvk_semaphore_wait(done.get(), 1, 20 * 1000 * 1000), MESHVK_STATUS_DEADLINE_EXCEEDED));
  MESHVK_ASSERT_OK(meshvk_semaphore_signal(gate.get(), 1));
  MESHVK_ASSERT_OK(meshvk_semaphore_wait(done.get(), 1, 60 * kSecond));
  for (uint32_t word : ReadWords(buffer.get())) ASSERT_EQ(word, 0x01020304u);
}

TEST_F(SemaphoreTest, RejectsBadArguments) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(set);
  meshvk_semaphore_t* raw = reinterpret_cast<meshvk_semaphore_t*>(0x1);
  EXPECT_TRUE(HasCode(meshvk_semaphore_create(set.get(), 1, 0, &raw), MESHVK_STATUS_OUT_OF_RANGE, "process 1"));
  EXPECT_EQ(raw, nullptr);
  EXPECT_TRUE(HasCode(meshvk_semaphore_create(nullptr, 0, 0, &raw), MESHVK_STATUS_INVALID_ARGUMENT));
  uint64_t value;
  EXPECT_TRUE(HasCode(meshvk_semaphore_query(nullptr, &value), MESHVK_STATUS_INVALID_ARGUMENT));
  EXPECT_TRUE(HasCode(meshvk_semaphore_wait(nullptr, 1, 0), MESHVK_STATUS_INVALID_ARGUMENT));
  EXPECT_TRUE(HasCode(meshvk_semaphore_signal(nullptr, 1), MESHVK_STATUS_INVALID_ARGUMENT));
  Semaphore semaphore = MakeSemaphore(set.get(), 0, 0);
  ASSERT_TRUE(semaphore);
  EXPECT_TRUE(HasCode(meshvk_semaphore_query(semaphore.get(), nullptr), MESHVK_STATUS_INVALID_ARGUMENT, "out_value"));
}

}  // namespace
}  // namespace meshvk_test
