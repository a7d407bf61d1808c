// meshvk_version: the version the library was built with.
#include "meshvk/version.h"

extern "C" uint32_t meshvk_version(void) { return MESHVK_VERSION; }
