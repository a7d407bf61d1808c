// The files a run writes (--output=@FILE.npy), as one transaction: every
// output goes to a temporary next to its path first; only when all of them
// are written (and flushed) are they renamed into place. A failure, an early
// return or SIGINT/SIGTERM removes the temporaries, so a run leaves either all
// its outputs or none of them, never a half-written file.
//
// Files are created with mode 0666 minus the umask (like numpy.save). An
// output path that is a symbolic link is replaced by the new file, as `mv`
// does: the link's target is never written. A path that is a directory is
// refused before anything is written. (README.md, "Output files".)
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_OUTPUT_FILES_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_OUTPUT_FILES_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "tensor_io.h"

namespace meshvk_run {

class OutputFiles {
 public:
  OutputFiles() = default;
  OutputFiles(const OutputFiles&) = delete;
  OutputFiles& operator=(const OutputFiles&) = delete;
  ~OutputFiles();  // removes the temporaries of an uncommitted transaction

  // Checks that `path` can be an output (not a directory, its directory
  // exists) without creating anything: lets a run refuse a bad path before
  // it starts the device.
  static bool CheckPath(const std::string& path, std::string* error);

  // Writes `tensor` as .npy to a new temporary next to `path`.
  bool Stage(const std::string& path, const HostTensor& tensor, std::string* error);

  // Writes `size` bytes (a trace, a plan picture) the same way.
  bool StageBytes(const std::string& path, const void* data, size_t size, std::string* error);

  // Renames every staged temporary onto its path. Call once, after every
  // Stage succeeded.
  bool Commit(std::string* error);

 private:
  bool StageParts(const std::string& path, std::initializer_list<std::pair<const uint8_t*, size_t>> parts,
                  std::string* error);
  struct Staged {
    std::string path;
    std::string temporary;
    int slot;  // in the signal handler's table
  };
  std::vector<Staged> staged_;
};

// One .npy file through the same transaction (the test-data generators).
bool WriteNpy(const std::string& path, const HostTensor& tensor, std::string* error);

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_OUTPUT_FILES_H_
