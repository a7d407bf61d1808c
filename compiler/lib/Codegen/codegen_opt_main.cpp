// meshvk-codegen-opt: mlir-opt with only the kernel codegen passes (a private
// driver for tests/compiler/codegen; mesh-vk-opt carries the same passes).
#include "meshvk/Codegen/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char** argv) {
  mlir::registerTransformsPasses();
  meshvk::registerCodegenPasses();
  mlir::DialectRegistry registry;
  meshvk::registerCodegenDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "meshvk kernel codegen driver\n", registry));
}
