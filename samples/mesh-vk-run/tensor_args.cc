// File-typed --input values (see tensor_args.h).
#include "tensor_args.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "npz.h"

namespace meshvk_run {
namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// One archive member through tensor_io's .npy reader (the one parser of .npy
// headers), by way of a private temporary file.
bool NpyFromBytes(const std::vector<uint8_t>& bytes, const std::string& name, HostTensor* out, std::string* error) {
  const char* dir = std::getenv("TMPDIR");
  std::string path = std::string(dir && *dir ? dir : "/tmp") + "/mesh-vk-run-npz-XXXXXX";
  std::vector<char> buffer(path.begin(), path.end());
  buffer.push_back('\0');
  int fd = mkstemp(buffer.data());
  if (fd < 0) {
    *error = name + ": cannot create a temporary file to read the member";
    return false;
  }
  std::string temporary(buffer.data());
  bool written = true;
  for (size_t at = 0; at < bytes.size() && written;) {
    ssize_t n = ::write(fd, bytes.data() + at, bytes.size() - at);
    written = n > 0;
    at += n > 0 ? static_cast<size_t>(n) : 0;
  }
  ::close(fd);
  std::string inner;
  bool ok = written && ReadNpy(temporary, out, &inner);
  std::remove(temporary.c_str());
  if (!ok) {
    // The reader names the temporary file: name the member instead.
    if (size_t at = inner.find(temporary); at != std::string::npos) inner.replace(at, temporary.size(), name);
    *error = written ? inner : name + ": cannot write a temporary file to read the member";
  }
  return ok;
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
      if (!ReadNpy(path, &arg.tensor, error)) {
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
      *error = where + "'" + value + "': a file without a SHAPExTYPE= spec must be .npy or .npz "
               "(e.g. @a.npy, @args.npz, @args.npz:x; a .bin needs 4x4xf32=@a.bin)";
      return false;
    }
  }
  return true;
}

}  // namespace meshvk_run
