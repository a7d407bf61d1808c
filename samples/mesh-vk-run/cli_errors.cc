// CLI11 errors in mesh-vk-run's words (see cli_errors.h).
#include "cli_errors.h"

#include <cstring>

namespace meshvk_run {
namespace {

// The value the user attached to `flag` ("--flag=VALUE"), for the message.
std::string AttachedValue(const std::string& flag, int argc, char** argv) {
  std::string prefix = flag + "=";
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], prefix.c_str(), prefix.size()) == 0) return argv[i] + prefix.size();
  }
  return "";
}

}  // namespace

std::string DescribeParseError(const CLI::ParseError& error, int argc, char** argv) {
  std::string what = error.what();
  // CLI11 2.1: "print-plan was given a disallowed flag override".
  const std::string override_text = " was given a disallowed flag override";
  if (size_t at = what.find(override_text); at != std::string::npos) {
    std::string flag = what.substr(0, at);
    if (flag.rfind("-", 0) != 0) flag = (flag.size() == 1 ? "-" : "--") + flag;
    return "flag " + flag + " takes no value (got '" + AttachedValue(flag, argc, argv) + "')";
  }
  // "--devices: 1 required TEXT missing"
  if (what.find(" required ") != std::string::npos && what.find(" missing") != std::string::npos) {
    std::string flag = what.substr(0, what.find(':'));
    return "flag " + flag + " needs a value (" + flag + "=...)";
  }
  return "command line: " + what;
}

}  // namespace meshvk_run
