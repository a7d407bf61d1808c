// libFuzzer target for mesh-vk-run's untrusted-input parsers (tensor_io.cc,
// npy_header.cc): the first byte picks the parser, the rest is the input.
//   0: a .npy file (read through a memfd, as a file would be), with and
//      without an expected type;  1: a .bin file for a 4x3xf32 spec;
//   2: an inline spec (SHAPExTYPE=VALUES), sized only after the type passed
//      a signature-like bound, as mesh-vk-run does;  3: the .npy header parser
//      on bytes in memory.
// Every input must parse or be refused with a one-line message; never crash,
// read out of bounds, allocate from an unchecked size, or hang.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "npy_header.h"
#include "tensor_io.h"

namespace {

// A file holding `data` and its /proc/self/fd path (closed by the caller).
int MemoryFile(const uint8_t* data, size_t size, std::string* path) {
  int fd = memfd_create("fuzz", 0);
  if (fd < 0) std::abort();
  for (size_t done = 0; done < size;) {
    ssize_t n = write(fd, data + done, size - done);
    if (n <= 0) std::abort();
    done += static_cast<size_t>(n);
  }
  *path = "/proc/self/fd/" + std::to_string(fd);
  return fd;
}

void CheckOneLine(bool ok, const std::string& error) {
  if (!ok && (error.empty() || error.find('\n') != std::string::npos)) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  uint8_t mode = data[0] % 4;
  ++data;
  --size;
  using namespace meshvk_run;
  std::string error;
  HostTensor t;
  if (mode == 0 || mode == 1) {
    std::string path;
    int fd = MemoryFile(data, size, &path);
    if (mode == 0) {
      bool ok = ReadNpy(path, &t, &error);
      CheckOneLine(ok, error);
      if (ok && t.data.size() != t.element_count() * ElementBytes(t.type)) __builtin_trap();
      HostTensor expected;
      expected.shape = {4, 3};
      error.clear();
      ok = ReadNpy(path, &t, &error, &expected);
      CheckOneLine(ok, error);
      if (ok && t.shape != expected.shape) __builtin_trap();
    } else {
      bool ok = ParseTensorSpec("4x3xf32=@" + path, &t, &error);
      CheckOneLine(ok, error);
      if (ok && t.data.size() != 48) __builtin_trap();
    }
    close(fd);
  } else if (mode == 2) {
    std::string spec(reinterpret_cast<const char*>(data), size);
    size_t eq = spec.find('=');
    // Files are modes 0 and 1 (an arbitrary path could be a blocking device).
    if (eq != std::string::npos && eq + 1 < spec.size() && spec[eq + 1] == '@') return 0;
    bool ok = ParseTensorType(spec, &t, &error);
    CheckOneLine(ok, error);
    // The runner only sizes a tensor the signature allows; a small bound here.
    if (ok && t.element_count() <= 4096) {
      ok = ParseTensorSpec(spec, &t, &error);
      CheckOneLine(ok, error);
      if (ok && t.data.size() != t.element_count() * ElementBytes(t.type)) __builtin_trap();
    }
  } else {
    NpyHeader header;
    bool ok = ParseNpyHeader(data, size, &header, &error);
    CheckOneLine(ok, error);
    if (ok && header.data_offset > size) __builtin_trap();
  }
  return 0;
}
