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

// One archive member: the .npy header parsed by npy_header.h (the one parser
// of .npy headers), then the data bytes, which must be exactly what it declares.
bool NpyFromBytes(const std::vector<uint8_t>& bytes, const std::string& name, HostTensor* out, std::string* error) {
  NpyHeader header;
  if (!ParseNpyHeader(bytes.data(), bytes.size(), &header, error)) {
    *error = name + ": " + *error;
    return false;
  }
  if (header.data_offset > bytes.size() || bytes.size() - header.data_offset != header.data_bytes) {
    *error = name + ": " + std::to_string(bytes.size() - std::min<uint64_t>(header.data_offset, bytes.size())) +
             " data bytes, shape " + TypeString(header.shape, header.type) + " needs " +
             std::to_string(header.data_bytes);
    return false;
  }
  out->shape = header.shape;
  out->type = header.type;
  out->data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(header.data_offset), bytes.end());
  return true;
}

}  // namespace

bool ExpandTensorArgs(const std::vector<std::string>& values, const std::string& flag, std::vector<TensorArg>* out,
                      std::string* error, std::vector<InputSlices>* slices) {
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
      if (!ReadNpy(path, &arg.tensor, error, nullptr, slices ? &(*slices)[i] : nullptr)) {
        *error = where + *error;
        return false;
      }
      out->push_back(std::move(arg));
    } else if (EndsWith(path, ".npz")) {
      std::vector<NpzMember> members;
      if (!ReadNpz(path, &members, error)) {
        *error = where + *error;
        return false;
      }
      bool found = member.empty();
      std::string names;
      for (const NpzMember& m : members) {
        names += (names.empty() ? "" : ", ") + m.name;
        if (!member.empty() && m.name != member) continue;
        found = true;
        TensorArg arg;
        arg.loaded = true;
        arg.origin = path + ":" + m.name;
        if (!NpyFromBytes(m.bytes, arg.origin, &arg.tensor, error)) {
          *error = where + *error;
          return false;
        }
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
