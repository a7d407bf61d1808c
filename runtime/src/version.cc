// meshvk_version (the version the library was built with) and the check of
// the headers' version at instance creation.
#include "meshvk/version.h"

#include "api_version.h"

namespace meshvk {
namespace {

uint32_t Major(uint32_t v) { return v >> 22; }
uint32_t Minor(uint32_t v) { return (v >> 12) & 0x3ffu; }
uint32_t Patch(uint32_t v) { return v & 0xfffu; }

}  // namespace

Status CheckHeaderVersion(uint32_t header_version, const char* where) {
  if (header_version == 0) {
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "%s: api_version is 0; set it to MESHVK_VERSION (the initializer macro does)", where);
  }
  if (Major(header_version) != Major(MESHVK_VERSION) || Minor(header_version) > Minor(MESHVK_VERSION)) {
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE,
                      "%s: compiled with meshvk headers %u.%u.%u, but the library is %u.%u.%u (it serves headers "
                      "%u.0 to %u.%u)",
                      where, Major(header_version), Minor(header_version), Patch(header_version), Major(MESHVK_VERSION),
                      Minor(MESHVK_VERSION), Patch(MESHVK_VERSION), Major(MESHVK_VERSION), Major(MESHVK_VERSION),
                      Minor(MESHVK_VERSION));
  }
  return Status();
}

}  // namespace meshvk

extern "C" uint32_t meshvk_version(void) { return MESHVK_VERSION; }
