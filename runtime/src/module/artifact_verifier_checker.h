// The semantic checks of a .mvk artifact (VerifyArtifact's last step, after
// the FlatBuffers verifier and the format version): one checker over the
// artifact, its methods split by concept. artifact_verifier_structure.cc: the
// grid, executables, buffers and function signatures with their shard tiling;
// artifact_verifier_commands.cc: every command of every stream, the
// dependency graph and that results are written. Private to the verifier.
#ifndef MESHVK_RUNTIME_MODULE_ARTIFACT_VERIFIER_CHECKER_H_
#define MESHVK_RUNTIME_MODULE_ARTIFACT_VERIFIER_CHECKER_H_

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "artifact_verifier.h"
#include "meshvk/artifact/builder.h"

namespace meshvk::module::verifier {

using flatbuffers::Vector;

template <typename... Args>
inline std::string Msg(Args&&... args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}

// Bytes from the file shown in a message, control characters escaped.
inline std::string OneLine(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (c < 0x20 || c >= 0x7f)
      out += Msg("\\x", "0123456789abcdef"[c >> 4], "0123456789abcdef"[c & 15]);
    else
      out.push_back(static_cast<char>(c));
  }
  return out;
}

// offset + size <= limit without overflow.
inline bool Inside(uint64_t offset, uint64_t size, uint64_t limit) { return offset <= limit && size <= limit - offset; }

inline bool Overlap(uint64_t a, uint64_t a_size, uint64_t b, uint64_t b_size) {
  return a < b + b_size && b < a + a_size;
}

template <typename T>
uint32_t Len(const Vector<T>* v) {
  return v ? v->size() : 0;
}

// Bytes of shard `sh` of tensor `t` (its shape times the element size).
inline uint64_t ShardBytes(const mvk::TensorSignature* t, const mvk::Shard* sh) {
  uint64_t bytes = artifact::ElementSize(static_cast<artifact::ElementType>(t->element_type()));
  for (uint32_t d = 0; d < Len(sh->shape()); ++d) bytes *= sh->shape()->Get(d);
  return bytes;
}

class ArtifactChecker {
 public:
  explicit ArtifactChecker(const mvk::Artifact* a) : a_(a) {}

  // "" or the first "FIELD.PATH: reason".
  std::string Check();

 private:
  // The FlatBuffers verifier (2.0.8) checks a vector's length field but not
  // that 8-byte elements are 8-byte aligned; reading a misaligned uint64 is
  // undefined behaviour (found by the fuzz target). Writers always align them.
  template <typename V>
  static bool Misaligned(const V* v) {
    return v && reinterpret_cast<uintptr_t>(v->Data()) % 8 != 0;
  }

  // Commands of process p in function f (null: none).
  const Vector<flatbuffers::Offset<mvk::Command>>* Commands(uint32_t f, uint32_t p) const {
    const auto* streams = a_->functions()->Get(f)->streams();
    return streams && p < streams->size() ? streams->Get(p)->commands() : nullptr;
  }

  const mvk::Buffer* BufferAt(uint32_t p, uint32_t b) const {
    const mvk::Process* proc = a_->processes()->Get(p);
    return b < Len(proc->buffers()) ? proc->buffers()->Get(b) : nullptr;
  }

  // Structure (artifact_verifier_structure.cc).
  std::string CheckAlignment();
  std::string CheckGrid();
  std::string CheckExecutables();
  std::string CheckProcesses();
  std::string CheckBuffer(uint32_t p, uint32_t b, const mvk::Buffer* buf);
  std::string CheckFunctions();
  std::string CheckTensor(const std::string& path, const mvk::TensorSignature* t, bool result);
  std::string CheckDeclaredType(const std::string& path, const mvk::TensorSignature* t);
  std::string CheckTensorNames(const std::string& path, const mvk::Function* fn);

  // Commands (artifact_verifier_commands.cc).
  std::string CheckStreams(uint32_t f);
  std::string CheckCommand(uint32_t p, uint32_t c, const mvk::Command* cmd);
  std::string BufferRangeError(const std::string& path, uint32_t p, uint32_t b, uint64_t offset, uint64_t size);
  std::string CheckDispatch(const std::string& path, uint32_t p, const mvk::Dispatch* d);
  std::string PeerError(const std::string& path, uint32_t from, uint32_t to);
  std::string CheckCopy(const std::string& path, uint32_t p, const mvk::Copy* c);
  std::string CheckFill(const std::string& path, uint32_t p, const mvk::Fill* f);
  std::string CheckDependencies(uint32_t f);
  std::string CheckResultsWritten(uint32_t f);
  uint64_t FirstUnwritten(uint32_t f, uint32_t p, uint32_t b, uint64_t begin, uint64_t end) const;

  const mvk::Artifact* a_;
  uint32_t process_count_ = 0;
  uint32_t function_ = 0;  // the function whose streams are being checked
  std::vector<uint32_t> peered_;
};

}  // namespace meshvk::module::verifier

#endif  // MESHVK_RUNTIME_MODULE_ARTIFACT_VERIFIER_CHECKER_H_
