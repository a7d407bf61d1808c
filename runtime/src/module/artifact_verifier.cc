// Verifies .mvk artifacts. Order matters: the FlatBuffers verifier first (so
// every later read stays inside the image), the format version next (so a file
// from another version gets that message rather than a confusing field error),
// then the semantics, each failure naming the field path and the reason.
#include "artifact_verifier.h"

#include "artifact_verifier_checker.h"
#include "meshvk/artifact/builder.h"
#include "meshvk/artifact/integrity.h"
#include "meshvk/artifact/variants.h"
#include "schedule.h"

namespace meshvk::module {

using flatbuffers::Vector;
using verifier::Len;
using verifier::Msg;
using verifier::OneLine;

void GridIndex(const Vector<uint32_t>* grid_shape, uint32_t process, uint32_t* out_index) {
  uint32_t rest = process;
  for (uint32_t a = grid_shape->size(); a-- > 0;) {
    uint32_t extent = grid_shape->Get(a);
    out_index[a] = rest % extent;
    rest /= extent;
  }
}

std::string VerifyArtifact(const uint8_t* data, size_t size, const mvk::Artifact** out_artifact) {
  return VerifyImage(data, size, /*inside_variants=*/false, out_artifact);
}

std::string VerifyImage(const uint8_t* data, size_t size, bool inside_variants, const mvk::Artifact** out_artifact) {
  *out_artifact = nullptr;
  if (size < 8) return Msg("truncated: ", size, " bytes (a .mvk file has at least 8)");
  if (size > kMaxArtifactBytes)
    return Msg("too large: ", size, " bytes (a .mvk file has at most ", kMaxArtifactBytes, ")");
  std::string error = CheckFileIdentifier(data, size);
  if (!error.empty()) return error;
  // The checksum before anything reads the FlatBuffer: a corrupt file says so,
  // instead of failing on whichever field the corruption hit (or running).
  size_t flatbuffer_size = 0;
  error = artifact::CheckTrailer(data, size, &flatbuffer_size);
  if (!error.empty()) return error;
  size = flatbuffer_size;
  // The version first, with a verifier limited to the root table and that one
  // field, so that a file of another version gets the version message.
  uint32_t version = 0;
  {
    flatbuffers::Verifier v(data, size);
    if (flatbuffers::ReadScalar<flatbuffers::uoffset_t>(data) > size - 4)
      return "truncated or corrupt: root table offset out of range";
    const auto* root = flatbuffers::GetRoot<flatbuffers::Table>(data);
    if (!root->VerifyTableStart(v) || !root->VerifyField<uint32_t>(v, mvk::Artifact::VT_FORMAT_VERSION, 4))
      return "truncated or corrupt: cannot read the format version";
    version = root->GetField<uint32_t>(mvk::Artifact::VT_FORMAT_VERSION, 0);
    if (version < artifact::kFormatVersion)
      return Msg("format_version: ", version, " is older than this runtime's version ", artifact::kFormatVersion,
                 " (recompile the program)");
    if (version > artifact::kVariantsFormatVersion)
      return Msg("format_version: ", version, " is newer than this runtime's version ",
                 artifact::kVariantsFormatVersion, " (update meshvk)");
    if (version == artifact::kVariantsFormatVersion && inside_variants)
      return "format_version: 2 (a set of plans) inside variants: variants do not nest";
  }
  flatbuffers::Verifier::Options options;
  options.max_depth = 16;
  options.max_tables = 16 * 1000 * 1000;
  flatbuffers::Verifier verifier(data, size, options);
  if (!mvk::VerifyArtifactBuffer(verifier)) return "truncated or corrupt: the FlatBuffers verifier rejected the file";
  const mvk::Artifact* a = mvk::GetArtifact(data);
  if (version == artifact::kFormatVersion && a->variants())
    return "variants: only a format_version 2 file holds variants (this one is version 1)";
  error = version == artifact::kVariantsFormatVersion ? CheckVariants(a) : verifier::ArtifactChecker(a).Check();
  if (error.empty()) *out_artifact = a;
  return error;
}

std::string CheckFileIdentifier(const uint8_t* data, size_t size) {
  if (size < 8) return Msg("truncated: ", size, " bytes (a .mvk file has at least 8)");
  if (!flatbuffers::BufferHasIdentifier(data, artifact::kFileIdentifier))
    return Msg("not a .mvk artifact: file identifier '",
               OneLine(std::string(reinterpret_cast<const char*>(data) + 4, 4)), "', expected '",
               artifact::kFileIdentifier, "'");
  return "";
}

std::string VerifyAgainstLimits(const mvk::Artifact* a, uint32_t p, const meshvk_device_limits_t& limits) {
  const mvk::Process* proc = a->processes()->Get(p);
  for (uint32_t b = 0; b < Len(proc->buffers()); ++b) {
    uint64_t size = proc->buffers()->Get(b)->size();
    if (limits.max_memory_allocation_size && size > limits.max_memory_allocation_size)
      return Msg("processes[", p, "].buffers[", b, "].size: ", size, " bytes > the device's maxMemoryAllocationSize ",
                 limits.max_memory_allocation_size);
  }
  for (uint32_t f = 0; f < Len(a->functions()); ++f) {
    const auto* streams = a->functions()->Get(f)->streams();
    const auto* commands = streams && p < streams->size() ? streams->Get(p)->commands() : nullptr;
    for (uint32_t c = 0; c < Len(commands); ++c) {
      const mvk::Dispatch* d = commands->Get(c)->op_as_Dispatch();
      if (!d) continue;
      std::string path = Msg("functions[", f, "].streams[", p, "].commands[", c, "].dispatch");
      const mvk::Executable* x = a->executables()->Get(d->executable());
      const mvk::Dim3* n = d->workgroup_count();
      uint32_t count[3] = {n->x(), n->y(), n->z()};
      uint64_t invocations = 1;
      for (int i = 0; i < 3; ++i) {
        if (count[i] > limits.max_workgroup_count[i])
          return Msg(path, ".workgroup_count[", i, "]: ", count[i], " > the device's maxComputeWorkGroupCount ",
                     limits.max_workgroup_count[i]);
        uint32_t wg = x->workgroup_size()->Get(i);
        if (wg > limits.max_workgroup_size[i])
          return Msg("executables[", d->executable(), "].workgroup_size[", i, "]: ", wg,
                     " > the device's maxComputeWorkGroupSize ", limits.max_workgroup_size[i]);
        invocations *= wg;
      }
      if (invocations > limits.max_workgroup_invocations)
        return Msg("executables[", d->executable(), "].workgroup_size: ", invocations,
                   " invocations > the device's maxComputeWorkGroupInvocations ", limits.max_workgroup_invocations);
      if (x->push_constant_size() > limits.max_push_constants_bytes)
        return Msg("executables[", d->executable(), "].push_constant_size: ", x->push_constant_size(),
                   " > the device's maxPushConstantsSize ", limits.max_push_constants_bytes);
      for (uint32_t i = 0; i < Len(d->bindings()); ++i) {
        const mvk::BufferBinding* b = d->bindings()->Get(i);
        uint64_t range = BindingBytes(b, proc->buffers()->Get(b->buffer())->size());
        if (limits.min_storage_buffer_offset_alignment && b->offset() % limits.min_storage_buffer_offset_alignment != 0)
          return Msg(path, ".bindings[", i, "].offset: ", b->offset(),
                     " not a multiple of the device's minStorageBufferOffsetAlignment ",
                     limits.min_storage_buffer_offset_alignment);
        if (limits.max_storage_buffer_range && range > limits.max_storage_buffer_range)
          return Msg(path, ".bindings[", i, "].range: ", range, " > the device's maxStorageBufferRange ",
                     limits.max_storage_buffer_range);
      }
    }
  }
  return "";
}

}  // namespace meshvk::module
