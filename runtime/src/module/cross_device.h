// Copies between processes on different VkDevices, for the executor.
//
// The executor records every copy on the destination process (a pull). When
// the source lives on another VkDevice, what that copy reads from depends on
// the pair's path (meshvk_device_set_copy_path):
//  * external memory: an imported view of the source buffer on the
//    destination's VkDevice (the source was allocated exportable: only buffers
//    such a copy reads are);
//  * host staging, or an import the driver refused: a landing buffer on the
//    destination that the host fills (meshvk_buffer_copy_host_staged) after
//    the producer finished and before the consuming segment is submitted.
// The copy itself is then an ordinary same-device copy, with the same offsets.
#ifndef MESHVK_RUNTIME_MODULE_CROSS_DEVICE_H_
#define MESHVK_RUNTIME_MODULE_CROSS_DEVICE_H_

#include <array>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "meshvk/artifact/mvk_generated.h"
#include "meshvk/buffer.h"
#include "meshvk/device_set.h"
#include "status.h"

namespace meshvk::module {

// One host-staged transfer: bytes [offset, offset + size) of `src` into the
// same bytes of `landing`, before the consuming segment runs.
struct HostCopy {
  meshvk_buffer_t* src = nullptr;
  meshvk_buffer_t* landing = nullptr;
  uint64_t offset = 0, size = 0;
};

class CrossDeviceCopies {
 public:
  CrossDeviceCopies() = default;
  ~CrossDeviceCopies();
  CrossDeviceCopies(const CrossDeviceCopies&) = delete;
  CrossDeviceCopies& operator=(const CrossDeviceCopies&) = delete;

  // exportable[p][b]: buffer b of process p must be allocated exportable (a
  // copy on another VkDevice reads it through external memory; a reuse slot
  // is exportable when any of its buffers is).
  static std::vector<std::vector<bool>> ExportableBuffers(const mvk::Artifact* artifact,
                                                          const meshvk_device_set_t* set);

  void Init(meshvk_device_set_t* set, uint32_t functions, uint32_t processes);

  // The buffer copy `copy` (command `path` of function `function`, recorded by
  // its destination process) reads from, given the source buffer `src`. Adds
  // a HostCopy to `host_copies` when the bytes come through the host, and
  // counts the copy's bytes under its path.
  Status SourceFor(uint32_t function, const mvk::Copy* copy, meshvk_buffer_t* src, const std::string& path,
                   meshvk_buffer_t** out, std::vector<HostCopy>* host_copies);

  // Bytes that arrive at `process` in one invoke of `function`, by path.
  const std::array<uint64_t, MESHVK_COPY_PATH_COUNT>& BytesIn(uint32_t function, uint32_t process) const {
    return bytes_[function][process];
  }
  // One-line explanations of decisions worth knowing (a refused import).
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  meshvk_device_set_t* set_ = nullptr;
  // (src process, src buffer handle, dst process) -> imported view, +1 each.
  std::map<std::tuple<uint32_t, const meshvk_buffer_t*, uint32_t>, meshvk_buffer_t*> views_;
  // Pairs whose import failed once: later copies go to the host directly.
  std::map<std::tuple<uint32_t, const meshvk_buffer_t*, uint32_t>, bool> refused_;
  std::vector<meshvk_buffer_t*> landings_;  // +1 each
  std::vector<std::vector<std::array<uint64_t, MESHVK_COPY_PATH_COUNT>>> bytes_;
  std::vector<std::string> notes_;
};

// Bytes of the source buffer a copy reads: [*lo, *hi) (what host staging and
// a transport between ranks move).
void SourceSpan(const mvk::Copy* copy, uint64_t* lo, uint64_t* hi);
// The same for the bytes a copy writes in its destination buffer.
void DestinationSpan(const mvk::Copy* copy, uint64_t* lo, uint64_t* hi);

// Runs one host-staged transfer of a segment (after its producers finished).
Status RunHostCopy(const HostCopy& copy, uint64_t timeout_ns);

}  // namespace meshvk::module

#endif  // MESHVK_RUNTIME_MODULE_CROSS_DEVICE_H_
