// See tensors.h.
#include "tensors.h"

#include <pybind11/stl.h>

#include <cstdint>

#include "errors.h"
#include "tensor_io.h"  // mesh-vk-run's TypeString: one spelling of a signature

namespace meshvk_py {
namespace {

// "4x4xf64" for any numpy array, in the CLI's spelling (dtype kinds meshvk
// does not have still get a readable name: f64, i64, u8, b8, ...).
std::string ArrayTypeString(const py::array& a) {
  std::string text;
  for (py::ssize_t d = 0; d < a.ndim(); ++d) text += std::to_string(a.shape(d)) + "x";
  py::dtype dt = a.dtype();
  char kind = dt.kind();
  std::string name = kind == 'f'   ? "f"
                     : kind == 'i' ? "i"
                     : kind == 'u' ? "u"
                     : kind == 'b' ? "b"
                     : kind == 'c' ? "c"
                                   : "";
  if (name.empty()) return text + py::str(static_cast<py::object>(dt)).cast<std::string>();
  return text + name + std::to_string(dt.itemsize() * 8);
}

bool SameElementType(const py::dtype& dt, meshvk_element_type_t type) {
  switch (type) {
    case MESHVK_ELEMENT_F32:
      return dt.kind() == 'f' && dt.itemsize() == 4;
    case MESHVK_ELEMENT_F16:
      return dt.kind() == 'f' && dt.itemsize() == 2;
    case MESHVK_ELEMENT_I32:
      return dt.kind() == 'i' && dt.itemsize() == 4;
    case MESHVK_ELEMENT_F64:
      return dt.kind() == 'f' && dt.itemsize() == 8;
  }
  return false;
}

// "[0, 5]": the index of element `flat` of `a`.
std::string IndexText(uint64_t flat, const py::array& a) {
  std::vector<uint64_t> index(a.ndim());
  for (py::ssize_t d = a.ndim(); d-- > 0;) {
    index[d] = flat % a.shape(d);
    flat /= a.shape(d);
  }
  std::string text = "[";
  for (size_t d = 0; d < index.size(); ++d) text += (d ? ", " : "") + std::to_string(index[d]);
  return text + "]";
}

// An int64 array for an i32 argument (an ONNX model's int64 token ids, which
// the program computes as i32): a new int32 array, each value range-checked
// (one outside int32 raises with its index, never wraps).
py::array NarrowInt64(const py::array& given, const std::string& where) {
  py::array wide = py::module_::import("numpy").attr("ascontiguousarray")(given, py::dtype("int64"));
  py::array narrow(py::dtype("int32"), std::vector<py::ssize_t>(wide.shape(), wide.shape() + wide.ndim()));
  const int64_t* from = static_cast<const int64_t*>(wide.data());
  int32_t* to = static_cast<int32_t*>(narrow.mutable_data());
  for (py::ssize_t k = 0, n = wide.size(); k < n; ++k) {
    if (from[k] < INT32_MIN || from[k] > INT32_MAX)
      Raise(MESHVK_STATUS_INVALID_ARGUMENT, where + "int64 element " + IndexText(k, wide) + " is " +
                                                std::to_string(from[k]) +
                                                ", outside the int32 range the program computes it in "
                                                "([-2147483648, 2147483647])");
    to[k] = static_cast<int32_t>(from[k]);
  }
  return narrow;
}

}  // namespace

py::dtype DtypeOf(meshvk_element_type_t type) {
  switch (type) {
    case MESHVK_ELEMENT_F32:
      return py::dtype("float32");
    case MESHVK_ELEMENT_F16:
      return py::dtype("float16");
    case MESHVK_ELEMENT_I32:
      return py::dtype("int32");
    case MESHVK_ELEMENT_F64:
      return py::dtype("float64");
  }
  Raise(MESHVK_STATUS_INTERNAL, "unknown element type " + std::to_string(type));
}

const char* ElementTypeName(meshvk_element_type_t type) { return meshvk_run::ElementName(type); }

std::vector<py::ssize_t> ShapeOf(const meshvk_tensor_info_t& info) {
  return std::vector<py::ssize_t>(info.shape, info.shape + info.rank);
}

std::string SignatureString(const meshvk_tensor_info_t& info) {
  return meshvk_run::TypeString(std::vector<uint64_t>(info.shape, info.shape + info.rank), info.element_type);
}

py::dict TensorInfoDict(const meshvk_tensor_info_t& info) {
  py::list split_axes;
  for (uint32_t d = 0; d < info.rank; ++d) {
    py::list axes;
    for (uint32_t a = 0; a < info.split_axis_count[d]; ++a) axes.append(info.split_axes[d][a]);
    split_axes.append(axes);
  }
  py::dict dict;
  dict["shape"] = py::tuple(py::cast(ShapeOf(info)));
  dict["dtype"] = ElementTypeName(info.element_type);
  dict["split_axes"] = split_axes;
  dict["shard_count"] = info.shard_count;
  dict["name"] = info.name && *info.name ? py::object(py::str(info.name)) : py::object(py::none());
  return dict;
}

py::dict TensorInfoDict(const meshvk_tensor_info_t& info, meshvk_declared_type_t declared) {
  py::dict dict = TensorInfoDict(info);
  const char* names[] = {ElementTypeName(info.element_type), "i64", "b8", "f64", "f32"};
  dict["declared_dtype"] = declared <= MESHVK_DECLARED_F32 ? names[declared] : names[0];
  return dict;
}

py::dtype DeclaredDtypeOf(meshvk_element_type_t type, meshvk_declared_type_t declared) {
  switch (declared) {
    case MESHVK_DECLARED_I64:
      return py::dtype("int64");
    case MESHVK_DECLARED_BOOL:
      return py::dtype("bool");
    case MESHVK_DECLARED_F64:
      return py::dtype("float64");
    case MESHVK_DECLARED_F32:
      return py::dtype("float32");
    default:
      return DtypeOf(type);
  }
}

py::array AsDeclared(const py::array& a, meshvk_declared_type_t declared) {
  if (declared == MESHVK_DECLARED_SAME) return a;
  if (declared == MESHVK_DECLARED_BOOL) return py::array(a.attr("__ne__")(0));        // numpy: nonzero is true
  return py::array(a.attr("astype")(DeclaredDtypeOf(MESHVK_ELEMENT_I32, declared)));  // int64, float64, float32
}

void CheckInputCount(const FunctionSignature& signature, size_t given) {
  if (given == signature.arguments.size()) return;
  std::string list;
  for (size_t i = 0; i < signature.arguments.size(); ++i)
    list += (i ? ", " : "") + SignatureString(signature.arguments[i]);
  Raise(MESHVK_STATUS_INVALID_ARGUMENT, "inputs: " + std::to_string(given) + " given, function '" + signature.name +
                                            "' takes " + std::to_string(signature.arguments.size()) + " (" + list +
                                            ")");
}

py::array CheckInput(const FunctionSignature& signature, size_t i, const py::handle& value) {
  const std::string fn = "'" + signature.name + "'";
  const meshvk_tensor_info_t& info = signature.arguments[i];
  const std::string where = "inputs[" + std::to_string(i) + "]" +
                            (info.name && *info.name ? " ('" + std::string(info.name) + "')" : "") + ": ";
  if (!py::isinstance<py::array>(value))
    Raise(MESHVK_STATUS_INVALID_ARGUMENT, where + "a numpy array is expected (argument " + std::to_string(i) + " of " +
                                              fn + " is " + SignatureString(info) + "), got " +
                                              py::str(py::type::of(value).attr("__name__")).cast<std::string>());
  py::array a = value.cast<py::array>();
  bool shape_ok = a.ndim() == static_cast<py::ssize_t>(info.rank);
  for (uint32_t d = 0; shape_ok && d < info.rank; ++d) shape_ok = a.shape(d) == static_cast<py::ssize_t>(info.shape[d]);
  const bool int64 = info.element_type == MESHVK_ELEMENT_I32 && a.dtype().kind() == 'i' && a.dtype().itemsize() == 8;
  // --precision=f16: the model's f32 input, converted when uploaded.
  const bool f32 = i < signature.argument_declared.size() && signature.argument_declared[i] == MESHVK_DECLARED_F32 &&
                   SameElementType(a.dtype(), MESHVK_ELEMENT_F32);
  if (!shape_ok || !(int64 || f32 || SameElementType(a.dtype(), info.element_type)))
    Raise(MESHVK_STATUS_INVALID_ARGUMENT, where + ArrayTypeString(a) + " given, argument " + std::to_string(i) +
                                              " of " + fn + " is " + SignatureString(info));
  if (int64) return NarrowInt64(a, where);
  if (f32) return py::module_::import("numpy").attr("ascontiguousarray")(a, py::dtype("float16"));
  // The runtime reads dense, aligned, little-endian (= native here) rows.
  const bool native = a.dtype().attr("isnative").cast<bool>();
  const int flags = py::detail::array_proxy(a.ptr())->flags;
  const bool dense =
      (flags & py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_) && (flags & py::detail::npy_api::NPY_ARRAY_ALIGNED_);
  if (!native || !dense)
    a = py::module_::import("numpy").attr("require")(a, DtypeOf(info.element_type),
                                                     py::make_tuple("C_CONTIGUOUS", "ALIGNED"));
  return a;
}

std::vector<py::array> CheckInputs(const FunctionSignature& signature, const py::args& args) {
  CheckInputCount(signature, args.size());
  std::vector<py::array> arrays;
  for (size_t i = 0; i < args.size(); ++i) arrays.push_back(CheckInput(signature, i, args[i]));
  return arrays;
}

py::args InputsByName(const FunctionSignature& signature, const py::args& args, const py::kwargs& kwargs) {
  if (kwargs.empty()) return args;
  const std::string fn = "'" + signature.name + "'";
  std::string names;
  for (const meshvk_tensor_info_t& info : signature.arguments)
    if (info.name && *info.name) names += (names.empty() ? "" : ", ") + std::string(info.name);
  const size_t count = signature.arguments.size();
  std::vector<py::object> slots(count);
  std::vector<bool> taken(count, false);
  for (const auto& [key, value] : kwargs) {
    const std::string name = py::str(key).cast<std::string>();
    size_t a = 0;
    while (a < count && !(signature.arguments[a].name && name == signature.arguments[a].name)) ++a;
    if (a == count)
      Raise(MESHVK_STATUS_INVALID_ARGUMENT, "inputs: '" + name + "' is not an input of " + fn +
                                                (names.empty() ? " (its arguments have no names: pass them by position)"
                                                               : " (its inputs: " + names + ")"));
    slots[a] = py::reinterpret_borrow<py::object>(value);
    taken[a] = true;
  }
  if (args.size() + kwargs.size() != count) {
    std::string list;
    for (size_t i = 0; i < count; ++i) list += (i ? ", " : "") + SignatureString(signature.arguments[i]);
    Raise(MESHVK_STATUS_INVALID_ARGUMENT, "inputs: " + std::to_string(args.size() + kwargs.size()) +
                                              " given, function " + fn + " takes " + std::to_string(count) + " (" +
                                              list + ")");
  }
  size_t next = 0;
  for (size_t a = 0; a < count; ++a)
    if (!taken[a]) slots[a] = args[next++];
  py::tuple ordered(count);
  for (size_t a = 0; a < count; ++a) ordered[a] = slots[a];
  return py::args(ordered);
}

py::array NewArray(const meshvk_tensor_info_t& info) { return py::array(DtypeOf(info.element_type), ShapeOf(info)); }

}  // namespace meshvk_py
