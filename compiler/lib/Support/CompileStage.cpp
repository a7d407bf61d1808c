//===- CompileStage.cpp - What the compiler is doing, for a crash report --===//
#include "meshvk/Support/CompileStage.h"

#include <algorithm>
#include <cstring>

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "mlir/Pass/Pass.h"

namespace meshvk {
namespace {

// One per process: the compiling child has one thread doing the compilation
// (the MLIR context has threading disabled), and the parent attaches none.
CompileStageRecord *attached = nullptr;

template <size_t N>
void copyField(char (&field)[N], llvm::StringRef text) {
  size_t n = std::min(text.size(), N - 1);
  // Terminate first: a crash mid-copy leaves a shorter string, never an
  // unterminated one.
  field[n] = '\0';
  std::memcpy(field, text.data(), n);
}

// "file:line:col" of the innermost file location, "" when there is none.
std::string fileLocation(mlir::Location loc) {
  std::string text;
  loc->walk([&](mlir::Location inner) {
    if (auto file = llvm::dyn_cast<mlir::FileLineColLoc>(inner)) {
      text = (file.getFilename().str() + ":" + std::to_string(file.getLine()) + ":" +
              std::to_string(file.getColumn()));
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  return text;
}

class RecordPassStage : public mlir::PassInstrumentation {
public:
  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override {
    llvm::StringRef name = pass->getArgument().empty() ? pass->getName() : pass->getArgument();
    setCompileStage(("pass '" + name + "' on " + op->getName().getStringRef()).str(),
                    fileLocation(op->getLoc()));
  }
};

} // namespace

void attachCompileStageRecord(CompileStageRecord *record) { attached = record; }
bool compileStageRecordAttached() { return attached != nullptr; }

void setCompileStage(llvm::StringRef stage, llvm::StringRef where) {
  if (!attached)
    return;
  copyField(attached->stage, stage);
  copyField(attached->where, where);
}

void recordCompileError(llvm::StringRef error) {
  if (attached && attached->firstError[0] == '\0')
    copyField(attached->firstError, error);
}

std::unique_ptr<mlir::PassInstrumentation> createCompileStageInstrumentation() {
  return std::make_unique<RecordPassStage>();
}

} // namespace meshvk
