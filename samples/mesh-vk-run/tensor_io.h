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

namespace meshvk_run {

struct HostTensor {
  std::vector<uint64_t> shape;
  meshvk_element_type_t type = MESHVK_ELEMENT_F32;
  std::vector<uint8_t> data;  // dense row-major, little-endian

  uint64_t element_count() const;
  double At(uint64_t i) const;  // element i as a double (f16 decoded)
};

uint32_t ElementBytes(meshvk_element_type_t type);
const char* ElementName(meshvk_element_type_t type);  // "f32", "f16", "i32"
// "2x3xf32" (a scalar is "f32").
std::string TypeString(const std::vector<uint64_t>& shape, meshvk_element_type_t type);

// IEEE half <-> float (round to nearest even).
uint16_t FloatToHalf(float value);
float HalfToFloat(uint16_t half);

// Parses "SHAPExTYPE=VALUE" where VALUE is numbers separated by spaces or
// commas, "@file.npy" or "@file.bin". Returns false and a one-line *error.
bool ParseTensorSpec(const std::string& spec, HostTensor* out, std::string* error);

// Reads a .npy file (format 1.0-3.0, dtypes <f4 <f2 <i4, C order).
bool ReadNpy(const std::string& path, HostTensor* out, std::string* error);
// Writes `tensor` to `path` as .npy through a temporary file and a rename, so
// a failure never leaves a half-written file behind.
bool WriteNpy(const std::string& path, const HostTensor& tensor, std::string* error);
// Prints "2x3xf32=[[1 2 3][4 5 6]]" and a newline; past `max_elements`
// elements, "..." and a note of how many were printed.
void PrintTensor(FILE* out, const HostTensor& tensor, uint64_t max_elements = UINT64_MAX);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_TENSOR_IO_H_
