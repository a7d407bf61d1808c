#include "structure.h"

#include <cstdint>

namespace meshvk {
namespace {

// The enumerator and initializer names of each structure type, for messages
// that tell the caller what to write.
const char* TypeName(meshvk_structure_type_t type) {
  switch (type) {
#define MESHVK_NAME(NAME)            \
  case MESHVK_STRUCTURE_TYPE_##NAME: \
    return #NAME;
    MESHVK_NAME(INSTANCE_CREATE_INFO)
    MESHVK_NAME(INSTANCE_IMPORT_INFO)
    MESHVK_NAME(PHYSICAL_DEVICE_INFO)
    MESHVK_NAME(DEVICE_LIMITS)
    MESHVK_NAME(DEVICE_GROUP_INFO)
    MESHVK_NAME(COPY_PATH_INFO)
    MESHVK_NAME(DEVICE_SET_CREATE_INFO)
    MESHVK_NAME(DEVICE_SET_IMPORT_INFO)
    MESHVK_NAME(DEVICE_TIMEOUT)
    MESHVK_NAME(PROCESS_INFO)
    MESHVK_NAME(PROCESS_MEMORY)
    MESHVK_NAME(PROCESS_VULKAN)
    MESHVK_NAME(VULKAN_REQUIREMENTS)
    MESHVK_NAME(BUFFER_CREATE_INFO)
    MESHVK_NAME(BUFFER_IMPORT_INFO)
    MESHVK_NAME(EXECUTABLE_CREATE_INFO)
    MESHVK_NAME(SHADER_FEATURES)
    MESHVK_NAME(SPIRV_LAYOUT)
    MESHVK_NAME(DISPATCH_INFO)
    MESHVK_NAME(SUBMIT_INFO)
    MESHVK_NAME(GRID_INFO)
    MESHVK_NAME(FUNCTION_INFO)
    MESHVK_NAME(TENSOR_INFO)
    MESHVK_NAME(PROCESS_SUMMARY)
    MESHVK_NAME(PROGRAM_CREATE_INFO)
    MESHVK_NAME(PROGRAM_RANKS)
    MESHVK_NAME(TRACE_SINK)
    MESHVK_NAME(INVOKE_INFO)
    MESHVK_NAME(ASYNC_INVOKE_INFO)
    MESHVK_NAME(SHARD_VIEW)
    MESHVK_NAME(PROGRAM_STATS)
    MESHVK_NAME(COMMAND_INFO)
    MESHVK_NAME(TRACE_EVENT)
    MESHVK_NAME(TRANSPORT)
    MESHVK_NAME(TRANSPORT_STATS)
    MESHVK_NAME(MPI_TRANSPORT_STATS)
    MESHVK_NAME(PIPELINE_CACHE)
    MESHVK_NAME(PHASE_TIMING)
    MESHVK_NAME(RANK_COLLECTIVE)
    MESHVK_NAME(BINDING_STATS)
    MESHVK_NAME(PIPELINE_CACHE_STATS)
#undef MESHVK_NAME
    default:
      return nullptr;
  }
}

// A chain longer than this is taken as a cycle (a struct chained to itself).
constexpr int kMaxChain = 64;

}  // namespace

Status CheckStructure(const void* structure, meshvk_structure_type_t expected, const char* what) {
  if (!structure) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s is NULL", what);
  const auto type = static_cast<const meshvk_base_structure_t*>(structure)->type;
  if (type == expected) return Status();
  const char* name = TypeName(expected);
  return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                    "%s has structure type %u, expected MESHVK_STRUCTURE_TYPE_%s (%u): initialize it with "
                    "MESHVK_%s_INIT",
                    what, static_cast<uint32_t>(type), name, static_cast<uint32_t>(expected), name);
}

const void* FindChained(const void* first, meshvk_structure_type_t wanted) {
  const auto* at =
      first ? static_cast<const meshvk_base_structure_t*>(static_cast<const meshvk_base_structure_t*>(first)->next)
            : nullptr;
  for (int i = 0; at && i < kMaxChain; ++i, at = static_cast<const meshvk_base_structure_t*>(at->next))
    if (at->type == wanted) return at;
  return nullptr;
}

}  // namespace meshvk
