// The built-in executables (shaders/*.comp compiled at build time: fill,
// strided copy, f32 sum), created once per device set and cached there.
#ifndef MESHVK_RUNTIME_SRC_BUILTIN_EXECUTABLES_H_
#define MESHVK_RUNTIME_SRC_BUILTIN_EXECUTABLES_H_

#include <cstdint>

#include "executable.h"

namespace meshvk {

// local_size_x of every built-in; they loop grid-stride, so any workgroup
// count covers the whole range.
inline constexpr uint32_t kBuiltinWorkgroupSize = 64;

// The set's cached executable for `builtin`, +1 reference (which also keeps
// the set alive). OUT_OF_RANGE for an unknown built-in.
Status GetBuiltin(meshvk_device_set_t* set, meshvk_builtin_t builtin, meshvk_executable_t** out);

}  // namespace meshvk

#endif  // MESHVK_RUNTIME_SRC_BUILTIN_EXECUTABLES_H_
