// Pipeline caches kept across runs (see pipeline_cache.h).
#include "pipeline_cache.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace meshvk {
namespace {

// Larger files are not read: a cache is tens of MiB at most, and a file this
// large is not one meshvk wrote.
constexpr uintmax_t kMaxCacheBytes = 256u << 20;

std::string Hex(const uint8_t* bytes, size_t n) {
  std::string text;
  char two[3];
  for (size_t i = 0; i < n; ++i) {
    std::snprintf(two, sizeof two, "%02x", bytes[i]);
    text += two;
  }
  return text;
}

// Vulkan's VkPipelineCacheHeaderVersionOne for this device: the driver checks
// it too, but a driver handed another device's data is where crashes hide.
bool HeaderMatches(const std::vector<char>& data, const VkPhysicalDeviceProperties& p) {
  VkPipelineCacheHeaderVersionOne header{};
  if (data.size() < sizeof header) return false;
  std::memcpy(&header, data.data(), sizeof header);
  return header.headerSize >= sizeof header && header.headerVersion == VK_PIPELINE_CACHE_HEADER_VERSION_ONE &&
         header.vendorID == p.vendorID && header.deviceID == p.deviceID &&
         std::memcmp(header.pipelineCacheUUID, p.pipelineCacheUUID, VK_UUID_SIZE) == 0;
}

std::vector<char> ReadCacheFile(const std::string& file, const VkPhysicalDeviceProperties& properties) {
  std::error_code ec;
  uintmax_t size = std::filesystem::file_size(file, ec);
  if (ec || size == 0 || size > kMaxCacheBytes) return {};
  std::ifstream in(file, std::ios::binary);
  std::vector<char> data(static_cast<size_t>(size));
  if (!in.read(data.data(), static_cast<std::streamsize>(size))) return {};
  return HeaderMatches(data, properties) ? data : std::vector<char>();
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
  const std::string& file = device->pipeline_cache_file;
  std::vector<char> data = file.empty() ? std::vector<char>() : ReadCacheFile(file, device->physical->properties);
  VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  info.initialDataSize = data.size();
  info.pInitialData = data.empty() ? nullptr : data.data();
  if (device->vk.vkCreatePipelineCache(device->device, &info, nullptr, &device->pipeline_cache) != VK_SUCCESS) {
    // The data, though its header matched, was refused: start empty.
    info.initialDataSize = 0;
    info.pInitialData = nullptr;
    if (device->vk.vkCreatePipelineCache(device->device, &info, nullptr, &device->pipeline_cache) != VK_SUCCESS)
      device->pipeline_cache = VK_NULL_HANDLE;
  }
}

void SaveAndDestroyPipelineCache(LogicalDevice* device) {
  if (device->pipeline_cache == VK_NULL_HANDLE) return;
  const std::string& file = device->pipeline_cache_file;
  size_t size = 0;
  std::vector<char> data;
  if (!file.empty() &&
      device->vk.vkGetPipelineCacheData(device->device, device->pipeline_cache, &size, nullptr) == VK_SUCCESS) {
    data.resize(size);
    if (device->vk.vkGetPipelineCacheData(device->device, device->pipeline_cache, &size, data.data()) != VK_SUCCESS)
      data.clear();
    data.resize(std::min(size, data.size()));
  }
  device->vk.vkDestroyPipelineCache(device->device, device->pipeline_cache, nullptr);
  device->pipeline_cache = VK_NULL_HANDLE;
  if (data.empty() || !HeaderMatches(data, device->physical->properties)) return;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(file).parent_path(), ec);
  // Several processes (or VkDevices of one process) may save at once: each
  // writes its own temporary file and renames it over the cache file.
  const std::string temporary =
      file + ".tmp." + std::to_string(getpid()) + "." + std::to_string(reinterpret_cast<uintptr_t>(device));
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out || !out.write(data.data(), static_cast<std::streamsize>(data.size())) || !out.flush()) {
      out.close();
      std::filesystem::remove(temporary, ec);
      return;
    }
  }
  std::filesystem::rename(temporary, file, ec);
  if (ec) std::filesystem::remove(temporary, ec);
}

}  // namespace meshvk
