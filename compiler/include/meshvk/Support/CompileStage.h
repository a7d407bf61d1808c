//===- CompileStage.h - What the compiler is doing, for a crash report ----===//
//
// A compilation run in a child process (meshvk/Artifact/CompileProgram.h,
// ProgramOptions::isolateCrashes) records here what it is doing as it goes:
// the stage ("parse", "ONNX shape inference", "pass 'shard-partition'"), the
// last location known, and the first error diagnosed. The record lives in
// memory shared with the parent, so when upstream code (MLIR's parser, a pass,
// libonnx) crashes the child, the parent still names the stage and the place
// in its one error line.
//
// Compiling in-process no record is attached and every call is a no-op.
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_SUPPORT_COMPILESTAGE_H_
#define MESHVK_SUPPORT_COMPILESTAGE_H_

#include <memory>

#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/ADT/StringRef.h"

namespace meshvk {

// Fixed-size, no pointers: it is written by the child and read by the parent
// from a MAP_SHARED page after the child died, possibly mid-write (each field
// stays NUL-terminated; a torn field reads as a shorter string).
struct CompileStageRecord {
  char stage[160];
  char where[512];
  char firstError[2048];
};

// Attaches the record the calls below write (nullptr detaches).
void attachCompileStageRecord(CompileStageRecord *record);
bool compileStageRecordAttached();

// The stage now, and where in the input it is when known ("" keeps none).
void setCompileStage(llvm::StringRef stage, llvm::StringRef where = "");
// The first error diagnosed so far (later calls are ignored): a crash after an
// error (MLIR's parser recovering from a syntax error) reports that error.
void recordCompileError(llvm::StringRef error);

// A pass instrumentation that sets the stage to "pass 'ARG'" with the
// location of the operation it runs on, before each pass.
std::unique_ptr<mlir::PassInstrumentation> createCompileStageInstrumentation();

} // namespace meshvk

#endif // MESHVK_SUPPORT_COMPILESTAGE_H_
