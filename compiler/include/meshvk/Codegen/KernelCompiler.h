// meshvk/Codegen/KernelCompiler.h — from `meshvk.kernel` functions to SPIR-V.
//
// The contract with the partitioning compiler (see
// compiler/lib/Codegen/README.md): a kernel is a `func.func` carrying the unit
// attribute `meshvk.kernel`, on ranked tensors with static shapes, inputs as
// arguments, outputs as results, whose body holds linalg / tensor / arith /
// math ops. Each kernel becomes one SPIR-V compute shader:
//   * entry point "main", GLSL450 compute, validated for Vulkan 1.1;
//   * descriptor set 0, one storage buffer per argument then per result
//     (binding i = argument i, binding nargs + j = result j), tightly packed
//     row-major arrays of the element type;
//   * dynamic dims (`?`) allowed: their sizes come in as push constants,
//     one u32 word per dynamic dim (CompiledKernel::pushConstants says which
//     dim of which binding each word holds); static shapes need none;
//   * correct for ANY workgroup count >= 1 (grid-stride loops); the recorded
//     workgroupCount is the count that gives one workgroup per tile, clamped to
//     the target's maxWorkgroupCount.
#ifndef MESHVK_CODEGEN_KERNEL_COMPILER_H_
#define MESHVK_CODEGEN_KERNEL_COMPILER_H_

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "meshvk/Codegen/TargetDescription.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace meshvk::codegen {

struct KernelBinding {
  uint32_t binding = 0;       // in descriptor set 0
  bool writes = false;        // a result (outputs are written, inputs only read)
  std::vector<int64_t> shape; // -1 = dynamic (size from a push constant)
  std::string elementType;    // "f32", "f16", "i32", ...
  uint64_t sizeBytes = 0;     // 0 when the shape is dynamic (known at dispatch)
};

// One 32-bit push-constant word: the runtime size of dim `dim` of the buffer
// at `binding`, as an unsigned integer at byte `offset`. Words are packed
// (offset 4k), binding order then dim order, one per dynamic dim. Sizes the
// kernel relates (an elementwise op's input and output rows) must agree.
struct PushConstantWord {
  uint32_t offset = 0;
  uint32_t binding = 0;
  uint32_t dim = 0;
};

struct CompiledKernel {
  std::vector<std::string> functions; // kernel funcs that compiled to this SPIR-V
  std::vector<uint32_t> spirv;        // serialized spirv.module
  std::string entryPoint = "main";
  std::array<uint32_t, 3> workgroupSize = {1, 1, 1};
  std::array<uint32_t, 3> workgroupCount = {1, 1, 1}; // default (one per tile)
  std::vector<KernelBinding> bindings;                // inputs, then outputs
  uint32_t pushConstantSize = 0;                      // bytes; 4 per dynamic dim, 0 if static
  std::vector<PushConstantWord> pushConstants;        // the layout of those bytes
};

struct CompiledKernels {
  std::vector<CompiledKernel> kernels;      // deduplicated by SPIR-V words
  std::map<std::string, size_t> byFunction; // kernel func name -> index
};

struct CompileOptions {
  std::string dumpDirectory; // when set: <dir>/<kernel>.spv and .spvasm
};

// Compiles every `meshvk.kernel` function of `module` (the module is not
// modified; a clone is lowered through the meshvk-codegen pipeline). The
// module's context must hold registerCodegenDialects' dialects and
// interfaces (it fails with one error otherwise; its registry is not changed). Errors are reported
// through the context's diagnostic handler at the offending op; returns failure then.
mlir::FailureOr<CompiledKernels> compileKernels(mlir::ModuleOp module,
                                                const TargetDescription &target,
                                                const CompileOptions &options = {});

// SPIR-V disassembly (SPIRV-Tools) of one kernel, for dumps and messages.
std::string disassembleSPIRV(const std::vector<uint32_t> &words);

// Runs the SPIRV-Tools validator (Vulkan 1.1 environment). Returns "" when
// valid, else the validator's message.
std::string validateSPIRV(const std::vector<uint32_t> &words);

} // namespace meshvk::codegen

#endif // MESHVK_CODEGEN_KERNEL_COMPILER_H_
