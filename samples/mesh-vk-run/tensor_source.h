// Where a tensor's data is, found and checked before any of it is read:
// mesh-vk-run checks every input's shape, file header and size, then creates
// the program (which checks the device limits), and only then reads data, and
// under mpirun only the bytes its rank's processes need (runs from
// meshvk_module_rank_input_runs), into storage of just that size.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_TENSOR_SOURCE_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_TENSOR_SOURCE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "meshvk/transport.h"

namespace meshvk_run {

struct HostTensor;

// How a tensor's values are stored when not as its element type: an ONNX
// model's int64 and bool tensors, which the program computes as i32, a
// double the device holds as f32 (no shaderFloat64), an f32 tensor held as
// f16 (--precision=f16), given in the files torch and numpy write.
enum class StoredAs : uint8_t {
  kType,     // as the tensor's type
  kInt64,    // '<i8' for i32: 8 bytes an element, narrowed with a range check (never wrapped)
  kBool,     // '|b1' for i32: 1 byte an element, 0 or 1 (any nonzero byte is true, as numpy reads it)
  kFloat32,  // '<f4' for f16: 4 bytes an element, rounded to nearest even
  kFloat64,  // '<f8' for f32: 8 bytes an element, a finite value beyond f32's range refused
};
// Bytes of one stored element (the type's own size for kType).
uint32_t StoredBytes(StoredAs stored, uint32_t type_bytes);
// "i64", "b8", "f32", "f64" ("" for kType): the spelling of messages (the Python package's too).
const char* StoredName(StoredAs stored);

struct TensorSource {
  enum class Kind {
    kValues,    // numbers from a spec: one (splat) or one per element
    kBytes,     // data already read (a pipe or device file cannot be read twice)
    kFile,      // a regular file (.npy, .bin, a stored .npz member): data at `offset`
    kDeflated,  // a deflated .npz member: compressed bytes at `offset`
  };
  Kind kind = Kind::kValues;
  std::string path;                   // kFile, kDeflated: for messages too
  std::string name;                   // for messages: "a.npz: member 'x.npy'" or the path
  std::vector<double> values;         // kValues
  std::vector<uint8_t> bytes;         // kBytes: the dense data
  uint64_t offset = 0;                // kFile: first data byte; kDeflated: first compressed byte
  uint64_t data_bytes = 0;            // the dense data's size as stored (see `stored`)
  StoredAs stored = StoredAs::kType;  // kInt64/kBool: converted to i32 when read
  // .npz members: the member's size (its .npy header, `header_bytes`, then
  // the data) and CRC, checked whenever the whole member passes by.
  bool member = false;
  uint64_t header_bytes = 0, member_bytes = 0, packed_bytes = 0;
  uint32_t crc = 0;
};

// Reads `source` into out->data (out->shape/type already set): the whole
// dense tensor, or with `runs` only those runs, packed in their order with
// each run's rows back to back (the layout of MESHVK_INVOKE_RANK_INPUTS_BIT).
// A regular file is read only at the runs; a deflated member is inflated as a
// stream keeping only the runs (never held whole) and its CRC checked; a
// stored member's CRC is checked when it is read whole. An int64 or bool
// source is read at the runs' elements (at its own element size) and
// converted; `runs` are in the i32 layout the program reads. *bytes_read (may be NULL) grows by the
// data bytes read from the file. One-line *error.
bool ReadTensorSource(const TensorSource& source, const std::vector<meshvk_host_run_t>* runs, HostTensor* out,
                      uint64_t* bytes_read, std::string* error);

// Bytes of the packed storage `runs` need.
uint64_t RunBytes(const std::vector<meshvk_host_run_t>& runs);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_TENSOR_SOURCE_H_
