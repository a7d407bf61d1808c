// Command-line flags of mesh-vk-run, parsed with CLI11 (Debian libcli11-dev).
// CLI11 does the lexing (--name=value and --name value, repeated options,
// counted -vv); the values are checked here afterwards so that every error
// stays one line that names the flag, the value and what was expected.
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
  bool version = false;  // --version
  int verbosity = 0;     // -v/--verbose (repeatable: -vv); see verbose.h
  bool list_devices = false;
  bool self_check = false;
  bool validation = false;
  uint32_t devices = 1;                    // processes for --self-check (--devices=N)
  bool devices_set = false;                // --devices=N given (a program's grid must match)
  std::string devices_text;                // --devices as given, for messages ("" = not given)
  int64_t device_group = -1;               // --devices=group:G
  std::vector<uint32_t> physical_devices;  // --devices=0,2: which physical devices (GPUs)
  meshvk_topology_t topology = MESHVK_TOPOLOGY_AUTO;
  std::vector<std::string> positional;  // the program file (.mvk or .mlir)
  RunFlags run;                         // flags that run a program (run_flags.h)
};

// Parses argv[1..]. On error returns false and sets *error to one line that
// names the flag, the value and what was expected.
bool ParseFlags(int argc, char** argv, Flags* flags, std::string* error);

const char* UsageText();
// "mesh-vk-run 0.1.0 (...)": the tool, meshvk's version and what it was built with.
std::string VersionText();

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_FLAGS_H_
