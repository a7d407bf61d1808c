//===- Emitter.h - the artifact emitter's state, shared by its steps -*- C++ -*-===//
//
// Internal to compiler/lib/Artifact: the emitter of one plan function (see
// meshvk/Artifact/ArtifactEmitter.h). ArtifactEmitter.cpp places the buffers
// and the signature and walks the plan; EmitCommands.cpp turns copies and
// launches into the artifact's commands.
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_LIB_ARTIFACT_EMITTER_H
#define MESHVK_LIB_ARTIFACT_EMITTER_H

#include "meshvk/Artifact/ArtifactEmitter.h"

#include <map>
#include <memory>
#include <optional>

#include "meshvk/Codegen/KernelCompiler.h"
#include "meshvk/Dialect/MeshVKDialect.h"
#include "meshvk/artifact/builder.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

namespace meshvk::emitter {

using namespace mlir;
namespace art = meshvk::artifact;

// Where a plan value lives: a byte range of one buffer of one process.
struct Place {
  uint32_t process = 0;
  uint32_t buffer = 0;
  uint64_t offset = 0;
  uint64_t bytes = 0;
};

inline std::optional<art::ElementType> elementTypeOf(Type type) {
  if (type.isF32())
    return art::ElementType::kF32;
  if (type.isF16())
    return art::ElementType::kF16;
  if (type.isF64())
    return art::ElementType::kF64;
  if (type.isSignlessInteger(32) || type.isSignedInteger(32))
    return art::ElementType::kI32;
  return std::nullopt;
}

inline uint64_t byteSize(RankedTensorType type) {
  return static_cast<uint64_t>(type.getNumElements()) *
         art::ElementSize(*elementTypeOf(type.getElementType()));
}

// Buffers and kernel bindings are whole 32-bit words (the runtime's rule, as
// for Vulkan fills): a shard of an odd number of f16 gets a padding half that
// no kernel, copy or host transfer touches (all of them use the value's bytes).
inline uint64_t wordBytes(uint64_t bytes) { return (bytes + 3) / 4 * 4; }

// A buffer or binding of an empty shard (3 rows over 4 processes: the last
// holds 0) is one word: Vulkan has no 0-byte buffer, and a binding range of
// 0 means "to the end" in the artifact.
inline uint64_t boundBytes(uint64_t bytes) { return std::max<uint64_t>(wordBytes(bytes), 4); }

inline std::vector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

// The process a plan op records on (its destination for a copy), checked
// against the plan's process count.
inline FailureOr<uint32_t> processOf(Operation *op, uint32_t processes) {
  int64_t p = isa<CopyOp>(op)       ? cast<CopyOp>(op).getDestProcess()
              : isa<LaunchOp>(op)   ? cast<LaunchOp>(op).getProcess()
              : isa<ConstantOp>(op) ? getProcess(op)
                                    : cast<EmptyOp>(op).getProcess();
  if (p < 0 || p >= processes)
    return op->emitOpError() << "runs on process " << p << " (expected a process in [0, "
                             << processes << "))";
  return static_cast<uint32_t>(p);
}

class Emitter {
public:
  Emitter(ModuleOp module, func::FuncOp plan, const codegen::CompiledKernels &kernels,
          const EmitOptions &options)
      : module_(module), plan_(plan), kernels_(kernels), options_(options) {}

  FailureOr<std::vector<uint8_t>> run();

private:
  LogicalResult readGrid();
  LogicalResult createBuffers();
  LogicalResult buildSignature();
  static void nameTensors(const std::vector<std::string> &names,
                          std::vector<art::TensorDesc> *tensors);
  // Only where the element type holds the declared one (i32 for i64/bool,
  // f32 for f64): the loader refuses any other pair.
  static void declareTypes(const std::vector<art::DeclaredType> &types,
                           std::vector<art::TensorDesc> *tensors);
  FailureOr<Place> placeOf(Value value);
  std::vector<art::CommandRef> crossProcessDeps(ValueRange operands, uint32_t process);
  LogicalResult emitCopy(CopyOp copy);
  LogicalResult emitRowCopies(CopyOp copy, const Place &src, const Place &dst, int64_t srcBase,
                              int64_t dstBase, int64_t run, int64_t k, uint64_t esize);
  LogicalResult emitLaunch(LaunchOp launch, const codegen::CompiledKernels &kernels);
  LogicalResult emitFill(LaunchOp launch, uint32_t process, uint32_t pattern);
  FailureOr<uint32_t> executableFor(LaunchOp launch, const codegen::CompiledKernels &kernels);
  void tagCollective(Operation *op);

  ModuleOp module_;
  func::FuncOp plan_;
  const codegen::CompiledKernels &kernels_;
  const EmitOptions &options_;
  std::vector<uint32_t> gridShape_;
  std::vector<uint32_t> peeredAxes_;
  uint32_t processes_ = 0;
  std::unique_ptr<art::ArtifactBuilder> builder_;
  std::vector<uint32_t> argumentBuffer_, resultBuffer_; // plan arg/result -> buffer of its process
  std::vector<uint32_t> argumentProcess_, resultProcess_;
  std::vector<std::optional<uint32_t>> transientBuffer_; // per process
  std::vector<std::vector<uint32_t>> constantBuffers_;   // per process, by constant index
  llvm::DenseMap<Value, art::CommandRef> producer_;      // the command that last wrote a value
  std::map<size_t, uint32_t> executableOfKernel_;        // compiled kernel index -> executable
  art::FunctionDesc function_;                 // added after its commands (the builder's order)
  std::map<int64_t, int32_t> collectiveIndex_; // meshvk.collective_id -> function_.collectives
};

} // namespace meshvk::emitter

#endif // MESHVK_LIB_ARTIFACT_EMITTER_H
