// meshvk/types.h — the types behind the rules of the C API: structure types,
// timeouts, "no process".
// (The rules these types serve are written once, in meshvk/meshvk.h.)
#ifndef MESHVK_TYPES_H_
#define MESHVK_TYPES_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum meshvk_structure_type_e {
  MESHVK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO = 1,
  MESHVK_STRUCTURE_TYPE_INSTANCE_IMPORT_INFO = 2,
  MESHVK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INFO = 3,
  MESHVK_STRUCTURE_TYPE_DEVICE_LIMITS = 4,
  MESHVK_STRUCTURE_TYPE_DEVICE_GROUP_INFO = 5,
  MESHVK_STRUCTURE_TYPE_COPY_PATH_INFO = 6,
  MESHVK_STRUCTURE_TYPE_DEVICE_SET_CREATE_INFO = 7,
  MESHVK_STRUCTURE_TYPE_DEVICE_SET_IMPORT_INFO = 8,
  MESHVK_STRUCTURE_TYPE_DEVICE_TIMEOUT = 9,
  MESHVK_STRUCTURE_TYPE_PROCESS_INFO = 10,
  MESHVK_STRUCTURE_TYPE_PROCESS_MEMORY = 11,
  MESHVK_STRUCTURE_TYPE_PROCESS_VULKAN = 12,
  MESHVK_STRUCTURE_TYPE_VULKAN_REQUIREMENTS = 13,
  MESHVK_STRUCTURE_TYPE_BUFFER_CREATE_INFO = 14,
  MESHVK_STRUCTURE_TYPE_BUFFER_IMPORT_INFO = 15,
  MESHVK_STRUCTURE_TYPE_EXECUTABLE_CREATE_INFO = 16,
  MESHVK_STRUCTURE_TYPE_SHADER_FEATURES = 17,
  MESHVK_STRUCTURE_TYPE_SPIRV_LAYOUT = 18,
  MESHVK_STRUCTURE_TYPE_DISPATCH_INFO = 19,
  MESHVK_STRUCTURE_TYPE_SUBMIT_INFO = 20,
  MESHVK_STRUCTURE_TYPE_GRID_INFO = 21,
  MESHVK_STRUCTURE_TYPE_FUNCTION_INFO = 22,
  MESHVK_STRUCTURE_TYPE_TENSOR_INFO = 23,
  MESHVK_STRUCTURE_TYPE_PROCESS_SUMMARY = 24,
  MESHVK_STRUCTURE_TYPE_PROGRAM_CREATE_INFO = 25,
  MESHVK_STRUCTURE_TYPE_PROGRAM_RANKS = 26,
  MESHVK_STRUCTURE_TYPE_TRACE_SINK = 27,
  MESHVK_STRUCTURE_TYPE_INVOKE_INFO = 28,
  MESHVK_STRUCTURE_TYPE_ASYNC_INVOKE_INFO = 29,
  MESHVK_STRUCTURE_TYPE_SHARD_VIEW = 30,
  MESHVK_STRUCTURE_TYPE_PROGRAM_STATS = 31,
  MESHVK_STRUCTURE_TYPE_COMMAND_INFO = 32,
  MESHVK_STRUCTURE_TYPE_TRACE_EVENT = 33,
  MESHVK_STRUCTURE_TYPE_TRANSPORT = 34,
  MESHVK_STRUCTURE_TYPE_TRANSPORT_STATS = 35,
  MESHVK_STRUCTURE_TYPE_MPI_TRANSPORT_STATS = 36,
  MESHVK_STRUCTURE_TYPE_MAX_ENUM = 0x7fffffff,
} meshvk_structure_type_t;

// The two members every extensible struct starts with, for walking a chain.
typedef struct meshvk_base_structure_s {
  meshvk_structure_type_t type;
  const void* next;
} meshvk_base_structure_t;

// The initializer of an extensible struct of type `type_enum`, every other
// member zero: designated in C (no -Wmissing-field-initializers) and in
// C++20, positional before C++20.
#if defined(__cplusplus) && __cplusplus < 202002L
#define MESHVK_STRUCT_INIT(type_enum) {type_enum, NULL}
#define MESHVK_DESIGNATED_INITIALIZERS 0
#else
#define MESHVK_STRUCT_INIT(type_enum) {.type = type_enum}
#define MESHVK_DESIGNATED_INITIALIZERS 1
#endif

// Nanoseconds from the call; 0: do not wait; MESHVK_TIMEOUT_INFINITE: no bound.
typedef uint64_t meshvk_timeout_t;
#define MESHVK_TIMEOUT_INFINITE UINT64_MAX

// "No process": what process queries answer for a NULL handle.
#define MESHVK_NO_PROCESS UINT32_MAX

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MESHVK_TYPES_H_
