// Internal status type: the C++ side of meshvk_status_t, and the one bridge
// between the two (Status::ToC out, FromC in).
//
// Inside the runtime every fallible function returns Status (results go
// through out parameters); only the C API boundary turns a Status into an
// owned meshvk_status_t. The module layer (src/module/) calls the public C
// API and turns each meshvk_status_t back with FromC. No exceptions are used
// for errors. This header is the only internal one the module layer sees.
#ifndef MESHVK_RUNTIME_SRC_BASE_STATUS_H_
#define MESHVK_RUNTIME_SRC_BASE_STATUS_H_

#include <string>
#include <utility>

#include "meshvk/status.h"

namespace meshvk {

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(meshvk_status_code_t code, std::string message) : code_(code), message_(std::move(message)) {}

  bool ok() const { return code_ == MESHVK_STATUS_OK; }
  meshvk_status_code_t code() const { return code_; }
  const std::string& message() const { return message_; }

  // Prepends context ("process 1: " + message) and returns *this.
  Status&& WithContext(const std::string& context) && {
    if (!ok()) message_ = context + ": " + message_;
    return std::move(*this);
  }

  // Hands the status over to a C caller (NULL when OK).
  meshvk_status_t ToC() const;

 private:
  meshvk_status_code_t code_ = MESHVK_STATUS_OK;
  std::string message_;
};

// printf-style constructor for error statuses.
Status MakeStatus(meshvk_status_code_t code, const char* format, ...) __attribute__((format(printf, 2, 3)));

// Takes ownership of a C status (freeing it) and returns it as a Status whose
// message is prefixed with `context` ("context: message"); OK for NULL.
Status FromC(meshvk_status_t status, const std::string& context);

}  // namespace meshvk

#define MESHVK_RETURN_IF_ERROR(expr)                 \
  do {                                               \
    ::meshvk::Status _meshvk_status = (expr);        \
    if (!_meshvk_status.ok()) return _meshvk_status; \
  } while (0)

#endif  // MESHVK_RUNTIME_SRC_BASE_STATUS_H_
