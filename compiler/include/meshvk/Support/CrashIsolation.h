//===- CrashIsolation.h - Work that may crash, run in a child process -----===//
//
// Upstream code meshvk calls on untrusted input (MLIR's parser and passes,
// libonnx's checker, version converter and shape inference, protobuf) can
// crash on input it should refuse. Work run through runInChildProcess runs in
// a fork()ed child: a crash there ends the child, and the caller gets one
// error line naming the stage, the input and the last location known
// (meshvk/Support/CompileStage.h), as for any other refused input. The
// caller's process (a Python interpreter, an app) lives on.
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_SUPPORT_CRASHISOLATION_H_
#define MESHVK_SUPPORT_CRASHISOLATION_H_

#include <string>

#include "llvm/ADT/STLFunctionalExtras.h"

namespace meshvk {

// Returns "" or the one-line error; fills *payload with the bytes the result
// is sent back as.
using IsolatedWork = llvm::function_ref<std::string(std::string *payload)>;

// Runs `work` in a child process and returns its error line, with *payload as
// the child filled it. A child that dies (a signal; exit() from upstream code,
// as LLVM's report_fatal_error does) returns "NAME: error: the compiler
// crashed with SIGSEGV in stage S ..." (led by the first error diagnosed
// before the crash, when there was one); `inputName` is NAME. Runs `work` in
// this process when a child cannot be made (fork fails), when already inside
// such a child, or when MESHVK_COMPILE_IN_PROCESS=1 (to debug a crash with
// its stack).
std::string runInChildProcess(const std::string &inputName, IsolatedWork work,
                              std::string *payload);

} // namespace meshvk

#endif // MESHVK_SUPPORT_CRASHISOLATION_H_
