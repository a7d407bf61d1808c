// Inputs by argument name (see input_names.h).
#include "input_names.h"

#include <algorithm>

namespace meshvk_run {
namespace {

// The argument NAME of `value` names, or -1 (positional); -2: the prefix is
// neither a name nor a type while the program names its arguments.
int NamedArgument(const std::string& value, const std::vector<std::string>& names) {
  const size_t eq = value.find('=');
  if (value.empty() || value[0] == '@' || eq == std::string::npos || eq == 0) return -1;
  const std::string prefix = value.substr(0, eq);
  for (size_t i = 0; i < names.size(); ++i)
    if (!names[i].empty() && names[i] == prefix) return static_cast<int>(i);
  const bool named = std::any_of(names.begin(), names.end(), [](const std::string& n) { return !n.empty(); });
  HostTensor type;
  std::string ignored;
  return named && !ParseTensorType(prefix + "=", &type, &ignored) ? -2 : -1;
}

std::string NameList(const std::vector<std::string>& names) {
  std::string list;
  for (const std::string& name : names)
    if (!name.empty()) list += (list.empty() ? "" : ", ") + name;
  return list;
}

}  // namespace

bool AssignInputs(const std::vector<std::string>& values, const std::vector<std::string>& names,
                  std::vector<TensorArg>* out, bool* count_error, size_t* given, std::string* error) {
  *count_error = false;
  std::vector<std::string> positional;
  std::vector<TensorArg> slots(names.size());
  std::vector<bool> taken(names.size(), false);
  size_t named_count = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    const int argument = NamedArgument(values[i], names);
    if (argument == -1) {
      positional.push_back(values[i]);
      continue;
    }
    const std::string prefix = values[i].substr(0, values[i].find('='));
    if (argument == -2) {
      *error = "--input[" + std::to_string(i) + "]: '" + prefix +
               "' is not an input of the program (its inputs: " + NameList(names) + "; or give SHAPExTYPE=VALUES)";
      return false;
    }
    if (taken[argument]) {
      *error = "--input=" + prefix + "=...: input '" + prefix + "' given twice";
      return false;
    }
    std::vector<TensorArg> expanded;
    if (!ExpandTensorArgs({values[i].substr(prefix.size() + 1)}, "--input", &expanded, error)) {
      const std::string head = "--input[0]: ";
      if (error->compare(0, head.size(), head) == 0) *error = error->substr(head.size());
      *error = "--input=" + prefix + "=...: " + *error;
      return false;
    }
    if (expanded.size() != 1) {
      *error = "--input=" + prefix + "=...: one tensor per name (" + std::to_string(expanded.size()) +
               " arrays in the archive; pick one with @FILE.npz:ARRAY)";
      return false;
    }
    slots[argument] = std::move(expanded[0]);
    taken[argument] = true;
    ++named_count;
  }
  std::vector<TensorArg> rest;
  if (!ExpandTensorArgs(positional, "--input", &rest, error)) return false;
  *given = named_count + rest.size();
  if (*given != names.size()) {
    *count_error = true;
    return false;
  }
  size_t next = 0;
  for (size_t a = 0; a < names.size(); ++a)
    if (!taken[a]) slots[a] = std::move(rest[next++]);
  *out = std::move(slots);
  return true;
}

}  // namespace meshvk_run
