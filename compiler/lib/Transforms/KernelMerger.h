//===- KernelMerger.h - merging two launches into one kernel ----*- C++ -*-===//
//
// Internal to MeshVKTransforms: the launch merging that meshvk-fuse-kernels
// (elementwise epilogues and chains) and meshvk-fuse-row-chains (row
// reductions with the work that reads them) share. Each pass decides WHICH
// producer fuses into a consumer; this class does the merge, deduplicates the
// merged kernel (printed IR as key, like meshvk-outline-kernels) and erases
// kernels left without launches.
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_LIB_TRANSFORMS_KERNELMERGER_H
#define MESHVK_LIB_TRANSFORMS_KERNELMERGER_H

#include "meshvk/Transforms/Passes.h"

#include "llvm/ADT/SetVector.h"

#include <map>
#include <string>

namespace meshvk {

class KernelMerger {
public:
  explicit KernelMerger(mlir::ModuleOp module);

  mlir::func::FuncOp kernelOf(LaunchOp launch) {
    return symbols.lookup<mlir::func::FuncOp>(launch.getKernel());
  }

  /// Merges, in every plan of the module and in launch order, the producer
  /// `pick` returns for a consumer into it, until `pick` returns none; then
  /// erases the outlined kernels left without launches.
  void fuseAll(llvm::function_ref<LaunchOp(KernelMerger &, LaunchOp consumer)> pick);

  /// One kernel: the producer's body, then the consumer's reading its
  /// results; launched where the consumer was. Producer results used by
  /// others than the consumer are returned after the consumer's.
  LaunchOp merge(LaunchOp producer, LaunchOp consumer);

  /// The conditions both passes share: same process and block, neither a
  /// collective's kernel, no data movement between them, and every use of a
  /// producer result other than the consumer after the consumer (the merged
  /// launch is where the consumer was), and the merged kernel binds at most
  /// codegen::kMaxKernelBindings buffers.
  static bool mayMerge(LaunchOp producer, LaunchOp consumer);

private:
  mlir::StringAttr intern(mlir::func::FuncOp candidate, mlir::func::FuncOp near);

  mlir::ModuleOp module;
  mlir::SymbolTable symbols;
  std::map<std::string, mlir::StringAttr> kernels; // printed body -> name
  llvm::SetVector<mlir::func::FuncOp> outlined;
  int64_t nextKernel = 0;
};

} // namespace meshvk

#endif // MESHVK_LIB_TRANSFORMS_KERNELMERGER_H
