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
// The consumer waits for the producer on the device, through a view of the
// producer's semaphore (meshvk_semaphore_share), where the pair shares
// semaphores and no byte of that producer comes through the host; otherwise
// the host waits for the producer before submitting.
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
#include "meshvk/semaphore.h"
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

  // Views of the processes' semaphores (semaphores[p]: process p's timeline)
  // on every other VkDevice whose pair shares semaphores. A refused share
  // leaves that pair to host waits, with a note.
  void ShareSemaphores(const std::vector<meshvk_semaphore_t*>& semaphores);
  // The semaphore `consumer` waits on, on its own device, for `producer` of
  // another VkDevice: the view, or null when the host must wait (no shared
  // semaphores, or bytes of `producer` among the segment's `host_copies`,
  // which the host moves only after the producer finished).
  meshvk_semaphore_t* DeviceWaitFor(uint32_t producer, uint32_t consumer,
                                    const std::vector<HostCopy>& host_copies) const;

 private:
  meshvk_device_set_t* set_ = nullptr;
  // (src process, src buffer handle, dst process) -> imported view, +1 each.
  std::map<std::tuple<uint32_t, const meshvk_buffer_t*, uint32_t>, meshvk_buffer_t*> views_;
  // Pairs whose import failed once: later copies go to the host directly.
  std::map<std::tuple<uint32_t, const meshvk_buffer_t*, uint32_t>, bool> refused_;
  std::vector<meshvk_buffer_t*> landings_;  // +1 each
  // (producer process, consumer's VkDevice) -> view of the producer's semaphore, +1 each.
  std::map<std::pair<uint32_t, uint32_t>, meshvk_semaphore_t*> semaphore_views_;
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
