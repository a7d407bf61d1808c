// A runtime status in a mesh-vk-run user's words. The runtime's messages name
// the C function that failed first ("meshvk_device_set_create: ..."), which
// tells an app's developer where to look; a user of mesh-vk-run never called
// it, so the tool prints the message without those names.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_STATUS_TEXT_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_STATUS_TEXT_H_

#include <string>

#include "meshvk/status.h"

namespace meshvk_run {

// `message` without "meshvk_<function>: " prefixes (at its start and after a
// device's name): "meshvk_buffer_create: 64 bytes" -> "64 bytes".
std::string WithoutFunctionNames(const std::string& message);

// meshvk_status_message(status) through WithoutFunctionNames. Does not consume `status`.
std::string StatusText(meshvk_status_t status);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_STATUS_TEXT_H_
