// meshvk_mpi_launcher_rank_count: read from the launcher's environment, so
// it answers without MPI (and in a build without MPI).
#include <cstdlib>
#include <initializer_list>

#include "meshvk/transport_mpi.h"

extern "C" uint32_t meshvk_mpi_launcher_rank_count(void) {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
    const char* value = std::getenv(name);
    if (value && *value) return static_cast<uint32_t>(std::strtoul(value, nullptr, 10));
  }
  return 0;
}
