// .npz archives (numpy.savez / numpy.savez_compressed) for mesh-vk-run's
// --input/--expected_output: a zip file whose members are .npy files. Only
// what numpy writes is read: stored members (no zlib needed) and deflated ones
// (zlib, when the build found it), zip64 sizes, one disk. Everything is
// untrusted: sizes, offsets and names are checked against the file, the CRC
// of every member is verified, and inflating stops at the declared size.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_NPZ_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_NPZ_H_

#include <cstdint>
#include <string>
#include <vector>

namespace meshvk_run {

struct NpzMember {
  std::string name;            // the array's name: the member name without ".npy"
  std::vector<uint8_t> bytes;  // the member's .npy file, uncompressed
};

// Reads every member of `path`, in archive order. On failure returns false
// and a one-line *error naming the file, the member and what was wrong.
bool ReadNpz(const std::string& path, std::vector<NpzMember>* out, std::string* error);

// True when this build can read deflated members (numpy.savez_compressed).
bool NpzHasDeflate();

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_NPZ_H_
