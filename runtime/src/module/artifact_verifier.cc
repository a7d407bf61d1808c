// Verifies .mvk artifacts. Order matters: the FlatBuffers verifier first (so
// every later read stays inside the image), the format version next (so a file
// from another version gets that message rather than a confusing field error),
// then the semantics, each failure naming the field path and the reason.
#include "artifact_verifier.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "meshvk/artifact/builder.h"
#include "meshvk/artifact/integrity.h"
#include "meshvk/executable.h"
#include "schedule.h"

namespace meshvk::module {
namespace {

using flatbuffers::Vector;

template <typename... Args>
std::string Msg(Args&&... args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}

// Bytes from the file shown in a message, control characters escaped.
std::string OneLine(const std::string& text) {
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
bool Inside(uint64_t offset, uint64_t size, uint64_t limit) { return offset <= limit && size <= limit - offset; }

bool Overlap(uint64_t a, uint64_t a_size, uint64_t b, uint64_t b_size) { return a < b + b_size && b < a + a_size; }

template <typename T>
uint32_t Len(const Vector<T>* v) {
  return v ? v->size() : 0;
}

class ArtifactChecker {
 public:
  explicit ArtifactChecker(const mvk::Artifact* a) : a_(a) {}

  std::string Check() {
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

 private:
  // The FlatBuffers verifier (2.0.8) checks a vector's length field but not
  // that 8-byte elements are 8-byte aligned; reading a misaligned uint64 is
  // undefined behaviour (found by the fuzz target). Writers always align them.
  template <typename V>
  static bool Misaligned(const V* v) {
    return v && reinterpret_cast<uintptr_t>(v->Data()) % 8 != 0;
  }

  std::string CheckAlignment() {
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

  std::string CheckGrid() {
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

  std::string CheckExecutables() {
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
      meshvk_executable_create_info_t info{};
      info.spirv = x->spirv()->data();
      info.spirv_size = x->spirv()->size() * sizeof(uint32_t);
      info.entry_point = x->entry_point()->c_str();
      info.binding_count = Len(x->bindings());
      info.push_constant_size = x->push_constant_size();
      for (uint32_t d = 0; d < 3; ++d) info.workgroup_size[d] = wg[d];
      meshvk_spirv_layout_t layout{};
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

  std::string CheckProcesses() {
    for (uint32_t p = 0; p < process_count_; ++p) {
      const mvk::Process* proc = a_->processes()->Get(p);
      for (uint32_t b = 0; b < Len(proc->buffers()); ++b) {
        std::string e = CheckBuffer(p, b, proc->buffers()->Get(b));
        if (!e.empty()) return e;
      }
    }
    return "";
  }

  // Commands of process p in function f (null: none).
  const Vector<flatbuffers::Offset<mvk::Command>>* Commands(uint32_t f, uint32_t p) const {
    const auto* streams = a_->functions()->Get(f)->streams();
    return streams && p < streams->size() ? streams->Get(p)->commands() : nullptr;
  }

  std::string CheckStreams(uint32_t f) {
    uint32_t streams = Len(a_->functions()->Get(f)->streams());
    if (streams != 0 && streams != process_count_)
      return Msg("functions[", f, "].streams: ", streams, " entries, the grid has ", process_count_,
                 " processes (one stream per process, or none)");
    function_ = f;
    for (uint32_t p = 0; p < streams; ++p) {
      const auto* commands = Commands(f, p);
      for (uint32_t c = 0; c < Len(commands); ++c) {
        std::string e = CheckCommand(p, c, commands->Get(c));
        if (!e.empty()) return e;
      }
    }
    return "";
  }

  std::string CheckBuffer(uint32_t p, uint32_t b, const mvk::Buffer* buf) {
    std::string path = Msg("processes[", p, "].buffers[", b, "]");
    if (buf->size() == 0) return path + ".size: 0 (must be > 0)";
    if (buf->kind() > mvk::BufferKind::Constant)
      return Msg(path, ".kind: unknown kind ", static_cast<int>(buf->kind()));
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

  const mvk::Buffer* BufferAt(uint32_t p, uint32_t b) const {
    const mvk::Process* proc = a_->processes()->Get(p);
    return b < Len(proc->buffers()) ? proc->buffers()->Get(b) : nullptr;
  }

  std::string BufferRangeError(const std::string& path, uint32_t p, uint32_t b, uint64_t offset, uint64_t size) {
    const mvk::Buffer* buf = BufferAt(p, b);
    if (!buf)
      return Msg(path, ".buffer: ", b, " out of range (process ", p, " has ", Len(a_->processes()->Get(p)->buffers()),
                 " buffers)");
    if (!Inside(offset, size, buf->size()))
      return Msg(path, ": bytes [", offset, ", ", offset, "+", size, ") leave buffer ", b, " of process ", p, " (",
                 buf->size(), " bytes)");
    return "";
  }

  std::string CheckCommand(uint32_t p, uint32_t c, const mvk::Command* cmd) {
    std::string path = Msg("functions[", function_, "].streams[", p, "].commands[", c, "]");
    for (uint32_t d = 0; d < Len(cmd->deps()); ++d) {
      const mvk::CommandRef* dep = cmd->deps()->Get(d);
      if (dep->process() >= process_count_)
        return Msg(path, ".deps[", d, "].process: ", dep->process(), " out of range (", process_count_, " processes)");
      uint32_t n = Len(Commands(function_, dep->process()));
      if (dep->command() >= n)
        return Msg(path, ".deps[", d, "].command: ", dep->command(), " out of range (process ", dep->process(), " has ",
                   n, " commands)");
    }
    const uint32_t collectives = Len(a_->functions()->Get(function_)->collectives());
    if (cmd->collective() < -1 || cmd->collective() >= static_cast<int64_t>(collectives))
      return Msg(path, ".collective: ", cmd->collective(), " out of range (", collectives, " collectives)");
    // A union can carry a type with no value (found by the fuzz target).
    if (const mvk::Dispatch* d = cmd->op_as_Dispatch()) return CheckDispatch(path + ".dispatch", p, d);
    if (const mvk::Copy* c = cmd->op_as_Copy()) return CheckCopy(path + ".copy", p, c);
    if (const mvk::Fill* f = cmd->op_as_Fill()) return CheckFill(path + ".fill", p, f);
    return path + ".op: missing or unknown operation";
  }

  std::string CheckDispatch(const std::string& path, uint32_t p, const mvk::Dispatch* d) {
    if (d->executable() >= Len(a_->executables()))
      return Msg(path, ".executable: ", d->executable(), " out of range (", Len(a_->executables()), " executables)");
    const mvk::Executable* x = a_->executables()->Get(d->executable());
    if (!d->workgroup_count()) return path + ".workgroup_count: missing";
    const mvk::Dim3* n = d->workgroup_count();
    if (n->x() == 0 || n->y() == 0 || n->z() == 0)
      return Msg(path, ".workgroup_count: ", n->x(), "x", n->y(), "x", n->z(), " (each must be >= 1)");
    if (Len(d->bindings()) != Len(x->bindings()))
      return Msg(path, ".bindings: ", Len(d->bindings()), " bindings, executable ", d->executable(), " has ",
                 Len(x->bindings()));
    if (Len(d->push_constants()) != x->push_constant_size())
      return Msg(path, ".push_constants: ", Len(d->push_constants()), " bytes, executable ", d->executable(), " takes ",
                 x->push_constant_size());
    for (uint32_t i = 0; i < Len(d->bindings()); ++i) {
      const mvk::BufferBinding* b = d->bindings()->Get(i);
      std::string bpath = Msg(path, ".bindings[", i, "]");
      const mvk::Buffer* buf = BufferAt(p, b->buffer());
      if (!buf)
        return Msg(bpath, ".buffer: ", b->buffer(), " out of range (process ", p, " has ",
                   Len(a_->processes()->Get(p)->buffers()), " buffers)");
      if (b->offset() % 4 != 0 || b->range() % 4 != 0)
        return Msg(bpath, ": offset ", b->offset(), " and range ", b->range(), " must be multiples of 4");
      uint64_t range = BindingBytes(b, buf->size());
      if (range == 0 || !Inside(b->offset(), range, buf->size()))
        return Msg(bpath, ": bytes [", b->offset(), ", ", b->offset(), "+", range, ") leave buffer ", b->buffer(),
                   " of process ", p, " (", buf->size(), " bytes)");
      if (x->bindings()->Get(i)->writable() && buf->kind() == mvk::BufferKind::Constant)
        return Msg(bpath, ": the kernel writes it but buffer ", b->buffer(), " is a constant (read-only)");
      // A written range aliasing another binding of the same dispatch is a data
      // race inside one kernel: refuse it.
      for (uint32_t j = 0; j < i; ++j) {
        const mvk::BufferBinding* o = d->bindings()->Get(j);
        if (o->buffer() != b->buffer()) continue;
        const mvk::Buffer* obuf = BufferAt(p, o->buffer());
        uint64_t orange = BindingBytes(o, obuf->size());
        bool written = x->bindings()->Get(i)->writable() || x->bindings()->Get(j)->writable();
        if (written && Overlap(b->offset(), range, o->offset(), orange))
          return Msg(bpath, ": overlaps bindings[", j, "] in buffer ", b->buffer(), " and one of them is written");
      }
    }
    return "";
  }

  // Grid axes along which processes a and b differ must all be peered.
  std::string PeerError(const std::string& path, uint32_t from, uint32_t to) {
    const auto* shape = a_->grid()->shape();
    std::vector<uint32_t> ia(shape->size()), ib(shape->size());
    GridIndex(shape, from, ia.data());
    GridIndex(shape, to, ib.data());
    for (uint32_t axis = 0; axis < shape->size(); ++axis) {
      if (ia[axis] != ib[axis] && std::find(peered_.begin(), peered_.end(), axis) == peered_.end())
        return Msg(path, ".src_process: process ", from, " and process ", to, " differ along grid axis ", axis,
                   ", which is not peered (copies need peer memory)");
    }
    return "";
  }

  std::string CheckCopy(const std::string& path, uint32_t p, const mvk::Copy* c) {
    if (c->dst_process() != p)
      return Msg(path, ".dst_process: ", c->dst_process(), " but the copy is in process ", p,
                 "'s stream (copies are pulls recorded on the destination)");
    if (c->src_process() >= process_count_)
      return Msg(path, ".src_process: ", c->src_process(), " out of range (", process_count_, " processes)");
    if (c->src_process() != p) {
      std::string e = PeerError(path, c->src_process(), p);
      if (!e.empty()) return e;
    }
    const mvk::Buffer* src = BufferAt(c->src_process(), c->src_buffer());
    if (!src)
      return Msg(path, ".src_buffer: ", c->src_buffer(), " out of range (process ", c->src_process(), " has ",
                 Len(a_->processes()->Get(c->src_process())->buffers()), " buffers)");
    const mvk::Buffer* dst = BufferAt(p, c->dst_buffer());
    if (!dst)
      return Msg(path, ".dst_buffer: ", c->dst_buffer(), " out of range (process ", p, " has ",
                 Len(a_->processes()->Get(p)->buffers()), " buffers)");
    if (dst->kind() == mvk::BufferKind::Constant)
      return Msg(path, ".dst_buffer: buffer ", c->dst_buffer(), " is a constant (read-only)");
    bool same = c->src_process() == p && c->src_buffer() == c->dst_buffer();
    if (Len(c->regions()) == 0) {
      if (c->size() == 0) return path + ".size: 0 (must be > 0)";
      if (!Inside(c->src_offset(), c->size(), src->size()))
        return Msg(path, ": source bytes [", c->src_offset(), ", ", c->src_offset(), "+", c->size(), ") leave buffer ",
                   c->src_buffer(), " of process ", c->src_process(), " (", src->size(), " bytes)");
      if (!Inside(c->dst_offset(), c->size(), dst->size()))
        return Msg(path, ": destination bytes [", c->dst_offset(), ", ", c->dst_offset(), "+", c->size(),
                   ") leave buffer ", c->dst_buffer(), " of process ", p, " (", dst->size(), " bytes)");
      if (same && Overlap(c->src_offset(), c->size(), c->dst_offset(), c->size()))
        return Msg(path, ": source and destination ranges overlap in buffer ", c->dst_buffer());
      return "";
    }
    if (c->src_offset() % 4 != 0 || c->dst_offset() % 4 != 0)
      return path + ": strided copies need 4-byte aligned offsets";
    for (uint32_t r = 0; r < Len(c->regions()); ++r) {
      const mvk::StridedRegion* reg = c->regions()->Get(r);
      std::string rpath = Msg(path, ".regions[", r, "]");
      const mvk::Dim3& n = reg->count();
      if (n.x() == 0 || n.y() == 0 || n.z() == 0) return rpath + ".count: each must be >= 1";
      // The strided copy kernel's limit, checked here so that it is bad input
      // at load rather than a failure at program creation.
      uint64_t elements = uint64_t(n.x()) * n.y() * n.z();
      if (elements > kMaxStridedCopyElements)
        return Msg(rpath, ".count: ", n.x(), "x", n.y(), "x", n.z(), " = ", elements,
                   " elements, more than the strided copy's limit of 2^31");
      // Extent in words of the region on each side: last element + 1.
      auto extent = [&](const mvk::Dim3& s) {
        return uint64_t(n.x() - 1) * s.x() + uint64_t(n.y() - 1) * s.y() + uint64_t(n.z() - 1) * s.z() + 1;
      };
      uint64_t src_words = extent(reg->src_stride()), dst_words = extent(reg->dst_stride());
      uint64_t src_start = c->src_offset() / 4 + reg->src_offset_words();
      uint64_t dst_start = c->dst_offset() / 4 + reg->dst_offset_words();
      if (src_start > (uint64_t(1) << 60) || dst_start > (uint64_t(1) << 60) ||
          !Inside(src_start, src_words, src->size() / 4))
        return Msg(rpath, ": source words [", src_start, ", ", src_start, "+", src_words, ") leave buffer ",
                   c->src_buffer(), " of process ", c->src_process(), " (", src->size() / 4, " words)");
      if (!Inside(dst_start, dst_words, dst->size() / 4))
        return Msg(rpath, ": destination words [", dst_start, ", ", dst_start, "+", dst_words, ") leave buffer ",
                   c->dst_buffer(), " of process ", p, " (", dst->size() / 4, " words)");
      if (same && Overlap(src_start, src_words, dst_start, dst_words))
        return Msg(rpath, ": source and destination ranges overlap in buffer ", c->dst_buffer());
    }
    return "";
  }

  std::string CheckFill(const std::string& path, uint32_t p, const mvk::Fill* f) {
    if (f->size() == 0 || f->size() % 4 != 0 || f->offset() % 4 != 0)
      return Msg(path, ": offset ", f->offset(), " and size ", f->size(), " must be multiples of 4 and size > 0");
    std::string e = BufferRangeError(path, p, f->buffer(), f->offset(), f->size());
    if (e.empty() && BufferAt(p, f->buffer())->kind() == mvk::BufferKind::Constant)
      return Msg(path, ".buffer: buffer ", f->buffer(), " is a constant (read-only)");
    return e;
  }

  // Commands form a graph: stream order inside each process plus explicit
  // deps. It must be acyclic, or no schedule exists.
  std::string CheckDependencies(uint32_t f) {
    std::vector<uint32_t> base(process_count_ + 1, 0);
    for (uint32_t p = 0; p < process_count_; ++p) base[p + 1] = base[p] + Len(Commands(f, p));
    uint32_t nodes = base[process_count_];
    // Kahn's algorithm over predecessor lists.
    std::vector<uint32_t> indegree(nodes, 0);
    std::vector<std::vector<uint32_t>> successors(nodes);
    for (uint32_t p = 0; p < process_count_; ++p) {
      const auto* commands = Commands(f, p);
      for (uint32_t c = 0; c < Len(commands); ++c) {
        uint32_t node = base[p] + c;
        if (c > 0) {
          successors[node - 1].push_back(node);
          ++indegree[node];
        }
        for (uint32_t d = 0; d < Len(commands->Get(c)->deps()); ++d) {
          const mvk::CommandRef* dep = commands->Get(c)->deps()->Get(d);
          successors[base[dep->process()] + dep->command()].push_back(node);
          ++indegree[node];
        }
      }
    }
    std::vector<uint32_t> ready;
    for (uint32_t n = 0; n < nodes; ++n)
      if (indegree[n] == 0) ready.push_back(n);
    uint32_t done = 0;
    while (!ready.empty()) {
      uint32_t n = ready.back();
      ready.pop_back();
      ++done;
      for (uint32_t s : successors[n])
        if (--indegree[s] == 0) ready.push_back(s);
    }
    if (done == nodes) return "";
    // Name one command on a cycle: the first that never became ready.
    for (uint32_t p = 0; p < process_count_; ++p)
      for (uint32_t c = 0; c < Len(Commands(f, p)); ++c)
        if (indegree[base[p] + c] != 0)
          return Msg("functions[", f, "].streams[", p, "].commands[", c,
                     "].deps: dependency cycle (through stream order and deps; no schedule exists)");
    return "dependencies: cycle";
  }

  // Every byte of every result shard is written by a command of its process
  // in the function (a dispatch's writable binding window, a copy's
  // destination, a fill): else the caller reads whatever the buffer held
  // (found by the resealed bit flips: a stream whose commands vector vanished,
  // a result binding moved 16 bytes on, ran "fine" with wrong numbers). A
  // strided copy counts for its whole destination span (lenient: never
  // refuses a program that writes everything).
  std::string CheckResultsWritten(uint32_t f) {
    const mvk::Function* fn = a_->functions()->Get(f);
    for (uint32_t r = 0; r < Len(fn->results()); ++r) {
      const mvk::TensorSignature* t = fn->results()->Get(r);
      uint64_t elem = artifact::ElementSize(static_cast<artifact::ElementType>(t->element_type()));
      for (uint32_t s = 0; s < Len(t->shards()); ++s) {
        const mvk::Shard* sh = t->shards()->Get(s);
        uint64_t bytes = elem;
        for (uint32_t d = 0; d < Len(sh->shape()); ++d) bytes *= sh->shape()->Get(d);
        uint64_t unwritten = FirstUnwritten(f, sh->process(), sh->buffer(), sh->offset(), sh->offset() + bytes);
        if (unwritten != UINT64_MAX)
          return Msg("functions[", f, "].results[", r, "].shards[", s, "]: byte ", unwritten, " of buffer ",
                     sh->buffer(), " of process ", sh->process(),
                     " is written by no command (the result would be whatever the buffer held)");
      }
    }
    return "";
  }

  // The first byte of [begin, end) of buffer `b` that no command of process
  // p in function f writes; UINT64_MAX when all are written.
  uint64_t FirstUnwritten(uint32_t f, uint32_t p, uint32_t b, uint64_t begin, uint64_t end) const {
    std::vector<std::pair<uint64_t, uint64_t>> written;
    const auto* commands = Commands(f, p);
    uint64_t size = BufferAt(p, b)->size();
    for (uint32_t c = 0; c < Len(commands); ++c) {
      const mvk::Command* cmd = commands->Get(c);
      if (const mvk::Fill* fill = cmd->op_as_Fill(); fill && fill->buffer() == b)
        written.push_back({fill->offset(), fill->offset() + fill->size()});
      if (const mvk::Copy* copy = cmd->op_as_Copy(); copy && copy->dst_buffer() == b) {
        if (Len(copy->regions()) == 0) {
          written.push_back({copy->dst_offset(), copy->dst_offset() + copy->size()});
        } else {
          for (uint32_t i = 0; i < Len(copy->regions()); ++i) {
            const mvk::StridedRegion* reg = copy->regions()->Get(i);
            const mvk::Dim3& n = reg->count();
            const mvk::Dim3& st = reg->dst_stride();
            uint64_t last = reg->dst_offset_words() + uint64_t(n.x() ? n.x() - 1 : 0) * st.x() +
                            uint64_t(n.y() ? n.y() - 1 : 0) * st.y() + uint64_t(n.z() ? n.z() - 1 : 0) * st.z();
            written.push_back({copy->dst_offset() + 4 * reg->dst_offset_words(), copy->dst_offset() + 4 * (last + 1)});
          }
        }
      }
      if (const mvk::Dispatch* d = cmd->op_as_Dispatch()) {
        const auto* declared = a_->executables()->Get(d->executable())->bindings();
        for (uint32_t i = 0; i < Len(d->bindings()); ++i) {
          const mvk::BufferBinding* binding = d->bindings()->Get(i);
          if (binding->buffer() == b && declared->Get(i)->writable())
            written.push_back({binding->offset(), binding->offset() + BindingBytes(binding, size)});
        }
      }
    }
    std::sort(written.begin(), written.end());
    uint64_t covered = begin;
    for (const auto& [from, to] : written) {
      if (from > covered) break;
      covered = std::max(covered, to);
      if (covered >= end) return UINT64_MAX;
    }
    return covered >= end ? UINT64_MAX : covered;
  }

  std::string CheckTensor(const std::string& path, const mvk::TensorSignature* t, bool result) {
    const auto* grid = a_->grid()->shape();
    if (!t->shape()) return path + ".shape: missing (a scalar has an empty shape)";
    uint32_t rank = Len(t->shape());
    if (rank > kMaxRank) return Msg(path, ".shape: rank ", rank, " > ", kMaxRank);
    if (t->element_type() > mvk::ElementType::I32)
      return Msg(path, ".element_type: unknown type ", static_cast<int>(t->element_type()));
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
          return Msg(spath, ": dimension ", d, " is offset ", off, " size ", size, ", another replica of part ",
                     part[d], " is offset ", it->second.first, " size ", it->second.second);
        shard_elements *= size;
      }
      if (sh->offset() % elem != 0)
        return Msg(spath, ".offset: ", sh->offset(), " not aligned to the element size ", elem);
      if (!Inside(sh->offset(), shard_elements * elem, buf->size()))
        return Msg(spath, ": ", shard_elements * elem, " bytes at offset ", sh->offset(), " leave buffer ",
                   sh->buffer(), " of process ", sh->process(), " (", buf->size(), " bytes)");
      covered.insert(part);
    }
    if (covered.size() != total_parts)
      return Msg(path, ".shards: cover ", covered.size(), " of the ", total_parts, " shards the sharding defines");
    for (uint32_t d = 0; d < rank; ++d) {
      if (split[d].empty()) continue;
      uint64_t next = 0;
      for (uint64_t k = 0; k < parts[d]; ++k) {
        auto [off, size] = claims[d][k];
        if (off != next || size == 0)
          return Msg(path, ".shards: dimension ", d, " part ", k, " is offset ", off, " size ", size,
                     "; the parts must tile 0..", t->shape()->Get(d), " in order, each non-empty (expected offset ",
                     next, ")");
        next = off + size;
      }
      if (next != t->shape()->Get(d))
        return Msg(path, ".shards: dimension ", d, " parts end at ", next, ", the extent is ", t->shape()->Get(d));
    }
    return "";
  }

  std::string CheckFunctions() {
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
      // Two arguments written into overlapping bytes of one buffer would
      // clobber each other on the host side.
      std::vector<std::pair<std::pair<uint32_t, uint32_t>, std::pair<uint64_t, uint64_t>>> ranges;
      for (uint32_t i = 0; i < Len(fn->arguments()); ++i) {
        const mvk::TensorSignature* t = fn->arguments()->Get(i);
        uint32_t elem = artifact::ElementSize(static_cast<artifact::ElementType>(t->element_type()));
        for (uint32_t s = 0; s < Len(t->shards()); ++s) {
          const mvk::Shard* sh = t->shards()->Get(s);
          uint64_t bytes = elem;
          for (uint32_t d = 0; d < Len(sh->shape()); ++d) bytes *= sh->shape()->Get(d);
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

  const mvk::Artifact* a_;
  uint32_t process_count_ = 0;
  uint32_t function_ = 0;  // the function whose streams are being checked
  std::vector<uint32_t> peered_;
};

}  // namespace

void GridIndex(const Vector<uint32_t>* grid_shape, uint32_t process, uint32_t* out_index) {
  uint32_t rest = process;
  for (uint32_t a = grid_shape->size(); a-- > 0;) {
    uint32_t extent = grid_shape->Get(a);
    out_index[a] = rest % extent;
    rest /= extent;
  }
}

std::string VerifyArtifact(const uint8_t* data, size_t size, const mvk::Artifact** out_artifact) {
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
  {
    flatbuffers::Verifier v(data, size);
    if (flatbuffers::ReadScalar<flatbuffers::uoffset_t>(data) > size - 4)
      return "truncated or corrupt: root table offset out of range";
    const auto* root = flatbuffers::GetRoot<flatbuffers::Table>(data);
    if (!root->VerifyTableStart(v) || !root->VerifyField<uint32_t>(v, mvk::Artifact::VT_FORMAT_VERSION, 4))
      return "truncated or corrupt: cannot read the format version";
    uint32_t version = root->GetField<uint32_t>(mvk::Artifact::VT_FORMAT_VERSION, 0);
    if (version < artifact::kFormatVersion)
      return Msg("format_version: ", version, " is older than this runtime's version ", artifact::kFormatVersion,
                 " (recompile the program)");
    if (version > artifact::kFormatVersion)
      return Msg("format_version: ", version, " is newer than this runtime's version ", artifact::kFormatVersion,
                 " (update meshvk)");
  }
  flatbuffers::Verifier::Options options;
  options.max_depth = 16;
  options.max_tables = 16 * 1000 * 1000;
  flatbuffers::Verifier verifier(data, size, options);
  if (!mvk::VerifyArtifactBuffer(verifier)) return "truncated or corrupt: the FlatBuffers verifier rejected the file";
  const mvk::Artifact* a = mvk::GetArtifact(data);
  error = ArtifactChecker(a).Check();
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
