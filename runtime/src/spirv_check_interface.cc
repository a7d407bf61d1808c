// What a meshvk kernel may contain (see spirv_check.h, CheckKernelInterface).
// The SPIRV-Tools validator (2023.1 here) checks the SPIR-V rules but not all
// of Vulkan's: it accepted a module whose GlobalInvocationId uvec3 was
// redecorated LocalInvocationIndex (a u32 in Vulkan), and lavapipe's LLVM
// crashed compiling it (a bit flip of a resealed .mvk, issue 13). So the
// module's interface is checked here against the shape of a compute kernel
// that meshvk binds and dispatches: the capabilities the runtime enables,
// the storage classes of its global variables, every built-in with the type
// Vulkan gives it, the effective workgroup size and the push-constant block.
#include <algorithm>
#include <cstring>
#include <map>
#include <spirv/unified1/spirv.hpp>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "spirv_check.h"
#include "spirv_names.h"

namespace meshvk {
namespace {

struct Variable {
  uint32_t id, pointer_type, storage;
};

// The module-level facts the checks need, from one pass over the words.
class KernelModule {
 public:
  KernelModule(const std::vector<uint32_t>& words, uint32_t entry_id) {
    ForEachInstruction(words.data(), words.size(), [&](uint32_t opcode, const uint32_t* w, uint32_t count) {
      switch (opcode) {
        case spv::OpCapability:
          if (count >= 2) capabilities_.push_back(w[1]);
          break;
        case spv::OpEntryPoint:
          if (count >= 4 && w[2] == entry_id) {
            // Name words end at the first word holding a NUL; ids follow.
            size_t k = 3;
            while (k < count && (w[k] & 0xff000000u) && (w[k] & 0xff0000u) && (w[k] & 0xff00u) && (w[k] & 0xffu)) ++k;
            for (++k; k < count; ++k) interface_.insert(w[k]);
          }
          break;
        case spv::OpExecutionMode:
        case spv::OpExecutionModeId:
          if (count >= 6 && w[1] == entry_id &&
              (w[2] == spv::ExecutionModeLocalSize || w[2] == spv::ExecutionModeLocalSizeId)) {
            local_size_mode_ = w[2];
            for (int d = 0; d < 3; ++d) local_size_[d] = w[3 + d];
          }
          break;
        case spv::OpDecorate:
          if (count >= 3) decorations_[w[1]].push_back({w[2], count >= 4 ? w[3] : 0});
          break;
        case spv::OpMemberDecorate:
          if (count >= 4) member_decorations_[{w[1], w[2]}].push_back({w[3], count >= 5 ? w[4] : 0});
          break;
        case spv::OpFunction:
          in_function_ = true;
          break;
        case spv::OpVariable:
          if (!in_function_ && count >= 4) globals_.push_back({w[2], w[1], w[3]});
          if (count >= 3) value_types_[w[2]] = w[1];
          break;
        case spv::OpFunctionParameter:
        case spv::OpCopyObject:
          if (count >= 3) value_types_[w[2]] = w[1];
          break;
        case spv::OpAccessChain:
        case spv::OpInBoundsAccessChain:
        case spv::OpPtrAccessChain:
        case spv::OpInBoundsPtrAccessChain:
          if (count >= 4) {
            value_types_[w[2]] = w[1];
            // Ptr forms: the first index steps over the base pointer itself.
            bool ptr = opcode == spv::OpPtrAccessChain || opcode == spv::OpInBoundsPtrAccessChain;
            if (!ptr || count >= 5)
              access_chains_.push_back({w[2], w[3], std::vector<uint32_t>(w + (ptr ? 5 : 4), w + count)});
          }
          break;
        default:
          if ((opcode >= spv::OpTypeVoid && opcode <= spv::OpTypePointer) && count >= 2) {
            definitions_[w[1]] = std::vector<uint32_t>(w, w + count);
          } else if ((opcode == spv::OpConstant || opcode == spv::OpConstantComposite ||
                      opcode == spv::OpSpecConstant || opcode == spv::OpSpecConstantComposite) &&
                     count >= 3) {
            definitions_[w[2]] = std::vector<uint32_t>(w, w + count);
          }
          break;
      }
      return true;
    });
  }

  Status CheckCapabilities() const {
    for (uint32_t capability : capabilities_)
      if (!AllowedCapabilityName(capability))
        return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                          "capability %u is not one a meshvk kernel may declare (compute, subgroup and the "
                          "16/8-bit, int64/float64, memory-model features the runtime enables)",
                          capability);
    return Status();
  }

  // Storage classes of module-level variables, and built-ins (type,
  // storage class, entry point interface).
  Status CheckVariables() const {
    for (const Variable& v : globals_) {
      switch (v.storage) {
        case spv::StorageClassStorageBuffer:
        case spv::StorageClassUniform:  // bindings: CheckDescriptorBindings
        case spv::StorageClassWorkgroup:
        case spv::StorageClassPrivate:
        case spv::StorageClassPushConstant:
          if (BuiltInOf(v.id))
            return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "variable %%%u in storage class %s is decorated BuiltIn",
                              v.id, StorageClassName(v.storage));
          break;
        case spv::StorageClassInput: {
          MESHVK_RETURN_IF_ERROR(CheckBuiltInVariable(v));
          break;
        }
        default:
          return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                            "variable %%%u is in storage class %s (%u); a meshvk kernel has storage buffers, push "
                            "constants, built-in inputs, workgroup and private memory only",
                            v.id, StorageClassName(v.storage), v.storage);
      }
    }
    for (const auto& [key, list] : member_decorations_)
      for (const auto& [decoration, value] : list)
        if (decoration == spv::DecorationBuiltIn)
          return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                            "member %u of type %%%u is decorated BuiltIn %u (a compute kernel has no built-in block)",
                            key.second, key.first, value);
    // BuiltIn on anything but an input variable: only the WorkgroupSize constant.
    for (const auto& [id, list] : decorations_)
      for (const auto& [decoration, value] : list) {
        if (decoration != spv::DecorationBuiltIn || IsGlobal(id)) continue;
        const std::vector<uint32_t>* def = Definition(id);
        bool constant = def && ((def->at(0) & spv::OpCodeMask) == spv::OpConstantComposite ||
                                (def->at(0) & spv::OpCodeMask) == spv::OpSpecConstantComposite);
        if (value != spv::BuiltInWorkgroupSize || !constant)
          return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                            "%%%u is decorated BuiltIn %u; only input variables and the WorkgroupSize constant may be",
                            id, value);
        MESHVK_RETURN_IF_ERROR(CheckBuiltInType(id, def->at(1), {"WorkgroupSize", BuiltInShape::kVec3}));
      }
    return Status();
  }

  // The size the kernel runs with: a constant decorated WorkgroupSize takes
  // precedence over the LocalSize/LocalSizeId execution mode (SPIR-V spec,
  // BuiltIn WorkgroupSize). *source names where it came from.
  Status WorkgroupSize(uint32_t out[3], const char** source) const {
    for (const auto& [id, list] : decorations_)
      for (const auto& [decoration, value] : list)
        if (decoration == spv::DecorationBuiltIn && value == spv::BuiltInWorkgroupSize && !IsGlobal(id)) {
          const std::vector<uint32_t>& def = *Definition(id);  // checked by CheckVariables
          for (int d = 0; d < 3; ++d)
            if (def.size() < 6 || !ConstantValue(def[3 + d], &out[d]))
              return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                                "the WorkgroupSize constant %%%u has a component that is not a 32-bit constant", id);
          // Named after LocalSize when that says the same (glslang emits both).
          bool same = local_size_mode_ == spv::ExecutionModeLocalSize && local_size_[0] == out[0] &&
                      local_size_[1] == out[1] && local_size_[2] == out[2];
          *source = same ? "LocalSize" : "a WorkgroupSize constant";
          return Status();
        }
    if (local_size_mode_ == spv::ExecutionModeLocalSize) {
      for (int d = 0; d < 3; ++d) out[d] = local_size_[d];
      *source = "LocalSize";
      return Status();
    }
    if (local_size_mode_ == spv::ExecutionModeLocalSizeId) {
      for (int d = 0; d < 3; ++d)
        if (!ConstantValue(local_size_[d], &out[d]))
          return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "LocalSizeId operand %%%u is not a 32-bit constant",
                            local_size_[d]);
      *source = "LocalSizeId";
      return Status();
    }
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "the entry point declares no workgroup size (LocalSize, LocalSizeId or WorkgroupSize)");
  }

  // Bytes of the push-constant block (0 without one): the highest member
  // Offset + that member's size, as Vulkan's range must cover it.
  Status PushConstantBytes(uint64_t* out) const {
    *out = 0;
    const Variable* block = nullptr;
    for (const Variable& v : globals_) {
      if (v.storage != spv::StorageClassPushConstant) continue;
      if (block)
        return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                          "two push-constant variables (%%%u and %%%u); Vulkan allows one", block->id, v.id);
      block = &v;
    }
    if (!block) return Status();
    const std::vector<uint32_t>* pointer = Definition(block->pointer_type);
    uint64_t bytes = 0;
    if (!pointer || pointer->size() < 4 || !SizeOf(pointer->at(3), &bytes, 0))
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                        "the push-constant block %%%u has a type whose size cannot be determined", block->id);
    *out = bytes;
    return Status();
  }

  // Bytes of all Workgroup variables (shared memory).
  Status WorkgroupBytes(uint64_t* out) const {
    *out = 0;
    for (const Variable& v : globals_) {
      if (v.storage != spv::StorageClassWorkgroup) continue;
      const std::vector<uint32_t>* pointer = Definition(v.pointer_type);
      uint64_t bytes = 0;
      if (!pointer || pointer->size() < 4 || !SizeOf(pointer->at(3), &bytes, 0))
        return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                          "workgroup variable %%%u has a type whose size cannot be determined", v.id);
      *out += bytes;
      if (*out > (uint64_t(1) << 40)) break;  // far above any device; stops the sum growing
    }
    return Status();
  }

  // Constant indices into vectors, matrices and arrays stay inside them: the
  // validator checks struct member indices only, and an index past a
  // vector's end reads another variable (found by the resealed bit flips:
  // GlobalInvocationId[16]).
  Status CheckConstantIndices() const {
    for (const AccessChain& chain : access_chains_) {
      auto base = value_types_.find(chain.base);
      if (base == value_types_.end()) continue;
      const std::vector<uint32_t>* pointer = Definition(base->second);
      if (!pointer || (pointer->at(0) & spv::OpCodeMask) != spv::OpTypePointer || pointer->size() < 4) continue;
      uint32_t type_id = pointer->at(3);
      for (uint32_t index_id : chain.indices) {
        const std::vector<uint32_t>* type = Definition(type_id);
        if (!type) break;
        uint32_t opcode = type->at(0) & spv::OpCodeMask, index = 0, extent = 0;
        bool constant = ConstantValue(index_id, &index);
        if (opcode == spv::OpTypeStruct) {
          if (!constant || index + 2 >= type->size()) break;  // the validator's rule
          type_id = type->at(2 + index);
          continue;
        }
        if ((opcode == spv::OpTypeVector || opcode == spv::OpTypeMatrix) && type->size() >= 4)
          extent = type->at(3);
        else if (opcode == spv::OpTypeArray && type->size() >= 4 && ConstantValue(type->at(3), &extent)) {
        } else if (opcode != spv::OpTypeRuntimeArray)
          break;
        if (constant && extent != 0 && index >= extent)
          return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                            "access chain %%%u indexes %%%u with constant %u, past its %u elements", chain.id, type_id,
                            index, extent);
        type_id = type->at(2);
      }
    }
    return Status();
  }

  // What every kernel in a .mvk is (the compiler's and the test kernels):
  // a binding is a tensor buffer, seen as ONE array of densely packed
  // elements at Offset 0; the push-constant block is densely packed u32/f32
  // words; and no two variables share a binding. Vulkan allows more (and
  // meshvk_executable_create accepts it), but in a .mvk anything else is a
  // corrupt kernel that would read or write the wrong bytes.
  Status CheckDenseLayout() const {
    std::map<uint32_t, uint32_t> builtin_owner;
    for (const Variable& v : globals_) {
      uint32_t builtin = 0;
      if (v.storage != spv::StorageClassInput || !BuiltInOf(v.id, &builtin)) continue;
      auto [it, inserted] = builtin_owner.insert({builtin, v.id});
      if (!inserted)
        return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                          "variables %%%u and %%%u are both BuiltIn %s (a .mvk kernel declares each built-in once)",
                          it->second, v.id, ComputeBuiltIn(builtin).name);
    }
    for (const Variable& v : globals_) {
      bool buffer = v.storage == spv::StorageClassStorageBuffer || v.storage == spv::StorageClassUniform;
      if (!buffer && v.storage != spv::StorageClassPushConstant) continue;
      const std::vector<uint32_t>* pointer = Definition(v.pointer_type);
      if (!pointer || pointer->size() < 4) continue;
      uint32_t block_id = pointer->at(3);
      const std::vector<uint32_t>* block = Definition(block_id);
      if (!block || (block->at(0) & spv::OpCodeMask) != spv::OpTypeStruct) continue;  // the validator requires a struct
      uint32_t members = static_cast<uint32_t>(block->size() - 2);
      if (buffer && members != 1)
        return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                          "storage buffer %%%u: its block has %u members; a .mvk kernel's buffer is one array", v.id,
                          members);
      uint64_t end = 0;
      for (uint32_t m = 0; m < members; ++m) {
        uint32_t offset = 0;
        uint64_t size = 0;
        uint32_t member_type = block->at(2 + m);
        if (!Decoration(block_id, spv::DecorationOffset, &offset, m) || offset != end)
          return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                            "%s %%%u: member %u of its block is at Offset %u, densely packed it is at %llu",
                            buffer ? "storage buffer" : "push-constant block", v.id, m, offset,
                            static_cast<unsigned long long>(end));
        MESHVK_RETURN_IF_ERROR(CheckDenseArrays(v.id, member_type, 0));
        if (buffer) {
          const std::vector<uint32_t>* array = Definition(member_type);
          uint32_t opcode = array ? array->at(0) & spv::OpCodeMask : 0;
          if (opcode != spv::OpTypeRuntimeArray && opcode != spv::OpTypeArray)
            return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                              "storage buffer %%%u: its block holds %%%u, not an array; a .mvk kernel's buffer is one "
                              "array",
                              v.id, member_type);
        } else if (!SizeOf(member_type, &size, 0)) {
          return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "push-constant block %%%u: member %u has no size", v.id, m);
        }
        end = offset + size;
      }
    }
    return Status();
  }

 private:
  struct AccessChain {
    uint32_t id, base;
    std::vector<uint32_t> indices;
  };

  // Every (runtime) array inside `type_id` has ArrayStride equal to its
  // element's size, and nested structs are packed.
  Status CheckDenseArrays(uint32_t variable, uint32_t type_id, int depth) const {
    const std::vector<uint32_t>* type = Definition(type_id);
    if (!type || depth > 32) return Status();
    uint32_t opcode = type->at(0) & spv::OpCodeMask;
    if ((opcode == spv::OpTypeArray || opcode == spv::OpTypeRuntimeArray) && type->size() >= 3) {
      uint32_t stride = 0;
      uint64_t element = 0;
      if (!SizeOf(type->at(2), &element, 0))
        return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "buffer %%%u: array %%%u has elements without a size",
                          variable, type_id);
      if (!Decoration(type_id, spv::DecorationArrayStride, &stride) || stride != element)
        return MakeStatus(
            MESHVK_STATUS_INVALID_ARGUMENT,
            "buffer %%%u: array %%%u has ArrayStride %u for %llu-byte elements (a .mvk kernel's arrays are "
            "densely packed)",
            variable, type_id, stride, static_cast<unsigned long long>(element));
      return CheckDenseArrays(variable, type->at(2), depth + 1);
    }
    if (opcode == spv::OpTypeStruct) {
      uint64_t end = 0;
      for (size_t m = 2; m < type->size(); ++m) {
        uint32_t offset = 0;
        uint64_t size = 0;
        if (!Decoration(type_id, spv::DecorationOffset, &offset, static_cast<int64_t>(m - 2)) || offset != end ||
            !SizeOf(type->at(m), &size, 0))
          return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                            "buffer %%%u: struct %%%u member %zu is not densely packed (Offset %u, expected %llu)",
                            variable, type_id, m - 2, offset, static_cast<unsigned long long>(end));
        MESHVK_RETURN_IF_ERROR(CheckDenseArrays(variable, type->at(m), depth + 1));
        end = offset + size;
      }
    }
    return Status();
  }

  const std::vector<uint32_t>* Definition(uint32_t id) const {
    auto it = definitions_.find(id);
    return it == definitions_.end() ? nullptr : &it->second;
  }

  bool IsGlobal(uint32_t id) const {
    for (const Variable& v : globals_)
      if (v.id == id) return true;
    return false;
  }

  // The literal of decoration `which` on `id` (member `member` when >= 0).
  bool Decoration(uint32_t id, uint32_t which, uint32_t* value, int64_t member = -1) const {
    const std::vector<std::pair<uint32_t, uint32_t>>* list = nullptr;
    if (member < 0) {
      auto it = decorations_.find(id);
      if (it != decorations_.end()) list = &it->second;
    } else {
      auto it = member_decorations_.find({id, static_cast<uint32_t>(member)});
      if (it != member_decorations_.end()) list = &it->second;
    }
    if (!list) return false;
    for (const auto& [decoration, literal] : *list)
      if (decoration == which) {
        *value = literal;
        return true;
      }
    return false;
  }

  bool BuiltInOf(uint32_t id, uint32_t* builtin = nullptr) const {
    uint32_t value = 0;
    if (!Decoration(id, spv::DecorationBuiltIn, &value)) return false;
    if (builtin) *builtin = value;
    return true;
  }

  // A 32-bit integer constant's value.
  bool ConstantValue(uint32_t id, uint32_t* out) const {
    const std::vector<uint32_t>* def = Definition(id);
    if (!def || def->size() != 4) return false;
    uint32_t opcode = def->at(0) & spv::OpCodeMask;
    if (opcode != spv::OpConstant && opcode != spv::OpSpecConstant) return false;
    const std::vector<uint32_t>* type = Definition(def->at(1));
    if (!type || (type->at(0) & spv::OpCodeMask) != spv::OpTypeInt || type->size() < 3 || type->at(2) != 32)
      return false;
    *out = def->at(3);
    return true;
  }

  Status CheckBuiltInVariable(const Variable& v) const {
    uint32_t builtin = 0;
    if (!BuiltInOf(v.id, &builtin))
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                        "input variable %%%u is not a built-in (a compute kernel has no other inputs)", v.id);
    BuiltInRule rule = ComputeBuiltIn(builtin);
    if (!rule.name || builtin == spv::BuiltInWorkgroupSize)
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                        "input variable %%%u is BuiltIn %u, not a compute input built-in", v.id, builtin);
    if (!interface_.count(v.id))
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                        "built-in input %%%u (%s) is missing from the entry point's interface", v.id, rule.name);
    const std::vector<uint32_t>* pointer = Definition(v.pointer_type);
    if (!pointer || (pointer->at(0) & spv::OpCodeMask) != spv::OpTypePointer || pointer->size() < 4)
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "built-in input %%%u (%s) is not a pointer variable", v.id,
                        rule.name);
    return CheckBuiltInType(v.id, pointer->at(3), rule);
  }

  // "a 3-component vector of 32-bit integers", for messages.
  std::string Describe(uint32_t type_id) const {
    const std::vector<uint32_t>* type = Definition(type_id);
    if (!type || type->size() < 3) return "type %" + std::to_string(type_id);
    uint32_t opcode = type->at(0) & spv::OpCodeMask;
    if (opcode == spv::OpTypeVector && type->size() >= 4)
      return "a " + std::to_string(type->at(3)) + "-component vector of " + Describe(type->at(2)).substr(2) + "s";
    if (opcode == spv::OpTypeInt) return "a " + std::to_string(type->at(2)) + "-bit integer";
    if (opcode == spv::OpTypeFloat) return "a " + std::to_string(type->at(2)) + "-bit float";
    return "type %" + std::to_string(type_id);
  }

  Status CheckBuiltInType(uint32_t id, uint32_t type_id, BuiltInRule rule) const {
    const std::vector<uint32_t>* type = Definition(type_id);
    uint32_t components = 1, scalar_id = type_id;
    if (type && (type->at(0) & spv::OpCodeMask) == spv::OpTypeVector && type->size() >= 4) {
      scalar_id = type->at(2);
      components = type->at(3);
    }
    const std::vector<uint32_t>* scalar = Definition(scalar_id);
    bool int32 =
        scalar && (scalar->at(0) & spv::OpCodeMask) == spv::OpTypeInt && scalar->size() >= 3 && scalar->at(2) == 32;
    uint32_t want = rule.shape == BuiltInShape::kVec3 ? 3 : rule.shape == BuiltInShape::kVec4 ? 4 : 1;
    bool is_vector = type && (type->at(0) & spv::OpCodeMask) == spv::OpTypeVector;
    if (!int32 || components != want || (want == 1) == is_vector)
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "built-in %%%u (%s) is %s; Vulkan requires %s", id, rule.name,
                        Describe(type_id).c_str(), BuiltInShapeName(rule.shape));
    return Status();
  }

  // Size in bytes of type `id` as laid out in memory: explicit ArrayStride /
  // member Offset decorations where present (buffer and push-constant
  // blocks), natural sizes otherwise (workgroup memory). False for a type
  // with no size (runtime arrays outside a buffer, opaque types) or nesting
  // deeper than 32.
  bool SizeOf(uint32_t id, uint64_t* out, int depth) const {
    const std::vector<uint32_t>* type = Definition(id);
    if (!type || depth > 32) return false;
    const std::vector<uint32_t>& t = *type;
    constexpr uint64_t kHuge = uint64_t(1) << 40;
    switch (t[0] & spv::OpCodeMask) {
      case spv::OpTypeBool:  // no defined memory size; 4 bytes, what drivers use, for workgroup memory
        *out = 4;
        return true;
      case spv::OpTypeInt:
      case spv::OpTypeFloat:
        if (t.size() < 3 || t[2] % 8 != 0) return false;
        *out = t[2] / 8;
        return true;
      case spv::OpTypeVector:
      case spv::OpTypeMatrix: {
        uint64_t element = 0;
        if (t.size() < 4 || !SizeOf(t[2], &element, depth + 1)) return false;
        *out = element * t[3];
        return true;
      }
      case spv::OpTypeArray: {
        uint64_t element = 0;
        uint32_t length = 0, stride = 0;
        if (t.size() < 4 || !SizeOf(t[2], &element, depth + 1) || !ConstantValue(t[3], &length)) return false;
        if (Decoration(id, spv::DecorationArrayStride, &stride)) element = stride;
        *out = std::min<uint64_t>(element * length, kHuge);
        return true;
      }
      case spv::OpTypeStruct: {
        uint64_t end = 0, sum = 0;
        for (size_t m = 2; m < t.size(); ++m) {
          uint64_t member = 0;
          uint32_t offset = 0;
          if (!SizeOf(t[m], &member, depth + 1)) return false;
          sum = std::min(sum + member, kHuge);
          if (Decoration(id, spv::DecorationOffset, &offset, static_cast<int64_t>(m - 2)))
            end = std::max(end, offset + member);
          else
            end = std::max(end, sum);
        }
        *out = end;
        return true;
      }
      default:
        return false;
    }
  }

  std::vector<uint32_t> capabilities_;
  std::unordered_set<uint32_t> interface_;
  uint32_t local_size_mode_ = 0, local_size_[3] = {0, 0, 0};
  std::unordered_map<uint32_t, std::vector<std::pair<uint32_t, uint32_t>>> decorations_;
  std::map<std::pair<uint32_t, uint32_t>, std::vector<std::pair<uint32_t, uint32_t>>> member_decorations_;
  std::unordered_map<uint32_t, std::vector<uint32_t>> definitions_;
  std::vector<Variable> globals_;
  std::unordered_map<uint32_t, uint32_t> value_types_;  // pointer-typed values: id -> type
  std::vector<AccessChain> access_chains_;
  bool in_function_ = false;
};

}  // namespace

Status CheckKernelInterface(const std::vector<uint32_t>& words, uint32_t entry_id, const char* entry_point,
                            const meshvk_executable_create_info_t& info, KernelRules rules, KernelLayout* out_layout) {
  KernelModule module(words, entry_id);
  MESHVK_RETURN_IF_ERROR(module.CheckCapabilities());
  MESHVK_RETURN_IF_ERROR(module.CheckVariables());
  MESHVK_RETURN_IF_ERROR(module.CheckConstantIndices());
  if (rules == KernelRules::kMvkKernel) MESHVK_RETURN_IF_ERROR(module.CheckDenseLayout());
  KernelLayout layout;
  const char* source = "";
  MESHVK_RETURN_IF_ERROR(module.WorkgroupSize(layout.workgroup_size, &source));
  const uint32_t* declared = info.workgroup_size;
  const uint32_t* size = layout.workgroup_size;
  if (declared[0] && declared[1] && declared[2] &&
      (size[0] != declared[0] || size[1] != declared[1] || size[2] != declared[2]))
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "entry point '%s' has %s %ux%ux%u but workgroup_size says %ux%ux%u", entry_point, source, size[0],
                      size[1], size[2], declared[0], declared[1], declared[2]);
  if (size[0] == 0 || size[1] == 0 || size[2] == 0)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "entry point '%s' has workgroup size %ux%ux%u (0 invocations)",
                      entry_point, size[0], size[1], size[2]);
  uint64_t push = 0;
  MESHVK_RETURN_IF_ERROR(module.PushConstantBytes(&push));
  // Vulkan: the pipeline layout's range must cover the block the shader declares.
  if (push > info.push_constant_size)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "the push-constant block needs %llu bytes but push_constant_size is %u",
                      static_cast<unsigned long long>(push), info.push_constant_size);
  layout.push_constant_bytes = static_cast<uint32_t>(push);
  MESHVK_RETURN_IF_ERROR(module.WorkgroupBytes(&layout.workgroup_memory_bytes));
  if (out_layout) *out_layout = layout;
  return Status();
}

}  // namespace meshvk
