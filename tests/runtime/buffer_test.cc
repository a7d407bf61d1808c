// meshvk_buffer_t: allocation per process, host I/O (plain and strided),
// accounting, and the errors for bad ranges and impossible sizes.
#include <cstring>
#include <numeric>
#include <vector>

#include "vulkan_fixture.h"

namespace meshvk_test {
namespace {

using BufferTest = VulkanTest;

TEST_F(BufferTest, WriteThenReadRoundTrips) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 2);
  ASSERT_TRUE(set);
  Buffer buffer = MakeBuffer(set.get(), 1, 1000);
  ASSERT_TRUE(buffer);
  EXPECT_EQ(meshvk_buffer_size(buffer.get()), 1000u);
  EXPECT_EQ(meshvk_buffer_process(buffer.get()), 1u);
  EXPECT_GE(meshvk_buffer_allocation_size(buffer.get()), 1000u);
  std::vector<uint8_t> data(1000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7 + 3);
  MESHVK_ASSERT_OK(meshvk_buffer_write(buffer.get(), 0, data.data(), data.size()));
  std::vector<uint8_t> patch = {0xAA, 0xBB, 0xCC};
  MESHVK_ASSERT_OK(meshvk_buffer_write(buffer.get(), 997, patch.data(), patch.size()));
  std::memcpy(&data[997], patch.data(), patch.size());
  std::vector<uint8_t> back(1000);
  MESHVK_ASSERT_OK(meshvk_buffer_read(buffer.get(), 0, back.data(), back.size()));
  EXPECT_EQ(back, data);
  std::vector<uint8_t> middle(10);
  MESHVK_ASSERT_OK(meshvk_buffer_read(buffer.get(), 500, middle.data(), middle.size()));
  EXPECT_EQ(middle, std::vector<uint8_t>(data.begin() + 500, data.begin() + 510));
}

TEST_F(BufferTest, StridedIoMovesRowsOfAHostTensor) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(set);
  // Host tensor 6x10 words; the shard is columns 2..5 of rows 1..4, stored
  // with a device pitch of 5 words (one padding word per row).
  const uint32_t host_cols = 10, rows = 4, cols = 4, pitch = 5;
  std::vector<uint32_t> host(6 * host_cols);
  std::iota(host.begin(), host.end(), 100u);
  Buffer shard = MakeBuffer(set.get(), 0, rows * pitch * 4);
  ASSERT_TRUE(shard);
  std::vector<uint32_t> sentinel(rows * pitch, 0xDEADBEEFu);
  MESHVK_ASSERT_OK(meshvk_buffer_write(shard.get(), 0, sentinel.data(), sentinel.size() * 4));
  MESHVK_ASSERT_OK(
      meshvk_buffer_write_strided(shard.get(), 0, pitch * 4, &host[1 * host_cols + 2], host_cols * 4, cols * 4, rows));
  std::vector<uint32_t> device = ReadWords(shard.get());
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < pitch; ++c) {
      uint32_t expected = c < cols ? host[(r + 1) * host_cols + 2 + c] : 0xDEADBEEFu;
      EXPECT_EQ(device[r * pitch + c], expected) << r << "," << c;
    }
  }
  // And back into a zeroed host tensor at the same place.
  std::vector<uint32_t> gathered(6 * host_cols, 0);
  MESHVK_ASSERT_OK(meshvk_buffer_read_strided(shard.get(), 0, pitch * 4, &gathered[1 * host_cols + 2], host_cols * 4,
                                              cols * 4, rows));
  for (uint32_t i = 0; i < gathered.size(); ++i) {
    uint32_t r = i / host_cols, c = i % host_cols;
    bool inside = r >= 1 && r < 1 + rows && c >= 2 && c < 2 + cols;
    EXPECT_EQ(gathered[i], inside ? host[i] : 0u) << i;
  }
}

TEST_F(BufferTest, AllocatedBytesFollowLiveBuffersPerProcess) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 2);
  ASSERT_TRUE(set);
  EXPECT_EQ(meshvk_device_set_allocated_bytes(set.get(), 0), 0u);
  Buffer a = MakeBuffer(set.get(), 0, 4096);
  Buffer b = MakeBuffer(set.get(), 0, 100);
  ASSERT_TRUE(a && b);
  uint64_t expected = meshvk_buffer_allocation_size(a.get()) + meshvk_buffer_allocation_size(b.get());
  EXPECT_EQ(meshvk_device_set_allocated_bytes(set.get(), 0), expected);
  EXPECT_EQ(meshvk_device_set_allocated_bytes(set.get(), 1), 0u) << "never on other processes";
  a.reset();
  EXPECT_EQ(meshvk_device_set_allocated_bytes(set.get(), 0), meshvk_buffer_allocation_size(b.get()));
}

TEST_F(BufferTest, BuffersKeepTheirSetAlive) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(set);
  Buffer buffer = MakeBuffer(set.get(), 0, 64);
  set.reset();  // the buffer still holds a reference
  uint32_t value = 7;
  MESHVK_EXPECT_OK(meshvk_buffer_write(buffer.get(), 0, &value, 4));
}

TEST_F(BufferTest, RejectsBadArguments) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 2);
  ASSERT_TRUE(set);
  meshvk_buffer_t* raw = reinterpret_cast<meshvk_buffer_t*>(0x1);
  EXPECT_TRUE(HasCode(meshvk_buffer_create(set.get(), 2, 64, &raw), MESHVK_STATUS_OUT_OF_RANGE, "process 2"));
  EXPECT_EQ(raw, nullptr);
  EXPECT_TRUE(HasCode(meshvk_buffer_create(set.get(), 0, 0, &raw), MESHVK_STATUS_INVALID_ARGUMENT, "size is 0"));
  EXPECT_TRUE(HasCode(meshvk_buffer_create(nullptr, 0, 64, &raw), MESHVK_STATUS_INVALID_ARGUMENT));

  Buffer buffer = MakeBuffer(set.get(), 0, 64);
  ASSERT_TRUE(buffer);
  uint8_t data[128] = {};
  EXPECT_TRUE(HasCode(meshvk_buffer_write(buffer.get(), 60, data, 8), MESHVK_STATUS_OUT_OF_RANGE, "64 bytes"));
  EXPECT_TRUE(HasCode(meshvk_buffer_read(buffer.get(), 0, data, 65), MESHVK_STATUS_OUT_OF_RANGE));
  EXPECT_TRUE(HasCode(meshvk_buffer_read(buffer.get(), UINT64_MAX, data, 2), MESHVK_STATUS_OUT_OF_RANGE));
  EXPECT_TRUE(HasCode(meshvk_buffer_write(buffer.get(), 0, nullptr, 4), MESHVK_STATUS_INVALID_ARGUMENT));
  EXPECT_TRUE(HasCode(meshvk_buffer_write(nullptr, 0, data, 4), MESHVK_STATUS_INVALID_ARGUMENT));
  // Strided: rows that overlap on the device, and a last row past the end.
  EXPECT_TRUE(
      HasCode(meshvk_buffer_write_strided(buffer.get(), 0, 4, data, 8, 8, 2), MESHVK_STATUS_INVALID_ARGUMENT, "pitch"));
  EXPECT_TRUE(HasCode(meshvk_buffer_read_strided(buffer.get(), 0, 32, data, 16, 16, 3), MESHVK_STATUS_OUT_OF_RANGE));
  EXPECT_TRUE(HasCode(meshvk_buffer_read_strided(buffer.get(), 0, UINT64_MAX / 2, data, 16, 16, 3),
                      MESHVK_STATUS_OUT_OF_RANGE));
}

TEST_F(BufferTest, TooLargeAllocationIsResourceExhaustedNamingDeviceAndSize) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  ASSERT_TRUE(set);
  meshvk_buffer_t* raw = nullptr;
  const uint64_t huge = 1ull << 50;
  EXPECT_TRUE(HasCode(meshvk_buffer_create(set.get(), 0, huge, &raw), MESHVK_STATUS_RESOURCE_EXHAUSTED,
                      "1125899906842624 bytes"));
  EXPECT_EQ(raw, nullptr);
  meshvk_status_t status = meshvk_buffer_create(set.get(), 0, huge, &raw);
  std::string message = meshvk_status_message(status);
  meshvk_status_free(status);
  EXPECT_NE(message.find("process 0 (physical device 0"), std::string::npos) << message;
  EXPECT_NE(message.find("vkAllocateMemory"), std::string::npos) << message;
  EXPECT_EQ(meshvk_device_set_allocated_bytes(set.get(), 0), 0u);
}

}  // namespace
}  // namespace meshvk_test
