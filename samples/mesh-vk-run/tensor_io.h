// Host tensors for mesh-vk-run: parsing `--input` specs (SHAPExTYPE=values,
// =@file.npy, =@file.bin), reading and writing .npy files, printing.
// Everything here is untrusted-input parsing: each failure is one line naming
// the spec or file, where, and what was expected.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_TENSOR_IO_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_TENSOR_IO_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "meshvk/module.h"
#include "meshvk/transport.h"
#include "tensor_source.h"

namespace meshvk_run {

struct HostTensor {
  std::vector<uint64_t> shape;
  meshvk_element_type_t type = MESHVK_ELEMENT_F32;
  std::vector<uint8_t> data;  // dense row-major, little-endian
  // Given as int64 or bool (a '<i8' or '|b1' .npy): `type` is i32, the
  // program's type for an ONNX int64 or bool tensor, and `data` holds the
  // values converted (int64 narrowed with a range check).
  StoredAs stored = StoredAs::kType;

  uint64_t element_count() const;
  double At(uint64_t i) const;  // element i as a double (f16 decoded)
};

uint32_t ElementBytes(meshvk_element_type_t type);
const char* ElementName(meshvk_element_type_t type);  // "f32", "f16", "i32"
// "2x3xf32" (a scalar is "f32").
std::string TypeString(const std::vector<uint64_t>& shape, meshvk_element_type_t type);
// The same for a given tensor: "2x8xi64" for one given as int64, "2x8xb8" as bool.
std::string TypeString(const HostTensor& tensor);

// How a tensor the model declares as `declared` is written back (an ONNX
// int64 result as '<i8', a bool one as '|b1', a double the device holds as
// f32 as '<f8', an f32 held as f16 by --precision=f16 as '<f4'), else as its
// element type. (No runtime call here: meshvk_run_io links no runtime.)
StoredAs StorageOf(meshvk_declared_type_t declared);
// The .npy descr of a stored form other than kType ("<i8", "|b1", "<f4", "<f8").
const char* StoredDescr(StoredAs stored);

// `tensor`'s data as stored: i32 values as int64 widened or as one 0/1 byte
// each (nonzero is true), f16 as f32, f32 as f64; the data itself for
// StoredAs::kType.
std::vector<uint8_t> StoredBytesOf(const HostTensor& tensor);

// IEEE half <-> float (round to nearest even).
uint16_t FloatToHalf(float value);
float HalfToFloat(uint16_t half);

// Limits on one tensor (documented in README.md): at most 2^32 elements
// (16 GiB of f32), rank <= kMaxTensorRank. Every count is multiplied with
// overflow checks before anything is sized from it.
inline constexpr uint64_t kMaxTensorElements = uint64_t(1) << 32;
inline constexpr uint64_t kMaxTensorRank = 8;

// Parses only the SHAPExTYPE part of a spec (before '='): *out gets shape and
// type, no data, and nothing is read or allocated. Callers check it against
// the function signature before ParseTensorSpec reserves memory or reads.
bool ParseTensorType(const std::string& spec, HostTensor* out, std::string* error);

// Parses "SHAPExTYPE=VALUE" where VALUE is numbers separated by spaces or
// commas, "@file.npy" or "@file.bin". Returns false and a one-line *error.
// Files are checked before they are read: a regular file's size must match
// the shape; anything else (a pipe, /dev/zero) is read at most one byte past
// the expected size. With `deferred`, out gets shape and type only and
// *deferred where the data is (values parsed, a regular file located and
// checked, not read): ReadTensorSource reads it later, whole or in parts.
bool ParseTensorSpec(const std::string& spec, HostTensor* out, std::string* error, TensorSource* deferred = nullptr);

// Reads a .npy file (format 1.0-3.0, dtypes <f4 <f2 <i4 <i8, C order; <i8
// as i32 with a range check, |b1 as i32 0/1, see HostTensor::stored; the header
// dict parsed as numpy does, see npy_header.h). With `expected`, a header
// with another shape or type is refused before any data is read.
// `deferred` as for ParseTensorSpec: the header is read and checked, the data
// only located.
bool ReadNpy(const std::string& path, HostTensor* out, std::string* error, const HostTensor* expected = nullptr,
             TensorSource* deferred = nullptr);
// `text` with control characters (newlines included) escaped as \xNN, so an
// error that echoes untrusted input stays one line.
std::string OneLine(const std::string& text);

// Prints "2x3xf32=[[1 2 3][4 5 6]]" and a newline; past `max_elements`
// elements, "..." and a note of how many were printed.
void PrintTensor(FILE* out, const HostTensor& tensor, uint64_t max_elements = UINT64_MAX);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_TENSOR_IO_H_
