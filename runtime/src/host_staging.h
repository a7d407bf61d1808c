// Host staging: moving shard bytes between device memory and host memory in
// chunks, through two host-visible staging buffers per device, so that the
// device fills (or drains) one chunk while the host moves the other.
//
// Three users share it: host I/O of buffers the host cannot map
// (meshvk_buffer_read/write), copies between VkDevices that share no memory
// (meshvk_buffer_copy_host_staged: device A -> host -> device B, both halves
// overlapped), and a transport that ships the host side elsewhere (an MPI rank
// sends each chunk StageOut hands it, and StageIn asks for each chunk it needs).
//
// Staging memory is bounded: 2 chunks per ring, a ring per device and direction
// while a transfer runs, freed when it ends (counted in the device's staging
// bytes, never in its allocated bytes). A host allocation two devices share
// (up to 4 chunks) takes the place of the destination's rings.
#ifndef MESHVK_RUNTIME_SRC_HOST_STAGING_H_
#define MESHVK_RUNTIME_SRC_HOST_STAGING_H_

#include <volk.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "meshvk/buffer.h"
#include "meshvk/vulkan.h"
#include "status.h"

namespace meshvk {

class StagingRingCache;

// Chunks of host-staged copies, by the kind of device. A CPU device
// (lavapipe): 1 MiB, the chunks stay in cache (4 MiB was 2.7x slower at
// 64 MiB). A GPU: 16 MiB, because every chunk is a submission and a fence
// wait: on an NVIDIA H200, 1 MiB chunks moved host I/O at about 1 GB/s
// (128 MiB written in 128 ms) against ~300 GB/s of device copies.
constexpr uint64_t kCpuStagingChunkBytes = 1ull << 20;
constexpr uint64_t kGpuStagingChunkBytes = 16ull << 20;
uint64_t StagingChunkBytesFor(VkPhysicalDeviceType type);

struct StagingDevice;
// Adds `bytes` to the device's staging counter and its peak (no-op without counters).
void AddStagingBytes(const StagingDevice& device, uint64_t bytes);

// The device a staging ring lives on, and the queue its copies go to.
struct StagingDevice {
  const VolkDeviceTable* vk = nullptr;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  std::mutex* queue_lock = nullptr;  // vkQueueSubmit needs the queue externally synchronized
  // An application's queue (meshvk/vulkan.h): its lock, taken after queue_lock.
  meshvk_queue_lock_t app_queue_lock{};
  uint32_t queue_family = 0;
  uint32_t device_mask = 0;  // in a device group: the owner's device; 0 otherwise
  const VkPhysicalDeviceMemoryProperties* memory = nullptr;
  std::atomic<uint64_t>* staging_bytes = nullptr;  // optional counters
  std::atomic<uint64_t>* peak_staging_bytes = nullptr;
  std::string where;                  // "process 1 (physical device 1 'llvmpipe ...')": error prefix
  StagingRingCache* cache = nullptr;  // optional: rings kept between transfers
  // VK_EXT_external_memory_host is enabled: host allocations aligned to this
  // can become a ring's memory (SharedHostStaging); 0 when it is not.
  uint64_t host_pointer_alignment = 0;
  // The device's "stopped answering" flag (LogicalDevice::unresponsive):
  // set by a wait that ran out the device timeout; then nothing waits on the
  // device again and a ring's objects are left alive (device_wait.h).
  std::atomic<bool>* unresponsive = nullptr;
  uint64_t device_timeout_ns = UINT64_MAX;  // LogicalDevice::timeout_ns
  // The chunk when the caller names none (StagingChunkBytesFor the device).
  uint64_t chunk_bytes = kCpuStagingChunkBytes;
  // On the device's transfer-only queue (LogicalDevice::transfer_family):
  // each submission waits for the work submitted to the owner's compute
  // queue before it (`compute_timeline` at *compute_value, read under
  // `compute_lock`) and signals `transfer_timeline` at the next
  // *transfer_value (guarded by queue_lock), which later compute submissions
  // wait for (queue.cc). VK_NULL_HANDLE on the compute queue.
  VkSemaphore compute_timeline = VK_NULL_HANDLE;
  const uint64_t* compute_value = nullptr;
  std::mutex* compute_lock = nullptr;
  VkSemaphore transfer_timeline = VK_NULL_HANDLE;
  uint64_t* transfer_value = nullptr;
};

// The staging device of buffer `buffer`'s owner; `mapped`/`handle` describe it.
struct StagedBuffer {
  VkBuffer handle = VK_NULL_HANDLE;
  // Where the buffer's bytes start in `handle` (an application's VkBuffer,
  // meshvk_buffer_import_vulkan, starts at its base offset; 0 otherwise).
  uint64_t offset = 0;
  uint8_t* mapped = nullptr;  // non-null: the host reads and writes it directly
  // Its memory is shared with other VkDevices (SharedWithOtherDevices): each
  // staging copy acquires it from VK_QUEUE_FAMILY_EXTERNAL and releases it back.
  bool shared = false;
  StagingDevice device;
};
StagedBuffer StagedBufferOf(meshvk_buffer_t* buffer);

// Host-visible staging buffers ("slots", two unless asked otherwise) on one
// device, each with its own command buffer and fence. With `host_memory` the
// slots are that host allocation (slots x chunk bytes, aligned to the device's
// host_pointer_alignment) imported through VK_EXT_external_memory_host instead
// of memory of their own: two rings on two devices importing one allocation
// let device A copy into a slot and device B copy out of it, with no host
// memcpy (the ring does not own the allocation).
class StagingRing {
 public:
  static Status Create(const StagingDevice& device, uint64_t chunk_bytes, std::unique_ptr<StagingRing>* out,
                       uint32_t slots = 2, uint8_t* host_memory = nullptr);
  ~StagingRing();
  StagingRing(const StagingRing&) = delete;
  StagingRing& operator=(const StagingRing&) = delete;

  // Submits a copy of `bytes` from `buffer` at `offset` into slot `slot`
  // (device -> staging), or from the slot into `buffer` (staging -> device).
  Status SubmitOut(uint32_t slot, VkBuffer buffer, uint64_t offset, uint64_t bytes);
  Status SubmitIn(uint32_t slot, VkBuffer buffer, uint64_t offset, uint64_t bytes);
  // Waits for the slot's submitted copy (nothing to do when none is pending).
  Status Wait(uint32_t slot, uint64_t timeout_ns);
  uint8_t* data(uint32_t slot) const { return mapped_ + slot * chunk_; }
  uint64_t chunk() const { return chunk_; }
  VkQueue queue() const { return device_.queue; }
  uint32_t device_mask() const { return device_.device_mask; }
  uint32_t slots() const { return static_cast<uint32_t>(fences_.size()); }
  bool idle() const;
  // Whether the device buffers of the next submissions are shared with other
  // VkDevices (StagedBuffer::shared): set per transfer, as a ring is reused.
  void set_shard_shared(bool shared) { shard_shared_ = shared; }

 private:
  explicit StagingRing(const StagingDevice& device) : device_(device) {}
  Status Submit(uint32_t slot, VkBuffer src, uint64_t src_offset, VkBuffer dst, uint64_t dst_offset, uint64_t bytes,
                bool to_device);

  bool Responsive() const { return !device_.unresponsive || !*device_.unresponsive; }

  StagingDevice device_;
  uint64_t chunk_ = 0;
  uint64_t counted_ = 0;              // bytes added to the staging counter
  VkBuffer buffer_ = VK_NULL_HANDLE;  // both slots: [0, chunk) and [chunk, 2 chunk)
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  uint8_t* mapped_ = nullptr;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  std::vector<VkCommandBuffer> command_buffers_;  // one per slot
  std::vector<VkFence> fences_;
  std::vector<uint8_t> pending_;
  bool shard_shared_ = false;
  // The slots are an imported host allocation another VkDevice's ring
  // imports too (SharedHostStaging): external memory, so each slot's copy
  // acquires its slot from VK_QUEUE_FAMILY_EXTERNAL and releases it back.
  bool host_imported_ = false;
};

// Idle rings of one VkDevice, kept between transfers: creating a ring
// (memory, command pool, fences) costs more than moving a small shard. At
// most two stay per device (one per direction; in a device group per device
// of the group, since a ring records on its own device); their memory stays
// counted as staging bytes. Destroy before the VkDevice.
class StagingRingCache {
 public:
  StagingRingCache() = default;
  StagingRingCache(const StagingRingCache&) = delete;
  StagingRingCache& operator=(const StagingRingCache&) = delete;
  // A ring of at least `chunk` bytes per slot on `device` (cached or new).
  Status Take(const StagingDevice& device, uint64_t chunk, std::unique_ptr<StagingRing>* out);
  // Keeps an idle ring for later (or frees it when two of its device are kept already).
  void Give(std::unique_ptr<StagingRing> ring);
  // Frees idle rings beyond `keep` (room for a shared host allocation of the
  // same size as a ring, so a device's staging stays within two rings).
  void Trim(size_t keep);

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<StagingRing>> idle_;
};

// Receives (StageOut) or provides (StageIn) the bytes of one chunk: `at` is the
// chunk's offset from the start of the transfer.
using ChunkSink = std::function<Status(const uint8_t* chunk, uint64_t bytes, uint64_t at)>;
using ChunkSource = std::function<Status(uint8_t* chunk, uint64_t bytes, uint64_t at)>;

// Device -> host: hands bytes [offset, offset + size) of `buffer` to `sink`,
// chunk by chunk and in order.
Status StageOut(meshvk_buffer_t* buffer, uint64_t offset, uint64_t size, uint64_t chunk_bytes, uint64_t timeout_ns,
                const ChunkSink& sink);
// Host -> device: fills bytes [offset, offset + size) of `buffer` from `source`.
Status StageIn(meshvk_buffer_t* buffer, uint64_t offset, uint64_t size, uint64_t chunk_bytes, uint64_t timeout_ns,
               const ChunkSource& source);
// Device -> host -> device between any two buffers (other VkDevices included).
Status CopyHostStaged(meshvk_buffer_t* src, uint64_t src_offset, meshvk_buffer_t* dst, uint64_t dst_offset,
                      uint64_t size, uint64_t chunk_bytes, uint64_t timeout_ns);

}  // namespace meshvk

#endif  // MESHVK_RUNTIME_SRC_HOST_STAGING_H_
