// --input / --expected-output values that name files whose shape and type
// come from the file itself:
//   @a.npy        one tensor, the .npy file's shape and dtype
//   @a.npz        every array of the archive, in archive order, one argument each
//   @a.npz:NAME   the array NAME of the archive (numpy.savez's keyword name;
//                 positional arrays are arr_0, arr_1, ...)
// Any other value is a SHAPExTYPE=... spec, left to tensor_io's ParseTensorSpec.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_TENSOR_ARGS_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_TENSOR_ARGS_H_

#include <string>
#include <vector>

#include "tensor_io.h"

namespace meshvk_run {

struct TensorArg {
  std::string spec;     // a SHAPExTYPE=... spec still to parse; empty when `loaded`
  bool loaded = false;  // shape and type came from the file's header
  HostTensor tensor;    // when loaded: shape and type, no data yet
  TensorSource source;  // when loaded: where the data is (tensor_source.h)
  std::string origin;   // "b.npz:w1" for messages; empty for specs
};

// Expands `values` (one flag value each) into arguments, reading only file
// headers and archive directories (no data). On failure, false and a
// one-line *error prefixed with `flag[i]`.
bool ExpandTensorArgs(const std::vector<std::string>& values, const std::string& flag, std::vector<TensorArg>* out,
                      std::string* error);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_TENSOR_ARGS_H_
