// The flags of mesh-vk-run that run a program (the device flags --devices,
// --topology, --validation, --list-devices live in flags.h).
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_RUN_FLAGS_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_RUN_FLAGS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "compare.h"

namespace CLI {
class App;
}

namespace meshvk_run {

struct RunFlags {
  std::string function;                      // --function=NAME ("" = the only one)
  std::vector<std::string> inputs;           // --input=SPEC, in argument order
  std::vector<std::string> outputs;          // --output=@file.npy or -, in result order
  std::vector<std::string> expected;         // --expected-output=SPEC, in result order
  Tolerance tolerance;                       // --atol, --rtol
  bool print_plan = false;                   // --print-plan
  uint32_t benchmark = 0;                    // --benchmark=N (0: off)
  uint64_t print_max_element_count = 1024;   // --print-max-element-count=N
  std::string benchmark_format = "console";  // --benchmark-format=console|json
  std::string trace;                         // --trace=FILE.json ("" = off)
  std::string plan_graph;                    // --plan-graph=FILE.dot ("" = off)
  uint64_t device_timeout_ms = 0;            // --device-timeout=S (0: MESHVK_DEVICE_TIMEOUT_MS or 60 s)
  std::string rank_axes;                     // --rank-axes=0,1 (under mpirun; "": default)
  // An ONNX model (PROGRAM.onnx) only: the sharding policy, as mesh-vk-compile's
  // --shard (none|data|tensor|data,tensor|SPEC.json), over --devices=N processes
  // arranged as --grid-shape=AxB (default: a 1-D grid of N); and fixed dynamic
  // input dimensions, --input-shape=NAME=AxB (repeatable).
  std::string shard = "none";
  bool shard_set = false;
  std::string grid_shape;  // --grid-shape=2x2 ("": 1-D)
  bool grid_shape_set = false;
  std::vector<std::string> input_shapes;
  // A program compiled here (.mlir, .onnx): --precision=f32|f16 (mesh-vk-compile's).
  std::string precision = "f32";
  bool precision_set = false;
};

// The values CLI11 collected as text, checked by CheckRunFlags (so each error
// is our one line, not CLI11's wording).
struct RunFlagValues {
  std::vector<std::string> outputs;
  std::string atol, rtol, benchmark, print_max, benchmark_format, trace, plan_graph, device_timeout;
  bool benchmark_format_set = false, trace_set = false, plan_graph_set = false, device_timeout_set = false;
  bool atol_set = false, rtol_set = false, benchmark_set = false, print_max_set = false;
};

// Registers the run flags on `app`: plain values go straight into `flags`,
// the ones that need checking into `values`.
void AddRunFlags(CLI::App* app, RunFlags* flags, RunFlagValues* values);
// After parsing: checks `values` into `flags`. On failure, *error is one line
// naming the flag, the value and what was expected.
bool CheckRunFlags(const RunFlagValues& values, RunFlags* flags, std::string* error);

// Usage lines for these flags.
const char* RunUsageText();

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_RUN_FLAGS_H_
