// Whether a program's buffers fit its devices' memory, decided before
// anything is allocated; and what to say when a device runs out anyway.
#ifndef MESHVK_RUNTIME_MODULE_MEMORY_FIT_H_
#define MESHVK_RUNTIME_MODULE_MEMORY_FIT_H_

#include <cstdint>
#include <string>

#include "status.h"

struct meshvk_program_s;

namespace meshvk::module {

// RESOURCE_EXHAUSTED, one line, when the buffers this rank's processes hold
// on one physical device (the plan's peak bytes, summed over the processes
// placed on it) and the set's buffers already there exceed the heap the
// device allocates shard buffers from:
//   process 0 (physical device 0 'llvmpipe') needs 16.1 MiB of device-local
//   memory (16.0 MiB parameters, 64.0 KiB activations, 40.0 KiB arguments and
//   results); its heap has 12.0 MiB
Status CheckMemoryFits(const meshvk_program_s* prog);

// The same kind of line for a device that refused an allocation the check
// let through (the driver's memory is shared with other programs): `cause`
// is the buffer's failure, `buffer` and `bytes` what was being allocated.
// Only a driver's VK_ERROR_OUT_OF_DEVICE_MEMORY is rewritten; other statuses
// (a buffer past maxMemoryAllocationSize, ...) come back unchanged.
Status OutOfDeviceMemory(const meshvk_program_s* prog, uint32_t process, uint32_t buffer, uint64_t bytes, Status cause);

// "16.1 MiB", "64.0 KiB", "12 MiB", "100 bytes".
std::string BytesText(uint64_t bytes);

}  // namespace meshvk::module

#endif  // MESHVK_RUNTIME_MODULE_MEMORY_FIT_H_
