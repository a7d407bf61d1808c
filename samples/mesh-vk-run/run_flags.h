// The flags of mesh-vk-run that run a program (the device flags --devices,
// --topology, --validation, --list-devices live in flags.h).
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_RUN_FLAGS_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_RUN_FLAGS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "compare.h"

namespace meshvk_run {

struct RunFlags {
  std::string function;                  // --function=NAME ("" = the only one)
  std::vector<std::string> inputs;       // --input=SPEC, in argument order
  std::vector<std::string> outputs;      // --output=@file.npy or -, in result order
  std::vector<std::string> expected;     // --expected_output=SPEC, in result order
  Tolerance tolerance;                   // --atol, --rtol
  bool print_plan = false;               // --print-plan
  uint32_t benchmark = 0;                // --benchmark=N (0: off)
};

enum class FlagResult { kHandled, kNotMine, kError };

// Parses one "--name[=value]" if it is a run flag. On kError, *error is one
// line naming the flag, the value and what was expected.
FlagResult ParseRunFlag(const std::string& name, const std::string& value, bool has_value,
                        RunFlags* flags, std::string* error);

// Usage lines for these flags.
const char* RunUsageText();

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_RUN_FLAGS_H_
