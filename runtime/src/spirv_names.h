// The SPIR-V enumerants a meshvk kernel's interface check speaks about
// (spirv_check_interface.cc): the names of storage classes, the capabilities
// a meshvk kernel may declare and the compute built-ins with the type Vulkan
// gives each. The numbers come from SPIR-V Headers (spirv/unified1/spirv.hpp,
// Debian spirv-headers), and each name is spelled from its enumerant, so a
// table cannot drift from the spec.
#ifndef MESHVK_RUNTIME_SRC_SPIRV_NAMES_H_
#define MESHVK_RUNTIME_SRC_SPIRV_NAMES_H_

#include <cstdint>

namespace meshvk {

// "StorageBuffer"; "an unknown class" for a number SPIR-V does not define.
const char* StorageClassName(uint32_t storage_class);

// The capabilities a meshvk kernel may declare: core compute ones, subgroup
// operations (Vulkan 1.1 core) and those whose features the runtime enables
// when the device has them (device_set.cc EnabledFeatures; checked against
// the device by the validation layer / the device's feature bits). Anything
// else (images, atomics on 64-bit, physical pointers, kernels) is not
// something meshvk binds or enables. Returns its name, or nullptr when a
// kernel may not declare it.
const char* AllowedCapabilityName(uint32_t capability);

// The compute built-ins and the type Vulkan requires of each ("Built-In
// Variables" chapter): a 3-vector of 32-bit integers, a 32-bit integer, or a
// 4-vector of 32-bit integers (subgroup masks).
enum class BuiltInShape { kNone, kScalar, kVec3, kVec4 };
struct BuiltInRule {
  const char* name;  // nullptr: not a compute built-in
  BuiltInShape shape;
};
BuiltInRule ComputeBuiltIn(uint32_t builtin);

// "a 3-component vector of 32-bit integers", for messages.
const char* BuiltInShapeName(BuiltInShape shape);

}  // namespace meshvk

#endif  // MESHVK_RUNTIME_SRC_SPIRV_NAMES_H_
