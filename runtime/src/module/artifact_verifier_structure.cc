// The structure of a .mvk artifact (see artifact_verifier_checker.h): vector
// alignment, the grid, executables (with their SPIR-V), per-process buffers,
// function names and signatures, and how each tensor's shards tile it.
#include <map>
#include <set>
#include <utility>

#include "artifact_verifier_checker.h"
#include "meshvk/artifact/builder.h"
#include "meshvk/executable.h"

namespace meshvk::module::verifier {

std::string ArtifactChecker::Check() {
  std::string e;
  if (!(e = CheckAlignment()).empty()) return e;
  if (!(e = CheckGrid()).empty()) return e;
  if (!(e = CheckExecutables()).empty()) return e;
  if (!(e = CheckProcesses()).empty()) return e;
  if (!(e = CheckFunctions()).empty()) return e;
  for (uint32_t f = 0; f < Len(a_->functions()); ++f) {
    if (!(e = CheckStreams(f)).empty()) return e;
    if (!(e = CheckDependencies(f)).empty()) return e;
    if (!(e = CheckResultsWritten(f)).empty()) return e;
  }
  return "";
}

std::string ArtifactChecker::CheckAlignment() {
  for (uint32_t f = 0; f < Len(a_->functions()); ++f)
    for (uint32_t p = 0; p < Len(a_->functions()->Get(f)->streams()); ++p) {
      const auto* commands = a_->functions()->Get(f)->streams()->Get(p)->commands();
      for (uint32_t c = 0; c < Len(commands); ++c) {
        const mvk::Command* cmd = commands->Get(c);
        std::string path = Msg("functions[", f, "].streams[", p, "].commands[", c, "]");
        if (const mvk::Dispatch* d = cmd->op_as_Dispatch(); d && Misaligned(d->bindings()))
          return path + ".dispatch.bindings: misaligned vector (corrupt file)";
        if (const mvk::Copy* cp = cmd->op_as_Copy(); cp && Misaligned(cp->regions()))
          return path + ".copy.regions: misaligned vector (corrupt file)";
      }
    }
  for (uint32_t f = 0; f < Len(a_->functions()); ++f) {
    const mvk::Function* fn = a_->functions()->Get(f);
    for (int result = 0; result < 2; ++result) {
      const auto* list = result ? fn->results() : fn->arguments();
      for (uint32_t i = 0; i < Len(list); ++i) {
        const mvk::TensorSignature* t = list->Get(i);
        std::string path = Msg("functions[", f, "].", result ? "results[" : "arguments[", i, "]");
        if (Misaligned(t->shape())) return path + ".shape: misaligned vector (corrupt file)";
        for (uint32_t s = 0; s < Len(t->shards()); ++s) {
          const mvk::Shard* sh = t->shards()->Get(s);
          if (Misaligned(sh->shape()) || Misaligned(sh->global_offset()))
            return Msg(path, ".shards[", s, "]: misaligned vector (corrupt file)");
        }
      }
    }
  }
  return "";
}

std::string ArtifactChecker::CheckGrid() {
  const mvk::Grid* grid = a_->grid();
  if (!grid) return "grid: missing";
  if (Len(grid->shape()) == 0) return "grid.shape: empty (a grid has at least one axis)";
  if (Len(grid->shape()) > kMaxRank) return Msg("grid.shape: rank ", Len(grid->shape()), " > ", kMaxRank);
  uint64_t count = 1;
  for (uint32_t i = 0; i < grid->shape()->size(); ++i) {
    uint32_t extent = grid->shape()->Get(i);
    if (extent == 0) return Msg("grid.shape[", i, "]: extent 0 (must be >= 1)");
    count *= extent;
    if (count > kMaxProcesses) return Msg("grid.shape: more than ", kMaxProcesses, " processes");
  }
  process_count_ = static_cast<uint32_t>(count);
  std::set<uint32_t> seen;
  for (uint32_t i = 0; i < Len(grid->peered_axes()); ++i) {
    uint32_t axis = grid->peered_axes()->Get(i);
    if (axis >= grid->shape()->size())
      return Msg("grid.peered_axes[", i, "]: axis ", axis, " out of range (grid rank ", grid->shape()->size(), ")");
    if (!seen.insert(axis).second) return Msg("grid.peered_axes[", i, "]: axis ", axis, " repeated");
    peered_.push_back(axis);
  }
  if (grid->placement() != mvk::Placement::RoundRobin)
    return Msg("grid.placement: unknown placement rule ", static_cast<int>(grid->placement()));
  uint32_t processes = Len(a_->processes());
  if (processes != process_count_)
    return Msg("processes: ", processes, " entries but the grid has ", process_count_, " processes");
  return "";
}

std::string ArtifactChecker::CheckExecutables() {
  for (uint32_t i = 0; i < Len(a_->executables()); ++i) {
    const mvk::Executable* x = a_->executables()->Get(i);
    std::string path = Msg("executables[", i, "]");
    if (!x->entry_point() || x->entry_point()->size() == 0) return path + ".entry_point: missing";
    if (Len(x->workgroup_size()) != 3)
      return Msg(path, ".workgroup_size: ", Len(x->workgroup_size()), " entries, expected 3");
    uint32_t wg[3];
    for (uint32_t d = 0; d < 3; ++d) {
      wg[d] = x->workgroup_size()->Get(d);
      if (wg[d] == 0) return Msg(path, ".workgroup_size[", d, "]: 0 (must be >= 1)");
    }
    if (Len(x->bindings()) > kMaxBindings)
      return Msg(path, ".bindings: ", Len(x->bindings()), " bindings > ", kMaxBindings);
    if (x->push_constant_size() % 4 != 0 || x->push_constant_size() > kMaxPushConstantBytes)
      return Msg(path, ".push_constant_size: ", x->push_constant_size(),
                 " (must be a multiple of 4, <= ", kMaxPushConstantBytes, ")");
    if (Len(x->spirv()) == 0) return path + ".spirv: empty";
    // The same SPIR-V rules meshvk_executable_create applies, for Vulkan 1.1.
    meshvk_executable_create_info_t info = MESHVK_EXECUTABLE_CREATE_INFO_INIT;
    info.spirv = x->spirv()->data();
    info.spirv_size = x->spirv()->size() * sizeof(uint32_t);
    info.entry_point = x->entry_point()->c_str();
    info.binding_count = Len(x->bindings());
    info.push_constant_size = x->push_constant_size();
    for (uint32_t d = 0; d < 3; ++d) info.workgroup_size[d] = wg[d];
    meshvk_spirv_layout_t layout = MESHVK_SPIRV_LAYOUT_INIT;
    if (meshvk_status_t status = meshvk_executable_check_mvk_kernel(&info, 0, &layout)) {
      std::string e = meshvk_status_message(status);
      meshvk_status_free(status);
      return path + ".spirv: " + e;
    }
    // Vulkan only needs the range to cover the block; meshvk's compiler
    // declares exactly the block, so any other size is a corrupt or
    // mismatched executable (dispatches would push bytes the kernel never
    // reads, or the kernel read past them).
    if (layout.push_constant_bytes != x->push_constant_size())
      return Msg(path, ".push_constant_size: ", x->push_constant_size(),
                 " bytes declared, the push-constant block of '", OneLine(x->entry_point()->str()),
                 "' in its SPIR-V needs ", layout.push_constant_bytes);
  }
  return "";
}

std::string ArtifactChecker::CheckProcesses() {
  for (uint32_t p = 0; p < process_count_; ++p) {
    const mvk::Process* proc = a_->processes()->Get(p);
    for (uint32_t b = 0; b < Len(proc->buffers()); ++b) {
      std::string e = CheckBuffer(p, b, proc->buffers()->Get(b));
      if (!e.empty()) return e;
    }
  }
  return "";
}

std::string ArtifactChecker::CheckBuffer(uint32_t p, uint32_t b, const mvk::Buffer* buf) {
  std::string path = Msg("processes[", p, "].buffers[", b, "]");
  if (buf->size() == 0) return path + ".size: 0 (must be > 0)";
  if (buf->kind() > mvk::BufferKind::Constant) return Msg(path, ".kind: unknown kind ", static_cast<int>(buf->kind()));
  if (buf->reuse_slot() < -1) return Msg(path, ".reuse_slot: ", buf->reuse_slot(), " (must be >= -1)");
  if (buf->reuse_slot() >= 0 && buf->kind() != mvk::BufferKind::Transient)
    return path + ".reuse_slot: only transient buffers may share a reuse slot";
  uint32_t data = Len(buf->initial_data());
  if (buf->kind() == mvk::BufferKind::Constant && data != buf->size())
    return Msg(path, ".initial_data: ", data, " bytes for a constant buffer of ", buf->size(), " bytes");
  if (buf->kind() != mvk::BufferKind::Constant && data != 0)
    return path + ".initial_data: only constant buffers have initial data";
  return "";
}

std::string ArtifactChecker::CheckFunctions() {
  std::set<std::string> names;
  for (uint32_t f = 0; f < Len(a_->functions()); ++f) {
    const mvk::Function* fn = a_->functions()->Get(f);
    std::string path = Msg("functions[", f, "]");
    if (!fn->name() || fn->name()->size() == 0) return path + ".name: missing";
    if (!names.insert(fn->name()->str()).second) return Msg(path, ".name: '", fn->name()->str(), "' defined twice");
    for (uint32_t i = 0; i < Len(fn->arguments()); ++i) {
      std::string e = CheckTensor(Msg(path, ".arguments[", i, "]"), fn->arguments()->Get(i), false);
      if (!e.empty()) return e;
    }
    for (uint32_t i = 0; i < Len(fn->results()); ++i) {
      std::string e = CheckTensor(Msg(path, ".results[", i, "]"), fn->results()->Get(i), true);
      if (!e.empty()) return e;
    }
    if (std::string e = CheckTensorNames(path, fn); !e.empty()) return e;
    // Two arguments written into overlapping bytes of one buffer would
    // clobber each other on the host side.
    std::vector<std::pair<std::pair<uint32_t, uint32_t>, std::pair<uint64_t, uint64_t>>> ranges;
    for (uint32_t i = 0; i < Len(fn->arguments()); ++i) {
      const mvk::TensorSignature* t = fn->arguments()->Get(i);
      for (uint32_t s = 0; s < Len(t->shards()); ++s) {
        const mvk::Shard* sh = t->shards()->Get(s);
        const uint64_t bytes = ShardBytes(t, sh);
        auto key = std::make_pair(sh->process(), sh->buffer());
        for (const auto& r : ranges)
          if (r.first == key && Overlap(r.second.first, r.second.second, sh->offset(), bytes))
            return Msg(path, ".arguments[", i, "].shards[", s, "]: overlaps another argument shard in buffer ",
                       sh->buffer(), " of process ", sh->process());
        ranges.push_back({key, {sh->offset(), bytes}});
      }
    }
  }
  return "";
}

// Names are optional; present ones are shown in messages and picked by
// callers (mesh-vk-run --input=NAME=..., Python keywords), so each is one
// printable line, at most 256 bytes, and unique among its function's
// arguments (results).
std::string ArtifactChecker::CheckTensorNames(const std::string& path, const mvk::Function* fn) {
  for (int result = 0; result < 2; ++result) {
    const auto* list = result ? fn->results() : fn->arguments();
    std::set<std::string> seen;
    for (uint32_t i = 0; i < Len(list); ++i) {
      const flatbuffers::String* name = list->Get(i)->name();
      if (!name) continue;
      std::string where = Msg(path, result ? ".results[" : ".arguments[", i, "].name");
      if (name->size() == 0 || name->size() > 256) return Msg(where, ": ", name->size(), " bytes (expected 1..256)");
      for (unsigned char c : name->str())
        if (c < 0x20 || c == 0x7f) return where + ": contains a control character";
      if (!seen.insert(name->str()).second) return Msg(where, ": '", name->str(), "' given twice");
    }
  }
  return "";
}

// A declared type names what the device type stands for: int64 and bool
// are held as i32, a double as f32, an f32 as f16; anything else is a corrupt file.
std::string ArtifactChecker::CheckDeclaredType(const std::string& path, const mvk::TensorSignature* t) {
  const mvk::DeclaredType declared = t->declared_type();
  if (declared > mvk::DeclaredType::F32) return Msg(path, ".declared_type: unknown type ", static_cast<int>(declared));
  const bool i32 = t->element_type() == mvk::ElementType::I32, f32 = t->element_type() == mvk::ElementType::F32;
  if (((declared == mvk::DeclaredType::I64 || declared == mvk::DeclaredType::Bool) && !i32) ||
      (declared == mvk::DeclaredType::F64 && !f32) ||
      (declared == mvk::DeclaredType::F32 && t->element_type() != mvk::ElementType::F16))
    return Msg(path, ".declared_type: ", mvk::EnumNameDeclaredType(declared), " for an ",
               artifact::ElementTypeName(static_cast<artifact::ElementType>(t->element_type())),
               " tensor (expected I64 or Bool for i32, F64 for f32, F32 for f16)");
  return "";
}

std::string ArtifactChecker::CheckTensor(const std::string& path, const mvk::TensorSignature* t, bool result) {
  const auto* grid = a_->grid()->shape();
  if (!t->shape()) return path + ".shape: missing (a scalar has an empty shape)";
  uint32_t rank = Len(t->shape());
  if (rank > kMaxRank) return Msg(path, ".shape: rank ", rank, " > ", kMaxRank);
  if (t->element_type() > mvk::ElementType::F64)
    return Msg(path, ".element_type: unknown type ", static_cast<int>(t->element_type()));
  if (std::string error = CheckDeclaredType(path, t); !error.empty()) return error;
  uint32_t elem = artifact::ElementSize(static_cast<artifact::ElementType>(t->element_type()));
  uint64_t elements = 1;
  for (uint32_t d = 0; d < rank; ++d) {
    uint64_t extent = t->shape()->Get(d);
    if (extent == 0 || extent > (uint64_t(1) << 40))
      return Msg(path, ".shape[", d, "]: extent ", extent, " (must be in 1..2^40)");
    elements *= extent;
    if (elements > (uint64_t(1) << 40)) return Msg(path, ".shape: more than 2^40 elements");
  }
  if (Len(t->split_axes()) != 0 && Len(t->split_axes()) != rank)
    return Msg(path, ".split_axes: ", Len(t->split_axes()), " entries for a rank-", rank,
               " tensor (one per dimension, or none)");
  std::vector<uint64_t> parts(rank, 1);
  std::set<uint32_t> used;
  std::vector<std::vector<uint32_t>> split(rank);
  for (uint32_t d = 0; d < Len(t->split_axes()); ++d) {
    const auto* axes = t->split_axes()->Get(d)->axes();
    for (uint32_t i = 0; i < Len(axes); ++i) {
      uint32_t axis = axes->Get(i);
      if (axis >= grid->size())
        return Msg(path, ".split_axes[", d, "].axes[", i, "]: grid axis ", axis, " out of range (grid rank ",
                   grid->size(), ")");
      if (!used.insert(axis).second)
        return Msg(path, ".split_axes[", d, "].axes[", i, "]: grid axis ", axis, " used twice");
      parts[d] *= grid->Get(axis);
      split[d].push_back(axis);
    }
  }
  uint64_t total_parts = 1;
  for (uint64_t n : parts) total_parts *= n;
  if (Len(t->shards()) == 0) return path + ".shards: empty (every tensor lives somewhere)";
  std::vector<uint32_t> grid_shape(grid->begin(), grid->end());
  // Shards may differ in size (uneven splits, explicit offsets): per split
  // dimension, every replica of a part must claim the same range, and the
  // parts must tile the dimension in order, none empty.
  std::vector<std::map<uint64_t, std::pair<uint64_t, uint64_t>>> claims(rank);
  std::set<std::vector<uint64_t>> covered;
  for (uint32_t s = 0; s < Len(t->shards()); ++s) {
    const mvk::Shard* sh = t->shards()->Get(s);
    std::string spath = Msg(path, ".shards[", s, "]");
    if (sh->process() >= process_count_)
      return Msg(spath, ".process: ", sh->process(), " out of range (", process_count_, " processes)");
    const mvk::Buffer* buf = BufferAt(sh->process(), sh->buffer());
    if (!buf)
      return Msg(spath, ".buffer: ", sh->buffer(), " out of range (process ", sh->process(), " has ",
                 Len(a_->processes()->Get(sh->process())->buffers()), " buffers)");
    mvk::BufferKind want = result ? mvk::BufferKind::ResultShard : mvk::BufferKind::ArgumentShard;
    if (buf->kind() != want)
      return Msg(spath, ".buffer: buffer ", sh->buffer(), " of process ", sh->process(), " is not a ",
                 result ? "result" : "argument", " shard buffer");
    if (!sh->shape() || !sh->global_offset() || Len(sh->shape()) != rank || Len(sh->global_offset()) != rank)
      return Msg(spath, ": shape/global_offset have ", Len(sh->shape()), "/", Len(sh->global_offset()),
                 " entries, tensor rank is ", rank);
    // Row-major multi-index of the process; part = its block index per dimension.
    std::vector<uint64_t> index(grid_shape.size(), 0), part(rank, 0);
    for (uint64_t a = grid_shape.size(), rest = sh->process(); a-- > 0;) {
      index[a] = rest % grid_shape[a];
      rest /= grid_shape[a];
    }
    uint64_t shard_elements = 1;
    for (uint32_t d = 0; d < rank; ++d) {
      for (uint32_t axis : split[d]) part[d] = part[d] * grid_shape[axis] + index[axis];
      uint64_t extent = t->shape()->Get(d), off = sh->global_offset()->Get(d), size = sh->shape()->Get(d);
      if (off > extent || size > extent - off)
        return Msg(spath, ": dimension ", d, " is offset ", off, " size ", size, ", past the extent ", extent);
      if (split[d].empty() && (off != 0 || size != extent))
        return Msg(spath, ": dimension ", d, " is offset ", off, " size ", size,
                   ", but it is not split (offset 0 size ", extent, ")");
      auto [it, inserted] = claims[d].emplace(part[d], std::make_pair(off, size));
      if (!inserted && it->second != std::make_pair(off, size))
        return Msg(spath, ": dimension ", d, " is offset ", off, " size ", size, ", another replica of part ", part[d],
                   " is offset ", it->second.first, " size ", it->second.second);
      shard_elements *= size;
    }
    if (sh->offset() % elem != 0)
      return Msg(spath, ".offset: ", sh->offset(), " not aligned to the element size ", elem);
    if (!Inside(sh->offset(), shard_elements * elem, buf->size()))
      return Msg(spath, ": ", shard_elements * elem, " bytes at offset ", sh->offset(), " leave buffer ", sh->buffer(),
                 " of process ", sh->process(), " (", buf->size(), " bytes)");
    covered.insert(part);
  }
  if (covered.size() != total_parts)
    return Msg(path, ".shards: cover ", covered.size(), " of the ", total_parts, " shards the sharding defines");
  for (uint32_t d = 0; d < rank; ++d) {
    if (split[d].empty()) continue;
    uint64_t next = 0;
    for (uint64_t k = 0; k < parts[d]; ++k) {
      auto [off, size] = claims[d][k];
      // Empty parts are allowed (more processes than elements: 3 rows over 4).
      if (off != next)
        return Msg(path, ".shards: dimension ", d, " part ", k, " is offset ", off, " size ", size,
                   "; the parts must tile 0..", t->shape()->Get(d), " in order (expected offset ", next, ")");
      next = off + size;
    }
    if (next != t->shape()->Get(d))
      return Msg(path, ".shards: dimension ", d, " parts end at ", next, ", the extent is ", t->shape()->Get(d));
  }
  return "";
}

}  // namespace meshvk::module::verifier
