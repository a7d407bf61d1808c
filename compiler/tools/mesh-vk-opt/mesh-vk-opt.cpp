//===- mesh-vk-opt.cpp - mlir-opt with meshvk's dialect and passes --------===//
//
// Every upstream dialect and pass (so `sharding-propagation`,
// `shard-partition`, `canonicalize` and the SPIR-V lowering are at hand), plus
// meshvk's dialect, passes (partitioning, planning, kernel codegen) and named
// pipelines.
//
//===----------------------------------------------------------------------===//
#include "meshvk/Codegen/Passes.h"
#include "meshvk/Dialect/MeshVKDialect.h"
#include "meshvk/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  meshvk::registerMeshVKPasses();
  meshvk::registerMeshVKPipelines();
  meshvk::registerCodegenPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<meshvk::MeshVKDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "meshvk optimizer driver\n", registry));
}
