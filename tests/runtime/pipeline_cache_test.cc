// Pipeline caches kept across runs (runtime/src/pipeline_cache.h): a device
// set writes its VkDevice's cache file when it is destroyed, a later set
// starts from it, and no cache file (damaged, another device's, a directory
// that cannot be written, caching off) ever fails device or pipeline creation.
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "vulkan_fixture.h"

namespace meshvk_test {
namespace {

namespace fs = std::filesystem;

class PipelineCacheTest : public VulkanTest {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("meshvk-pipeline-cache-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    ASSERT_EQ(std::getenv("MESHVK_PIPELINE_CACHE"), nullptr) << "the test chains its own meshvk_pipeline_cache_t";
    Point(dir_.string());
    VulkanTest::SetUp();
  }
  void TearDown() override {
    VulkanTest::TearDown();
    fs::remove_all(dir_);
  }
  // The directory the next sets chain (meshvk_pipeline_cache_t); "off": a
  // chained struct with a NULL directory.
  void Point(const std::string& where) {
    where_ = where;
    cache_.directory = where_ == "off" ? nullptr : where_.c_str();
  }

  // A set of one process that creates a built-in's pipeline (the fill
  // kernel by default), then goes away.
  void CreatePipelineAndRelease(meshvk_builtin_t builtin = MESHVK_BUILTIN_FILL) {
    DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1, nullptr, &cache_);
    ASSERT_TRUE(set);
    Executable executable = Builtin(set.get(), builtin);
    ASSERT_TRUE(executable);
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

TEST_F(PipelineCacheTest, WritesOneFileNamedByTheDeviceWithItsHeader) {
  CreatePipelineAndRelease();
  std::vector<fs::path> files = CacheFiles();
  ASSERT_EQ(files.size(), 1u) << "one cache file for lavapipe, no temporary left behind";
  meshvk_physical_device_info_t device = MESHVK_PHYSICAL_DEVICE_INFO_INIT;
  MESHVK_ASSERT_OK(meshvk_instance_physical_device_info(instance(), 0, &device));
  std::string name = files[0].filename().string();
  char uuid[3];
  std::snprintf(uuid, sizeof uuid, "%02x", device.device_uuid[0]);
  EXPECT_EQ(name.rfind(std::string("pipelines-") + uuid, 0), 0u) << name;
  EXPECT_EQ(files[0].extension(), ".bin");
  // Vulkan's VkPipelineCacheHeaderVersionOne, naming this device.
  std::vector<char> data = Read(files[0]);
  ASSERT_GE(data.size(), 32u);
  uint32_t header[4];
  std::memcpy(header, data.data(), sizeof header);
  EXPECT_EQ(header[0], 32u);  // headerSize
  EXPECT_EQ(header[1], 1u);   // VK_PIPELINE_CACHE_HEADER_VERSION_ONE
  EXPECT_EQ(header[2], device.vendor_id);
  EXPECT_EQ(header[3], device.device_id);
}

TEST_F(PipelineCacheTest, ALaterSetStartsFromTheFile) {
  // The copy kernel alone, in a directory of its own...
  fs::path main_dir = dir_;
  dir_ = main_dir.string() + "-alone";
  Point(dir_.string());
  CreatePipelineAndRelease(MESHVK_BUILTIN_STRIDED_COPY);
  ASSERT_EQ(CacheFiles().size(), 1u);
  const uintmax_t copy_alone = fs::file_size(CacheFiles()[0]);
  fs::remove_all(dir_);
  // Mesa 22.3's lavapipe keeps no pipelines in its cache (its data is the
  // 32-byte header alone): what a later set read back cannot be seen there.
  if (copy_alone <= 32) GTEST_SKIP() << "this driver's pipeline cache holds no pipelines (header only)";
  // ... and after a run that cached the fill kernel: the cache it writes holds
  // both, so it started from the file.
  dir_ = main_dir;
  Point(dir_.string());
  CreatePipelineAndRelease(MESHVK_BUILTIN_FILL);
  CreatePipelineAndRelease(MESHVK_BUILTIN_STRIDED_COPY);
  ASSERT_EQ(CacheFiles().size(), 1u);
  EXPECT_GT(fs::file_size(CacheFiles()[0]), copy_alone);
}

TEST_F(PipelineCacheTest, DamagedOrForeignFilesAreIgnored) {
  CreatePipelineAndRelease();
  ASSERT_EQ(CacheFiles().size(), 1u);
  const fs::path file = CacheFiles()[0];
  std::vector<char> good = Read(file);
  std::vector<std::vector<char>> bad = {
      {},                                                  // empty
      std::vector<char>(good.begin(), good.begin() + 20),  // shorter than a header
      std::vector<char>(4096, '\x5a'),                     // noise
  };
  std::vector<char> foreign = good;  // another device's header
  foreign[12] ^= 0x1;
  bad.push_back(foreign);
  std::vector<char> truncated(good.begin(), good.begin() + good.size() / 2);  // header fine, body cut
  bad.push_back(truncated);
  for (const std::vector<char>& contents : bad) {
    std::ofstream(file, std::ios::binary | std::ios::trunc).write(contents.data(), contents.size());
    CreatePipelineAndRelease();
    EXPECT_EQ(Read(file).size(), good.size()) << "rewritten whole after a " << contents.size() << "-byte file";
  }
}

TEST_F(PipelineCacheTest, OffWritesNothing) {
  Point("off");
  CreatePipelineAndRelease();
  EXPECT_TRUE(CacheFiles().empty());
  EXPECT_FALSE(fs::exists(dir_));
}

TEST_F(PipelineCacheTest, AnUnwritableDirectoryIsNotAnError) {
  std::ofstream(dir_.string() + ".file") << "x";  // a file where the directory would go
  Point(dir_.string() + ".file");
  CreatePipelineAndRelease();
  fs::remove(dir_.string() + ".file");
}

}  // namespace
}  // namespace meshvk_test
