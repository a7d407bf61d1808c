// meshvk/status.h — error reporting for every public call.
//
// A meshvk_status_t is NULL on success. On failure it is an owned object with a
// code and a one-line message that names the device and the Vulkan operation
// where that applies ("process 2 (device 0): vkAllocateMemory(4096 bytes):
// VK_ERROR_OUT_OF_DEVICE_MEMORY"). The caller owns it and must pass it to
// meshvk_status_free (freeing NULL is a no-op). Thread-safe: statuses are
// independent values.
#ifndef MESHVK_STATUS_H_
#define MESHVK_STATUS_H_

#include "meshvk/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum meshvk_status_code_e {
  MESHVK_STATUS_OK = 0,
  MESHVK_STATUS_INVALID_ARGUMENT = 1,     // bad handle, null pointer, bad value
  MESHVK_STATUS_OUT_OF_RANGE = 2,         // index or byte range outside its object
  MESHVK_STATUS_FAILED_PRECONDITION = 3,  // wrong state (e.g. recording ended), or a design limit
  MESHVK_STATUS_RESOURCE_EXHAUSTED = 4,   // out of host or device memory
  MESHVK_STATUS_UNAVAILABLE = 5,          // feature/driver/device not present
  MESHVK_STATUS_UNIMPLEMENTED = 6,        // valid request this version cannot do (a later one may)
  MESHVK_STATUS_DEADLINE_EXCEEDED = 7,    // a wait timed out
  MESHVK_STATUS_DEVICE_LOST = 8,          // VK_ERROR_DEVICE_LOST
  MESHVK_STATUS_DATA_LOSS = 9,            // malformed input file (artifact, npy)
  MESHVK_STATUS_INTERNAL = 10,            // any other Vulkan/driver failure
} meshvk_status_code_t;

typedef struct meshvk_status_s* meshvk_status_t;

#define MESHVK_OK ((meshvk_status_t)NULL)

// Code of `status`; MESHVK_STATUS_OK for NULL.
meshvk_status_code_t meshvk_status_code(meshvk_status_t status);
// Message of `status` ("" for NULL); valid until meshvk_status_free.
const char* meshvk_status_message(meshvk_status_t status);
// Short name of a code, e.g. "OUT_OF_RANGE"; "UNKNOWN" for a value that is
// not a code. A static string.
const char* meshvk_status_code_name(meshvk_status_code_t code);
void meshvk_status_free(meshvk_status_t status);
// A status with `code` and a copy of `message` (NULL: ""), for libraries that
// extend the runtime through its C API (libmeshvk_transport_mpi) and return
// its statuses; MESHVK_OK for MESHVK_STATUS_OK. Free with meshvk_status_free.
meshvk_status_t meshvk_status_create(meshvk_status_code_t code, const char* message);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MESHVK_STATUS_H_
