// Runs one program file with mesh-vk-run's flags: loads and verifies it,
// checks the inputs against the function's signature, creates the device set
// and the program, invokes, writes/prints/compares results, prints the plan and
// benchmark numbers. Returns the process exit code.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_RUN_PROGRAM_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_RUN_PROGRAM_H_

#include <cstdint>
#include <string>
#include <vector>

#include "meshvk/device_set.h"
#include "meshvk/status.h"
#include "run_flags.h"

namespace meshvk_run {

inline constexpr int kExitOk = 0;
inline constexpr int kExitMismatch = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitDevice = 3;

// Exit code for a failed meshvk_instance_create: INVALID_ARGUMENT there is a
// bad value of a user setting (MESHVK_VALIDATION=on), so usage (2), as for
// meshvk_device_set_create; anything else is the machine's answer (3).
// Does not consume `status`.
int InstanceCreateExitCode(meshvk_status_t status);

struct DeviceChoice {
  uint32_t processes = 0;  // --devices=N; 0: the program's grid (auto)
  int64_t group = -1;      // --devices=group:G
  meshvk_topology_t topology = MESHVK_TOPOLOGY_AUTO;
  std::vector<uint32_t> physical_devices;  // --devices=0,2 (empty: all)
  std::string devices_text;                // --devices as given, for messages
  bool validation = false;
};

class MpiJob;
// `mpi`: non-null under mpirun; this rank then runs the processes of its
// coordinates on the rank axes (--rank-axes), and rank 0 prints and writes.
int RunProgram(const std::string& path, const RunFlags& flags, const DeviceChoice& devices, MpiJob* mpi = nullptr);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_RUN_PROGRAM_H_
