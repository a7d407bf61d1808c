// meshvk_status_t: the owned error object of the C API, and its bridge to
// the internal Status.
#include "status.h"

#include <cstdarg>
#include <cstdio>
#include <new>

struct meshvk_status_s {
  meshvk_status_code_t code;
  std::string message;
};

namespace {
// Returned when allocating a status fails: a NULL status would read as OK.
meshvk_status_s g_out_of_memory{MESHVK_STATUS_RESOURCE_EXHAUSTED, "out of host memory while reporting an error"};
}  // namespace

namespace meshvk {

meshvk_status_t Status::ToC() const {
  if (ok()) return MESHVK_OK;
  // nothrow: an allocation failure must not throw across the C boundary.
  auto* status = new (std::nothrow) meshvk_status_s{code_, message_};
  return status ? status : &g_out_of_memory;
}

Status MakeStatus(meshvk_status_code_t code, const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  int length = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  std::string message(length > 0 ? static_cast<size_t>(length) : 0, '\0');
  if (length > 0) std::vsnprintf(message.data(), message.size() + 1, format, args);
  va_end(args);
  return Status(code, std::move(message));
}

Status FromC(meshvk_status_t status, const std::string& context) {
  if (!status) return Status();
  Status out(meshvk_status_code(status), context.empty() ? std::string(meshvk_status_message(status))
                                                         : context + ": " + meshvk_status_message(status));
  meshvk_status_free(status);
  return out;
}

}  // namespace meshvk

extern "C" {

meshvk_status_code_t meshvk_status_code(meshvk_status_t status) { return status ? status->code : MESHVK_STATUS_OK; }

const char* meshvk_status_message(meshvk_status_t status) { return status ? status->message.c_str() : ""; }

const char* meshvk_status_code_name(meshvk_status_code_t code) {
  switch (code) {
    case MESHVK_STATUS_OK:
      return "OK";
    case MESHVK_STATUS_INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case MESHVK_STATUS_OUT_OF_RANGE:
      return "OUT_OF_RANGE";
    case MESHVK_STATUS_FAILED_PRECONDITION:
      return "FAILED_PRECONDITION";
    case MESHVK_STATUS_RESOURCE_EXHAUSTED:
      return "RESOURCE_EXHAUSTED";
    case MESHVK_STATUS_UNAVAILABLE:
      return "UNAVAILABLE";
    case MESHVK_STATUS_UNIMPLEMENTED:
      return "UNIMPLEMENTED";
    case MESHVK_STATUS_DEADLINE_EXCEEDED:
      return "DEADLINE_EXCEEDED";
    case MESHVK_STATUS_DEVICE_LOST:
      return "DEVICE_LOST";
    case MESHVK_STATUS_DATA_LOSS:
      return "DATA_LOSS";
    case MESHVK_STATUS_INTERNAL:
      return "INTERNAL";
  }
  return "UNKNOWN";
}

meshvk_status_t meshvk_status_create(meshvk_status_code_t code, const char* message) {
  if (code == MESHVK_STATUS_OK) return MESHVK_OK;
  return meshvk::Status(code, message ? message : "").ToC();
}

void meshvk_status_free(meshvk_status_t status) {
  if (status == &g_out_of_memory) return;
  delete status;
}

}  // extern "C"
