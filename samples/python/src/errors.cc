// StatusError -> meshvk.<Code>Error (see errors.h and meshvk/_errors.py).
#include "errors.h"

namespace py = pybind11;

namespace meshvk_py {

void Raise(meshvk_status_code_t code, const std::string& message) { throw StatusError(code, message); }

void Check(meshvk_status_t status, const std::string& context) {
  if (status == MESHVK_OK) return;
  meshvk_status_code_t code = meshvk_status_code(status);
  std::string message = context + meshvk_status_message(status);
  meshvk_status_free(status);
  throw StatusError(code, message);
}

std::string TakeMessage(meshvk_status_t status) {
  std::string message = meshvk_status_message(status);
  meshvk_status_free(status);
  return message;
}

void RegisterErrorTranslator() {
  py::register_exception_translator([](std::exception_ptr pending) {
    try {
      if (pending) std::rethrow_exception(pending);
    } catch (const StatusError& e) {
      // The class is looked up on each error (errors are rare; no module
      // reference outlives interpreter shutdown this way).
      py::object cls = py::module_::import("meshvk._errors").attr("error_class")(static_cast<int>(e.code()));
      PyErr_SetString(cls.ptr(), e.what());
    } catch (const py::cast_error& e) {
      // A value of the wrong type reached a C++ parameter: bad input, never
      // pybind's generic RuntimeError.
      py::object cls = py::module_::import("meshvk._errors").attr("InvalidArgumentError");
      PyErr_SetString(cls.ptr(), e.what());
    }
  });
}

}  // namespace meshvk_py
