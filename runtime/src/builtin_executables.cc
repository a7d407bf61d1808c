// Built-in executables: the SPIR-V embedded at build time (meshvk_builtin_shaders),
// turned into executables on first use and cached in the device set. A cached
// built-in does not retain its set (that would be a cycle); every reference
// handed out does (see meshvk_executable_retain).
#include "builtin_executables.h"

#include <mutex>
#include <string>

#include "meshvk_builtin_shaders.h"

namespace meshvk {
namespace {

struct BuiltinSpec {
  const uint32_t* words;
  size_t word_count;
  uint32_t binding_count;
  uint32_t push_constant_size;
};

// Bindings and push blocks as declared in shaders/{fill,strided_copy,sum_f32}.comp.
BuiltinSpec GetBuiltinSpec(meshvk_builtin_t builtin) {
  namespace spirv = meshvk::builtin_spirv;
  switch (builtin) {
    case MESHVK_BUILTIN_FILL:
      return {spirv::fill, spirv::fill_word_count, 1, 3 * 4};
    case MESHVK_BUILTIN_STRIDED_COPY:
      return {spirv::strided_copy, spirv::strided_copy_word_count, 2, 11 * 4};
    case MESHVK_BUILTIN_SUM_F32:
    default:
      return {spirv::sum_f32, spirv::sum_f32_word_count, 9, 2 * 4};
  }
}

}  // namespace

Status GetBuiltin(meshvk_device_set_t* set, meshvk_builtin_t builtin, meshvk_executable_t** out) {
  *out = nullptr;
  if (builtin < 0 || builtin >= MESHVK_BUILTIN_COUNT) {
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "meshvk_executable_builtin: built-in %d of %d",
                      static_cast<int>(builtin), MESHVK_BUILTIN_COUNT);
  }
  std::lock_guard<std::mutex> lock(set->builtin_mutex);
  meshvk_executable_t*& cached = set->builtins[builtin];
  if (!cached) {
    BuiltinSpec spec = GetBuiltinSpec(builtin);
    meshvk_executable_create_info_t info = MESHVK_EXECUTABLE_CREATE_INFO_INIT;
    info.spirv = spec.words;
    info.spirv_size = spec.word_count * sizeof(uint32_t);
    info.binding_count = spec.binding_count;
    info.push_constant_size = spec.push_constant_size;
    info.workgroup_size[0] = kBuiltinWorkgroupSize;
    info.workgroup_size[1] = 1;
    info.workgroup_size[2] = 1;
    auto* executable = new meshvk_executable_t();
    executable->set = set;
    executable->builtin = true;
    Status status = CreateExecutable(executable, info);
    if (!status.ok()) {
      DestroyExecutable(executable);
      return std::move(status).WithContext("built-in " + std::to_string(builtin));
    }
    cached = executable;
  }
  meshvk_executable_retain(cached);
  *out = cached;
  return Status();
}

}  // namespace meshvk

extern "C" {

meshvk_status_t meshvk_executable_builtin(meshvk_device_set_t* set, meshvk_builtin_t builtin,
                                          meshvk_executable_t** out_executable) {
  if (!out_executable) {
    return meshvk::MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_executable_builtin: out_executable is NULL")
        .ToC();
  }
  *out_executable = nullptr;
  if (!set) {
    return meshvk::MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_executable_builtin: set is NULL").ToC();
  }
  return meshvk::GetBuiltin(set, builtin, out_executable).ToC();
}

}  // extern "C"
