// The public headers' promises, checked one by one (issue 35: "every doc
// matches the code"): the status each doc names for each condition, the
// answers for values a call does not know, and what a refused call leaves
// behind. Each test names the header it checks. The last four hold the code
// to rules it broke when the headers were reviewed (the fix is named).
#include <vector>

#include "meshvk/transport.h"
#include "meshvk/vulkan.h"
#include "vulkan_fixture.h"

namespace meshvk_test {
namespace {

using HeaderContractTest = VulkanTest;

// instance.h, device_set.h, status.h, transport.h: the name of a value the
// enum does not define.
TEST_F(HeaderContractTest, NamesOfUnknownValues) {
  EXPECT_STREQ(meshvk_copy_path_name(MESHVK_COPY_PATH_NONE), "none");
  EXPECT_STREQ(meshvk_copy_path_name(static_cast<meshvk_copy_path_t>(99)), "none");
  EXPECT_STREQ(meshvk_topology_name(static_cast<meshvk_topology_t>(99)), "unknown");
  EXPECT_STREQ(meshvk_status_code_name(static_cast<meshvk_status_code_t>(99)), "UNKNOWN");
  EXPECT_EQ(meshvk_rank_collective_mode_name(static_cast<meshvk_rank_collective_mode_t>(99)), nullptr);
  EXPECT_STREQ(meshvk_physical_device_type_name(12345), "other");
}

// instance.h: api_version 0 is INVALID_ARGUMENT, another major UNAVAILABLE;
// *out_instance is NULL after either.
TEST_F(HeaderContractTest, InstanceCreateRefusesHeaderVersions) {
  meshvk_instance_create_info_t info = MESHVK_INSTANCE_CREATE_INFO_INIT;
  info.api_version = 0;
  meshvk_instance_t* out = reinterpret_cast<meshvk_instance_t*>(&info);
  EXPECT_TRUE(HasCode(meshvk_instance_create(&info, &out), MESHVK_STATUS_INVALID_ARGUMENT, "api_version is 0"));
  EXPECT_EQ(out, nullptr);
  info.api_version = MESHVK_VERSION + (1u << 22);  // the next major version
  out = reinterpret_cast<meshvk_instance_t*>(&info);
  EXPECT_TRUE(HasCode(meshvk_instance_create(&info, &out), MESHVK_STATUS_UNAVAILABLE));
  EXPECT_EQ(out, nullptr);
}

// device_set.h: the statuses of meshvk_device_set_create, condition by
// condition.
TEST_F(HeaderContractTest, DeviceSetCreateStatuses) {
  const uint32_t count = meshvk_instance_physical_device_count(instance());
  ASSERT_GT(count, 0u);
  meshvk_device_set_t* out = nullptr;
  meshvk_device_set_create_info_t info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
  info.topology = static_cast<meshvk_topology_t>(99);
  EXPECT_TRUE(HasCode(meshvk_device_set_create(instance(), &info, &out), MESHVK_STATUS_INVALID_ARGUMENT, "topology"));
  EXPECT_EQ(out, nullptr);

  info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
  info.topology = MESHVK_TOPOLOGY_LOGICAL;
  const uint32_t twice[2] = {0, 0};
  info.physical_devices = twice;
  info.physical_device_count = 2;
  EXPECT_TRUE(HasCode(meshvk_device_set_create(instance(), &info, &out), MESHVK_STATUS_INVALID_ARGUMENT, "twice"));
  const uint32_t past = count;
  info.physical_devices = &past;
  info.physical_device_count = 1;
  EXPECT_TRUE(HasCode(meshvk_device_set_create(instance(), &info, &out), MESHVK_STATUS_OUT_OF_RANGE));
  info.physical_devices = nullptr;
  EXPECT_TRUE(HasCode(meshvk_device_set_create(instance(), &info, &out), MESHVK_STATUS_INVALID_ARGUMENT, "NULL list"));

  info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
  info.topology = MESHVK_TOPOLOGY_DEVICE_GROUP;
  info.device_group_index = meshvk_instance_device_group_count(instance());
  EXPECT_TRUE(HasCode(meshvk_device_set_create(instance(), &info, &out), MESHVK_STATUS_OUT_OF_RANGE, "device group"));

  info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
  info.topology = MESHVK_TOPOLOGY_LOGICAL;
  info.process_count = 2;
  const uint32_t mapped[2] = {0, count};
  info.process_devices = mapped;
  EXPECT_TRUE(HasCode(meshvk_device_set_create(instance(), &info, &out), MESHVK_STATUS_INVALID_ARGUMENT, "mapped"));

  info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
  meshvk_device_timeout_t timeout = MESHVK_DEVICE_TIMEOUT_INIT;
  timeout.timeout = 0;
  info.next = &timeout;
  EXPECT_TRUE(HasCode(meshvk_device_set_create(instance(), &info, &out), MESHVK_STATUS_INVALID_ARGUMENT, "timeout 0"));
  EXPECT_EQ(out, nullptr);
}

// vulkan.h: an imported set is never INDEPENDENT, so its requirements are
// refused for that topology.
TEST_F(HeaderContractTest, VulkanRequirementsRefuseIndependent) {
  meshvk_vulkan_requirements_t requirements = MESHVK_VULKAN_REQUIREMENTS_INIT;
  EXPECT_TRUE(HasCode(meshvk_vulkan_requirements(MESHVK_TOPOLOGY_INDEPENDENT, nullptr, &requirements),
                      MESHVK_STATUS_INVALID_ARGUMENT, "topology"));
  MESHVK_ASSERT_OK(meshvk_vulkan_requirements(MESHVK_TOPOLOGY_LOGICAL, nullptr, &requirements));
  EXPECT_EQ(requirements.device_extension_count, 0u);
  EXPECT_EQ(requirements.timeline_semaphore, 1u);
}

// buffer.h: empty transfers do nothing; overlapping strided rows and buffers
// of two sets are refused.
TEST_F(HeaderContractTest, BufferTransferEdges) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(set);
  Buffer buffer = MakeBuffer(set.get(), 0, 64);
  ASSERT_TRUE(buffer);
  uint8_t host[64] = {};
  MESHVK_EXPECT_OK(meshvk_buffer_write(buffer.get(), 0, host, 0));
  MESHVK_EXPECT_OK(meshvk_buffer_write_strided(buffer.get(), 0, 16, host, 16, 8, 0));
  EXPECT_TRUE(HasCode(meshvk_buffer_read_strided(buffer.get(), 0, 4, host, 8, 8, 2), MESHVK_STATUS_INVALID_ARGUMENT,
                      "overlap"));
  EXPECT_TRUE(HasCode(meshvk_buffer_write_strided(buffer.get(), 0, 32, host, 8, 8, 3), MESHVK_STATUS_OUT_OF_RANGE));
  DeviceSet other = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(other);
  Buffer elsewhere = MakeBuffer(other.get(), 0, 64);
  ASSERT_TRUE(elsewhere);
  EXPECT_TRUE(HasCode(meshvk_buffer_copy_host_staged(buffer.get(), 0, elsewhere.get(), 0, 64, MESHVK_TIMEOUT_INFINITE),
                      MESHVK_STATUS_INVALID_ARGUMENT, "different sets"));
  EXPECT_EQ(meshvk_device_set_allocated_bytes(nullptr, 0), 0u);
  EXPECT_EQ(meshvk_device_set_peak_staging_bytes(set.get(), 7), 0u);
}

// command_buffer.h: argument errors leave the command buffer usable (it
// still ends and submits); a second end and a timestamp after the end are
// FAILED_PRECONDITION.
TEST_F(HeaderContractTest, RefusedRecordingLeavesCommandBufferUsable) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(set);
  Buffer buffer = MakeBuffer(set.get(), 0, 64);
  ASSERT_TRUE(buffer);
  Executable fill = Builtin(set.get(), MESHVK_BUILTIN_FILL);
  ASSERT_TRUE(fill);
  CommandBuffer cb = MakeCommandBuffer(set.get(), 0);
  ASSERT_TRUE(cb);
  EXPECT_TRUE(HasCode(meshvk_command_buffer_fill(cb.get(), buffer.get(), 2, 8, 0), MESHVK_STATUS_INVALID_ARGUMENT,
                      "multiples"));
  EXPECT_TRUE(
      HasCode(meshvk_command_buffer_fill(cb.get(), buffer.get(), 0, 0, 0), MESHVK_STATUS_INVALID_ARGUMENT, "size > 0"));
  EXPECT_TRUE(HasCode(meshvk_command_buffer_copy(cb.get(), buffer.get(), 0, buffer.get(), 32, 0),
                      MESHVK_STATUS_INVALID_ARGUMENT, "size is 0"));
  meshvk_binding_t binding = {buffer.get(), 0, 0, 1};
  const uint32_t push[3] = {0, 16, 7};
  meshvk_dispatch_info_t dispatch = FillDispatch(fill.get(), &binding, push, 0);  // each count must be >= 1
  EXPECT_TRUE(HasCode(meshvk_command_buffer_dispatch(cb.get(), &dispatch), MESHVK_STATUS_OUT_OF_RANGE, "workgroup"));
  MESHVK_ASSERT_OK(meshvk_command_buffer_fill(cb.get(), buffer.get(), 0, 64, 0x01020304u));
  MESHVK_ASSERT_OK(meshvk_command_buffer_end(cb.get()));
  EXPECT_TRUE(HasCode(meshvk_command_buffer_end(cb.get()), MESHVK_STATUS_FAILED_PRECONDITION, "ended"));
  uint32_t index = 0;
  EXPECT_TRUE(HasCode(meshvk_command_buffer_write_timestamp(cb.get(), MESHVK_TIMESTAMP_BEFORE_NEXT, &index),
                      MESHVK_STATUS_FAILED_PRECONDITION));
  SubmitAndWait(set.get(), 0, cb.get());
  for (uint32_t word : ReadWords(buffer.get())) EXPECT_EQ(word, 0x01020304u);
}

// command_buffer.h: a refused call leaves the command buffer as it was. A
// strided copy (or f32 sum) refused because recording has ended used to mark
// the finished command buffer unusable, so its submit failed; only the
// recording itself may break it now (command_buffer_transfer.cc).
TEST_F(HeaderContractTest, ARefusedStridedCopyLeavesAFinishedCommandBufferSubmittable) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(set);
  Buffer buffer = MakeBuffer(set.get(), 0, 64);
  ASSERT_TRUE(buffer);
  CommandBuffer cb = MakeCommandBuffer(set.get(), 0);
  ASSERT_TRUE(cb);
  MESHVK_ASSERT_OK(meshvk_command_buffer_fill(cb.get(), buffer.get(), 0, 64, 5));
  MESHVK_ASSERT_OK(meshvk_command_buffer_end(cb.get()));
  meshvk_strided_region_t region = {0, 8, {4, 1, 1}, {1, 1, 1}, {1, 1, 1}};
  EXPECT_TRUE(HasCode(meshvk_command_buffer_copy_strided(cb.get(), buffer.get(), buffer.get(), &region),
                      MESHVK_STATUS_FAILED_PRECONDITION, "ended"));
  meshvk_semaphore_t* done = nullptr;
  MESHVK_ASSERT_OK(meshvk_semaphore_create(set.get(), 0, 0, &done));
  Semaphore owned(done);
  meshvk_semaphore_value_t signal = {done, 1};
  meshvk_submit_info_t submit = MESHVK_SUBMIT_INFO_INIT;
  submit.command_buffer = cb.get();
  submit.signals = &signal;
  submit.signal_count = 1;
  MESHVK_ASSERT_OK(meshvk_queue_submit(set.get(), &submit));
  MESHVK_EXPECT_OK(meshvk_semaphore_wait(done, 1, MESHVK_TIMEOUT_INFINITE));
}

// meshvk.h: out_ pointers are NULL after a failure, a NULL semaphore's
// included (meshvk_semaphore_share returned before clearing it).
TEST_F(HeaderContractTest, SemaphoreShareOfNullClearsOutView) {
  int dummy = 0;
  meshvk_semaphore_t* view = reinterpret_cast<meshvk_semaphore_t*>(&dummy);
  EXPECT_TRUE(HasCode(meshvk_semaphore_share(nullptr, 0, &view), MESHVK_STATUS_INVALID_ARGUMENT));
  EXPECT_EQ(view, nullptr);
}

// meshvk.h: NULL after a failure, and the message names the call
// (meshvk_transport_in_process_create refusing rank_count 0 left *out_hub).
TEST_F(HeaderContractTest, InProcessHubRefusalClearsOutHub) {
  int dummy = 0;
  meshvk_in_process_hub_t* hub = reinterpret_cast<meshvk_in_process_hub_t*>(&dummy);
  meshvk_transport_t transports[1] = {MESHVK_TRANSPORT_INIT};
  EXPECT_TRUE(HasCode(meshvk_transport_in_process_create(0, 0, transports, &hub), MESHVK_STATUS_INVALID_ARGUMENT,
                      "meshvk_transport_in_process_create"));
  EXPECT_EQ(hub, nullptr);
}

// meshvk.h: a NULL handle is INVALID_ARGUMENT (command_info.cc answered a
// NULL module with OUT_OF_RANGE).
TEST_F(HeaderContractTest, CommandInfoOfNullModuleIsInvalidArgument) {
  meshvk_command_info_t info = MESHVK_COMMAND_INFO_INIT;
  EXPECT_TRUE(HasCode(meshvk_module_command_info(nullptr, 0, 0, 0, &info), MESHVK_STATUS_INVALID_ARGUMENT));
  uint32_t process = 0, command = 0;
  EXPECT_TRUE(HasCode(meshvk_module_command_dependency(nullptr, 0, 0, 0, 0, &process, &command),
                      MESHVK_STATUS_INVALID_ARGUMENT));
}

}  // namespace
}  // namespace meshvk_test
