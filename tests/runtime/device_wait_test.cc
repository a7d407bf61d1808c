// Teardown after a device stopped answering (device_wait.h, issue 13): once a
// wait ran out the device timeout (MESHVK_DEVICE_TIMEOUT_MS, chained by the
// fixture), releasing what the unfinished work
// uses must neither wait again nor destroy it (undefined; a hung driver can
// block in the destroy call): the objects are left alive and counted.
//
// Needs a GPU that stops answering: the fault-injection layer dropping every
// submission (MESHVK_FAULT_DROP_SUBMIT=1, tests/layer/CMakeLists.txt runs it
// with the Khronos validation layer above it, so destroying an object still
// in use by the dropped submission would be a validation error that fails
// the test). Skipped without it.
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "vulkan_fixture.h"

namespace meshvk_test {
namespace {

using TeardownAfterTimeoutTest = VulkanTest;

bool SubmissionsDropped() {
  const char* drop = std::getenv("MESHVK_FAULT_DROP_SUBMIT");
  const char* timeout = std::getenv("MESHVK_DEVICE_TIMEOUT_MS");
  return drop && *drop && timeout && std::atoi(timeout) > 0 && std::atoi(timeout) <= 2000;
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// A copy whose submission never runs: the wait times out once, naming the
// device and the operation; every later wait and the whole teardown return
// at once, and the in-flight objects are counted as left alive.
TEST_F(TeardownAfterTimeoutTest, ReleasesWithoutWaitingAgainAndLeaksInFlightObjects) {
  if (!SubmissionsDropped())
    GTEST_SKIP() << "needs the fault-injection layer dropping submissions (MESHVK_FAULT_DROP_SUBMIT=1) and "
                    "MESHVK_DEVICE_TIMEOUT_MS <= 2000";
  const double timeout_s = std::atoi(std::getenv("MESHVK_DEVICE_TIMEOUT_MS")) / 1000.0;
  ASSERT_EQ(meshvk_leaked_object_count(), 0u);
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(set);
  Buffer src = MakeBuffer(set.get(), 0, 4096), dst = MakeBuffer(set.get(), 0, 4096);
  CommandBuffer cb = MakeCommandBuffer(set.get(), 0);
  meshvk_semaphore_t* raw = nullptr;
  MESHVK_ASSERT_OK(meshvk_semaphore_create(set.get(), 0, 0, &raw));
  Semaphore done(raw);
  ASSERT_TRUE(src && dst && cb);
  MESHVK_ASSERT_OK(meshvk_command_buffer_copy(cb.get(), src.get(), 0, dst.get(), 0, 4096));
  MESHVK_ASSERT_OK(meshvk_command_buffer_end(cb.get()));
  meshvk_semaphore_value_t signal{done.get(), 1};
  meshvk_submit_info_t submit = SubmitInfo(cb.get(), nullptr, 0, &signal, 1);
  MESHVK_ASSERT_OK(meshvk_queue_submit(set.get(), &submit));  // dropped: never runs, never signals

  auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(HasCode(meshvk_semaphore_wait(done.get(), 1, UINT64_MAX), MESHVK_STATUS_DEADLINE_EXCEEDED,
                      "process 0 (physical device 0"));
  EXPECT_LT(Seconds(start), timeout_s + 2.0) << "the wait is bounded by MESHVK_DEVICE_TIMEOUT_MS";
  // The device is not waited on again.
  start = std::chrono::steady_clock::now();
  EXPECT_TRUE(HasCode(meshvk_semaphore_wait(done.get(), 1, UINT64_MAX), MESHVK_STATUS_DEVICE_LOST,
                      "stopped answering earlier"));
  EXPECT_TRUE(HasCode(meshvk_device_set_wait_idle(set.get()), MESHVK_STATUS_DEVICE_LOST, "stopped answering"));
  // Teardown: nothing waits, nothing the dropped copy uses is destroyed.
  cb.reset();
  done.reset();
  src.reset();
  dst.reset();
  set.reset();
  EXPECT_LT(Seconds(start), timeout_s / 2) << "teardown waited on the device again";
  // Command pool, semaphore, 2 x (buffer + memory), the set's queue timeline
  // and the VkDevice at least.
  EXPECT_GE(meshvk_leaked_object_count(), 7u);
}

// Host staging (meshvk_buffer_read of memory the host cannot map, under the
// emulation layer's separate mode): the staging ring's fence wait times out;
// the ring, its fences and memory are left alive, not waited on again.
TEST_F(TeardownAfterTimeoutTest, StagingRingIsLeftAliveAfterItsWaitTimedOut) {
  if (!SubmissionsDropped())
    GTEST_SKIP() << "needs the fault-injection layer dropping submissions (MESHVK_FAULT_DROP_SUBMIT=1)";
  const double timeout_s = std::atoi(std::getenv("MESHVK_DEVICE_TIMEOUT_MS")) / 1000.0;
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(set);
  Buffer buffer = MakeBuffer(set.get(), 0, 3 << 20);  // three staging chunks
  ASSERT_TRUE(buffer);
  const uint64_t leaked_before = meshvk_leaked_object_count();
  std::vector<uint8_t> out(3 << 20);
  auto start = std::chrono::steady_clock::now();
  meshvk_status_t status = meshvk_buffer_read(buffer.get(), 0, out.data(), out.size());
  if (!status)
    GTEST_SKIP() << "the host maps this device's memory: no staging ring (run under MESHVK_EMULATED_TOPOLOGY=separate)";
  EXPECT_TRUE(HasCode(status, MESHVK_STATUS_DEADLINE_EXCEEDED, "host staging: vkWaitForFences"));
  EXPECT_LT(Seconds(start), timeout_s + 2.0);
  start = std::chrono::steady_clock::now();
  EXPECT_TRUE(HasCode(meshvk_buffer_read(buffer.get(), 0, out.data(), 4096), MESHVK_STATUS_DEVICE_LOST,
                      "stopped answering earlier"));
  buffer.reset();
  set.reset();
  EXPECT_LT(Seconds(start), timeout_s / 2) << "teardown waited on the device again";
  EXPECT_GT(meshvk_leaked_object_count(), leaked_before + 4);  // the ring: fences, pool, buffer, memory
}

// Two GPUs, one of which stops answering: under MESHVK_FAULT_DROP_SUBMIT=2
// the first submission (process 1's device) runs and the second (process
// 0's) is dropped. Process 0's wait times out; teardown then drains process
// 1's healthy device as usual (its queue goes idle: a hung GPU does not hang
// the one beside it) and waits on the hung one no more.
TEST_F(TeardownAfterTimeoutTest, HealthyDeviceBesideAHungOneIsDrainedAndFreed) {
  const char* drop = std::getenv("MESHVK_FAULT_DROP_SUBMIT");
  if (!SubmissionsDropped() || std::string(drop) != "2")
    GTEST_SKIP() << "needs the fault-injection layer dropping the second submission (MESHVK_FAULT_DROP_SUBMIT=2)";
  const double timeout_s = std::atoi(std::getenv("MESHVK_DEVICE_TIMEOUT_MS")) / 1000.0;
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_INDEPENDENT, 2);
  ASSERT_TRUE(set);
  meshvk_process_info_t p0 = MESHVK_PROCESS_INFO_INIT, p1 = MESHVK_PROCESS_INFO_INIT;
  MESHVK_ASSERT_OK(meshvk_device_set_process_info(set.get(), 0, &p0));
  MESHVK_ASSERT_OK(meshvk_device_set_process_info(set.get(), 1, &p1));
  if (p0.logical_device == p1.logical_device)
    GTEST_SKIP() << "needs two VkDevices (MESHVK_EMULATED_TOPOLOGY=separate, MESHVK_EMULATED_DEVICE_COUNT=2)";
  // A copy on `process` whose completion signals a new semaphore to 1.
  struct Copy {
    Buffer src, dst;
    CommandBuffer cb;
    Semaphore done;
  };
  auto submit_copy = [&](uint32_t process, Copy* copy) {
    copy->src = MakeBuffer(set.get(), process, 4096);
    copy->dst = MakeBuffer(set.get(), process, 4096);
    copy->cb = MakeCommandBuffer(set.get(), process);
    meshvk_semaphore_t* raw = nullptr;
    MESHVK_ASSERT_OK(meshvk_semaphore_create(set.get(), process, 0, &raw));
    copy->done.reset(raw);
    ASSERT_TRUE(copy->src && copy->dst && copy->cb);
    MESHVK_ASSERT_OK(meshvk_command_buffer_copy(copy->cb.get(), copy->src.get(), 0, copy->dst.get(), 0, 4096));
    MESHVK_ASSERT_OK(meshvk_command_buffer_end(copy->cb.get()));
    meshvk_semaphore_value_t signal{copy->done.get(), 1};
    meshvk_submit_info_t submit = SubmitInfo(copy->cb.get(), nullptr, 0, &signal, 1);
    MESHVK_ASSERT_OK(meshvk_queue_submit(set.get(), &submit));
  };
  Copy healthy, hung;
  ASSERT_NO_FATAL_FAILURE(submit_copy(1, &healthy));  // submission 1: runs
  MESHVK_EXPECT_OK(meshvk_semaphore_wait(healthy.done.get(), 1, UINT64_MAX));
  ASSERT_NO_FATAL_FAILURE(submit_copy(0, &hung));  // submission 2: dropped
  EXPECT_TRUE(HasCode(meshvk_semaphore_wait(hung.done.get(), 1, UINT64_MAX), MESHVK_STATUS_DEADLINE_EXCEEDED,
                      "process 0 (physical device 0"));
  const auto start = std::chrono::steady_clock::now();
  for (Copy* copy : {&healthy, &hung}) {  // the first test's order
    copy->cb.reset();
    copy->done.reset();
    copy->src.reset();
    copy->dst.reset();
  }
  set.reset();
  EXPECT_LT(Seconds(start), timeout_s / 2) << "teardown waited on a device";
  EXPECT_GE(meshvk_leaked_object_count(), 7u);  // the hung device's objects and itself
}

}  // namespace
}  // namespace meshvk_test
