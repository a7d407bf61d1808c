// mesh-vk-run flag parsing (see flags.h).
#include "flags.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli_errors.h"
#include "flag_spelling.h"
#include "meshvk/meshvk.h"

#ifndef MESHVK_VERSION_STRING
#define MESHVK_VERSION_STRING "unknown"
#endif

namespace meshvk_run {
namespace {

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

// --devices=auto|N|group:G|I,J,... into flags. A value with a comma is a list
// of physical device indices ("2," is the list of one).
bool CheckDevices(const std::string& value, Flags* flags, std::string* error) {
  if (value.find(',') != std::string::npos) {
    flags->physical_devices.clear();
    size_t start = 0;
    while (start < value.size()) {
      size_t comma = value.find(',', start);
      std::string item = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      uint32_t index = 0;
      // ParseCount takes 1..; index 0 is a device too.
      if (item == "0") {
        index = 0;
      } else if (!ParseCount(item, &index) || index > 1024) {
        *error = "flag --devices: expected physical device indices like 0,2 (see --list-devices), got '" + value + "'";
        return false;
      }
      flags->physical_devices.push_back(index);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    if (flags->physical_devices.empty()) {
      *error = "flag --devices: expected physical device indices like 0,2 (see --list-devices), got '" + value + "'";
      return false;
    }
    return true;
  }
  if (value == "auto") {
    flags->devices_set = false;
    flags->device_group = -1;
  } else if (value.rfind("group:", 0) == 0) {
    std::string index = value.substr(6);
    if (index.empty() || index.size() > 4 || index.find_first_not_of("0123456789") != std::string::npos) {
      *error = "flag --devices: expected group:G with a device group index G, got '" + value + "'";
      return false;
    }
    flags->device_group = std::strtol(index.c_str(), nullptr, 10);
  } else if (!ParseCount(value, &flags->devices) || flags->devices > 1024) {
    *error =
        "flag --devices: expected auto, a process count 1..1024, group:G (a device group) or I,J,... "
        "(physical device indices, as --list-devices numbers them), got '" +
        value + "'";
    return false;
  } else {
    flags->devices_set = true;
  }
  return true;
}

bool CheckTopology(const std::string& value, meshvk_topology_t* topology, std::string* error) {
  if (value == "auto") {
    *topology = MESHVK_TOPOLOGY_AUTO;
  } else if (value == "group") {
    *topology = MESHVK_TOPOLOGY_DEVICE_GROUP;
  } else if (value == "logical") {
    *topology = MESHVK_TOPOLOGY_LOGICAL;
  } else if (value == "independent") {
    *topology = MESHVK_TOPOLOGY_INDEPENDENT;
  } else {
    *error = "flag --topology: expected auto, group, logical or independent, got '" + value + "'";
    return false;
  }
  return true;
}

}  // namespace

const char* UsageText() {
  static const std::string text = std::string(RunUsageText()) +
                                  "       mesh-vk-run [--list-devices] [--self-check --devices=N|I,J,...\n"
                                  "                   [--topology=auto|group|logical|independent]] [--validation]\n"
                                  "  --list-devices   print physical devices, device groups, queue families,\n"
                                  "                   limits, the peer-memory feature matrix and the copy path\n"
                                  "                   between every two devices (and why)\n"
                                  "  --self-check     dispatch a built-in kernel on every process and verify it\n"
                                  "  --devices=N      number of processes (default 1, at most 1024); I,J,...:\n"
                                  "                   those physical devices (one process each)\n"
                                  "  --topology=T     auto (a group covering the devices, else independent\n"
                                  "                   devices when there are several), group, logical or\n"
                                  "                   independent (one VkDevice per physical device)\n"
                                  "  --validation     enable the Khronos validation layer (also MESHVK_VALIDATION=1)\n"
                                  "  -v, --verbose    tell on stderr what meshvk decides (-vv: more)\n"
                                  "  --version        print the version and exit\n"
                                  "  -h, --help       print this text and exit\n"
                                  "\n";
  return text.c_str();
}

std::string VersionText() {
  std::string text = "mesh-vk-run " MESHVK_VERSION_STRING " (meshvk runtime; ";
#ifdef MESHVK_RUN_HAS_COMPILER
  text += "compiles .mlir in-process";
#else
  text += "runs .mvk only, built without the compiler";
#endif
  return text + ")";
}

namespace {

// The long names `app` knows (without dashes), for spellings and suggestions.
std::vector<std::string> KnownFlags(CLI::App* app) {
  std::vector<std::string> names;
  for (const CLI::Option* option : app->get_options()) {
    names.insert(names.end(), option->get_lnames().begin(), option->get_lnames().end());
  }
  return names;
}

}  // namespace

bool ParseFlags(int argc, char** argv, Flags* flags, std::string* error) {
  CLI::App app{"mesh-vk-run"};
  app.set_help_flag();                                 // our own --help text (UsageText), one home for it
  app.allow_extras();                                  // leftovers are sorted into "unknown flag" below
  const auto last = CLI::MultiOptionPolicy::TakeLast;  // a repeated scalar flag: the last one wins
  app.add_flag("-h,--help", flags->help)->disable_flag_override();
  app.add_flag("--version", flags->version)->disable_flag_override();
  app.add_flag("-v,--verbose", flags->verbosity);
  app.add_flag("--list-devices", flags->list_devices)->disable_flag_override();
  app.add_flag("--self-check", flags->self_check)->disable_flag_override();
  app.add_flag("--validation", flags->validation)->disable_flag_override();
  std::string topology;
  app.add_option("--devices", flags->devices_text)->multi_option_policy(last);
  app.add_option("--topology", topology)->multi_option_policy(last);
  RunFlagValues run_values;
  AddRunFlags(&app, &flags->run, &run_values);
  app.add_option("program", flags->positional);

  // IREE's --expected_output is --expected-output (flag_spelling.h): CLI11 sees the dash spelling only.
  const std::vector<std::string> known = KnownFlags(&app);
  const std::vector<std::string> given(argv, argv + argc);
  std::vector<std::string> spelled = DashSpelling(
      given, [&](const std::string& name) { return std::find(known.begin(), known.end(), name) != known.end(); });
  std::vector<char*> spelled_argv;
  for (std::string& arg : spelled) spelled_argv.push_back(arg.data());
  try {
    app.parse(argc, spelled_argv.data());
  } catch (const CLI::ParseError& e) {
    *error = DescribeParseError(e, argc, spelled_argv.data());
    return false;
  }
  for (const std::string& extra : app.remaining()) {
    if (extra.size() > 1 && extra[0] == '-') {
      // As typed: DashSpelling rewrites known names only.
      *error = UnknownFlagMessage(extra, known);
      return false;
    }
  }
  if (app.count("--devices") && !CheckDevices(flags->devices_text, flags, error)) return false;
  if (app.count("--topology") && !CheckTopology(topology, &flags->topology, error)) return false;
  return CheckRunFlags(run_values, &flags->run, error);
}

}  // namespace meshvk_run
