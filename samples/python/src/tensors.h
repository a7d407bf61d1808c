// numpy arrays <-> meshvk host tensors: dtype mapping, the signature text of
// mesh-vk-run's messages ("32x64xf32"), and the checks of a call's arguments
// against a function's signature.
//
// Zero-copy where numpy allows: a C-contiguous, aligned, native-endian input
// is handed to the runtime as is (the runtime streams each shard straight out
// of it); anything else (a transposed or strided view, a big-endian array) is
// copied once into a contiguous array. Outputs are fresh arrays the runtime
// gathers into directly.
#ifndef MESHVK_PYTHON_TENSORS_H_
#define MESHVK_PYTHON_TENSORS_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "meshvk/module.h"

namespace meshvk_py {

namespace py = pybind11;

// One side of a function's signature, read once from the module.
struct FunctionSignature {
  uint32_t index = 0;
  std::string name;
  std::vector<meshvk_tensor_info_t> arguments, results;
  // The dtype the source model declares for each (an ONNX int64/bool tensor
  // is i32 on the devices): results are handed out in it.
  std::vector<meshvk_declared_type_t> argument_declared, result_declared;
};

py::dtype DtypeOf(meshvk_element_type_t type);
// "f32", "f16", "i32" (the names of the CLI and of MLIR).
const char* ElementTypeName(meshvk_element_type_t type);
std::vector<py::ssize_t> ShapeOf(const meshvk_tensor_info_t& info);
// "32x64xf32".
std::string SignatureString(const meshvk_tensor_info_t& info);
// A dict {shape, dtype, split_axes, shard_count, name} for Python; with
// `declared`, also declared_dtype: the model's dtype ("i64", "b8", "f64"; the
// dtype itself for SAME).
py::dict TensorInfoDict(const meshvk_tensor_info_t& info);
py::dict TensorInfoDict(const meshvk_tensor_info_t& info, meshvk_declared_type_t declared);
// numpy's dtype of what a caller gets for a tensor: the declared type's
// (int64, bool, float64), else DtypeOf(element_type).
py::dtype DeclaredDtypeOf(meshvk_element_type_t type, meshvk_declared_type_t declared);
// `a` (the device's values) as the model declares them: int64 widened, bool
// as a != 0, float64 widened; `a` itself for SAME.
py::array AsDeclared(const py::array& a, meshvk_declared_type_t declared);

// Checks `args` against `signature`'s arguments: count, then for each the
// dtype and the shape, raising InvalidArgumentError with mesh-vk-run's text
// ("inputs[1]: 4x4xf64 given, argument 1 of 'main' is 64x256xf32"). Returns
// arrays that are C-contiguous, aligned and native-endian (the same objects
// where they already are).
std::vector<py::array> CheckInputs(const FunctionSignature& signature, const py::args& args);
// The two halves of CheckInputs: the count, and argument `i`'s array.
void CheckInputCount(const FunctionSignature& signature, size_t given);
py::array CheckInput(const FunctionSignature& signature, size_t i, const py::handle& value);
// Keyword inputs by the program's argument names (an ONNX model's input
// names): each keyword takes its argument, the positional inputs fill the
// others in order. Returns the inputs in argument order; an unknown keyword,
// an input given twice or a program without names raises INVALID_ARGUMENT.
py::args InputsByName(const FunctionSignature& signature, const py::args& args, const py::kwargs& kwargs);

// A new, uninitialised C-contiguous array of `info`'s global shape and dtype.
py::array NewArray(const meshvk_tensor_info_t& info);

}  // namespace meshvk_py

#endif  // MESHVK_PYTHON_TENSORS_H_
