//===- CrashIsolation.cpp - Work that may crash, run in a child process ---===//
//
// Why a child process and not llvm::CrashRecoveryContext: recovering in-process
// from a SIGSEGV leaves whatever the crashing code was doing half done (an
// MLIRContext's uniquer mid-insert, a locked mutex, protobuf's arena, leaked
// memory), and the process goes on using it; the crashes this guards against
// are exactly in code whose state meshvk cannot know. A fork()ed child takes
// the whole state with it when it dies. The cost is one fork of the caller
// (copy-on-write: about a millisecond for a tool, a few for a large Python
// process) and the result sent back through a pipe.
//
// The child leaves with _exit, so it runs no atexit handlers and flushes none
// of the parent's buffered output (flushed before the fork). Its stderr
// (MLIR's --mlir-print-ir-* dumps, a crash's stack dump) goes to a memfd the
// parent forwards when the child ended normally, and reads the reason from
// when it did not.
//
//===----------------------------------------------------------------------===//
#include "meshvk/Support/CrashIsolation.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "meshvk/Support/CompileStage.h"

namespace meshvk {
namespace {

bool inChild = false; // set in the child: nested isolated work runs in-process

// --- file descriptors -------------------------------------------------------

bool writeAll(int fd, const std::string &bytes) {
  size_t at = 0;
  while (at < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + at, bytes.size() - at);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    at += static_cast<size_t>(n);
  }
  return true;
}

std::string readAll(int fd) {
  std::string bytes;
  char chunk[65536];
  for (;;) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return bytes;
    bytes.append(chunk, static_cast<size_t>(n));
  }
}

std::string readFrom(int fd, off_t offset) {
  if (::lseek(fd, offset, SEEK_SET) < 0)
    return "";
  return readAll(fd);
}

class Fd {
public:
  explicit Fd(int fd = -1) : fd(fd) {}
  Fd(const Fd &) = delete;
  Fd &operator=(const Fd &) = delete;
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0)
      ::close(fd);
    fd = -1;
  }
  int get() const { return fd; }

private:
  int fd;
};

// --- what the parent says when the child did not finish ---------------------

// "LLVM ERROR: ..." (report_fatal_error) or the last "N.\tMLIR Parser: ..."
// frame of LLVM's pretty stack trace, from what the child wrote to stderr.
std::string reasonFromStderr(const std::string &text) {
  std::string fatal, frame;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos)
      end = text.size();
    std::string line = text.substr(at, end - at);
    at = end + 1;
    if (line.rfind("LLVM ERROR: ", 0) == 0 && fatal.empty())
      fatal = line.substr(12);
    size_t tab = line.find(".\t");
    if (tab != std::string::npos && tab < 4 && line.find("Parser: ") != std::string::npos)
      frame = line.substr(tab + 2);
  }
  if (!fatal.empty())
    return "LLVM ERROR: " + fatal;
  return frame;
}

std::string howItEnded(int status) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    const char *name = sigabbrev_np(sig);
    std::string text = "crashed with SIG" + std::string(name ? name : std::to_string(sig).c_str());
    if (sig == SIGKILL)
      text += " (killed: out of memory?)";
    return text;
  }
  if (WIFEXITED(status))
    return "exited with status " + std::to_string(WEXITSTATUS(status)) + " from inside";
  return "stopped";
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
    s.pop_back();
  return s;
}

std::string crashLine(const std::string &inputName, const CompileStageRecord &record, int status,
                      const std::string &childStderr) {
  std::string stage = record.stage[0] ? record.stage : "starting";
  std::string where = record.where;
  std::string reason = reasonFromStderr(childStderr);
  std::string what = "the compiler " + howItEnded(status) + " in stage " + stage;
  if (!reason.empty())
    what += " [" + trimmed(reason) + "]";
  what += "; it ran in a child process, so nothing was compiled and this process is unharmed "
          "(please report the input; MESHVK_COMPILE_IN_PROCESS=1 reproduces the crash in-process)";
  // An error diagnosed before the crash is nearly always its cause (MLIR's
  // parser crashing while recovering from a syntax error): lead with it.
  if (record.firstError[0])
    return std::string(record.firstError) + "; then " + what;
  std::string place = where.empty() || where.find(':') == std::string::npos ? inputName : where;
  return place + ": error: " + what;
}

bool isolationDisabled() {
  const char *value = std::getenv("MESHVK_COMPILE_IN_PROCESS");
  return value && std::strcmp(value, "1") == 0;
}

// The child's message: the error line's length, the line, the payload.
std::string message(const std::string &error, const std::string &payload) {
  uint64_t n = error.size();
  return std::string(reinterpret_cast<const char *>(&n), sizeof n) + error + payload;
}

bool parseMessage(const std::string &bytes, std::string *error, std::string *payload) {
  uint64_t n = 0;
  if (bytes.size() < sizeof n)
    return false;
  std::memcpy(&n, bytes.data(), sizeof n);
  if (n > bytes.size() - sizeof n)
    return false;
  *error = bytes.substr(sizeof n, n);
  *payload = bytes.substr(sizeof n + n);
  return true;
}

[[noreturn]] void runChild(IsolatedWork work, CompileStageRecord *record, int resultFd,
                           int stderrFd) {
  inChild = true;
  attachCompileStageRecord(record);
  ::dup2(stderrFd, STDERR_FILENO);
  std::string payload;
  std::string error = work(&payload);
  ::_exit(writeAll(resultFd, message(error, payload)) ? 0 : 3);
}

} // namespace

std::string runInChildProcess(const std::string &inputName, IsolatedWork work,
                              std::string *payload) {
  payload->clear();
  if (inChild || isolationDisabled())
    return work(payload);
  void *shared = ::mmap(nullptr, sizeof(CompileStageRecord), PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  int pipeFds[2];
  Fd childStderr(::memfd_create("meshvk-compile-stderr", MFD_CLOEXEC));
  if (shared == MAP_FAILED || childStderr.get() < 0 || ::pipe2(pipeFds, O_CLOEXEC) != 0) {
    if (shared != MAP_FAILED)
      ::munmap(shared, sizeof(CompileStageRecord));
    return work(payload); // no isolation to be had: run it here, as without
  }
  auto *record = new (shared) CompileStageRecord();
  Fd readEnd(pipeFds[0]), writeEnd(pipeFds[1]);
  // Whatever the caller had buffered is written before the child exists, so
  // it can appear neither twice nor out of order.
  std::fflush(nullptr);
  pid_t child = ::fork();
  if (child == 0)
    runChild(work, record, writeEnd.get(), childStderr.get());
  if (child < 0) {
    ::munmap(shared, sizeof(CompileStageRecord));
    return work(payload);
  }
  writeEnd.reset();
  std::string bytes = readAll(readEnd.get()); // until the child exits
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  std::string childOutput = readFrom(childStderr.get(), 0);
  std::string error;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && parseMessage(bytes, &error, payload)) {
    writeAll(STDERR_FILENO, childOutput);
  } else {
    payload->clear();
    error = crashLine(inputName, *record, status, childOutput);
  }
  ::munmap(shared, sizeof(CompileStageRecord));
  return error;
}

} // namespace meshvk
