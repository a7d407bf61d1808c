// Program-run flags of mesh-vk-run (see run_flags.h).
#include "run_flags.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace meshvk_run {
namespace {

bool ParseTolerance(const std::string& value, double* out) {
  if (value.empty()) return false;
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(value.c_str(), &end);
  if (*end != '\0' || errno == ERANGE || !std::isfinite(v) || v < 0) return false;
  *out = v;
  return true;
}

}  // namespace

const char* RunUsageText() {
  return "usage: mesh-vk-run PROGRAM.mvk [--function=NAME] --input=SHAPExTYPE=VALUES|@a.npy|@a.bin ...\n"
         "                   [--output=@c.npy|-]... [--expected_output=SPEC... [--atol=A] [--rtol=R]]\n"
         "                   [--devices=auto|N|group:G] [--topology=group|logical] [--validation]\n"
         "                   [--print-plan] [--benchmark=N]\n"
         "  --function=NAME        function to run (default: the only one)\n"
         "  --input=SPEC           a whole (global) input tensor, e.g. 2x3xf32=\"1 2 3 4 5 6\",\n"
         "                         4x4xf16=@a.npy or 16xi32=@a.bin; one per argument, in order\n"
         "  --output=@file.npy|-   where each result goes (default: print all results)\n"
         "  --expected_output=SPEC compare each result (numpy.isclose); exit 1 if one differs\n"
         "  --atol=A --rtol=R      tolerances (defaults 1e-8 and 1e-5, like numpy)\n"
         "  --devices=auto|N|group:G  processes: the program's grid (auto), N (a .mvk must\n"
         "                         match it; a 1-D .mlir program is recompiled for N),\n"
         "                         or the device group G\n"
         "  --topology=T           group (one VkDevice over a device group) or logical\n"
         "                         (processes multiplexed on each physical device)\n"
         "  --validation           enable the Khronos validation layer (also MESHVK_VALIDATION=1)\n"
         "  --print-plan           per process: device, bytes by kind, dispatches, peer bytes\n"
         "  --benchmark=N          run N times after a warm-up; wall and per-phase GPU times\n"
         "  PROGRAM.mlir           compiled in-process (needs a build with MESHVK_BUILD_COMPILER=ON)\n"
         "exit codes: 0 ok, 1 results differ from --expected_output, 2 bad input/usage,\n"
         "            3 runtime/device failure\n";
}

FlagResult ParseRunFlag(const std::string& name, const std::string& value, bool has_value, RunFlags* flags,
                        std::string* error) {
  auto need_value = [&]() {
    if (has_value && !value.empty()) return true;
    *error = "flag " + name + " needs a value (" + name + "=...)";
    return false;
  };
  if (name == "--function") {
    if (!need_value()) return FlagResult::kError;
    flags->function = value;
  } else if (name == "--input") {
    if (!has_value) {
      *error = "flag --input needs a value (--input=SHAPExTYPE=VALUES)";
      return FlagResult::kError;
    }
    flags->inputs.push_back(value);
  } else if (name == "--output") {
    if (!need_value()) return FlagResult::kError;
    if (value != "-" && (value[0] != '@' || value.size() < 2)) {
      *error = "flag --output: expected @FILE.npy or -, got '" + value + "'";
      return FlagResult::kError;
    }
    if (value != "-" && (value.size() < 5 || value.compare(value.size() - 4, 4, ".npy") != 0)) {
      *error = "flag --output: '" + value.substr(1) + "' must end in .npy";
      return FlagResult::kError;
    }
    flags->outputs.push_back(value);
  } else if (name == "--expected_output") {
    if (!need_value()) return FlagResult::kError;
    flags->expected.push_back(value);
  } else if (name == "--atol" || name == "--rtol") {
    double* target = name == "--atol" ? &flags->tolerance.atol : &flags->tolerance.rtol;
    if (!has_value || !ParseTolerance(value, target)) {
      *error = "flag " + name + ": expected a non-negative number, got '" + value + "'";
      return FlagResult::kError;
    }
  } else if (name == "--print-plan") {
    if (has_value) {
      *error = "flag --print-plan takes no value (got '" + value + "')";
      return FlagResult::kError;
    }
    flags->print_plan = true;
  } else if (name == "--benchmark") {
    char* end = nullptr;
    unsigned long n = has_value && !value.empty() && value[0] >= '0' && value[0] <= '9'
                          ? std::strtoul(value.c_str(), &end, 10) : 0;
    if (!end || *end != '\0' || n == 0 || n > 1000000) {
      *error = "flag --benchmark: expected a repetition count 1..1000000, got '" + value + "'";
      return FlagResult::kError;
    }
    flags->benchmark = static_cast<uint32_t>(n);
  } else {
    return FlagResult::kNotMine;
  }
  return FlagResult::kHandled;
}

}  // namespace meshvk_run
