// Output files as one transaction (see output_files.h).
#include "output_files.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "npy_header.h"

namespace meshvk_run {
namespace {

// Temporaries that exist right now, for the signal handler: a fixed table of
// heap strings published atomically, so the handler only loads pointers and
// calls unlink() (both async-signal-safe).
constexpr int kMaxTemporaries = 1024;
std::atomic<char*> g_temporaries[kMaxTemporaries];
struct sigaction g_previous[2];
constexpr int kSignals[2] = {SIGINT, SIGTERM};

void RemoveTemporariesAndReraise(int sig) {
  for (auto& slot : g_temporaries)
    if (char* path = slot.load()) unlink(path);
  for (int i = 0; i < 2; ++i)
    if (kSignals[i] == sig) sigaction(sig, &g_previous[i], nullptr);
  raise(sig);  // the previous disposition (default: terminate) decides
}

void InstallHandlersOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action{};
    action.sa_handler = RemoveTemporariesAndReraise;
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < 2; ++i) sigaction(kSignals[i], &action, &g_previous[i]);
  });
}

int Publish(const std::string& path) {
  for (int i = 0; i < kMaxTemporaries; ++i) {
    char* expected = nullptr;
    char* copy = strdup(path.c_str());
    if (g_temporaries[i].compare_exchange_strong(expected, copy)) return i;
    std::free(copy);
  }
  return -1;
}

void Unpublish(int slot) {
  if (slot >= 0) std::free(g_temporaries[slot].exchange(nullptr));
}

// 0666 minus the process umask. Linux shows the umask in /proc/self/status
// (read-only, thread-safe); elsewhere umask() can only be read by setting it.
mode_t CreationMode() {
  mode_t mask = 0;
  bool found = false;
  if (FILE* f = std::fopen("/proc/self/status", "r")) {
    char line[256];
    unsigned value = 0;
    while (!found && std::fgets(line, sizeof(line), f)) found = std::sscanf(line, "Umask: %o", &value) == 1;
    std::fclose(f);
    mask = static_cast<mode_t>(value);
  }
  if (!found) {
    mask = umask(0);
    umask(mask);
  }
  return static_cast<mode_t>(0666 & ~mask);
}

bool WriteAll(int fd, const uint8_t* data, size_t size) {
  while (size > 0) {
    ssize_t n = write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

std::string Directory(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

OutputFiles::~OutputFiles() {
  for (const Staged& s : staged_) {
    unlink(s.temporary.c_str());
    Unpublish(s.slot);
  }
}

bool OutputFiles::CheckPath(const std::string& path, std::string* error) {
  struct stat st{};
  if (path.empty() || path.back() == '/') {
    *error = "'" + path + "' is not a file name";
    return false;
  }
  if (lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    *error = path + ": is a directory";
    return false;
  }
  std::string dir = Directory(path);
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    *error = path + ": cannot create a temporary file next to it: directory " + dir + ": " +
             std::strerror(errno ? errno : ENOTDIR);
    return false;
  }
  return true;
}

bool OutputFiles::Stage(const std::string& path, const HostTensor& tensor, std::string* error) {
  // An ONNX int64, bool or double result, or an f32 one held as f16, as the
  // model declares it ('<i8', '|b1', '<f8', '<f4').
  if (tensor.stored != StoredAs::kType) {
    std::vector<uint8_t> header = MakeNpyHeader(tensor.shape, StoredDescr(tensor.stored));
    std::vector<uint8_t> data = StoredBytesOf(tensor);
    return StageParts(path, {{header.data(), header.size()}, {data.data(), data.size()}}, error);
  }
  std::vector<uint8_t> header = MakeNpyHeader(tensor.shape, tensor.type);
  return StageParts(path, {{header.data(), header.size()}, {tensor.data.data(), tensor.data.size()}}, error);
}

bool OutputFiles::StageBytes(const std::string& path, const void* data, size_t size, std::string* error) {
  return StageParts(path, {{static_cast<const uint8_t*>(data), size}}, error);
}

bool OutputFiles::StageParts(const std::string& path, std::initializer_list<std::pair<const uint8_t*, size_t>> parts,
                             std::string* error) {
  if (!CheckPath(path, error)) return false;
  InstallHandlersOnce();
  std::string name = path + ".tmp.XXXXXX";
  // Blocked signals while the name is created and published: a SIGINT in
  // between would otherwise leave a temporary the handler does not know.
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  int fd = mkstemp(name.data());
  int saved = errno;
  int slot = fd >= 0 ? Publish(name) : -1;
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (fd < 0) {
    *error = path + ": cannot create a temporary file next to it: " + std::strerror(saved);
    return false;
  }
  staged_.push_back({path, name, slot});
  if (slot < 0) {
    close(fd);
    *error = path + ": more than " + std::to_string(kMaxTemporaries) + " output files";
    return false;
  }
  bool ok = fchmod(fd, CreationMode()) == 0;
  for (const auto& [data, size] : parts) ok = ok && WriteAll(fd, data, size);
  ok = ok && fsync(fd) == 0;
  saved = errno;
  if (close(fd) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (!ok) *error = path + ": write failed: " + std::strerror(saved ? saved : EIO);
  return ok;
}

bool OutputFiles::Commit(std::string* error) {
  for (size_t i = 0; i < staged_.size(); ++i) {
    if (std::rename(staged_[i].temporary.c_str(), staged_[i].path.c_str()) != 0) {
      *error = staged_[i].path + ": cannot replace it: " + std::strerror(errno);
      return false;  // the destructor removes this and the later temporaries
    }
    Unpublish(staged_[i].slot);
    staged_[i].slot = -1;
    staged_[i].temporary.clear();
  }
  staged_.clear();
  return true;
}

bool WriteNpy(const std::string& path, const HostTensor& tensor, std::string* error) {
  OutputFiles files;
  return files.Stage(path, tensor, error) && files.Commit(error);
}

}  // namespace meshvk_run
