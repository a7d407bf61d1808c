// Which headers this library serves: a caller's create info carries the
// MESHVK_VERSION of the headers it was compiled with.
#ifndef MESHVK_RUNTIME_SRC_API_VERSION_H_
#define MESHVK_RUNTIME_SRC_API_VERSION_H_

#include <cstdint>

#include "status.h"

namespace meshvk {

// OK for headers of this library's major version and a minor version no
// newer than its own; UNAVAILABLE otherwise, INVALID_ARGUMENT for 0.
Status CheckHeaderVersion(uint32_t header_version, const char* where);

}  // namespace meshvk

#endif  // MESHVK_RUNTIME_SRC_API_VERSION_H_
