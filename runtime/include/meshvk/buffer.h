// meshvk/buffer.h — shard buffers, each allocated on the device of its process.
//
// In a device group the memory is allocated with a device mask of exactly the
// owner's device (VkMemoryAllocateFlagsInfo) and bound with
// VkBindBufferMemoryDeviceGroupInfo so that every device of the group sees the
// owner's instance: the buffer is its own peer view (a device that must read it
// uses the same handle; peer features are checked when a copy or dispatch is
// recorded).
// Threading: create/retain/release and the size queries are thread-safe.
// Host read/write of ONE buffer must not run concurrently with each other or
// with device work on it; different buffers are independent.
#ifndef MESHVK_BUFFER_H_
#define MESHVK_BUFFER_H_

#include "meshvk/device_set.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct meshvk_buffer_s meshvk_buffer_t;

// Creates a storage buffer of `size` bytes (> 0) owned by `process`.
// RESOURCE_EXHAUSTED names the process, device and size when memory runs out
// (checked on the host first against the heap size and
// maxMemoryAllocationSize); OUT_OF_RANGE for a bad process; INVALID_ARGUMENT
// for NULL set/out_buffer or size 0. Contents are undefined until written.
// Retains the set.
meshvk_status_t meshvk_buffer_create(meshvk_device_set_t* set, uint32_t process, uint64_t size,
                                     meshvk_buffer_t** out_buffer);
void meshvk_buffer_retain(meshvk_buffer_t* buffer);
void meshvk_buffer_release(meshvk_buffer_t* buffer);

// Size in bytes; 0 for NULL.
uint64_t meshvk_buffer_size(const meshvk_buffer_t* buffer);
// The owning process; MESHVK_NO_PROCESS for NULL.
uint32_t meshvk_buffer_process(const meshvk_buffer_t* buffer);
// Bytes of device memory actually allocated for this buffer (>= size; 0 for
// views, imported buffers and NULL).
uint64_t meshvk_buffer_allocation_size(const meshvk_buffer_t* buffer);

// Host -> device: copies `size` bytes at `offset`. Maps the memory directly when
// it is host-visible and coherent, else goes through a staging buffer on the
// owner's queue and waits. The device must not be using the buffer (device
// writes are visible once the submission that made them has completed, e.g.
// after meshvk_semaphore_wait); the staging waits are bounded by the set's
// device timeout. OUT_OF_RANGE when the range leaves the buffer,
// INVALID_ARGUMENT for NULL buffer/data; size 0 does nothing.
meshvk_status_t meshvk_buffer_write(meshvk_buffer_t* buffer, uint64_t offset, const void* data, uint64_t size);
// Device -> host, like meshvk_buffer_write.
meshvk_status_t meshvk_buffer_read(meshvk_buffer_t* buffer, uint64_t offset, void* out_data, uint64_t size);
// Host strided write: writes `rows` runs of `row_bytes`, reading `data` with
// `src_pitch` and writing at `offset + r * dst_pitch`. Lets a caller stream a
// shard straight out of a whole host tensor with no staging copy (memory the
// host cannot map: the covered span goes through one staging transfer, read
// first unless the rows are contiguous, so bytes between rows keep their
// values). rows or row_bytes 0 does nothing. INVALID_ARGUMENT for NULL
// buffer/data or when rows would overlap (rows > 1 and dst_pitch <
// row_bytes); OUT_OF_RANGE when the covered span leaves the buffer.
meshvk_status_t meshvk_buffer_write_strided(meshvk_buffer_t* buffer, uint64_t offset, uint64_t dst_pitch,
                                            const void* data, uint64_t src_pitch, uint64_t row_bytes, uint64_t rows);
// Host strided read: `rows` runs of `row_bytes` at `offset + r * src_pitch`
// into `out_data` with `dst_pitch`; statuses as for write_strided (rows > 1
// needs src_pitch >= row_bytes).
meshvk_status_t meshvk_buffer_read_strided(meshvk_buffer_t* buffer, uint64_t offset, uint64_t src_pitch, void* out_data,
                                           uint64_t dst_pitch, uint64_t row_bytes, uint64_t rows);

// ---- buffers that other VkDevices read ------------------------------------
typedef enum meshvk_buffer_flag_bits_e {
  // The memory can be exported to another VkDevice of the set
  // (VkExportMemoryAllocateInfo with the handle type the set chose for the
  // devices that read it; where that is a host allocation, the memory is a host
  // allocation imported on the owner, see meshvk_copy_path_info_t). Only
  // buffers a peer on another VkDevice reads need it.
  MESHVK_BUFFER_EXPORTABLE_BIT = 1u << 0,
  // Staging memory (a landing buffer of host-staged copies): counted in
  // meshvk_device_set_staging_bytes, not in meshvk_device_set_allocated_bytes.
  MESHVK_BUFFER_STAGING_BIT = 1u << 1,
} meshvk_buffer_flag_bits_t;
typedef uint32_t meshvk_buffer_flags_t;

typedef struct meshvk_buffer_create_info_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_BUFFER_CREATE_INFO
  const void* next;
  uint32_t process;
  uint64_t size;  // > 0
  meshvk_buffer_flags_t flags;
} meshvk_buffer_create_info_t;
#define MESHVK_BUFFER_CREATE_INFO_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_BUFFER_CREATE_INFO)

// meshvk_buffer_create with flags (INVALID_ARGUMENT for a NULL info or
// another structure type). EXPORTABLE on a device that shares no external
// memory handle type with another VkDevice of the set is UNAVAILABLE; an
// exportable allocation the driver refuses is RESOURCE_EXHAUSTED naming the
// process, device and size.
meshvk_status_t meshvk_buffer_create_with_info(meshvk_device_set_t* set, const meshvk_buffer_create_info_t* info,
                                               meshvk_buffer_t** out_buffer);

// A view of exportable `buffer` owned by `process` (on another VkDevice of the
// set): its memory exported as an fd (vkGetMemoryFdKHR) and imported there, or
// its host allocation imported there too, so `process` can copy from it in its
// own command buffers. The view allocates no memory
// (meshvk_buffer_allocation_size is 0) and keeps `buffer` alive.
// FAILED_PRECONDITION when `buffer` is not exportable, UNAVAILABLE when the
// driver refuses the import, or refused the owner's import of the buffer's host
// allocation at creation (the caller may fall back to
// meshvk_buffer_copy_host_staged), INVALID_ARGUMENT for NULL arguments or
// when `process` shares `buffer`'s VkDevice (use the buffer itself),
// OUT_OF_RANGE for a bad process.
meshvk_status_t meshvk_buffer_share(meshvk_buffer_t* buffer, uint32_t process, meshvk_buffer_t** out_view);

// Copies `size` bytes from `src` to `dst` through host memory and waits:
// device -> host-visible staging -> host -> staging -> device, in chunks of
// 1 MiB with two staging buffers per side, so the source
// device fills one chunk while the host moves the other and the destination
// device drains it. Memory the host can map is read or written directly.
// Between two VkDevices that both import host pointers
// (VK_EXT_external_memory_host), a copy of more than one chunk goes through
// one host allocation both import instead (up to four chunks in flight,
// device copies only, no host memcpy). Works between any two buffers of a
// set (other VkDevices included). Neither device may be using the ranges
// (wait for the producer first). INVALID_ARGUMENT for a NULL buffer or
// buffers of different sets, OUT_OF_RANGE when a range leaves its buffer;
// size 0 does nothing. DEADLINE_EXCEEDED when one chunk's wait runs past
// `timeout` (each wait is also bounded by the device timeout; meshvk.h).
meshvk_status_t meshvk_buffer_copy_host_staged(meshvk_buffer_t* src, uint64_t src_offset, meshvk_buffer_t* dst,
                                               uint64_t dst_offset, uint64_t size, meshvk_timeout_t timeout);

// The host address of the buffer's first byte when its memory is
// host-visible and coherent (persistently mapped: CPU devices, integrated GPUs,
// resizable BAR), else NULL (reach it with meshvk_buffer_read/write; NULL
// for a NULL buffer too). Valid
// until the buffer is released; the same rules as meshvk_buffer_write apply
// (the device must not be using the bytes touched). Lets a host step hand the
// transport device memory without a staging copy.
void* meshvk_buffer_host_address(meshvk_buffer_t* buffer);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MESHVK_BUFFER_H_
