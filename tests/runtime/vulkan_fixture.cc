// The validation-on fixture (see vulkan_fixture.h).
#include "vulkan_fixture.h"

#include <cstring>

#include "meshvk_environment.h"

namespace meshvk_test {

std::string StatusText(meshvk_status_t status) {
  if (!status) return "";
  std::string text =
      std::string(meshvk_status_code_name(meshvk_status_code(status))) + ": " + meshvk_status_message(status);
  meshvk_status_free(status);
  return text;
}

::testing::AssertionResult HasCode(meshvk_status_t status, meshvk_status_code_t code, const std::string& needle) {
  meshvk_status_code_t got = meshvk_status_code(status);
  std::string message = meshvk_status_message(status);
  meshvk_status_free(status);
  if (got != code) {
    return ::testing::AssertionFailure() << "expected " << meshvk_status_code_name(code) << ", got "
                                         << meshvk_status_code_name(got) << " (" << message << ")";
  }
  if (message.find(needle) == std::string::npos) {
    return ::testing::AssertionFailure() << "message '" << message << "' does not contain '" << needle << "'";
  }
  return ::testing::AssertionSuccess();
}

void VulkanTest::OnMessage(meshvk_message_severity_t severity, const char* message, void* self) {
  auto* test = static_cast<VulkanTest*>(self);
  std::lock_guard<std::mutex> lock(test->mutex_);
  test->messages_.push_back(std::string(severity == MESHVK_MESSAGE_ERROR ? "error: " : "warning: ") + message);
}

void VulkanTest::SetUp() {
  meshvk_instance_create_info_t info = MESHVK_INSTANCE_CREATE_INFO_INIT;
  info.flags = MESHVK_INSTANCE_VALIDATION_BIT | MESHVK_INSTANCE_SYNC_VALIDATION_BIT;
  info.message_callback = &VulkanTest::OnMessage;
  info.message_user_data = this;
  info.application_name = "meshvk_runtime_tests";
  meshvk_instance_t* instance = nullptr;
  MESHVK_ASSERT_OK(meshvk_instance_create(&info, &instance));
  instance_.reset(instance);
}

void VulkanTest::TearDown() {
  // Objects a test still holds are released by their owners before this, so
  // destruction-time messages (leaks, in-use frees) are counted too.
  instance_.reset();
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& message : messages_) ADD_FAILURE() << "validation " << message;
}

DeviceSet VulkanTest::MakeSet(meshvk_topology_t topology, uint32_t processes, const uint32_t* process_devices,
                              const void* chain) {
  meshvk_device_set_create_info_t info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
  info.topology = topology;
  info.process_count = processes;
  info.process_devices = process_devices;
  // MESHVK_DEVICE_TIMEOUT_MS (the teardown tests run with 500 ms) and
  // MESHVK_PIPELINE_CACHE as the tools take them, then `chain`.
  meshvk_environment_set_chain_t environment;
  info.next = meshvk_environment_set_chain(&environment, chain);
  meshvk_device_set_t* set = nullptr;
  EXPECT_EQ(StatusText(meshvk_device_set_create(instance(), &info, &set)), "");
  return DeviceSet(set);
}

Buffer VulkanTest::MakeBuffer(meshvk_device_set_t* set, uint32_t process, uint64_t bytes) {
  meshvk_buffer_t* buffer = nullptr;
  EXPECT_EQ(StatusText(meshvk_buffer_create(set, process, bytes, &buffer)), "");
  return Buffer(buffer);
}

Buffer VulkanTest::MakeBuffer(meshvk_device_set_t* set, uint32_t process, uint64_t bytes, meshvk_buffer_flags_t flags) {
  meshvk_buffer_create_info_t info = MESHVK_BUFFER_CREATE_INFO_INIT;
  info.process = process;
  info.size = bytes;
  info.flags = flags;
  meshvk_buffer_t* buffer = nullptr;
  EXPECT_EQ(StatusText(meshvk_buffer_create_with_info(set, &info, &buffer)), "");
  return Buffer(buffer);
}

Executable VulkanTest::Builtin(meshvk_device_set_t* set, meshvk_builtin_t builtin) {
  meshvk_executable_t* executable = nullptr;
  EXPECT_EQ(StatusText(meshvk_executable_builtin(set, builtin, &executable)), "");
  return Executable(executable);
}

CommandBuffer VulkanTest::MakeCommandBuffer(meshvk_device_set_t* set, uint32_t process) {
  meshvk_command_buffer_t* cb = nullptr;
  EXPECT_EQ(StatusText(meshvk_command_buffer_create(set, process, &cb)), "");
  return CommandBuffer(cb);
}

std::vector<std::string> VulkanTest::TakeMessages() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> taken;
  taken.swap(messages_);
  return taken;
}

void VulkanTest::SubmitAndWait(meshvk_device_set_t* set, uint32_t process, meshvk_command_buffer_t* cb) {
  meshvk_semaphore_t* raw = nullptr;
  MESHVK_ASSERT_OK(meshvk_semaphore_create(set, process, 0, &raw));
  Semaphore done(raw);
  meshvk_semaphore_value_t signal = {done.get(), 1};
  meshvk_submit_info_t submit = SubmitInfo(cb, nullptr, 0, &signal, 1);
  MESHVK_ASSERT_OK(meshvk_queue_submit(set, &submit));
  MESHVK_ASSERT_OK(meshvk_semaphore_wait(done.get(), 1, 60ull * 1000 * 1000 * 1000));
}

uint32_t VulkanTest::Group0Size() {
  if (meshvk_instance_device_group_count(instance()) == 0) return 0;
  meshvk_device_group_info_t info = MESHVK_DEVICE_GROUP_INFO_INIT;
  EXPECT_EQ(StatusText(meshvk_instance_device_group_info(instance(), 0, &info)), "");
  return info.device_count;
}

std::vector<uint32_t> VulkanTest::ReadWords(meshvk_buffer_t* buffer) {
  std::vector<uint32_t> words(meshvk_buffer_size(buffer) / 4);
  EXPECT_EQ(StatusText(meshvk_buffer_read(buffer, 0, words.data(), words.size() * 4)), "");
  return words;
}

std::vector<float> VulkanTest::ReadFloats(meshvk_buffer_t* buffer) {
  std::vector<float> values(meshvk_buffer_size(buffer) / 4);
  EXPECT_EQ(StatusText(meshvk_buffer_read(buffer, 0, values.data(), values.size() * 4)), "");
  return values;
}

}  // namespace meshvk_test
