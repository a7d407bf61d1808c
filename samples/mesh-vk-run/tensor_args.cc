// File-typed --input values (see tensor_args.h).
#include "tensor_args.h"

#include <algorithm>

#include "npy_header.h"
#include "npz.h"

namespace meshvk_run {
namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

bool ExpandTensorArgs(const std::vector<std::string>& values, const std::string& flag, std::vector<TensorArg>* out,
                      std::string* error) {
  out->clear();
  for (size_t i = 0; i < values.size(); ++i) {
    const std::string& value = values[i];
    std::string where = flag + "[" + std::to_string(i) + "]: ";
    if (value.empty() || value[0] != '@') {
      TensorArg arg;
      arg.spec = value;
      out->push_back(std::move(arg));
      continue;
    }
    std::string path = value.substr(1), member;
    if (size_t colon = path.rfind(".npz:"); colon != std::string::npos) {
      member = path.substr(colon + 5);
      path = path.substr(0, colon + 4);
      if (member.empty()) {
        *error = where + "expected @FILE.npz:NAME with an array name, got '" + value + "'";
        return false;
      }
    }
    if (EndsWith(path, ".npy")) {
      TensorArg arg;
      arg.loaded = true;
      arg.origin = path;
      if (!ReadNpy(path, &arg.tensor, error, nullptr, &arg.source)) {
        *error = where + *error;
        return false;
      }
      out->push_back(std::move(arg));
    } else if (EndsWith(path, ".npz")) {
      std::vector<NpzEntry> members;
      if (!OpenNpz(path, &members, error)) {
        *error = where + *error;
        return false;
      }
      bool found = member.empty();
      std::string names;
      for (NpzEntry& m : members) {
        names += (names.empty() ? "" : ", ") + m.name;
        if (!member.empty() && m.name != member) continue;
        found = true;
        TensorArg arg;
        arg.loaded = true;
        arg.origin = path + ":" + m.name;
        arg.tensor.shape = m.header.shape;
        arg.tensor.type = m.header.type;
        arg.tensor.stored = m.header.stored;
        arg.source = std::move(m.source);
        out->push_back(std::move(arg));
      }
      if (!found) {
        *error = where + path + " has no array '" + member + "' (it has: " + names + ")";
        return false;
      }
    } else {
      *error = where + "'" + value +
               "': a file without a SHAPExTYPE= spec must be .npy or .npz "
               "(e.g. @a.npy, @args.npz, @args.npz:x; a .bin needs 4x4xf32=@a.bin)";
      return false;
    }
  }
  return true;
}

}  // namespace meshvk_run
