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
// for size 0. Contents are undefined until written. Retains the set.
meshvk_status_t meshvk_buffer_create(meshvk_device_set_t* set, uint32_t process,
                                     uint64_t size, meshvk_buffer_t** out_buffer);
void meshvk_buffer_retain(meshvk_buffer_t* buffer);
void meshvk_buffer_release(meshvk_buffer_t* buffer);

uint64_t meshvk_buffer_size(const meshvk_buffer_t* buffer);
uint32_t meshvk_buffer_process(const meshvk_buffer_t* buffer);
// Bytes of device memory actually allocated for this buffer (>= size).
uint64_t meshvk_buffer_allocation_size(const meshvk_buffer_t* buffer);

// Host -> device: copies `size` bytes at `offset`. Maps the memory directly when
// it is host-visible and coherent, else goes through a staging buffer on the
// owner's queue and waits. The device must not be using the buffer (device
// writes are visible once the submission that made them has completed, e.g.
// after meshvk_semaphore_wait). OUT_OF_RANGE when the range leaves the buffer,
// INVALID_ARGUMENT for NULL buffer/data.
meshvk_status_t meshvk_buffer_write(meshvk_buffer_t* buffer, uint64_t offset,
                                    const void* data, uint64_t size);
// Device -> host, like meshvk_buffer_write.
meshvk_status_t meshvk_buffer_read(meshvk_buffer_t* buffer, uint64_t offset,
                                   void* out_data, uint64_t size);
// Host strided write: writes `rows` runs of `row_bytes`, reading `data` with
// `src_pitch` and writing at `offset + r * dst_pitch`. Lets a caller stream a
// shard straight out of a whole host tensor with no staging copy.
// INVALID_ARGUMENT when rows would overlap (rows > 1 and dst_pitch < row_bytes).
meshvk_status_t meshvk_buffer_write_strided(meshvk_buffer_t* buffer, uint64_t offset,
                                            uint64_t dst_pitch, const void* data,
                                            uint64_t src_pitch, uint64_t row_bytes,
                                            uint64_t rows);
meshvk_status_t meshvk_buffer_read_strided(meshvk_buffer_t* buffer, uint64_t offset,
                                           uint64_t src_pitch, void* out_data,
                                           uint64_t dst_pitch, uint64_t row_bytes,
                                           uint64_t rows);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MESHVK_BUFFER_H_
