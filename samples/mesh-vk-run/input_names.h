// --input=NAME=SOURCE: an input given by the program's name for the argument
// (an ONNX model's input name, stored in the .mvk signature) instead of by
// position. The rule: the text before the first '=' of a value that does not
// start with '@' is a NAME when it is one of the function's argument names;
// otherwise it is the SHAPExTYPE of a spec (4x3xf32=@a.bin), as before. When
// the program names its arguments, a prefix that is neither is an unknown
// name: the error lists the names. Named inputs take their argument; the
// others fill the remaining arguments in order.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_INPUT_NAMES_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_INPUT_NAMES_H_

#include <string>
#include <vector>

#include "tensor_args.h"

namespace meshvk_run {

// `names`: one per argument ("" for an unnamed one). Expands `values` into
// exactly one TensorArg per argument in *out (ExpandTensorArgs for each
// source). On failure, false and one line in *error; *count_error is then
// true when only the number of inputs was wrong (the caller words it with
// the signature), and *given is the number given.
bool AssignInputs(const std::vector<std::string>& values, const std::vector<std::string>& names,
                  std::vector<TensorArg>* out, bool* count_error, size_t* given, std::string* error);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_INPUT_NAMES_H_
