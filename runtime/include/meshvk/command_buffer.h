// meshvk/command_buffer.h — one process's recorded stream of work.
//
// A command buffer belongs to one process: it is recorded for that process's
// device (in a device group: begun with that device's mask and restricted with
// vkCmdSetDeviceMask) and submitted to that process's queue. Copies are pulls:
// the destination must belong to this process; the source may belong to any
// process whose memory this one can reach (peer features are checked, and a
// copy between two processes on one device is a local copy). Barriers are
// derived from buffer hazards: a command that reads or writes a buffer written
// earlier in the stream (or writes one read earlier) gets a pipeline barrier
// first. A recorded buffer can be submitted many times (record once, replay).
// Recording calls check their arguments first (INVALID_ARGUMENT for a NULL
// command buffer or buffer, a buffer or executable of another set, or a
// source on another VkDevice: share it with meshvk_buffer_share;
// FAILED_PRECONDITION after meshvk_command_buffer_end), which leave the
// command buffer as it was. A call that fails while recording (a Vulkan
// error, e.g. allocating descriptors) leaves it unusable: later recording,
// end and submit return FAILED_PRECONDITION.
// Threading: record one command buffer from one thread at a time; different
// command buffers (even of one process) may be recorded concurrently.
// Submitting (meshvk/queue.h) is thread-safe; the last release must not race
// with a submit of the same command buffer.
#ifndef MESHVK_COMMAND_BUFFER_H_
#define MESHVK_COMMAND_BUFFER_H_

#include "meshvk/buffer.h"
#include "meshvk/executable.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct meshvk_command_buffer_s meshvk_command_buffer_t;

// Creates a command buffer for `process` in the recording state (its own
// VkCommandPool and descriptor pools; begun with SIMULTANEOUS_USE so replays
// may overlap). Every stream starts with a barrier that orders it after
// earlier submissions on its queue and device, and ends (meshvk_command_buffer_end)
// with one that makes device writes visible to the host. Retains the set and,
// until release, every buffer and executable it records. The last release
// waits for the last submission of the command buffer to finish (bounded by
// the device timeout; not at all on a device that stopped answering).
// INVALID_ARGUMENT for NULL set/out, OUT_OF_RANGE for a bad process.
meshvk_status_t meshvk_command_buffer_create(meshvk_device_set_t* set, uint32_t process,
                                             meshvk_command_buffer_t** out_command_buffer);
void meshvk_command_buffer_retain(meshvk_command_buffer_t* command_buffer);
void meshvk_command_buffer_release(meshvk_command_buffer_t* command_buffer);

// vkCmdFillBuffer: `size` bytes at `offset` of `dst` (this process's) set to
// `value`. INVALID_ARGUMENT unless offset and size are multiples of 4 and
// size > 0, or for another process's dst; OUT_OF_RANGE when the range leaves
// the buffer.
meshvk_status_t meshvk_command_buffer_fill(meshvk_command_buffer_t* cb, meshvk_buffer_t* dst, uint64_t offset,
                                           uint64_t size, uint32_t value);

// vkCmdCopyBuffer from `src` (any reachable process) into `dst` (this process).
// OUT_OF_RANGE when either range leaves its buffer; INVALID_ARGUMENT for size
// 0, when dst is not this process's buffer, src is on another VkDevice or the
// ranges overlap in one buffer; UNAVAILABLE when the peer lacks
// VK_PEER_MEMORY_FEATURE_COPY_SRC_BIT.
meshvk_status_t meshvk_command_buffer_copy(meshvk_command_buffer_t* cb, meshvk_buffer_t* src, uint64_t src_offset,
                                           meshvk_buffer_t* dst, uint64_t dst_offset, uint64_t size);

// A region of 32-bit words, up to 3-D: element (i, j, k) for i < count[0],
// j < count[1], k < count[2] at word offset base + i*stride[0] + j*stride[1]
// + k*stride[2] (strides in words). Every count must be >= 1 (use 1 for unused
// dimensions); at most 2^31 words in all; every touched word must lie within
// the buffer and within maxStorageBufferRange.
typedef struct meshvk_strided_region_s {
  uint64_t src_offset_words;
  uint64_t dst_offset_words;
  uint32_t count[3];
  uint32_t src_stride[3];
  uint32_t dst_stride[3];
} meshvk_strided_region_t;

// Non-contiguous copy (a slice) via the built-in strided copy kernel. The
// source may be a peer's buffer (needs GENERIC_SRC peer feature: UNAVAILABLE
// without). OUT_OF_RANGE for words outside a buffer (or its
// maxStorageBufferRange) or more than 2^31 words, INVALID_ARGUMENT for a NULL
// region, a zero count or overlapping source and destination words in one
// buffer.
meshvk_status_t meshvk_command_buffer_copy_strided(meshvk_command_buffer_t* cb, meshvk_buffer_t* src,
                                                   meshvk_buffer_t* dst, const meshvk_strided_region_t* region);

typedef struct meshvk_binding_s {
  meshvk_buffer_t* buffer;
  uint64_t offset;  // multiple of minStorageBufferOffsetAlignment
  uint64_t range;   // 0: to the end of the buffer
  uint32_t writes;  // 1 if the kernel writes it (for hazard tracking)
} meshvk_binding_t;

typedef struct meshvk_dispatch_info_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_DISPATCH_INFO
  const void* next;
  meshvk_executable_t* executable;
  const meshvk_binding_t* bindings;  // executable's binding_count entries
  uint32_t binding_count;
  const void* push_constants;  // executable's push_constant_size bytes
  uint32_t push_constant_size;
  uint32_t workgroup_count[3];  // each >= 1 and <= the device limit
  uint32_t workgroup_base[3];   // vkCmdDispatchBase when nonzero
} meshvk_dispatch_info_t;
#define MESHVK_DISPATCH_INFO_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_DISPATCH_INFO)

// Records a dispatch. OUT_OF_RANGE for a workgroup count of 0 or base + count
// past maxComputeWorkGroupCount, a binding range past its buffer (or an
// offset at its end) or past maxStorageBufferRange; INVALID_ARGUMENT for a
// NULL info/executable, another structure type, a binding or push-constant
// count/size mismatch (or NULL array), or a misaligned binding offset;
// UNAVAILABLE when a peer binding lacks GENERIC_SRC (GENERIC_DST if written).
meshvk_status_t meshvk_command_buffer_dispatch(meshvk_command_buffer_t* cb, const meshvk_dispatch_info_t* info);

// Elementwise f32 sum of `src_count` (1..8) buffers of `count` floats into
// `dst` with the built-in sum kernel (the local step of an all-reduce),
// summed in source order. `dst` (this process's) may also be a source.
// Sources may be peers' buffers (GENERIC_SRC). INVALID_ARGUMENT for NULL
// srcs, src_count outside 1..8 or count outside 1..2^32-1; OUT_OF_RANGE when
// a buffer holds fewer than `count` floats.
meshvk_status_t meshvk_command_buffer_sum_f32(meshvk_command_buffer_t* cb, meshvk_buffer_t* const* srcs,
                                              uint32_t src_count, meshvk_buffer_t* dst, uint64_t count);

// Full memory barrier (compute + transfer), for callers that need one beyond
// what hazard tracking inserts.
meshvk_status_t meshvk_command_buffer_barrier(meshvk_command_buffer_t* cb);

// Ends recording (vkEndCommandBuffer). Further recording, and a second end:
// FAILED_PRECONDITION.
meshvk_status_t meshvk_command_buffer_end(meshvk_command_buffer_t* cb);

// Device time in nanoseconds between the start and the end of the command
// buffer's recorded work in its last submission, from two timestamp queries
// every command buffer writes where its queue family supports them
// (vkCmdWriteTimestamp, vkGetQueryPoolResults). Call it once that submission
// has completed (e.g. after waiting for its signal); it waits for the query
// results otherwise (VK_QUERY_RESULT_WAIT_BIT: unbounded, not limited by the
// device timeout). INVALID_ARGUMENT for NULL; UNAVAILABLE without timestamp
// support; FAILED_PRECONDITION before the first submission.
meshvk_status_t meshvk_command_buffer_device_time(const meshvk_command_buffer_t* cb, uint64_t* out_ns);

// Trace timestamps: where a timestamp is written relative to the recorded work.
typedef enum meshvk_timestamp_point_e {
  // VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT: when the next command may start.
  MESHVK_TIMESTAMP_BEFORE_NEXT = 0,
  // VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT: when all earlier commands have finished.
  MESHVK_TIMESTAMP_AFTER_PREVIOUS = 1,
} meshvk_timestamp_point_t;

// Records a timestamp query (vkCmdWriteTimestamp) at this point of the stream
// and returns its index (0, 1, 2, ... per command buffer). The queries live
// in the command buffer's own pools, reset by the command buffer itself, so a
// replay needs nothing from the host. Used by traced programs
// (meshvk/trace.h) around every command. INVALID_ARGUMENT for NULL;
// UNAVAILABLE where the queue family has no timestamps; FAILED_PRECONDITION
// after meshvk_command_buffer_end.
meshvk_status_t meshvk_command_buffer_write_timestamp(meshvk_command_buffer_t* cb, meshvk_timestamp_point_t point,
                                                      uint32_t* out_index);
// The values of the first `count` trace timestamps of the last submission, in
// nanoseconds of the device's timestamp clock (ticks x timestampPeriod, valid
// bits masked). Waits for the results (vkGetQueryPoolResults with WAIT,
// unbounded as in meshvk_command_buffer_device_time). INVALID_ARGUMENT for
// NULL; OUT_OF_RANGE when fewer were written; FAILED_PRECONDITION before the
// first submission.
meshvk_status_t meshvk_command_buffer_read_timestamps(const meshvk_command_buffer_t* cb, uint64_t* out_ns,
                                                      uint32_t count);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MESHVK_COMMAND_BUFFER_H_
