// Pipeline caches kept across runs (see pipeline_cache.h).
#include "pipeline_cache.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "base/structure.h"

namespace meshvk {
namespace {

// Larger files are not read: a cache is tens of MiB at most, and a file this
// large is not one meshvk wrote.
constexpr uintmax_t kMaxCacheBytes = 256u << 20;

// The header meshvk writes before the driver's data (host byte order: a file
// of another byte order names another device anyway).
constexpr char kMagic[8] = {'M', 'V', 'K', 'P', 'C', 'A', 'C', '1'};
struct FileHeader {
  char magic[8];
  uint32_t vendor_id;
  uint32_t device_id;
  uint32_t driver_version;
  uint32_t header_size;  // sizeof(FileHeader)
  uint8_t device_uuid[VK_UUID_SIZE];
  uint8_t driver_uuid[VK_UUID_SIZE];
  uint8_t pipeline_cache_uuid[VK_UUID_SIZE];
  uint64_t data_size;
  uint64_t data_hash;  // FNV-1a 64 of the data
};
static_assert(sizeof(FileHeader) == 88, "FileHeader has no padding");

std::string Hex(const uint8_t* bytes, size_t n) {
  std::string text;
  char two[3];
  for (size_t i = 0; i < n; ++i) {
    std::snprintf(two, sizeof two, "%02x", bytes[i]);
    text += two;
  }
  return text;
}

uint64_t Fnv1a(const char* data, size_t size) {
  uint64_t hash = 14695981039346656037ull;
  for (size_t i = 0; i < size; ++i) {
    hash ^= static_cast<unsigned char>(data[i]);
    hash *= 1099511628211ull;
  }
  return hash;
}

FileHeader HeaderFor(const LogicalDevice& device, const std::vector<char>& data) {
  const VkPhysicalDeviceProperties& p = device.physical->properties;
  const meshvk_physical_device_info_t& info = device.physical->info;
  FileHeader header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.vendor_id = p.vendorID;
  header.device_id = p.deviceID;
  header.driver_version = p.driverVersion;
  header.header_size = sizeof(FileHeader);
  std::memcpy(header.device_uuid, info.device_uuid, VK_UUID_SIZE);
  std::memcpy(header.driver_uuid, info.driver_uuid, VK_UUID_SIZE);
  std::memcpy(header.pipeline_cache_uuid, p.pipelineCacheUUID, VK_UUID_SIZE);
  header.data_size = data.size();
  header.data_hash = Fnv1a(data.data(), data.size());
  return header;
}

// Vulkan's VkPipelineCacheHeaderVersionOne for this device: the driver checks
// it too, but a driver handed another device's data is where crashes hide.
bool VulkanHeaderMatches(const std::vector<char>& data, const VkPhysicalDeviceProperties& p) {
  VkPipelineCacheHeaderVersionOne header{};
  if (data.size() < sizeof header) return false;
  std::memcpy(&header, data.data(), sizeof header);
  return header.headerSize >= sizeof header && header.headerSize <= data.size() &&
         header.headerVersion == VK_PIPELINE_CACHE_HEADER_VERSION_ONE && header.vendorID == p.vendorID &&
         header.deviceID == p.deviceID && std::memcmp(header.pipelineCacheUUID, p.pipelineCacheUUID, VK_UUID_SIZE) == 0;
}

enum class Read { kMissing, kIgnored, kLoaded };

// The driver's data in `file` when every check passes.
Read ReadCacheFile(const std::string& file, const LogicalDevice& device, std::vector<char>* data) {
  data->clear();
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return Read::kMissing;
  uintmax_t size = std::filesystem::file_size(file, ec);
  if (ec || size <= sizeof(FileHeader) || size > kMaxCacheBytes) return Read::kIgnored;
  std::ifstream in(file, std::ios::binary);
  std::vector<char> bytes(static_cast<size_t>(size));
  if (!in.read(bytes.data(), static_cast<std::streamsize>(size))) return Read::kIgnored;
  FileHeader found;
  std::memcpy(&found, bytes.data(), sizeof found);
  data->assign(bytes.begin() + sizeof(FileHeader), bytes.end());
  const FileHeader expected = HeaderFor(device, *data);
  if (std::memcmp(&found, &expected, sizeof found) != 0 || !VulkanHeaderMatches(*data, device.physical->properties)) {
    data->clear();
    return Read::kIgnored;
  }
  return Read::kLoaded;
}

// A cache made from `data`; VK_NULL_HANDLE when the driver refuses it.
VkPipelineCache MakeCache(LogicalDevice* device, const std::vector<char>& data) {
  VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  info.initialDataSize = data.size();
  info.pInitialData = data.empty() ? nullptr : data.data();
  VkPipelineCache cache = VK_NULL_HANDLE;
  if (device->vk.vkCreatePipelineCache(device->device, &info, nullptr, &cache) != VK_SUCCESS) return VK_NULL_HANDLE;
  return cache;
}

std::vector<char> CacheData(LogicalDevice* device) {
  size_t size = 0;
  std::vector<char> data;
  if (device->vk.vkGetPipelineCacheData(device->device, device->pipeline_cache, &size, nullptr) != VK_SUCCESS)
    return data;
  data.resize(size);
  if (device->vk.vkGetPipelineCacheData(device->device, device->pipeline_cache, &size, data.data()) != VK_SUCCESS)
    return {};
  data.resize(std::min(size, data.size()));
  return data;
}

// What another process or VkDevice saved since this one read the file joins
// this cache, so concurrent runs do not drop each other's pipelines.
void MergeFileSavedSince(LogicalDevice* device) {
  std::vector<char> saved;
  if (ReadCacheFile(device->pipeline_cache_file, *device, &saved) != Read::kLoaded) return;
  if (Fnv1a(saved.data(), saved.size()) == device->cache_counters.loaded_hash &&
      saved.size() == device->cache_counters.loaded_bytes)
    return;
  VkPipelineCache other = MakeCache(device, saved);
  if (other == VK_NULL_HANDLE) return;
  (void)device->vk.vkMergePipelineCaches(device->device, device->pipeline_cache, 1, &other);
  device->vk.vkDestroyPipelineCache(device->device, other, nullptr);
}

void WriteCacheFile(const LogicalDevice& device, const std::vector<char>& data) {
  const std::string& file = device.pipeline_cache_file;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(file).parent_path(), ec);
  // Several processes (or VkDevices of one process) may save at once: each
  // writes its own temporary file and renames it over the cache file.
  const std::string temporary =
      file + ".tmp." + std::to_string(getpid()) + "." + std::to_string(reinterpret_cast<uintptr_t>(&device));
  const FileHeader header = HeaderFor(device, data);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out || !out.write(reinterpret_cast<const char*>(&header), sizeof header) ||
        !out.write(data.data(), static_cast<std::streamsize>(data.size())) || !out.flush()) {
      out.close();
      std::filesystem::remove(temporary, ec);
      return;
    }
  }
  std::filesystem::rename(temporary, file, ec);
  if (ec) std::filesystem::remove(temporary, ec);
}

}  // namespace

std::string DefaultPipelineCacheDirectory() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg == '/') return (std::filesystem::path(xdg) / "meshvk").string();
  const char* home = std::getenv("HOME");
  if (home && *home == '/') return (std::filesystem::path(home) / ".cache" / "meshvk").string();
  return "";
}

void CreatePipelineCache(LogicalDevice* device, const std::string& directory) {
  const meshvk_physical_device_info_t& physical = device->physical->info;
  device->pipeline_cache_file =
      directory.empty() ? ""
                        : (std::filesystem::path(directory) / ("pipelines-" + Hex(physical.device_uuid, 16) + "-" +
                                                               Hex(physical.driver_uuid, 16) + ".bin"))
                              .string();
  PipelineCacheCounters& counters = device->cache_counters;
  std::vector<char> data;
  Read read =
      device->pipeline_cache_file.empty() ? Read::kMissing : ReadCacheFile(device->pipeline_cache_file, *device, &data);
  device->pipeline_cache = read == Read::kLoaded ? MakeCache(device, data) : VK_NULL_HANDLE;
  if (read == Read::kLoaded && device->pipeline_cache == VK_NULL_HANDLE) read = Read::kIgnored;  // refused
  counters.file_ignored = read == Read::kIgnored;
  counters.file_loaded = read == Read::kLoaded;
  if (read == Read::kLoaded) {
    counters.loaded_bytes = data.size();
    counters.loaded_hash = Fnv1a(data.data(), data.size());
  }
  if (device->pipeline_cache == VK_NULL_HANDLE) device->pipeline_cache = MakeCache(device, {});
}

void SaveAndDestroyPipelineCache(LogicalDevice* device) {
  if (device->pipeline_cache == VK_NULL_HANDLE) return;
  std::vector<char> data;
  if (!device->pipeline_cache_file.empty()) {
    MergeFileSavedSince(device);
    data = CacheData(device);
  }
  device->vk.vkDestroyPipelineCache(device->device, device->pipeline_cache, nullptr);
  device->pipeline_cache = VK_NULL_HANDLE;
  if (data.empty() || !VulkanHeaderMatches(data, device->physical->properties)) return;
  const PipelineCacheCounters& counters = device->cache_counters;
  // Unchanged since it was read: the file already holds it (and a run that
  // only reads its pipelines back writes nothing).
  if (counters.file_loaded && data.size() == counters.loaded_bytes &&
      Fnv1a(data.data(), data.size()) == counters.loaded_hash) {
    std::vector<char> current;
    if (ReadCacheFile(device->pipeline_cache_file, *device, &current) == Read::kLoaded && current == data) return;
  }
  WriteCacheFile(*device, data);
}

}  // namespace meshvk

extern "C" {

meshvk_status_t meshvk_device_set_pipeline_cache_stats(const meshvk_device_set_t* set,
                                                       meshvk_pipeline_cache_stats_t* out_stats) {
  if (!set) {
    return meshvk::MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_device_set_pipeline_cache_stats: set is NULL")
        .ToC();
  }
  meshvk::Status checked = meshvk::CheckStructure(out_stats, MESHVK_STRUCTURE_TYPE_PIPELINE_CACHE_STATS,
                                                  "meshvk_device_set_pipeline_cache_stats: out_stats");
  if (!checked.ok()) return checked.ToC();
  meshvk_pipeline_cache_stats_t stats = MESHVK_PIPELINE_CACHE_STATS_INIT;
  for (const auto& device : set->devices) {
    const meshvk::PipelineCacheCounters& counters = device->cache_counters;
    ++stats.device_count;
    stats.files_loaded += counters.file_loaded;
    stats.files_ignored += counters.file_ignored;
    stats.loaded_bytes += counters.loaded_bytes;
    stats.pipelines += counters.pipelines.load();
    stats.cache_hits += counters.hits.load();
    stats.pipeline_create_ns += counters.create_ns.load();
  }
  meshvk::FillKeepingHeader(out_stats, stats);
  return MESHVK_OK;
}

}  // extern "C"
