// The commands of a .mvk artifact (see artifact_verifier_checker.h): each
// dispatch, copy and fill against the buffers, executables and grid it names,
// the dependency graph (acyclic), and that every result byte is written.
#include <algorithm>
#include <utility>

#include "artifact_verifier_checker.h"
#include "meshvk/artifact/builder.h"
#include "schedule.h"

namespace meshvk::module::verifier {

std::string ArtifactChecker::CheckStreams(uint32_t f) {
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

std::string ArtifactChecker::CheckCommand(uint32_t p, uint32_t c, const mvk::Command* cmd) {
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

std::string ArtifactChecker::BufferRangeError(const std::string& path, uint32_t p, uint32_t b, uint64_t offset,
                                              uint64_t size) {
  const mvk::Buffer* buf = BufferAt(p, b);
  if (!buf)
    return Msg(path, ".buffer: ", b, " out of range (process ", p, " has ", Len(a_->processes()->Get(p)->buffers()),
               " buffers)");
  if (!Inside(offset, size, buf->size()))
    return Msg(path, ": bytes [", offset, ", ", offset, "+", size, ") leave buffer ", b, " of process ", p, " (",
               buf->size(), " bytes)");
  return "";
}

std::string ArtifactChecker::CheckDispatch(const std::string& path, uint32_t p, const mvk::Dispatch* d) {
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
std::string ArtifactChecker::PeerError(const std::string& path, uint32_t from, uint32_t to) {
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

std::string ArtifactChecker::CheckCopy(const std::string& path, uint32_t p, const mvk::Copy* c) {
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

std::string ArtifactChecker::CheckFill(const std::string& path, uint32_t p, const mvk::Fill* f) {
  if (f->size() == 0 || f->size() % 4 != 0 || f->offset() % 4 != 0)
    return Msg(path, ": offset ", f->offset(), " and size ", f->size(), " must be multiples of 4 and size > 0");
  std::string e = BufferRangeError(path, p, f->buffer(), f->offset(), f->size());
  if (e.empty() && BufferAt(p, f->buffer())->kind() == mvk::BufferKind::Constant)
    return Msg(path, ".buffer: buffer ", f->buffer(), " is a constant (read-only)");
  return e;
}

// Commands form a graph: stream order inside each process plus explicit
// deps. It must be acyclic, or no schedule exists.
std::string ArtifactChecker::CheckDependencies(uint32_t f) {
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
std::string ArtifactChecker::CheckResultsWritten(uint32_t f) {
  const mvk::Function* fn = a_->functions()->Get(f);
  for (uint32_t r = 0; r < Len(fn->results()); ++r) {
    const mvk::TensorSignature* t = fn->results()->Get(r);
    for (uint32_t s = 0; s < Len(t->shards()); ++s) {
      const mvk::Shard* sh = t->shards()->Get(s);
      uint64_t unwritten =
          FirstUnwritten(f, sh->process(), sh->buffer(), sh->offset(), sh->offset() + ShardBytes(t, sh));
      if (unwritten != UINT64_MAX)
        return Msg("functions[", f, "].results[", r, "].shards[", s, "]: byte ", unwritten, " of buffer ", sh->buffer(),
                   " of process ", sh->process(),
                   " is written by no command (the result would be whatever the buffer held)");
    }
  }
  return "";
}

// The first byte of [begin, end) of buffer `b` that no command of process
// p in function f writes; UINT64_MAX when all are written.
uint64_t ArtifactChecker::FirstUnwritten(uint32_t f, uint32_t p, uint32_t b, uint64_t begin, uint64_t end) const {
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

}  // namespace meshvk::module::verifier
