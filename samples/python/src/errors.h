// Errors of the Python binding: every failed meshvk call (a meshvk_status_t)
// and every bad argument becomes a StatusError in C++, which one translator
// turns into the meshvk.Error subclass for its status code (defined in
// meshvk/_errors.py, so the hierarchy is plain Python that users can read).
#ifndef MESHVK_PYTHON_ERRORS_H_
#define MESHVK_PYTHON_ERRORS_H_

#include <pybind11/pybind11.h>

#include <exception>
#include <string>

#include "meshvk/status.h"

namespace meshvk_py {

class StatusError : public std::exception {
 public:
  StatusError(meshvk_status_code_t code, std::string message) : code_(code), message_(std::move(message)) {}
  meshvk_status_code_t code() const { return code_; }
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  meshvk_status_code_t code_;
  std::string message_;
};

[[noreturn]] void Raise(meshvk_status_code_t code, const std::string& message);
// Throws StatusError for a failed status (consumed); `context` ("path: ")
// prefixes its message. Does nothing for MESHVK_OK.
void Check(meshvk_status_t status, const std::string& context = "");
// Consumes `status`; returns its message ("" for OK).
std::string TakeMessage(meshvk_status_t status);

// Installs the StatusError -> meshvk.Error translator.
void RegisterErrorTranslator();

}  // namespace meshvk_py

#endif  // MESHVK_PYTHON_ERRORS_H_
