// The .npy header: the magic, version, length and the Python dict literal
// that numpy writes ({'descr': '<f4', 'fortran_order': False, 'shape': (4, 3), }).
// The dict is parsed as the literal it is, not searched for substrings: a
// header numpy would read differently (a key twice, where Python keeps the
// last; `(4)` which is an int, not a tuple; `0x10`; a comment) is refused, so
// mesh-vk-run never reads a file as something numpy would not.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_NPY_HEADER_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_NPY_HEADER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "meshvk/module.h"
#include "tensor_source.h"

namespace meshvk_run {

// numpy.lib.format's default max_header_size: numpy itself refuses longer
// headers (without allow_pickle), and so do we.
inline constexpr uint64_t kMaxNpyHeaderBytes = 10000;
// Bytes to read before the header length is known (magic, version, length).
inline constexpr size_t kNpyPrefixBytes = 12;

struct NpyHeader {
  std::vector<uint64_t> shape;  // () is a scalar
  meshvk_element_type_t type = MESHVK_ELEMENT_F32;
  // '<i8' (token ids as torch and numpy give them) and '|b1' (masks): type is
  // i32, the program's type for an ONNX int64 or bool tensor; the file holds
  // 8 or 1 bytes an element, converted when read (tensor_source.h).
  StoredAs stored = StoredAs::kType;
  uint64_t data_offset = 0;  // where the array data starts in the file
  uint64_t data_bytes = 0;   // element count x element size in the file (checked)
};

// Bytes of the whole header (prefix + dict) from the first `size` bytes of a
// file (at least 12, or the whole file if shorter). Returns false and a
// one-line *error for a file that is not .npy.
bool NpyHeaderLength(const uint8_t* bytes, size_t size, uint64_t* out_length, std::string* error);

// Parses the whole header (`size` >= the length NpyHeaderLength returned).
// Element counts are checked (<= 2^32 elements, no overflow, no zero dims,
// rank <= 8) before anything is sized from them.
bool ParseNpyHeader(const uint8_t* bytes, size_t size, NpyHeader* out, std::string* error);

// The header numpy.save writes for `shape`/`type` (format 1.0, data aligned to
// 64 bytes).
std::vector<uint8_t> MakeNpyHeader(const std::vector<uint64_t>& shape, meshvk_element_type_t type);
// The same with numpy's dtype string ("<i8", "|b1").
std::vector<uint8_t> MakeNpyHeader(const std::vector<uint64_t>& shape, const char* descr);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_NPY_HEADER_H_
