// Command-line flags of mesh-vk-run. Parsing lives here so that main.cc stays
// a small dispatcher and later flags (--input, --print-plan, ...) have one home.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_FLAGS_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_FLAGS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "meshvk/device_set.h"
#include "run_flags.h"

namespace meshvk_run {

struct Flags {
  bool help = false;
  bool list_devices = false;
  bool self_check = false;
  bool validation = false;
  uint32_t devices = 1;  // processes for --self-check (--devices=N)
  bool devices_set = false;   // --devices=N given (a program's grid must match)
  int64_t device_group = -1;  // --devices=group:G
  meshvk_topology_t topology = MESHVK_TOPOLOGY_AUTO;
  std::vector<std::string> positional;  // the program file (.mvk; .mlir later)
  RunFlags run;                          // flags that run a program (run_flags.h)
};

// Parses argv[1..]. On error returns false and sets *error to one line that
// names the flag, the value and what was expected.
bool ParseFlags(int argc, char** argv, Flags* flags, std::string* error);

const char* UsageText();

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_FLAGS_H_
