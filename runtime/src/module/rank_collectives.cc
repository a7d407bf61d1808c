// Which tagged collectives run through the transport (rank_collectives.h)
// and the ring's byte count; the host reduction is in rank_reduce.cc.
#include "rank_collectives.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "cross_device.h"
#include "meshvk/artifact/builder.h"

namespace meshvk::module {
namespace {

// One member's part of a lowered all_reduce: pulls of partials (or of their
// chunks), one reduction dispatch, and for reduce_scatter+all_gather the
// copies that gather the reduced chunks.
enum class Shape { kDirect, kGathered, kScatter };  // all_reduce direct / reduce_scatter+all_gather; reduce_scatter

struct Member {
  uint32_t first = 0;                     // its first tagged command
  uint32_t chunk = 0;                     // reduce_scatter: which chunk of the partials it reduces
  std::vector<uint32_t> group;            // processes it pulls from, itself included
  std::vector<const mvk::Copy*> pulls;    // before the dispatch
  std::vector<const mvk::Copy*> gathers;  // after it
  mvk::BufferBinding input{}, output{};
  uint64_t bytes = 0;
};

bool ReadMember(const mvk::Artifact* artifact, uint32_t function, uint32_t p, const std::vector<uint32_t>& commands,
                Shape shape, Member* out) {
  const auto* stream = StreamOf(artifact, function, p);
  for (size_t i = 1; i < commands.size(); ++i)
    if (commands[i] != commands[0] + i) return false;  // not contiguous: leave it to the copies
  const mvk::Dispatch* reduce = nullptr;
  std::set<uint32_t> group{p};
  for (uint32_t c : commands) {
    const mvk::Command* cmd = stream->Get(c);
    if (const mvk::Dispatch* d = cmd->op_as_Dispatch()) {
      if (reduce) return false;
      reduce = d;
    } else if (const mvk::Copy* copy = cmd->op_as_Copy()) {
      (reduce ? out->gathers : out->pulls).push_back(copy);
      if (!reduce) group.insert(copy->src_process());
    } else {
      return false;
    }
  }
  if (!reduce || !reduce->bindings() || reduce->bindings()->size() < 2) return false;
  out->first = commands[0];
  out->group.assign(group.begin(), group.end());
  const auto* buffers = artifact->processes()->Get(p)->buffers();
  if (shape == Shape::kScatter) {  // its chunk of every partial (its own too), one reduction into the result
    if (!out->gathers.empty() || reduce->bindings()->size() != out->pulls.size() + 1) return false;
    out->output = *reduce->bindings()->Get(reduce->bindings()->size() - 1);
    out->bytes = BindingBytes(&out->output, buffers->Get(out->output.buffer())->size());
    for (const mvk::Copy* c : out->pulls)  // contiguous chunks only (the scatter axis outermost)
      if ((c->regions() && c->regions()->size() > 0) || c->size() != out->bytes) return false;
    return out->bytes > 0;
  }
  if (shape == Shape::kDirect) {  // inputs = own partial + pulled ones, last binding = the result
    if (!out->gathers.empty() || reduce->bindings()->size() != out->pulls.size() + 2) return false;
    out->input = *reduce->bindings()->Get(0);
    out->output = *reduce->bindings()->Get(reduce->bindings()->size() - 1);
    out->bytes = BindingBytes(&out->input, buffers->Get(out->input.buffer())->size());
    return out->bytes > 0 && out->bytes == BindingBytes(&out->output, buffers->Get(out->output.buffer())->size());
  }
  // Gathered: the result is the span the gathering copies fill (one buffer).
  if (out->gathers.size() != out->group.size()) return false;
  uint64_t lo = UINT64_MAX, hi = 0;
  for (const mvk::Copy* g : out->gathers) {
    if (g->dst_buffer() != out->gathers[0]->dst_buffer()) return false;
    uint64_t a = 0, b = 0;
    DestinationSpan(g, &a, &b);
    lo = std::min(lo, a);
    hi = std::max(hi, b);
  }
  out->output = mvk::BufferBinding(out->gathers[0]->dst_buffer(), lo, hi - lo);
  out->bytes = hi - lo;
  return out->bytes > 0;
}

// Gathered algorithm: a member's partial is the span that every member's
// pulls read from it (each pulls its own chunk).
bool ReadInputs(const std::map<uint32_t, Member>& members, std::map<uint32_t, Member>* out) {
  std::map<uint32_t, std::pair<uint64_t, uint64_t>> span;
  std::map<uint32_t, uint32_t> buffer;
  for (const auto& [q, m] : members)
    for (const mvk::Copy* c : m.pulls) {
      uint64_t a = 0, b = 0;
      SourceSpan(c, &a, &b);
      auto [it, fresh] = span.try_emplace(c->src_process(), a, b);
      it->second = {std::min(it->second.first, a), std::max(it->second.second, b)};
      auto [bt, bfresh] = buffer.try_emplace(c->src_process(), c->src_buffer());
      if (bt->second != c->src_buffer()) return false;
    }
  for (auto& [p, m] : *out) {
    auto it = span.find(p);
    if (it == span.end() || it->second.second - it->second.first != m.bytes) return false;
    m.input = mvk::BufferBinding(buffer[p], it->second.first, m.bytes);
  }
  return true;
}

// reduce_scatter: a member's partial is the span of the chunks every member
// pulls from it; a member's chunk is the place of the chunk it pulls in
// each partial (the same in all).
bool ReadScatterInputs(std::map<uint32_t, Member>* members) {
  std::map<uint32_t, std::pair<uint64_t, uint64_t>> span;
  std::map<uint32_t, uint32_t> buffer;
  for (const auto& [q, m] : *members)
    for (const mvk::Copy* c : m.pulls) {
      auto [it, fresh] = span.try_emplace(c->src_process(), c->src_offset(), c->src_offset() + c->size());
      it->second = {std::min(it->second.first, c->src_offset()),
                    std::max(it->second.second, c->src_offset() + c->size())};
      auto [bt, bfresh] = buffer.try_emplace(c->src_process(), c->src_buffer());
      if (bt->second != c->src_buffer()) return false;
    }
  for (auto& [p, m] : *members) {
    auto it = span.find(p);
    if (it == span.end() || it->second.second - it->second.first != m.bytes * m.group.size()) return false;
    m.input = mvk::BufferBinding(buffer[p], it->second.first, m.bytes * m.group.size());
  }
  for (auto& [p, m] : *members) {
    int64_t chunk = -1;
    for (const mvk::Copy* c : m.pulls) {
      const uint64_t at = c->src_offset() - span[c->src_process()].first;
      if (at % m.bytes != 0 || (chunk >= 0 && static_cast<uint64_t>(chunk) != at / m.bytes)) return false;
      chunk = static_cast<int64_t>(at / m.bytes);
    }
    m.chunk = static_cast<uint32_t>(chunk);
  }
  return true;
}

// A copy of a copy collective whose source sits on another rank.
struct Reader {
  uint32_t process = 0, command = 0;
  int64_t ready = 0;  // the phase after its source's producer (0: an input or constant)
};
using BlockKey = std::tuple<uint32_t, uint32_t, uint64_t, uint64_t>;  // process, buffer, offset, size

uint32_t Find(std::vector<uint32_t>& parent, uint32_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

// The cross-rank copies of copy collective `k` (commands per[p] of process
// p): one group per set of ranks its blocks link, when in time.
void PlanCopyCollective(const mvk::Artifact* artifact, const FunctionSchedule& schedule, uint32_t function, uint32_t k,
                        mvk::CollectiveKind kind, const std::vector<std::vector<uint32_t>>& per,
                        const std::vector<uint32_t>& rank_of, std::vector<RankGroup>* groups,
                        std::vector<std::vector<std::tuple<uint32_t, uint32_t, uint32_t>>>* readers_of) {
  std::map<BlockKey, std::vector<Reader>> blocks;
  for (uint32_t p = 0; p < per.size(); ++p)
    for (uint32_t c : per[p]) {
      const mvk::Command* cmd = StreamOf(artifact, function, p)->Get(c);
      const mvk::Copy* copy = cmd->op_as_Copy();
      if (!copy || rank_of[copy->src_process()] == rank_of[p]) continue;
      const uint32_t q = copy->src_process();
      Reader r{p, c, 0};
      for (uint32_t d = 0; cmd->deps() && d < cmd->deps()->size(); ++d)
        if (cmd->deps()->Get(d)->process() == q)
          r.ready = std::max<int64_t>(r.ready, schedule.phase_of[q][cmd->deps()->Get(d)->command()] + 1);
      uint64_t lo = 0, hi = 0;
      SourceSpan(copy, &lo, &hi);
      blocks[{q, copy->src_buffer(), lo, hi - lo}].push_back(r);
    }
  if (blocks.empty()) return;
  // Ranks linked by a block (owner and readers) share one transport call.
  const uint32_t ranks = *std::max_element(rank_of.begin(), rank_of.end()) + 1;
  std::vector<uint32_t> parent(ranks);
  for (uint32_t r = 0; r < ranks; ++r) parent[r] = r;
  for (const auto& [key, readers] : blocks)
    for (const Reader& r : readers) parent[Find(parent, rank_of[r.process])] = Find(parent, rank_of[std::get<0>(key)]);
  std::map<uint32_t, std::vector<const std::pair<const BlockKey, std::vector<Reader>>*>> components;
  for (const auto& entry : blocks) components[Find(parent, rank_of[std::get<0>(entry.first)])].push_back(&entry);
  for (const auto& [root, list] : components) {
    RankGroup g;
    g.collective = k;
    g.kind = kind;
    std::set<uint32_t> rank_set, members;
    int64_t phase = 0;
    for (const auto* entry : list) {
      rank_set.insert(rank_of[std::get<0>(entry->first)]);
      members.insert(std::get<0>(entry->first));
      for (const Reader& r : entry->second) {
        rank_set.insert(rank_of[r.process]);
        members.insert(r.process);
        phase = std::max(phase, r.ready);
      }
    }
    // In time: every carried copy runs in the host step's phase or later.
    bool in_time = true;
    for (const auto* entry : list)
      for (const Reader& r : entry->second) in_time = in_time && schedule.phase_of[r.process][r.command] >= phase;
    if (!in_time) continue;  // keeps its point-to-point copies
    g.phase = static_cast<uint32_t>(phase);
    g.ranks.assign(rank_set.begin(), rank_set.end());
    g.members.assign(members.begin(), members.end());
    auto position = [&](uint32_t rank) {
      return static_cast<uint32_t>(std::lower_bound(g.ranks.begin(), g.ranks.end(), rank) - g.ranks.begin());
    };
    std::vector<std::pair<Block, const std::vector<Reader>*>> sorted;
    for (const auto* entry : list) {
      const auto& [q, buffer, offset, size] = entry->first;
      Block b;
      b.process = q;
      b.buffer = buffer;
      b.offset = offset;
      b.size = size;
      b.from = position(rank_of[q]);
      std::set<uint32_t> to;
      for (const Reader& r : entry->second) to.insert(position(rank_of[r.process]));
      b.to.assign(to.begin(), to.end());
      sorted.emplace_back(std::move(b), &entry->second);
    }
    // By owner position, so that each rank's blocks are contiguous in a
    // transport buffer laid out in rank order.
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
      return std::tie(a.first.from, a.first.process, a.first.buffer, a.first.offset) <
             std::tie(b.first.from, b.first.process, b.first.buffer, b.first.offset);
    });
    bool to_all_others = true, one_owner = true;
    const uint32_t R = static_cast<uint32_t>(g.ranks.size());
    std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> readers;
    for (uint32_t i = 0; i < sorted.size(); ++i) {
      const Block& b = sorted[i].first;
      to_all_others = to_all_others && b.to.size() == R - 1;
      one_owner = one_owner && b.from == sorted[0].first.from;
      g.bytes += b.size;
      for (const Reader& r : *sorted[i].second) readers.emplace_back(r.process, r.command, i);
      g.blocks.push_back(b);
    }
    g.call = kind == mvk::CollectiveKind::AllGather && to_all_others                ? TransportCall::kAllGather
             : kind == mvk::CollectiveKind::Broadcast && to_all_others && one_owner ? TransportCall::kBroadcast
                                                                                    : TransportCall::kAllToAll;
    groups->push_back(std::move(g));
    readers_of->push_back(std::move(readers));
  }
}

}  // namespace

const char* CollectiveKindName(mvk::CollectiveKind kind) {
  switch (kind) {
    case mvk::CollectiveKind::AllReduce:
      return "all_reduce";
    case mvk::CollectiveKind::AllGather:
      return "all_gather";
    case mvk::CollectiveKind::ReduceScatter:
      return "reduce_scatter";
    case mvk::CollectiveKind::AllToAll:
      return "all_to_all";
    case mvk::CollectiveKind::Broadcast:
      return "broadcast";
    case mvk::CollectiveKind::AllSlice:
      return "all_slice";
    case mvk::CollectiveKind::Shift:
      return "shift";
    default:
      return "collective";
  }
}

void GroupTraffic(const RankGroup& g, uint32_t position, uint64_t* sent, uint64_t* received) {
  *sent = *received = 0;
  const uint32_t R = static_cast<uint32_t>(g.ranks.size());
  if (g.call == TransportCall::kAllReduce) {
    const uint32_t size = artifact::ElementSize(static_cast<artifact::ElementType>(g.element_type));
    *sent = RingAllReduceBytes(g.bytes / size, size, R, position);
    *received = RingAllReduceBytes(g.bytes / size, size, R, (position + R - 1) % R);  // the left neighbour's
    return;
  }
  if (g.call == TransportCall::kReduceScatter) {  // each rank's chunks to it, from each other rank
    for (uint32_t r : g.member_position) {
      if (r != position) *sent += g.bytes;
      if (r == position) *received += g.bytes * (R - 1);
    }
    return;
  }
  for (const Block& b : g.blocks) {
    if (b.from == position) *sent += b.size * b.to.size();
    if (std::binary_search(b.to.begin(), b.to.end(), position)) *received += b.size;
  }
}

bool IsRankCollectiveMode(meshvk_rank_collective_mode_t mode) { return meshvk_rank_collective_mode_name(mode); }

namespace {

// The commands each process's stream tags with each collective, in stream
// order: [collective][process] -> command indices.
using TaggedCommands = std::map<uint32_t, std::vector<std::vector<uint32_t>>>;

TaggedCommands TagCommands(const mvk::Artifact* artifact, uint32_t function, uint32_t P) {
  TaggedCommands tagged;
  for (uint32_t p = 0; p < P; ++p) {
    const auto* stream = StreamOf(artifact, function, p);
    for (uint32_t c = 0; stream && c < stream->size(); ++c) {
      const int32_t k = stream->Get(c)->collective();
      if (k < 0) continue;
      auto& per = tagged[static_cast<uint32_t>(k)];
      per.resize(P);
      per[p].push_back(c);
    }
  }
  return tagged;
}

// One reducing collective's members (every process's part of it), each
// seeing the same group; false where the collective is not one a host step
// can run (not an all_reduce/reduce_scatter of f32/i32/f16/f64 with a reduction,
// an algorithm other than direct or reduce_scatter+all_gather, or members
// that disagree).
bool ReadReduction(const mvk::Artifact* artifact, uint32_t function, const mvk::Collective* desc,
                   const std::vector<std::vector<uint32_t>>& per, std::map<uint32_t, Member>* members) {
  const bool reducible = desc->element_type() == mvk::ElementType::F32 ||
                         desc->element_type() == mvk::ElementType::I32 ||
                         desc->element_type() == mvk::ElementType::F16 || desc->element_type() == mvk::ElementType::F64;
  const std::string algorithm = desc->algorithm() ? desc->algorithm()->str() : "";
  const bool scatter = desc->kind() == mvk::CollectiveKind::ReduceScatter;
  const Shape shape = scatter                                    ? Shape::kScatter
                      : algorithm == "reduce_scatter+all_gather" ? Shape::kGathered
                                                                 : Shape::kDirect;
  if ((desc->kind() != mvk::CollectiveKind::AllReduce && !scatter) || desc->reduction() == mvk::Reduction::None ||
      !reducible || (algorithm != "direct" && shape != Shape::kGathered))
    return false;
  bool ok = true;
  for (uint32_t p = 0; p < per.size() && ok; ++p)
    if (!per[p].empty()) ok = ReadMember(artifact, function, p, per[p], shape, &(*members)[p]);
  if (ok && shape == Shape::kGathered) ok = ReadInputs(*members, members);
  if (ok && shape == Shape::kScatter) ok = ReadScatterInputs(members);
  // Every member of a group must see the same group.
  for (const auto& [p, m] : *members)
    for (uint32_t q : m.group)
      ok = ok && members->count(q) && members->at(q).group == m.group && members->at(q).bytes == m.bytes;
  return ok;
}

// The phase a group's host step runs in: once every member's partial is
// produced (after the phase of each member's last command before the
// collective). False when some command that reads its result (the members'
// next commands, and commands of other processes that wait for one of its)
// runs in an earlier phase.
bool PhaseOfGroup(const mvk::Artifact* artifact, const FunctionSchedule& schedule, uint32_t function, uint32_t k,
                  const std::vector<std::vector<uint32_t>>& per, std::map<uint32_t, Member>& members,
                  const std::vector<uint32_t>& group, uint32_t* phase) {
  *phase = 0;
  for (uint32_t q : group) {
    const uint32_t first = members[q].first;
    if (first > 0) *phase = std::max(*phase, schedule.phase_of[q][first - 1] + 1);
  }
  for (uint32_t q : group) {
    const auto* stream = StreamOf(artifact, function, q);
    const uint32_t next = per[q].back() + 1;
    if (next < stream->size() && schedule.phase_of[q][next] < *phase) return false;
  }
  for (uint32_t p = 0; p < per.size(); ++p) {
    const auto* stream = StreamOf(artifact, function, p);
    for (uint32_t c = 0; stream && c < stream->size(); ++c) {
      const mvk::Command* cmd = stream->Get(c);
      if (cmd->collective() == static_cast<int32_t>(k) || !cmd->deps()) continue;
      for (const mvk::CommandRef* dep : *cmd->deps())
        if (std::binary_search(group.begin(), group.end(), dep->process()) &&
            StreamOf(artifact, function, dep->process())->Get(dep->command())->collective() ==
                static_cast<int32_t>(k) &&
            schedule.phase_of[p][c] < *phase)
          return false;
    }
  }
  return true;
}

// The host-step groups of reducing collective `k` that span two or more
// ranks and run in time, appended to plan->groups (with an empty reader list
// each in *readers_of); their commands marked replaced.
void PlanReduction(const mvk::Artifact* artifact, const FunctionSchedule& schedule, uint32_t function, uint32_t k,
                   const mvk::Collective* desc, const std::vector<std::vector<uint32_t>>& per,
                   const std::vector<uint32_t>& rank_of, RankCollectivePlan* plan,
                   std::vector<std::vector<std::tuple<uint32_t, uint32_t, uint32_t>>>* readers_of) {
  std::map<uint32_t, Member> members;
  if (!ReadReduction(artifact, function, desc, per, &members)) return;
  const bool scatter = desc->kind() == mvk::CollectiveKind::ReduceScatter;
  std::set<uint32_t> done;
  for (const auto& [p, m] : members) {
    if (done.count(p)) continue;
    done.insert(m.group.begin(), m.group.end());
    RankGroup g;
    g.collective = k;
    g.call = scatter ? TransportCall::kReduceScatter : TransportCall::kAllReduce;
    g.kind = desc->kind();
    g.reduction = desc->reduction();
    g.element_type = desc->element_type();
    g.bytes = m.bytes;
    g.members = m.group;
    std::set<uint32_t> ranks;
    for (uint32_t q : m.group) ranks.insert(rank_of[q]);
    if (ranks.size() < 2) continue;  // within one rank: the devices' own copies and kernel
    g.ranks.assign(ranks.begin(), ranks.end());
    if (!PhaseOfGroup(artifact, schedule, function, k, per, members, m.group, &g.phase)) continue;
    std::set<uint32_t> chunks;
    for (uint32_t q : m.group) chunks.insert(members[q].chunk);
    if (scatter && (chunks.size() != m.group.size() || *chunks.rbegin() + 1 != m.group.size())) continue;
    for (uint32_t q : m.group) {
      g.input.push_back(members[q].input);
      g.output.push_back(members[q].output);
      g.chunk.push_back(members[q].chunk);
      g.member_position.push_back(
          static_cast<uint32_t>(std::lower_bound(g.ranks.begin(), g.ranks.end(), rank_of[q]) - g.ranks.begin()));
      for (uint32_t c : per[q]) {
        plan->replaced[q][c] = true;
        plan->host_phase[q][c] = g.phase;
      }
    }
    plan->groups.push_back(std::move(g));
    readers_of->emplace_back();
  }
}

// plan->groups in host-step order (phase, collective, first member), and the
// copies each group's transport call carries, by their new group index.
void OrderGroups(RankCollectivePlan* plan,
                 const std::vector<std::vector<std::tuple<uint32_t, uint32_t, uint32_t>>>& readers_of) {
  std::vector<uint32_t> order(plan->groups.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const RankGroup &x = plan->groups[a], &y = plan->groups[b];
    return std::tie(x.phase, x.collective, x.members[0]) < std::tie(y.phase, y.collective, y.members[0]);
  });
  std::vector<RankGroup> groups;
  for (uint32_t i : order) {
    for (const auto& [p, c, block] : readers_of[i])
      plan->carried[{p, c}] = {static_cast<uint32_t>(groups.size()), block};
    groups.push_back(std::move(plan->groups[i]));
  }
  plan->groups = std::move(groups);
}

}  // namespace

RankCollectivePlan PlanRankCollectives(const mvk::Artifact* artifact, const FunctionSchedule& schedule,
                                       uint32_t function, const std::vector<uint32_t>& rank_of,
                                       meshvk_rank_collective_mode_t mode) {
  RankCollectivePlan plan;
  const bool copies = mode == MESHVK_RANK_COLLECTIVES_COPIES;
  const uint32_t P = static_cast<uint32_t>(rank_of.size());
  plan.replaced.resize(P);
  plan.host_phase.resize(P);
  const mvk::Function* fn = artifact->functions()->Get(function);
  for (uint32_t p = 0; p < P; ++p) {
    const auto* stream = StreamOf(artifact, function, p);
    plan.replaced[p].assign(stream ? stream->size() : 0, false);
    plan.host_phase[p].assign(stream ? stream->size() : 0, -1);
  }
  if (copies || !fn->collectives() || fn->collectives()->size() == 0) return plan;
  std::vector<std::vector<std::tuple<uint32_t, uint32_t, uint32_t>>> readers_of(plan.groups.size());
  for (const auto& [k, per] : TagCommands(artifact, function, P)) {
    const mvk::Collective* desc = fn->collectives()->Get(k);
    if (desc->kind() == mvk::CollectiveKind::AllGather || desc->kind() == mvk::CollectiveKind::Broadcast ||
        desc->kind() == mvk::CollectiveKind::AllToAll)
      PlanCopyCollective(artifact, schedule, function, k, desc->kind(), per, rank_of, &plan.groups, &readers_of);
    else
      PlanReduction(artifact, schedule, function, k, desc, per, rank_of, &plan, &readers_of);
  }
  OrderGroups(&plan, readers_of);
  return plan;
}

uint64_t RingAllReduceBytes(uint64_t count, uint32_t element_size, uint32_t rank_count, uint32_t position) {
  if (rank_count < 2 || position >= rank_count) return 0;
  // Chunk i = elements [count*i/R, count*(i+1)/R), in 128 bits: no overflow.
  auto chunk = [&](uint64_t i) {
    using Wide = unsigned __int128;
    return static_cast<uint64_t>(Wide(count) * (i + 1) / rank_count - Wide(count) * i / rank_count);
  };
  // Reduce-scatter step s = 0 .. R-2 sends chunk (position - s) mod R: every
  // chunk but (position + 1); all-gather step s sends chunk
  // (position + 1 - s): every chunk but (position + 2).
  uint64_t elements =
      2 * count - chunk((uint64_t(position) + 1) % rank_count) - chunk((uint64_t(position) + 2) % rank_count);
  return elements * element_size;
}

}  // namespace meshvk::module

extern "C" uint64_t meshvk_transport_ring_bytes(uint64_t count, uint32_t element_size, uint32_t rank_count,
                                                uint32_t position) {
  return meshvk::module::RingAllReduceBytes(count, element_size, rank_count, position);
}
