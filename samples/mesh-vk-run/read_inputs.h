// mesh-vk-run's input data, read once the program exists (so the device
// limits refused a program before any input was allocated). Under mpirun a
// rank reads and holds only the bytes its processes' shards cover
// (meshvk_module_rank_input_runs), packed as MESHVK_INVOKE_RANK_INPUTS_BIT
// wants them; one rank reads every tensor whole.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_READ_INPUTS_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_READ_INPUTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "meshvk/module.h"
#include "tensor_io.h"

namespace meshvk_run {

struct InputReadStats {
  uint64_t bytes_read = 0;   // data bytes read from files (a deflated member: bytes kept)
  uint64_t whole_bytes = 0;  // the inputs' whole dense sizes
  uint64_t held_bytes = 0;   // host storage holding the inputs on this process
  int64_t rss_growth = -1;   // resident set growth while reading, bytes (-1: unknown)
};

// `process_rank` NULL: one rank, every input whole. Else the inputs of
// `rank` of `rank_count`. *error names the input ("--input[1]: ...").
bool ReadInputData(const meshvk_module_t* module, uint32_t function, const uint32_t* process_rank, uint32_t rank_count,
                   uint32_t rank, const std::vector<TensorSource>& sources, std::vector<HostTensor>* inputs,
                   InputReadStats* stats, std::string* error);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_READ_INPUTS_H_
