// A VkPipelineCache per VkDevice, kept across runs in the user's cache
// directory, so that program creation after the first run of a program does
// not compile its pipelines again (issue 31, start-up).
//
// Where: $MESHVK_PIPELINE_CACHE (a directory; `off` disables it), else
// $XDG_CACHE_HOME/meshvk, else $HOME/.cache/meshvk. One file per physical
// device and driver: pipelines-<deviceUUID>-<driverUUID>.bin. Every failure
// (no directory, a file of another device or driver, a damaged file, a full
// disk) leaves the device with an empty cache, or the file unwritten: a cache
// never fails device or program creation.
#ifndef MESHVK_RUNTIME_PIPELINE_CACHE_H_
#define MESHVK_RUNTIME_PIPELINE_CACHE_H_

#include <string>

#include "device_set.h"

namespace meshvk {

// The cache file of `device`'s first physical device, "" when caching is off
// or no directory can be named.
std::string PipelineCacheFile(const LogicalDevice& device);

// Creates device->pipeline_cache, filled from the cache file when that holds
// data for this device (its header names the device's vendor, device and
// pipelineCacheUUID). VK_NULL_HANDLE when the cache cannot be made.
void CreatePipelineCache(LogicalDevice* device);

// Writes the cache's data to the cache file (through a temporary file and a
// rename, so a reader never sees half a file) and destroys the cache.
void SaveAndDestroyPipelineCache(LogicalDevice* device);

}  // namespace meshvk

#endif  // MESHVK_RUNTIME_PIPELINE_CACHE_H_
