// meshvk/executable.h — compute pipelines from SPIR-V.
//
// An executable is one SPIR-V compute entry point whose bindings are storage
// buffers in descriptor set 0 and whose parameters come through push constants.
// The SPIR-V is validated with SPIRV-Tools before vkCreateShaderModule, for
// the Vulkan version the set's devices speak (1.1, 1.2 or 1.3: SPIR-V 1.3
// up to 1.6); a pipeline is created on every VkDevice of the set, always with
// VK_PIPELINE_CREATE_DISPATCH_BASE_BIT (vkCmdDispatchBase needs it on single
// devices too). Every descriptor the module declares must be a storage buffer
// in set 0 with a binding below binding_count (checked: INVALID_ARGUMENT).
// Reference counted (meshvk/meshvk.h); immutable after creation, so
// thread-safe to use.
#ifndef MESHVK_EXECUTABLE_H_
#define MESHVK_EXECUTABLE_H_

#include "meshvk/device_set.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct meshvk_executable_s meshvk_executable_t;

typedef struct meshvk_executable_create_info_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_EXECUTABLE_CREATE_INFO
  const void* next;
  const uint32_t* spirv;
  size_t spirv_size;            // in bytes, a multiple of 4
  const char* entry_point;      // NULL: "main"
  uint32_t binding_count;       // storage buffers at set 0, bindings 0..n-1
  uint32_t push_constant_size;  // bytes, multiple of 4, <= device limit
  uint32_t workgroup_size[3];   // the shader's LocalSize (checked); any 0 = unknown
} meshvk_executable_create_info_t;
#define MESHVK_EXECUTABLE_CREATE_INFO_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_EXECUTABLE_CREATE_INFO)

// INVALID_ARGUMENT (message = validator output) when the SPIR-V does not
// validate or lacks the GLCompute entry point, for NULL set/info/out, another
// structure type, NULL or empty SPIR-V, a spirv_size or push_constant_size
// that is not a multiple of 4; OUT_OF_RANGE for push constants or bindings
// past a device's limits; a Vulkan error creating the layouts or pipelines
// as converted (meshvk/status.h). The executable retains the set.
meshvk_status_t meshvk_executable_create(meshvk_device_set_t* set, const meshvk_executable_create_info_t* info,
                                         meshvk_executable_t** out_executable);
void meshvk_executable_retain(meshvk_executable_t* executable);
void meshvk_executable_release(meshvk_executable_t* executable);

// Checks, without a device, everything meshvk_executable_create checks of the
// SPIR-V itself: SPIRV-Tools validation for `vulkan_api_version`
// (VK_API_VERSION_1_1..1_3; 0 means 1.1), a GLCompute entry point named
// info->entry_point, its workgroup size equal to info->workgroup_size (when
// no entry is 0), only storage buffers in set 0 below binding_count, a
// push-constant block that push_constant_size covers, and what Vulkan asks of
// a compute kernel beyond the validator: capabilities of compute, subgroups
// and the features the runtime enables; built-ins of compute only, each with
// the type Vulkan requires; no other inputs, outputs, images or pointers. The
// .mvk loader runs it on every executable. INVALID_ARGUMENT with one line
// saying why. Thread-safe; no Vulkan call.
meshvk_status_t meshvk_executable_check_spirv(const meshvk_executable_create_info_t* info, uint32_t vulkan_api_version);

// Shader capabilities a module's (or one executable's) SPIR-V declares, as the
// Vulkan features that enable them. 1 = needed.
typedef struct meshvk_shader_features_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_SHADER_FEATURES
  const void* next;
  uint32_t shader_float16;               // VkPhysicalDeviceVulkan12Features
  uint32_t shader_int8;                  // VkPhysicalDeviceVulkan12Features
  uint32_t storage_buffer_8bit_access;   // VkPhysicalDeviceVulkan12Features
  uint32_t vulkan_memory_model;          // VkPhysicalDeviceVulkan12Features
  uint32_t storage_buffer_16bit_access;  // VkPhysicalDevice16BitStorageFeatures
  uint32_t shader_int16;                 // VkPhysicalDeviceFeatures
  uint32_t shader_int64;                 // VkPhysicalDeviceFeatures
  uint32_t shader_float64;               // VkPhysicalDeviceFeatures
} meshvk_shader_features_t;
#define MESHVK_SHADER_FEATURES_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_SHADER_FEATURES)

// ORs into *out the features SPIR-V `spirv` (size bytes) declares through
// OpCapability. INVALID_ARGUMENT for a NULL `out` or another structure type,
// or when it is not SPIR-V (NULL, under 20 bytes, not a multiple of 4 or a
// bad magic number). No device needed.
meshvk_status_t meshvk_executable_spirv_features(const uint32_t* spirv, size_t size, meshvk_shader_features_t* out);

// 0 for NULL.
uint32_t meshvk_executable_binding_count(const meshvk_executable_t* executable);
uint32_t meshvk_executable_push_constant_size(const meshvk_executable_t* executable);

// Built-in kernels compiled from shaders/*.comp at build time.
typedef enum meshvk_builtin_e {
  // fill: bindings {dst}; push {uint offset_words, count_words, value}
  MESHVK_BUILTIN_FILL = 0,
  // strided copy of 32-bit words: bindings {src, dst}; push: see
  // meshvk_strided_region_t (used by meshvk_command_buffer_copy_strided)
  MESHVK_BUILTIN_STRIDED_COPY = 1,
  // elementwise f32 sum of up to 8 buffers: bindings {dst, src0..src7};
  // push {uint count, uint k}
  MESHVK_BUILTIN_SUM_F32 = 2,
  MESHVK_BUILTIN_COUNT = 3,
} meshvk_builtin_t;

// Returns the set's (cached) executable for a built-in; +1 reference (which
// also keeps the set alive). INVALID_ARGUMENT for NULL set/out_executable,
// OUT_OF_RANGE for an unknown built-in; the first call per built-in creates
// it (meshvk_executable_create's statuses). All
// built-ins use workgroups of 64 invocations along x and grid-stride loops,
// so any workgroup count covers the whole range.
meshvk_status_t meshvk_executable_builtin(meshvk_device_set_t* set, meshvk_builtin_t builtin,
                                          meshvk_executable_t** out_executable);

// What a kernel's SPIR-V itself declares about its layout.
typedef struct meshvk_spirv_layout_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_SPIRV_LAYOUT
  const void* next;
  uint32_t workgroup_size[3];       // the size it runs with (WorkgroupSize constant, else LocalSize/LocalSizeId)
  uint32_t push_constant_bytes;     // its push-constant block: highest member Offset + size; 0 without one
  uint64_t workgroup_memory_bytes;  // all its Workgroup (shared memory) variables
} meshvk_spirv_layout_t;
#define MESHVK_SPIRV_LAYOUT_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_SPIRV_LAYOUT)

// The .mvk loader's check of an executable: everything
// meshvk_executable_check_spirv checks, plus what every kernel of a .mvk is
// (meshvk's compiler emits nothing else): each binding's block is one array
// at Offset 0 whose ArrayStride is its element size (a dense tensor), the
// push-constant block is densely packed, no built-in is declared twice
// (views of one binding may alias, a declared binding may be unused).
// Vulkan allows more; in a .mvk it means a corrupt kernel. Fills *out_layout
// when OK (the loader then holds push_constant_size to the block's size).
// INVALID_ARGUMENT with one line (also for a NULL info/out_layout or another
// structure type); thread-safe; no Vulkan call.
meshvk_status_t meshvk_executable_check_mvk_kernel(const meshvk_executable_create_info_t* info,
                                                   uint32_t vulkan_api_version, meshvk_spirv_layout_t* out_layout);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MESHVK_EXECUTABLE_H_
