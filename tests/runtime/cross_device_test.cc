// Copies between VkDevices of an INDEPENDENT set: the per-pair path, exported
// and imported buffers, host-staged copies (chunked, with bounded staging), and
// the errors. Needs two physical devices (ctest runs these under lavapipe
// registered twice and under the emulation layer's separate groups); skipped
// with the reason otherwise. Expected bytes come from the host's own pattern.
#include <vulkan/vulkan_core.h>

#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "vulkan_fixture.h"

namespace meshvk_test {
namespace {

// The runtime's host-staging chunk (runtime/src/host_staging.h): sizes at and around it.
constexpr uint64_t kStagingChunk = 1ull << 20;

class CrossDeviceTest : public VulkanTest {
 protected:
  void SetUp() override {
    VulkanTest::SetUp();
    if (meshvk_instance_physical_device_count(instance()) < 2)
      GTEST_SKIP() << "needs 2+ physical devices (lavapipe registered twice, or the emulation layer with "
                      "MESHVK_EMULATED_TOPOLOGY=separate); this machine has "
                   << meshvk_instance_physical_device_count(instance());
    set_ = MakeSet(MESHVK_TOPOLOGY_INDEPENDENT, 2);
    ASSERT_TRUE(set_);
    MESHVK_ASSERT_OK(meshvk_device_set_copy_path(set_.get(), 0, 1, &path_));
  }

  void TearDown() override {
    set_.reset();  // before the fixture's instance goes
    VulkanTest::TearDown();
  }

  Buffer Make(uint32_t process, uint64_t bytes, meshvk_buffer_flags_t flags) {
    return MakeBuffer(set_.get(), process, bytes, flags);
  }

  static std::vector<uint32_t> Pattern(size_t words, uint32_t seed) {
    std::vector<uint32_t> v(words);
    for (size_t i = 0; i < words; ++i) v[i] = static_cast<uint32_t>(i * 2654435761u + seed);
    return v;
  }

  DeviceSet set_;
  meshvk_copy_path_info_t path_ = MESHVK_COPY_PATH_INFO_INIT;
  meshvk_buffer_t* raw_buffer_ = nullptr;
};

TEST_F(CrossDeviceTest, ProcessesLiveOnTwoVkDevicesWithThePairsPath) {
  meshvk_process_info_t a = MESHVK_PROCESS_INFO_INIT, b = MESHVK_PROCESS_INFO_INIT;
  MESHVK_ASSERT_OK(meshvk_device_set_process_info(set_.get(), 0, &a));
  MESHVK_ASSERT_OK(meshvk_device_set_process_info(set_.get(), 1, &b));
  EXPECT_NE(a.logical_device, b.logical_device);
  EXPECT_NE(a.physical_device, b.physical_device);
  meshvk_copy_path_info_t pair = MESHVK_COPY_PATH_INFO_INIT;
  MESHVK_ASSERT_OK(meshvk_instance_copy_path(instance(), a.physical_device, b.physical_device, &pair));
  EXPECT_EQ(path_.path, pair.path) << pair.reason;
  EXPECT_TRUE(path_.path == MESHVK_COPY_PATH_EXTERNAL_MEMORY || path_.path == MESHVK_COPY_PATH_HOST_STAGING)
      << meshvk_copy_path_name(path_.path);
  EXPECT_STRNE(path_.reason, "");
  meshvk_copy_path_info_t self = MESHVK_COPY_PATH_INFO_INIT;
  MESHVK_ASSERT_OK(meshvk_instance_copy_path(instance(), a.physical_device, a.physical_device, &self));
  EXPECT_EQ(self.path, MESHVK_COPY_PATH_SAME_DEVICE);
  EXPECT_TRUE(HasCode(meshvk_device_set_copy_path(set_.get(), 0, 2, &pair), MESHVK_STATUS_OUT_OF_RANGE, "process 2"));
}

// Process 1 pulls process 0's exported buffer through its imported view, in
// its own command buffer, after process 0's work finished (host wait).
TEST_F(CrossDeviceTest, AnImportedViewIsCopiedOnTheDestination) {
  if (path_.path != MESHVK_COPY_PATH_EXTERNAL_MEMORY) GTEST_SKIP() << "no external memory: " << path_.reason;
  const size_t words = 3000;
  Buffer src = Make(0, words * 4, MESHVK_BUFFER_EXPORTABLE_BIT);
  Buffer dst = Make(1, words * 4, 0);
  ASSERT_TRUE(src && dst);
  std::vector<uint32_t> host = Pattern(words, 7);
  MESHVK_ASSERT_OK(meshvk_buffer_write(src.get(), 0, host.data(), words * 4));
  meshvk_buffer_t* raw = nullptr;
  MESHVK_ASSERT_OK(meshvk_buffer_share(src.get(), 1, &raw));
  Buffer view(raw);
  EXPECT_EQ(meshvk_buffer_process(view.get()), 1u);
  EXPECT_EQ(meshvk_buffer_allocation_size(view.get()), 0u) << "the import allocates nothing";
  CommandBuffer cb = MakeCommandBuffer(set_.get(), 1);
  MESHVK_ASSERT_OK(meshvk_command_buffer_copy(cb.get(), view.get(), 4, dst.get(), 0, (words - 1) * 4));
  MESHVK_ASSERT_OK(meshvk_command_buffer_end(cb.get()));
  SubmitAndWait(set_.get(), 1, cb.get());
  std::vector<uint32_t> got = ReadWords(dst.get());
  for (size_t i = 0; i + 1 < words; ++i) ASSERT_EQ(got[i], host[i + 1]) << "word " << i;

  // A buffer that was not created exportable cannot be imported; nor can a
  // process import what its own VkDevice already holds.
  Buffer plain = Make(0, 64, 0);
  EXPECT_TRUE(HasCode(meshvk_buffer_share(plain.get(), 1, &raw), MESHVK_STATUS_FAILED_PRECONDITION, "exportable"));
  EXPECT_EQ(raw, nullptr);
  EXPECT_TRUE(HasCode(meshvk_buffer_share(src.get(), 0, &raw), MESHVK_STATUS_INVALID_ARGUMENT, "use the buffer"));
}

// Where both devices' memory is host memory (ctest sets
// MESHVK_TEST_HOST_MEMORY=1 for lavapipe registered twice and for the
// emulation layer's MESHVK_EMULATED_MEMORY=host), a buffer the other device
// reads is one host allocation both import: counted once, on its owner, as
// an ordinary allocation of the buffer; the reader sees later writes through
// the same view (shared memory, not a copy). Elsewhere (a discrete GPU's
// device-local memory) the pair exports an fd instead.
TEST_F(CrossDeviceTest, HostMemoryDevicesShareOneHostAllocation) {
  const char* env = std::getenv("MESHVK_TEST_HOST_MEMORY");
  const bool host_memory = env && std::string(env) == "1";
  if (!host_memory) {
    EXPECT_NE(path_.handle_type, uint32_t{VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT}) << path_.reason;
    return;
  }
  ASSERT_EQ(path_.path, MESHVK_COPY_PATH_EXTERNAL_MEMORY) << path_.reason;
  ASSERT_EQ(path_.handle_type, uint32_t{VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT}) << path_.reason;
  EXPECT_NE(std::string(path_.reason).find("host allocation"), std::string::npos) << path_.reason;
  // Larger than a huge page and not a multiple of a page.
  const size_t words = (3u << 20) / 4 + 3;
  const uint64_t before0 = meshvk_device_set_allocated_bytes(set_.get(), 0);
  const uint64_t before1 = meshvk_device_set_allocated_bytes(set_.get(), 1);
  Buffer plain = Make(0, words * 4, 0);
  const uint64_t ordinary = meshvk_buffer_allocation_size(plain.get());
  plain.reset();
  Buffer src = Make(0, words * 4, MESHVK_BUFFER_EXPORTABLE_BIT);
  Buffer dst = Make(1, words * 4, 0);
  ASSERT_TRUE(src && dst);
  EXPECT_EQ(meshvk_buffer_allocation_size(src.get()), ordinary) << "counted as an ordinary allocation";
  EXPECT_EQ(meshvk_device_set_allocated_bytes(set_.get(), 0) - before0, ordinary);
  std::vector<uint32_t> first = Pattern(words, 3), second = Pattern(words, 11);
  MESHVK_ASSERT_OK(meshvk_buffer_write(src.get(), 0, first.data(), words * 4));
  meshvk_buffer_t* raw = nullptr;
  MESHVK_ASSERT_OK(meshvk_buffer_share(src.get(), 1, &raw));
  Buffer view(raw);
  EXPECT_EQ(meshvk_device_set_allocated_bytes(set_.get(), 1) - before1, meshvk_buffer_allocation_size(dst.get()))
      << "the import allocates nothing on the reader";
  CommandBuffer cb = MakeCommandBuffer(set_.get(), 1);
  MESHVK_ASSERT_OK(meshvk_command_buffer_copy(cb.get(), view.get(), 0, dst.get(), 0, words * 4));
  MESHVK_ASSERT_OK(meshvk_command_buffer_end(cb.get()));
  SubmitAndWait(set_.get(), 1, cb.get());
  std::vector<uint32_t> got = ReadWords(dst.get());
  for (size_t i = 0; i < words; ++i) ASSERT_EQ(got[i], first[i]) << "word " << i;
  // The owner writes again; the same view reads the new bytes.
  MESHVK_ASSERT_OK(meshvk_buffer_write(src.get(), 0, second.data(), words * 4));
  SubmitAndWait(set_.get(), 1, cb.get());
  got = ReadWords(dst.get());
  for (size_t i = 0; i < words; ++i) ASSERT_EQ(got[i], second[i]) << "word " << i;
  // The owner's buffer outlives its last reader: the view keeps it.
  src.reset();
  SubmitAndWait(set_.get(), 1, cb.get());
  got = ReadWords(dst.get());
  for (size_t i = 0; i < words; ++i) ASSERT_EQ(got[i], second[i]) << "word " << i;
  cb.reset();
  view.reset();
  EXPECT_EQ(meshvk_device_set_allocated_bytes(set_.get(), 0), before0);
}

// Host staging between the two devices, at sizes below, at and above one
// chunk (and odd), with offsets; staging is counted apart and released.
TEST_F(CrossDeviceTest, HostStagedCopiesMoveExactlyTheRange) {
  const uint64_t allocated0 = meshvk_device_set_allocated_bytes(set_.get(), 0);
  for (uint64_t bytes :
       {uint64_t{4}, uint64_t{4096 + 12}, uint64_t{kStagingChunk}, uint64_t{2 * kStagingChunk + 4 * 333},
        // More chunks than a shared host allocation has slots: every slot is refilled.
        uint64_t{9 * kStagingChunk + 4 * 77}}) {
    const size_t words = bytes / 4 + 2;
    Buffer src = Make(0, words * 4, 0);
    Buffer dst = Make(1, words * 4, 0);
    ASSERT_TRUE(src && dst);
    std::vector<uint32_t> a = Pattern(words, 1), b = Pattern(words, 99);
    MESHVK_ASSERT_OK(meshvk_buffer_write(src.get(), 0, a.data(), words * 4));
    MESHVK_ASSERT_OK(meshvk_buffer_write(dst.get(), 0, b.data(), words * 4));
    MESHVK_ASSERT_OK(meshvk_buffer_copy_host_staged(src.get(), 4, dst.get(), 8, bytes - 4, MESHVK_TIMEOUT_INFINITE));
    std::vector<uint32_t> got = ReadWords(dst.get());
    for (size_t i = 0; i < words; ++i) {
      uint32_t expected = (i >= 2 && i < 2 + (bytes - 4) / 4) ? a[i - 1] : b[i];
      ASSERT_EQ(got[i], expected) << bytes << " bytes, word " << i;
    }
    // At most the two rings a device keeps between transfers (2 chunks each).
    EXPECT_LE(meshvk_device_set_staging_bytes(set_.get(), 0), 4 * kStagingChunk + 8192);
    EXPECT_LE(meshvk_device_set_staging_bytes(set_.get(), 1), 4 * kStagingChunk + 8192);
  }
  // Never the transfer's size (the largest here is 9 chunks and more).
  EXPECT_LE(meshvk_device_set_peak_staging_bytes(set_.get(), 1), 4 * kStagingChunk + 8192);
  EXPECT_EQ(meshvk_device_set_allocated_bytes(set_.get(), 0), allocated0) << "staging is not in allocated bytes";
  Buffer small = Make(0, 64, 0), other = Make(1, 64, 0);
  EXPECT_TRUE(HasCode(meshvk_buffer_copy_host_staged(small.get(), 32, other.get(), 0, 64, MESHVK_TIMEOUT_INFINITE),
                      MESHVK_STATUS_OUT_OF_RANGE, "leave a buffer"));
}

// A semaphore shared with another VkDevice (meshvk_semaphore_share): the
// consumer's submission waits for the producer's device-side signal without
// the host blocking; pairs that cannot share say UNAVAILABLE (the executor
// then waits on the host).
TEST_F(CrossDeviceTest, ASharedSemaphoreOrdersTheConsumerOnItsDevice) {
  meshvk_semaphore_t* raw = nullptr;
  MESHVK_ASSERT_OK(meshvk_semaphore_create(set_.get(), 0, 0, &raw));
  Semaphore produced(raw);
  MESHVK_ASSERT_OK(meshvk_semaphore_create(set_.get(), 1, 0, &raw));
  Semaphore consumed(raw);
  meshvk_semaphore_t* view_raw = nullptr;
  if (!path_.external_semaphores) {
    EXPECT_TRUE(HasCode(meshvk_semaphore_share(produced.get(), 1, &view_raw), MESHVK_STATUS_UNAVAILABLE,
                        "do not share timeline semaphores"));
    EXPECT_EQ(view_raw, nullptr);
    return;  // the fallback (host waits) is what this pair has; checked above
  }
  if (path_.path != MESHVK_COPY_PATH_EXTERNAL_MEMORY) GTEST_SKIP() << "no external memory: " << path_.reason;
  MESHVK_ASSERT_OK(meshvk_semaphore_share(produced.get(), 1, &view_raw));
  Semaphore view(view_raw);
  EXPECT_EQ(meshvk_semaphore_process(view.get()), 1u);
  EXPECT_TRUE(HasCode(meshvk_semaphore_share(produced.get(), 0, &view_raw), MESHVK_STATUS_INVALID_ARGUMENT,
                      "the same VkDevice"));
  EXPECT_TRUE(HasCode(meshvk_semaphore_signal(view.get(), 1), MESHVK_STATUS_INVALID_ARGUMENT, "signal the source"));

  // Process 0 fills its exported buffer, process 1 copies it out through its
  // imported view; process 1's submission goes first and waits on the view.
  const size_t words = 4096;
  Buffer src = Make(0, words * 4, MESHVK_BUFFER_EXPORTABLE_BIT);
  Buffer dst = Make(1, words * 4, 0);
  ASSERT_TRUE(src && dst);
  MESHVK_ASSERT_OK(meshvk_buffer_share(src.get(), 1, &raw_buffer_));
  Buffer imported(raw_buffer_);
  CommandBuffer copy = MakeCommandBuffer(set_.get(), 1);
  MESHVK_ASSERT_OK(meshvk_command_buffer_copy(copy.get(), imported.get(), 0, dst.get(), 0, words * 4));
  MESHVK_ASSERT_OK(meshvk_command_buffer_end(copy.get()));
  meshvk_semaphore_value_t wait{view.get(), 1}, done{consumed.get(), 1};
  meshvk_submit_info_t consumer = SubmitInfo(copy.get(), &wait, 1, &done, 1);
  MESHVK_ASSERT_OK(meshvk_queue_submit(set_.get(), &consumer));
  // Nothing lets it run yet: a wait shorter than the device timeout expires.
  EXPECT_TRUE(HasCode(meshvk_semaphore_wait(consumed.get(), 1, 50ull * 1000 * 1000), MESHVK_STATUS_DEADLINE_EXCEEDED));
  CommandBuffer fill = MakeCommandBuffer(set_.get(), 0);
  MESHVK_ASSERT_OK(meshvk_command_buffer_fill(fill.get(), src.get(), 0, words * 4, 0x5eed5eedu));
  MESHVK_ASSERT_OK(meshvk_command_buffer_end(fill.get()));
  meshvk_semaphore_value_t signal{produced.get(), 1};
  meshvk_submit_info_t producer = SubmitInfo(fill.get(), nullptr, 0, &signal, 1);
  MESHVK_ASSERT_OK(meshvk_queue_submit(set_.get(), &producer));
  // The host only waits for the consumer's own completion.
  MESHVK_ASSERT_OK(meshvk_semaphore_wait(consumed.get(), 1, 10ull * 1000 * 1000 * 1000));
  uint64_t seen = 0;
  MESHVK_ASSERT_OK(meshvk_semaphore_query(view.get(), &seen));
  EXPECT_GE(seen, 1u) << "a view reads its source's value";
  std::vector<uint32_t> got = ReadWords(dst.get());
  for (size_t i = 0; i < words; ++i) ASSERT_EQ(got[i], 0x5eed5eedu) << "word " << i;
}

// A staging buffer (a landing buffer) is counted in staging bytes, not in
// the process's allocated bytes.
TEST_F(CrossDeviceTest, StagingBuffersAreCountedApart) {
  const uint64_t before = meshvk_device_set_allocated_bytes(set_.get(), 1);
  Buffer landing = Make(1, 1 << 16, MESHVK_BUFFER_STAGING_BIT);
  ASSERT_TRUE(landing);
  EXPECT_EQ(meshvk_device_set_allocated_bytes(set_.get(), 1), before);
  EXPECT_GE(meshvk_device_set_staging_bytes(set_.get(), 1), uint64_t{1} << 16);
  landing.reset();
  EXPECT_EQ(meshvk_device_set_staging_bytes(set_.get(), 1), 0u);
}

}  // namespace
}  // namespace meshvk_test
