// mesh-vk-run --self-check: runs built-in kernels on every process of a
// device set and checks the results against host arithmetic.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_SELF_CHECK_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_SELF_CHECK_H_

#include <cstdio>
#include <string>
#include <vector>

#include "meshvk/meshvk.h"

namespace meshvk_run {

// Creates a device set of `processes` processes with `topology`; on each
// process uploads a, fills b with the built-in fill kernel and sums c = a + b
// with the built-in sum kernel, then reads c back and compares it with the
// host's a + b. Prints one line per process and "self-check: ok" to `out`.
// Returns the first runtime error; a wrong value instead sets *mismatch (naming
// process, index, value and the host's value) and returns NULL.
// Then every process pulls its predecessor's c by the path the pair of devices
// takes (same device, group peer memory, external memory, host staging) and
// checks it, one line per pair. `physical_devices` (may be empty) chooses the
// physical devices as meshvk_device_set_create_info_t does.
meshvk_status_t SelfCheck(meshvk_instance_t* instance, uint32_t processes, meshvk_topology_t topology,
                          const std::vector<uint32_t>& physical_devices, FILE* out, std::string* mismatch);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_SELF_CHECK_H_
