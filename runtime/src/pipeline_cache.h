// A VkPipelineCache per VkDevice, kept across runs in the user's cache
// directory, so that program creation after the first run of a program does
// not compile its pipelines again (issue 31, start-up).
//
// Where: the directory of the meshvk_pipeline_cache_t chained to the set's
// create info (NULL: none), else $XDG_CACHE_HOME/meshvk, else
// $HOME/.cache/meshvk. One file per physical device and driver:
// pipelines-<deviceUUID>-<driverUUID>.bin. Every failure
// (no directory, a file of another device or driver, a damaged file, a full
// disk) leaves the device with an empty cache, or the file unwritten: a cache
// never fails device or program creation.
#ifndef MESHVK_RUNTIME_PIPELINE_CACHE_H_
#define MESHVK_RUNTIME_PIPELINE_CACHE_H_

#include <string>

#include "device_set.h"

namespace meshvk {

// The directory a set without a meshvk_pipeline_cache_t uses: the user's
// cache directory, "" when the environment names none.
std::string DefaultPipelineCacheDirectory();

// Creates device->pipeline_cache, filled from its file in `directory` ("":
// none) when that holds data for this device (its header names the device's
// vendor, device and pipelineCacheUUID), and sets device->pipeline_cache_file.
// VK_NULL_HANDLE when the cache cannot be made.
void CreatePipelineCache(LogicalDevice* device, const std::string& directory);

// Writes the cache's data to device->pipeline_cache_file (through a temporary
// file and a rename, so a reader never sees half a file) and destroys the
// cache.
void SaveAndDestroyPipelineCache(LogicalDevice* device);

}  // namespace meshvk

#endif  // MESHVK_RUNTIME_PIPELINE_CACHE_H_
