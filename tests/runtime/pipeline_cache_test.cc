// Pipeline caches kept across runs (runtime/src/pipeline_cache.h): a device
// set writes its VkDevice's cache file when it is destroyed, a later set
// starts from it (meshvk_device_set_pipeline_cache_stats says so), and no
// cache file (short, truncated, damaged, another device's or driver
// version's, a directory that cannot be written, caching off) ever fails
// device or pipeline creation; two processes saving at once leave one whole
// file.
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "vulkan_fixture.h"

extern char** environ;

namespace meshvk_test {
namespace {

namespace fs = std::filesystem;

// Set in the children of TwoProcessesSavingAtOnceLeaveOneWholeFile: the
// directory they share (and do not remove).
constexpr char kChildDirectory[] = "MESHVK_TEST_PIPELINE_CACHE_CHILD";
// meshvk's header before the driver's data (pipeline_cache.cc's FileHeader).
constexpr size_t kFileHeader = 88;

class PipelineCacheTest : public VulkanTest {
 protected:
  void SetUp() override {
    const char* child = std::getenv(kChildDirectory);
    dir_ = child ? fs::path(child)
                 : fs::temp_directory_path() / ("meshvk-pipeline-cache-" + std::to_string(::getpid()) + "-" +
                                                ::testing::UnitTest::GetInstance()->current_test_info()->name());
    if (!child) fs::remove_all(dir_);
    ASSERT_EQ(std::getenv("MESHVK_PIPELINE_CACHE"), nullptr) << "the test chains its own meshvk_pipeline_cache_t";
    Point(dir_.string());
    VulkanTest::SetUp();
  }
  void TearDown() override {
    VulkanTest::TearDown();
    if (!std::getenv(kChildDirectory)) fs::remove_all(dir_);
  }
  // The directory the next sets chain (meshvk_pipeline_cache_t); "off": a
  // chained struct with a NULL directory.
  void Point(const std::string& where) {
    where_ = where;
    cache_.directory = where_ == "off" ? nullptr : where_.c_str();
  }

  // A set of one process that creates a built-in's pipeline (the fill
  // kernel by default), then goes away; returns its cache stats.
  meshvk_pipeline_cache_stats_t CreatePipelineAndRelease(meshvk_builtin_t builtin = MESHVK_BUILTIN_FILL) {
    meshvk_pipeline_cache_stats_t stats = MESHVK_PIPELINE_CACHE_STATS_INIT;
    DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1, nullptr, &cache_);
    EXPECT_TRUE(set);
    if (!set) return stats;
    Executable executable = Builtin(set.get(), builtin);
    EXPECT_TRUE(executable);
    MESHVK_EXPECT_OK(meshvk_device_set_pipeline_cache_stats(set.get(), &stats));
    return stats;
  }

  std::vector<fs::path> CacheFiles() const {
    std::vector<fs::path> files;
    if (fs::is_directory(dir_))
      for (const auto& entry : fs::directory_iterator(dir_)) files.push_back(entry.path());
    return files;
  }

  fs::path dir_;
  std::string where_;
  meshvk_pipeline_cache_t cache_ = MESHVK_PIPELINE_CACHE_INIT;
};

std::vector<char> Read(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

ino_t Inode(const fs::path& file) {
  struct stat info{};
  return ::stat(file.c_str(), &info) == 0 ? info.st_ino : 0;
}

TEST_F(PipelineCacheTest, WritesOneFileNamedByTheDeviceWithItsHeader) {
  meshvk_pipeline_cache_stats_t cold = CreatePipelineAndRelease();
  EXPECT_EQ(cold.device_count, 1u);
  EXPECT_EQ(cold.files_loaded, 0u) << "no file yet";
  EXPECT_EQ(cold.files_ignored, 0u);
  EXPECT_EQ(cold.loaded_bytes, 0u);
  EXPECT_EQ(cold.pipelines, 1u);
  EXPECT_EQ(cold.cache_hits, 0u);
  EXPECT_GT(cold.pipeline_create_ns, 0u);
  std::vector<fs::path> files = CacheFiles();
  ASSERT_EQ(files.size(), 1u) << "one cache file for lavapipe, no temporary left behind";
  meshvk_physical_device_info_t device = MESHVK_PHYSICAL_DEVICE_INFO_INIT;
  MESHVK_ASSERT_OK(meshvk_instance_physical_device_info(instance(), 0, &device));
  std::string name = files[0].filename().string();
  char uuid[3];
  std::snprintf(uuid, sizeof uuid, "%02x", device.device_uuid[0]);
  EXPECT_EQ(name.rfind(std::string("pipelines-") + uuid, 0), 0u) << name;
  EXPECT_EQ(files[0].extension(), ".bin");
  std::vector<char> data = Read(files[0]);
  ASSERT_GE(data.size(), kFileHeader + 32);
  EXPECT_EQ(std::string(data.data(), 8), "MVKPCAC1");
  uint32_t ids[2];
  std::memcpy(ids, data.data() + 8, sizeof ids);
  EXPECT_EQ(ids[0], device.vendor_id);
  EXPECT_EQ(ids[1], device.device_id);
  EXPECT_EQ(std::memcmp(data.data() + 24, device.device_uuid, 16), 0);
  EXPECT_EQ(std::memcmp(data.data() + 40, device.driver_uuid, 16), 0);
  uint64_t data_size;
  std::memcpy(&data_size, data.data() + 72, sizeof data_size);
  EXPECT_EQ(data_size, data.size() - kFileHeader);
  // Then Vulkan's VkPipelineCacheHeaderVersionOne, naming this device.
  uint32_t header[4];
  std::memcpy(header, data.data() + kFileHeader, sizeof header);
  EXPECT_EQ(header[0], 32u);  // headerSize
  EXPECT_EQ(header[1], 1u);   // VK_PIPELINE_CACHE_HEADER_VERSION_ONE
  EXPECT_EQ(header[2], device.vendor_id);
  EXPECT_EQ(header[3], device.device_id);
}

TEST_F(PipelineCacheTest, AWarmRunStartsFromTheFileAndLeavesItAlone) {
  CreatePipelineAndRelease();
  ASSERT_EQ(CacheFiles().size(), 1u);
  const fs::path file = CacheFiles()[0];
  const uintmax_t size = fs::file_size(file);
  const ino_t written = Inode(file);
  meshvk_pipeline_cache_stats_t warm = CreatePipelineAndRelease();
  EXPECT_EQ(warm.files_loaded, 1u);
  EXPECT_EQ(warm.files_ignored, 0u);
  EXPECT_EQ(warm.loaded_bytes, size - kFileHeader) << "the driver data of the file, whole";
  EXPECT_EQ(warm.pipelines, 1u);
  // Nothing new to save (the same kernel): the file is not rewritten.
  EXPECT_EQ(Inode(file), written);
  // A driver that keeps pipelines in its cache reports the warm run's
  // pipeline found there; lavapipe (header-only data) reports none.
  if (size > kFileHeader + 32) EXPECT_EQ(warm.cache_hits, warm.pipelines);
}

TEST_F(PipelineCacheTest, ALaterSetAddsToTheFile) {
  // The copy kernel alone, in a directory of its own...
  fs::path main_dir = dir_;
  dir_ = main_dir.string() + "-alone";
  Point(dir_.string());
  CreatePipelineAndRelease(MESHVK_BUILTIN_STRIDED_COPY);
  ASSERT_EQ(CacheFiles().size(), 1u);
  const uintmax_t copy_alone = fs::file_size(CacheFiles()[0]);
  fs::remove_all(dir_);
  // Mesa 22.3's lavapipe keeps no pipelines in its cache (its data is the
  // 32-byte header alone): what a later set added cannot be seen there.
  if (copy_alone <= kFileHeader + 32) GTEST_SKIP() << "this driver's pipeline cache holds no pipelines (header only)";
  // ... and after a run that cached the fill kernel: the cache it writes holds
  // both, so it started from the file.
  dir_ = main_dir;
  Point(dir_.string());
  CreatePipelineAndRelease(MESHVK_BUILTIN_FILL);
  CreatePipelineAndRelease(MESHVK_BUILTIN_STRIDED_COPY);
  ASSERT_EQ(CacheFiles().size(), 1u);
  EXPECT_GT(fs::file_size(CacheFiles()[0]), copy_alone);
}

TEST_F(PipelineCacheTest, DamagedTruncatedOrForeignFilesAreIgnoredAndRewritten) {
  CreatePipelineAndRelease();
  ASSERT_EQ(CacheFiles().size(), 1u);
  const fs::path file = CacheFiles()[0];
  const std::vector<char> good = Read(file);
  ASSERT_GT(good.size(), kFileHeader);
  auto flipped = [&](size_t at) {
    std::vector<char> bytes = good;
    bytes[at] ^= 0x1;
    return bytes;
  };
  std::vector<std::pair<std::string, std::vector<char>>> bad = {
      {"empty", {}},
      {"shorter than meshvk's header", std::vector<char>(good.begin(), good.begin() + 20)},
      {"meshvk's header alone", std::vector<char>(good.begin(), good.begin() + kFileHeader)},
      {"noise", std::vector<char>(4096, '\x5a')},
      {"truncated", std::vector<char>(good.begin(), good.end() - 1)},
      {"one byte longer",
       [&] {
         std::vector<char> bytes = good;
         bytes.push_back('\0');
         return bytes;
       }()},
      {"another magic", flipped(0)},
      {"another device ID", flipped(12)},
      {"another driver version", flipped(16)},
      {"another driver UUID", flipped(40)},
      {"another pipeline cache UUID", flipped(56)},
      {"a damaged hash", flipped(80)},
      {"damaged driver data", flipped(good.size() - 1)},
  };
  for (const auto& [what, contents] : bad) {
    std::ofstream(file, std::ios::binary | std::ios::trunc).write(contents.data(), contents.size());
    meshvk_pipeline_cache_stats_t stats = CreatePipelineAndRelease();
    EXPECT_EQ(stats.files_loaded, 0u) << what;
    EXPECT_EQ(stats.files_ignored, 1u) << what;
    EXPECT_EQ(stats.loaded_bytes, 0u) << what;
    EXPECT_EQ(stats.pipelines, 1u) << what;
    EXPECT_EQ(Read(file), good) << "rewritten whole after " << what;
  }
  EXPECT_EQ(CacheFiles().size(), 1u) << "no temporary left behind";
}

TEST_F(PipelineCacheTest, OffWritesNothing) {
  Point("off");
  meshvk_pipeline_cache_stats_t stats = CreatePipelineAndRelease();
  EXPECT_EQ(stats.files_loaded + stats.files_ignored, 0u);
  EXPECT_EQ(stats.pipelines, 1u);
  EXPECT_TRUE(CacheFiles().empty());
  EXPECT_FALSE(fs::exists(dir_));
}

TEST_F(PipelineCacheTest, AnUnwritableDirectoryIsNotAnError) {
  std::ofstream(dir_.string() + ".file") << "x";  // a file where the directory would go
  Point(dir_.string() + ".file");
  meshvk_pipeline_cache_stats_t stats = CreatePipelineAndRelease();
  EXPECT_EQ(stats.pipelines, 1u);
  fs::remove(dir_.string() + ".file");
}

TEST_F(PipelineCacheTest, StatsRefuseNullAndAnotherStructure) {
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1, nullptr, &cache_);
  ASSERT_TRUE(set);
  meshvk_pipeline_cache_stats_t stats = MESHVK_PIPELINE_CACHE_STATS_INIT;
  EXPECT_TRUE(HasCode(meshvk_device_set_pipeline_cache_stats(nullptr, &stats), MESHVK_STATUS_INVALID_ARGUMENT));
  EXPECT_TRUE(HasCode(meshvk_device_set_pipeline_cache_stats(set.get(), nullptr), MESHVK_STATUS_INVALID_ARGUMENT));
  stats.type = MESHVK_STRUCTURE_TYPE_BINDING_STATS;
  EXPECT_TRUE(HasCode(meshvk_device_set_pipeline_cache_stats(set.get(), &stats), MESHVK_STATUS_INVALID_ARGUMENT));
}

// One VkDevice per physical device (INDEPENDENT): one file per distinct
// (deviceUUID, driverUUID) the devices report, each loaded by the next set.
// Under the emulation layer (runtime.pipeline_cache_emulated_*): shared IDs
// make two VkDevices save one file, distinct UUIDs or mixed drivers two.
TEST_F(PipelineCacheTest, OneFilePerDeviceAndDriverUuid) {
  const uint32_t devices = meshvk_instance_physical_device_count(instance());
  std::set<std::string> keys;
  for (uint32_t d = 0; d < devices; ++d) {
    meshvk_physical_device_info_t info = MESHVK_PHYSICAL_DEVICE_INFO_INIT;
    MESHVK_ASSERT_OK(meshvk_instance_physical_device_info(instance(), d, &info));
    keys.insert(std::string(reinterpret_cast<const char*>(info.device_uuid), 16) +
                std::string(reinterpret_cast<const char*>(info.driver_uuid), 16));
  }
  for (int run = 0; run < 2; ++run) {
    DeviceSet set = MakeSet(MESHVK_TOPOLOGY_INDEPENDENT, devices, nullptr, &cache_);
    ASSERT_TRUE(set);
    Executable executable = Builtin(set.get(), MESHVK_BUILTIN_FILL);
    ASSERT_TRUE(executable);
    meshvk_pipeline_cache_stats_t stats = MESHVK_PIPELINE_CACHE_STATS_INIT;
    MESHVK_ASSERT_OK(meshvk_device_set_pipeline_cache_stats(set.get(), &stats));
    EXPECT_EQ(stats.device_count, devices);
    EXPECT_EQ(stats.pipelines, devices) << "one pipeline per VkDevice";
    EXPECT_EQ(stats.files_ignored, 0u);
    EXPECT_EQ(stats.files_loaded, run == 0 ? 0u : devices) << "run " << run;
  }
  EXPECT_EQ(CacheFiles().size(), keys.size()) << devices << " devices";
}

// The test starts itself twice as a child (kChildDirectory set): each child
// makes and releases sets in a loop, each saving the shared file (two kernels
// in turn, so the data changes on a driver that caches pipelines).
TEST_F(PipelineCacheTest, TwoProcessesSavingAtOnceLeaveOneWholeFile) {
  if (std::getenv(kChildDirectory)) {
    for (int i = 0; i < 6; ++i) {
      meshvk_pipeline_cache_stats_t stats =
          CreatePipelineAndRelease(i % 2 ? MESHVK_BUILTIN_STRIDED_COPY : MESHVK_BUILTIN_FILL);
      EXPECT_EQ(stats.files_ignored, 0u) << "iteration " << i << ": read a file another process was writing";
    }
    return;
  }
  fs::create_directories(dir_);
  const std::string env = std::string(kChildDirectory) + "=" + dir_.string();
  std::vector<char*> child_env;
  for (char** e = environ; *e; ++e) child_env.push_back(*e);
  child_env.push_back(const_cast<char*>(env.c_str()));
  child_env.push_back(nullptr);
  std::string filter = "--gtest_filter=PipelineCacheTest.TwoProcessesSavingAtOnceLeaveOneWholeFile";
  std::string self = fs::read_symlink("/proc/self/exe").string();
  char* argv[] = {self.data(), filter.data(), nullptr};
  pid_t children[2];
  for (pid_t& child : children)
    ASSERT_EQ(::posix_spawn(&child, self.c_str(), nullptr, nullptr, argv, child_env.data()), 0);
  for (pid_t child : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child " << child << " status " << status;
  }
  ASSERT_EQ(CacheFiles().size(), 1u) << "one file, no temporary left behind";
  meshvk_pipeline_cache_stats_t stats = CreatePipelineAndRelease();
  EXPECT_EQ(stats.files_loaded, 1u);
  EXPECT_EQ(stats.files_ignored, 0u);
  EXPECT_EQ(stats.loaded_bytes, fs::file_size(CacheFiles()[0]) - kFileHeader);
}

}  // namespace
}  // namespace meshvk_test
