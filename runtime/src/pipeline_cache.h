// A VkPipelineCache per VkDevice, kept across runs in the user's cache
// directory, so that program creation after the first run of a program does
// not compile its pipelines again (issue 31, start-up).
//
// Where: the directory of the meshvk_pipeline_cache_t chained to the set's
// create info (NULL: none), else $XDG_CACHE_HOME/meshvk, else
// $HOME/.cache/meshvk. One file per physical device and driver:
// pipelines-<deviceUUID>-<driverUUID>.bin.
//
// The file: meshvk's header (a magic, the device's vendor and device IDs,
// driver version, device, driver and pipeline-cache UUIDs, the size and a
// 64-bit FNV-1a hash of what follows), then the driver's cache data, whose own
// VkPipelineCacheHeaderVersionOne must name this device too. A file that
// fails any check (short, truncated, damaged, another device's or driver's
// or driver version's) is ignored and counted (meshvk_pipeline_cache_stats_t::
// files_ignored): the driver never sees bytes meshvk did not write for it.
// Saving re-reads the file and merges what another process or VkDevice saved
// since (vkMergePipelineCaches), writes a temporary file and renames it over
// the cache file, so a reader never sees half a file; nothing is written when
// the data did not change. Every failure (no directory, a full disk) leaves
// the device with an empty cache or the file unwritten: a cache never fails
// device or program creation.
#ifndef MESHVK_RUNTIME_PIPELINE_CACHE_H_
#define MESHVK_RUNTIME_PIPELINE_CACHE_H_

#include <string>

#include "device_set.h"

namespace meshvk {

// The directory a set without a meshvk_pipeline_cache_t uses: the user's
// cache directory, "" when the environment names none.
std::string DefaultPipelineCacheDirectory();

// Creates device->pipeline_cache, filled from its file in `directory` ("":
// none) when that holds data for this device, and sets
// device->pipeline_cache_file and the device's cache counters.
// VK_NULL_HANDLE when the cache cannot be made.
void CreatePipelineCache(LogicalDevice* device, const std::string& directory);

// Writes the cache's data (merged with the file's current contents) to
// device->pipeline_cache_file and destroys the cache.
void SaveAndDestroyPipelineCache(LogicalDevice* device);

}  // namespace meshvk

#endif  // MESHVK_RUNTIME_PIPELINE_CACHE_H_
