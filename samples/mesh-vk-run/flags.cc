// mesh-vk-run flag parsing (see flags.h).
#include "flags.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

namespace meshvk_run {
namespace {

// Splits "--name=value"; a flag without '=' has an empty value and has_value false.
void SplitFlag(const std::string& arg, std::string* name, std::string* value,
               bool* has_value) {
  size_t eq = arg.find('=');
  *has_value = eq != std::string::npos;
  *name = arg.substr(0, eq);
  *value = *has_value ? arg.substr(eq + 1) : std::string();
}

bool ParseCount(const std::string& text, uint32_t* out) {
  if (text.empty() || text.size() > 9) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  unsigned long value = std::strtoul(text.c_str(), nullptr, 10);
  if (value == 0) return false;
  *out = static_cast<uint32_t>(value);
  return true;
}

}  // namespace

const char* UsageText() {
  static const std::string text = std::string(RunUsageText()) +
  "       mesh-vk-run [--list-devices] [--self-check --devices=N\n"
         "                   [--topology=auto|group|logical]] [--validation]\n"
         "  --list-devices   print physical devices, device groups, queue families,\n"
         "                   limits and the peer-memory feature matrix\n"
         "  --self-check     dispatch a built-in kernel on every process and verify it\n"
         "  --devices=N      number of processes (default 1, at most 1024)\n"
         "  --topology=T     auto (a group of 2+ devices if any), group or logical\n"
         "  --validation     enable the Khronos validation layer (also MESHVK_VALIDATION=1)\n"
         "\n";
  return text.c_str();
}

bool ParseFlags(int argc, char** argv, Flags* flags, std::string* error) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string name, value;
    bool has_value = false;
    SplitFlag(arg, &name, &value, &has_value);
    auto no_value = [&](bool* target) {
      if (has_value) {
        *error = "flag " + name + " takes no value (got '" + value + "')";
        return false;
      }
      *target = true;
      return true;
    };
    if (name == "--help" || name == "-h") {
      if (!no_value(&flags->help)) return false;
    } else if (name == "--list-devices") {
      if (!no_value(&flags->list_devices)) return false;
    } else if (name == "--self-check") {
      if (!no_value(&flags->self_check)) return false;
    } else if (name == "--validation") {
      if (!no_value(&flags->validation)) return false;
    } else if (name == "--devices") {
      if (value == "auto") {
        flags->devices_set = false;
        flags->device_group = -1;
      } else if (value.rfind("group:", 0) == 0) {
        std::string index = value.substr(6);
        if (index.empty() || index.size() > 4 ||
            index.find_first_not_of("0123456789") != std::string::npos) {
          *error = "flag --devices: expected group:G with a device group index G, got '" + value + "'";
          return false;
        }
        flags->device_group = std::strtol(index.c_str(), nullptr, 10);
      } else if (!has_value || !ParseCount(value, &flags->devices) || flags->devices > 1024) {
        *error = "flag --devices: expected auto, a process count 1..1024 or group:G, got '" + value + "'";
        return false;
      } else {
        flags->devices_set = true;
      }
    } else if (name == "--topology") {
      if (value == "auto") {
        flags->topology = MESHVK_TOPOLOGY_AUTO;
      } else if (value == "group") {
        flags->topology = MESHVK_TOPOLOGY_DEVICE_GROUP;
      } else if (value == "logical") {
        flags->topology = MESHVK_TOPOLOGY_LOGICAL;
      } else {
        *error = "flag --topology: expected auto, group or logical, got '" + value + "'";
        return false;
      }
    } else if (FlagResult r = ParseRunFlag(name, value, has_value, &flags->run, error);
               r != FlagResult::kNotMine) {
      if (r == FlagResult::kError) return false;
    } else if (arg.size() > 1 && arg[0] == '-') {
      *error = "unknown flag '" + arg + "'";
      return false;
    } else {
      flags->positional.push_back(arg);
    }
  }
  return true;
}

}  // namespace meshvk_run
