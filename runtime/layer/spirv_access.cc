#include "spirv_access.h"

namespace meshvk_layer {
namespace {

// SPIR-V opcodes and enums used here (SPIR-V 1.6 specification, section 3).
enum : uint32_t {
  kOpFunctionCall = 57,
  kOpVariable = 59,
  kOpLoad = 61,
  kOpStore = 62,
  kOpCopyMemory = 63,
  kOpCopyMemorySized = 64,
  kOpAccessChain = 65,
  kOpInBoundsAccessChain = 66,
  kOpPtrAccessChain = 67,
  kOpInBoundsPtrAccessChain = 70,
  kOpDecorate = 71,
  kOpCopyObject = 83,
  kOpBitcast = 124,
  kOpAtomicLoad = 227,
  kOpAtomicStore = 228,
  kOpAtomicExchange = 229,
  kOpAtomicXor = 242,
  kOpAtomicFlagTestAndSet = 318,
  kOpAtomicFlagClear = 319,
  kOpAtomicFMinEXT = 5614,
  kOpAtomicFMaxEXT = 5615,
  kOpAtomicFAddEXT = 6035,
  kDecorationBinding = 33,
  kDecorationDescriptorSet = 34,
  kStorageUniform = 2,
  kStorageStorageBuffer = 12,
};

struct Var {
  uint32_t set = 0, binding = 0;
  bool isBuffer = false, read = false, write = false;
};

}  // namespace

ShaderAccess analyzeSpirv(const uint32_t* words, size_t count) {
  ShaderAccess out;
  if (!words || count < 5 || words[0] != 0x07230203u) return out;
  std::unordered_map<uint32_t, Var> vars;         // variable id -> binding and use
  std::unordered_map<uint32_t, uint32_t> rootOf;  // pointer id -> variable id
  auto root = [&](uint32_t id) -> Var* {
    auto it = rootOf.find(id);
    if (it == rootOf.end()) return nullptr;
    auto v = vars.find(it->second);
    return v == vars.end() ? nullptr : &v->second;
  };
  for (size_t i = 5; i < count;) {
    const uint32_t op = words[i] & 0xFFFFu, wc = words[i] >> 16;
    if (wc == 0 || i + wc > count) break;  // malformed: the driver rejects it anyway
    const uint32_t* w = words + i;
    switch (op) {
      case kOpDecorate:
        if (wc >= 4 && w[2] == kDecorationBinding) vars[w[1]].binding = w[3];
        if (wc >= 4 && w[2] == kDecorationDescriptorSet) vars[w[1]].set = w[3];
        break;
      case kOpVariable:
        if (wc >= 4 && (w[3] == kStorageUniform || w[3] == kStorageStorageBuffer)) {
          vars[w[2]].isBuffer = true;
          rootOf[w[2]] = w[2];
        }
        break;
      case kOpAccessChain:
      case kOpInBoundsAccessChain:
      case kOpPtrAccessChain:
      case kOpInBoundsPtrAccessChain:
      case kOpCopyObject:
      case kOpBitcast:
        if (wc >= 4) {
          auto it = rootOf.find(w[3]);
          if (it != rootOf.end()) rootOf[w[2]] = it->second;
        }
        break;
      case kOpLoad:
      case kOpAtomicLoad:
        if (wc >= 4)
          if (Var* v = root(w[3])) v->read = true;
        break;
      case kOpStore:
      case kOpAtomicStore:
        if (wc >= 2)
          if (Var* v = root(w[1])) v->write = true;
        break;
      case kOpCopyMemory:
      case kOpCopyMemorySized:
        if (wc >= 3) {
          if (Var* v = root(w[1])) v->write = true;
          if (Var* v = root(w[2])) v->read = true;
        }
        break;
      case kOpFunctionCall:
        for (uint32_t k = 4; k < wc; ++k)
          if (Var* v = root(w[k])) v->read = v->write = true;
        break;
      default:
        if ((op >= kOpAtomicExchange && op <= kOpAtomicXor) || op == kOpAtomicFlagTestAndSet ||
            op == kOpAtomicFMinEXT || op == kOpAtomicFMaxEXT || op == kOpAtomicFAddEXT) {
          if (wc >= 4)
            if (Var* v = root(w[3])) v->read = v->write = true;
        } else if (op == kOpAtomicFlagClear && wc >= 2) {
          if (Var* v = root(w[1])) v->write = true;
        }
        break;
    }
    i += wc;
  }
  for (auto& [id, v] : vars)
    if (v.isBuffer && (v.read || v.write)) out.push_back({v.set, v.binding, v.read, v.write});
  return out;
}

}  // namespace meshvk_layer
