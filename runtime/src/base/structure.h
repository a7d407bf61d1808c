// Extensible structs at the C API boundary (meshvk/meshvk.h: every struct a
// call reads or fills starts with `type` and `next`): checking a caller's
// struct, finding a chained one, and filling one without losing its header.
#ifndef MESHVK_RUNTIME_SRC_BASE_STRUCTURE_H_
#define MESHVK_RUNTIME_SRC_BASE_STRUCTURE_H_

#include <string>

#include "meshvk/types.h"
#include "status.h"

namespace meshvk {

// OK when `structure` is non-null and has type `expected`; else
// INVALID_ARGUMENT "`what` is NULL" or "`what` has structure type 5, expected
// MESHVK_STRUCTURE_TYPE_INVOKE_INFO (28): initialize it with
// MESHVK_INVOKE_INFO_INIT".
Status CheckStructure(const void* structure, meshvk_structure_type_t expected, const char* what);

// CheckStructure on each of the first `count` elements of an array the call
// fills (the caller initializes every element): "`what`[3] has structure
// type 0, ...".
template <class T>
Status CheckElements(const T* elements, uint32_t count, meshvk_structure_type_t expected, const char* what) {
  for (uint32_t i = 0; i < count; ++i) {
    if (elements[i].type == expected) continue;  // the message is built only for a refusal
    const std::string name = std::string(what) + "[" + std::to_string(i) + "]";
    return CheckStructure(&elements[i], expected, name.c_str());
  }
  return Status();
}

// The first struct of type `wanted` in the chain that starts at `first`'s
// `next` (not `first` itself), or nullptr. Unknown types are skipped.
const void* FindChained(const void* first, meshvk_structure_type_t wanted);

template <class T>
const T* FindChained(const void* first, meshvk_structure_type_t wanted) {
  return static_cast<const T*>(FindChained(first, wanted));
}

// Writes `value` into the caller's `out`, keeping the caller's `type` and
// `next` (a filled struct's header is the caller's).
template <class T>
void FillKeepingHeader(T* out, const T& value) {
  const meshvk_structure_type_t type = out->type;
  const void* next = out->next;
  *out = value;
  out->type = type;
  out->next = next;
}

}  // namespace meshvk

#endif  // MESHVK_RUNTIME_SRC_BASE_STRUCTURE_H_
