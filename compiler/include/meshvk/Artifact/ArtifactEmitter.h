// meshvk/Artifact/ArtifactEmitter.h — a meshvk plan module -> a .mvk artifact.
//
// Input: a module after `meshvk-compile-plan` (compiler/README.md "The plan"):
// one public `func.func` marked `meshvk.plan` plus its `meshvk.kernel`
// functions. Output: the FlatBuffers image written with meshvk::artifact's
// builder (schema runtime/artifact/mvk.fbs):
//   * per process: one ArgumentShard buffer per plan argument it owns, one
//     ResultShard buffer per plan result, and ONE Transient buffer (the
//     process's arena, `transient_bytes` of `meshvk.memory`) that the plan's
//     byte offsets index into: the plan decided reuse, the emitter only obeys;
//   * every kernel, compiled before by the codegen stage (codegen's
//     compileKernels, which the caller runs: the emitter only packs), stored
//     once (deduplicated by SPIR-V words); a launch becomes a dispatch;
//   * every meshvk.copy becomes a copy recorded in its destination's stream
//     (contiguous when the box is, else 32-bit-word strided regions);
//   * a command depends on the commands of OTHER processes that produced its
//     operands (the runtime splits phases there); order within a process is the
//     plan order, hazards there are the runtime's job;
//   * the function signature (global shape, element type, split axes, where
//     each process keeps its shard) comes from `meshvk.abi`.
// Errors are emitted at the offending op (emitError) and the result is
// failure; no partial artifact is returned.
#ifndef MESHVK_ARTIFACT_ARTIFACTEMITTER_H_
#define MESHVK_ARTIFACT_ARTIFACTEMITTER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "meshvk/Codegen/KernelCompiler.h"
#include "meshvk/Codegen/TargetDescription.h"
#include "meshvk/artifact/builder.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace meshvk {

struct EmitOptions {
  // Highest SPIR-V version (major * 100 + minor, e.g. 103 = 1.3) the target
  // accepts; a kernel whose module header says more is an error.
  uint32_t maxSpirvVersion = 103;
  std::string producer = "mesh-vk-compile 0.1";
  // The source model's names for the plan function's arguments and results
  // (an ONNX model's input and output names), stored in the signature; empty:
  // unnamed. A list whose size differs from the signature's is not used.
  std::vector<std::string> argumentNames, resultNames;
  // The source model's dtypes where the plan holds a tensor in another
  // element type (an ONNX int64/bool tensor as i32, a double as f32), stored
  // as each TensorSignature's `declared_type`; empty: all kSame. A list whose
  // size differs from the signature's is not used.
  std::vector<artifact::DeclaredType> argumentDeclaredTypes, resultDeclaredTypes;
};

// `kernels`: the plan module's meshvk.kernel functions compiled
// (codegen::compileKernels on the same module).
mlir::FailureOr<std::vector<uint8_t>> emitArtifact(mlir::ModuleOp planModule,
                                                   const codegen::CompiledKernels &kernels,
                                                   const EmitOptions &options);

} // namespace meshvk

#endif // MESHVK_ARTIFACT_ARTIFACTEMITTER_H_
