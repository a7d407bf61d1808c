// .npz archives (numpy.savez / numpy.savez_compressed) for mesh-vk-run's
// --input/--expected-output: a zip file whose members are .npy files. Only
// what numpy writes is read: stored members (no zlib needed) and deflated ones
// (zlib, when the build found it), zip64 sizes, one disk. Everything is
// untrusted: sizes, offsets and names are checked against the file, and
// inflating stops at the declared size.
// Opening an archive reads its central directory and each member's .npy
// header only; the data is read later (tensor_source.h), and only the parts
// a rank needs: a stored member at those offsets, a deflated one as a stream.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_NPZ_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_NPZ_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "npy_header.h"
#include "tensor_source.h"

namespace meshvk_run {

struct NpzEntry {
  std::string name;     // the array's name: the member name without ".npy"
  NpyHeader header;     // its shape and type (checked against the member's size)
  TensorSource source;  // where its data is (kFile for stored, kDeflated)
};

// Reads the directory of `path` and every member's header, in archive order.
// On failure returns false and a one-line *error naming the file, the member
// and what was wrong.
bool OpenNpz(const std::string& path, std::vector<NpzEntry>* out, std::string* error);

// Streams a member's uncompressed bytes (its .npy header first) in order to
// `sink(position, bytes, size)`. With `limit` below the member's size it stops
// after `limit` bytes; otherwise it checks the size and the CRC at the end.
bool StreamNpzMember(const TensorSource& member, uint64_t limit,
                     const std::function<void(uint64_t, const uint8_t*, size_t)>& sink, std::string* error);

// True when this build can read deflated members (numpy.savez_compressed).
bool NpzHasDeflate();

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_NPZ_H_
