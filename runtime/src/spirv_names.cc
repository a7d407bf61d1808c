// SPIR-V name tables (see spirv_names.h). One row per enumerant, written as
// the enumerant's own name: SPV(StorageClass, Input) is spv::StorageClassInput
// named "Input".
#include "spirv_names.h"

#include <cstddef>
#include <spirv/unified1/spirv.hpp>

namespace meshvk {
namespace {

struct Named {
  uint32_t value;
  const char* name;
};

#define SPV(kind, name) {spv::kind##name, #name}

constexpr Named kStorageClasses[] = {
    SPV(StorageClass, UniformConstant), SPV(StorageClass, Input),
    SPV(StorageClass, Uniform),         SPV(StorageClass, Output),
    SPV(StorageClass, Workgroup),       SPV(StorageClass, CrossWorkgroup),
    SPV(StorageClass, Private),         SPV(StorageClass, Function),
    SPV(StorageClass, Generic),         SPV(StorageClass, PushConstant),
    SPV(StorageClass, AtomicCounter),   SPV(StorageClass, Image),
    SPV(StorageClass, StorageBuffer),   SPV(StorageClass, PhysicalStorageBuffer),
};

constexpr Named kAllowedCapabilities[] = {
    SPV(Capability, Matrix),
    SPV(Capability, Shader),
    SPV(Capability, Float16),
    SPV(Capability, Float64),
    SPV(Capability, Int64),
    SPV(Capability, Int16),
    SPV(Capability, Int8),
    SPV(Capability, GroupNonUniform),
    SPV(Capability, GroupNonUniformVote),
    SPV(Capability, GroupNonUniformArithmetic),
    SPV(Capability, GroupNonUniformBallot),
    SPV(Capability, GroupNonUniformShuffle),
    SPV(Capability, GroupNonUniformShuffleRelative),
    SPV(Capability, GroupNonUniformClustered),
    SPV(Capability, GroupNonUniformQuad),
    SPV(Capability, StorageBuffer16BitAccess),
    SPV(Capability, UniformAndStorageBuffer16BitAccess),
    SPV(Capability, StoragePushConstant16),
    SPV(Capability, DeviceGroup),
    SPV(Capability, StorageBuffer8BitAccess),
    SPV(Capability, UniformAndStorageBuffer8BitAccess),
    SPV(Capability, StoragePushConstant8),
    SPV(Capability, VulkanMemoryModel),
    SPV(Capability, VulkanMemoryModelDeviceScope),
};

#undef SPV

struct ComputeBuiltInRow {
  uint32_t value;
  BuiltInRule rule;
};

#define BUILTIN(name, shape)                           \
  {                                                    \
    spv::BuiltIn##name, { #name, BuiltInShape::shape } \
  }

constexpr ComputeBuiltInRow kComputeBuiltIns[] = {
    BUILTIN(NumWorkgroups, kVec3),      BUILTIN(WorkgroupSize, kVec3),
    BUILTIN(WorkgroupId, kVec3),        BUILTIN(LocalInvocationId, kVec3),
    BUILTIN(GlobalInvocationId, kVec3), BUILTIN(LocalInvocationIndex, kScalar),
    BUILTIN(SubgroupSize, kScalar),     BUILTIN(NumSubgroups, kScalar),
    BUILTIN(SubgroupId, kScalar),       BUILTIN(SubgroupLocalInvocationId, kScalar),
    BUILTIN(SubgroupEqMask, kVec4),     BUILTIN(SubgroupGeMask, kVec4),
    BUILTIN(SubgroupGtMask, kVec4),     BUILTIN(SubgroupLeMask, kVec4),
    BUILTIN(SubgroupLtMask, kVec4),     BUILTIN(DeviceIndex, kScalar),
};

#undef BUILTIN

template <typename Row, size_t N>
const Row* Find(const Row (&table)[N], uint32_t value) {
  for (const Row& row : table)
    if (row.value == value) return &row;
  return nullptr;
}

}  // namespace

const char* StorageClassName(uint32_t storage_class) {
  const Named* row = Find(kStorageClasses, storage_class);
  return row ? row->name : "an unknown class";
}

const char* AllowedCapabilityName(uint32_t capability) {
  const Named* row = Find(kAllowedCapabilities, capability);
  return row ? row->name : nullptr;
}

BuiltInRule ComputeBuiltIn(uint32_t builtin) {
  const ComputeBuiltInRow* row = Find(kComputeBuiltIns, builtin);
  return row ? row->rule : BuiltInRule{nullptr, BuiltInShape::kNone};
}

const char* BuiltInShapeName(BuiltInShape shape) {
  switch (shape) {
    case BuiltInShape::kScalar:
      return "a 32-bit integer";
    case BuiltInShape::kVec3:
      return "a 3-component vector of 32-bit integers";
    case BuiltInShape::kVec4:
      return "a 4-component vector of 32-bit integers";
    default:
      return "?";
  }
}

}  // namespace meshvk
