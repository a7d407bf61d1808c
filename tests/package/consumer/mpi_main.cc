// Links the installed MPI transport with the installed runtime: both C APIs
// resolve (the transport calls the runtime's), and the launcher query answers
// without starting MPI.
#include <cstdio>

#include "meshvk/transport_mpi.h"

int main() {
  meshvk_status_t status = meshvk_status_create(MESHVK_STATUS_UNAVAILABLE, "probe");
  const bool ok = meshvk_status_code(status) == MESHVK_STATUS_UNAVAILABLE;
  meshvk_status_free(status);
  std::printf("launcher ranks: %u\n", meshvk_mpi_launcher_rank_count());
  if (!ok) return 1;
  std::printf("consumer: ok\n");
  return 0;
}
