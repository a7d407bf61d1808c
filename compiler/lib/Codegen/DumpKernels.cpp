// meshvk-dump-kernels (declared in meshvk/Codegen/Passes.td) and the file
// writing it shares with compileKernels' dump option.
#include <cstdio>
#include <fstream>
#include <system_error>

#include "KernelLowering.h"
#include "meshvk/Codegen/KernelCompiler.h"
#include "meshvk/Codegen/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Target/SPIRV/Serialization.h"

namespace meshvk::codegen {
#define GEN_PASS_DEF_DUMPKERNELS
#include "meshvk/Codegen/Passes.h.inc"

using namespace mlir;

namespace {

// "__spv__<func>_kernel" -> "<func>"
std::string kernelNameOf(spirv::ModuleOp m) {
  std::string name = m.getName() ? m.getName()->str() : "kernel";
  llvm::StringRef s(name);
  s.consume_front("__spv__");
  s.consume_back("_kernel");
  s.consume_back(kLoweredSuffix); // see wrapKernel: the tensor function is still referenced
  return s.str();
}

LogicalResult writeFileAtomically(const std::string &path, const void *data, size_t size) {
  std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      return failure();
    out.write(static_cast<const char *>(data), static_cast<std::streamsize>(size));
    if (!out)
      return failure();
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    return failure();
  return success();
}

struct DumpKernelsPass : impl::DumpKernelsBase<DumpKernelsPass> {
  using DumpKernelsBase::DumpKernelsBase;

  void runOnOperation() override {
    if (directory.empty()) {
      getOperation().emitError("meshvk-dump-kernels needs dir=<directory>");
      return signalPassFailure();
    }
    WalkResult r = getOperation().walk([&](spirv::ModuleOp m) {
      SmallVector<uint32_t> words;
      if (failed(spirv::serialize(m, words)))
        return WalkResult::interrupt();
      std::vector<uint32_t> w(words.begin(), words.end());
      if (failed(dumpKernel(m, directory, kernelNameOf(m), w)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

LogicalResult dumpKernel(Operation *at, const std::string &dir, const std::string &name,
                         const std::vector<uint32_t> &words) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return at->emitError() << "cannot create dump directory '" << dir << "': " << ec.message();
  std::string base = dir + "/" + name;
  std::string text = disassembleSPIRV(words);
  if (failed(writeFileAtomically(base + ".spv", words.data(), words.size() * 4)) ||
      failed(writeFileAtomically(base + ".spvasm", text.data(), text.size())))
    return at->emitError() << "cannot write '" << base << ".spv/.spvasm'";
  return success();
}

} // namespace meshvk::codegen
