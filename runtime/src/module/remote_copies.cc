// Copies between processes on different ranks (see remote_copies.h), and the
// plan's bytes between ranks (meshvk_module_rank_bytes).
#include "remote_copies.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <set>

#include "cross_device.h"
#include "meshvk/artifact/builder.h"
#include "module.h"

namespace meshvk::module {
namespace {

// Adds the time since its construction to *total when it goes out of scope.
class HostTimer {
 public:
  explicit HostTimer(uint64_t* total) : total_(total), start_(std::chrono::steady_clock::now()) {}
  ~HostTimer() {
    *total_ += std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  uint64_t* total_;
  std::chrono::steady_clock::time_point start_;
};

// Calls fn(function, process, command, copy) for each copy between ranks, in
// tag order (copies of groups run by host steps, or whose bytes a group's
// transport call carries, left out).
template <typename Fn>
void ForEachCrossRankCopy(const mvk::Artifact* artifact, uint32_t function, const std::vector<uint32_t>& rank_of,
                          const RankCollectivePlan& plan, Fn fn) {
  for (uint32_t p = 0; p < rank_of.size(); ++p) {
    const auto* commands = StreamOf(artifact, function, p);
    for (uint32_t c = 0; commands && c < commands->size(); ++c) {
      const mvk::Copy* copy = commands->Get(c)->op_as_Copy();
      if (copy && rank_of[copy->src_process()] != rank_of[p] && !plan.Replaced(p, c) && !plan.Carried(p, c))
        fn(p, c, copy);
    }
  }
}

// "0, 1, 3" for messages.
std::string RankList(const std::vector<uint32_t>& ranks) {
  std::string text;
  for (uint32_t r : ranks) text += (text.empty() ? "" : ", ") + std::to_string(r);
  return text;
}

}  // namespace

uint64_t ShardBytes(const mvk::TensorSignature* t, const mvk::Shard* sh) {
  uint64_t bytes = artifact::ElementSize(static_cast<artifact::ElementType>(t->element_type()));
  for (uint64_t e : *sh->shape()) bytes *= e;
  return bytes;
}

RemoteCopies::~RemoteCopies() {
  for (meshvk_buffer_t* landing : landings_) meshvk_buffer_release(landing);
}

Status RemoteCopies::Init(const mvk::Artifact* artifact, const Schedule& schedule,
                          const meshvk_program_ranks_t* ranks) {
  artifact_ = artifact;
  if (!ranks) return Status();
  const uint32_t P = artifact->processes()->size();
  if (!ranks->transport || !ranks->process_rank || !ranks->transport->send || !ranks->transport->receive ||
      !ranks->transport->wait_sends)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "ranks: transport, its callbacks and process_rank are required");
  const uint32_t R = ranks->transport->rank_count, me = ranks->transport->rank;
  if (me >= R || ranks->root_rank >= R)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "ranks: rank %u / root %u out of range (%u ranks)", me,
                      ranks->root_rank, R);
  rank_of_.assign(ranks->process_rank, ranks->process_rank + P);
  bool any = false;
  for (uint32_t p = 0; p < P; ++p) {
    if (rank_of_[p] >= R)
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "ranks: process %u is mapped to rank %u of %u", p, rank_of_[p],
                        R);
    any |= rank_of_[p] == me;
  }
  if (!any) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "ranks: rank %u runs no process of the grid", me);
  transport_ = ranks->transport;
  root_ = ranks->root_rank;
  if (!ReadRankCollectiveMode(&mode_))
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "MESHVK_RANK_COLLECTIVES=%s: expected transport, ring or copies",
                      std::getenv("MESHVK_RANK_COLLECTIVES"));
  const uint32_t F = artifact->functions() ? artifact->functions()->size() : 0;
  outgoing_.resize(F);
  send_buffers_.resize(F);
  for (uint32_t f = 0; f < F; ++f) {
    plans_.push_back(PlanRankCollectives(artifact, schedule.functions[f], f, rank_of_));
    if (plans_[f].groups.size() > kMaxRankGroups)
      return MakeStatus(MESHVK_STATUS_UNIMPLEMENTED, "function %u has more than %u collectives between ranks", f,
                        kMaxRankGroups);
    uint32_t tag = 0;
    Status status;
    ForEachCrossRankCopy(artifact, f, rank_of_, plans_[f], [&](uint32_t p, uint32_t c, const mvk::Copy* copy) {
      if (tag == kResultTagBase && status.ok())
        status = MakeStatus(MESHVK_STATUS_UNIMPLEMENTED, "function %u has more than %u copies between ranks", f,
                            kResultTagBase);
      tags_[{f, p, c}] = tag;
      const uint32_t src = copy->src_process();
      if (rank_of_[src] == me) {
        Outgoing out;
        out.process = src;
        out.buffer = copy->src_buffer();
        const mvk::Command* cmd = StreamOf(artifact, f, p)->Get(c);
        for (uint32_t d = 0; cmd->deps() && d < cmd->deps()->size(); ++d) {
          const mvk::CommandRef* dep = cmd->deps()->Get(d);
          if (dep->process() != src) continue;
          if (plans_[f].Replaced(src, dep->command()))  // written by a host step, no device work to wait for
            out.host_phase = std::max(out.host_phase, plans_[f].host_phase[src][dep->command()]);
          else
            out.after_phase = std::max<int64_t>(out.after_phase, schedule.functions[f].phase_of[src][dep->command()]);
        }
        uint64_t lo = 0, hi = 0;
        SourceSpan(copy, &lo, &hi);
        out.offset = lo;
        out.size = hi - lo;
        out.to_rank = rank_of_[p];
        out.tag = tag;
        outgoing_[f].push_back(out);
      }
      ++tag;
    });
    MESHVK_RETURN_IF_ERROR(status);
    send_buffers_[f].resize(outgoing_[f].size());
  }
  return Status();
}

Status RemoteCopies::LandingFor(meshvk_device_set_t* set, uint32_t function, uint32_t process, uint32_t command,
                                const mvk::Copy* copy, const std::string& path, meshvk_buffer_t** out,
                                std::vector<RemoteReceive>* receives) {
  const uint32_t src = copy->src_process();
  const uint64_t size = artifact_->processes()->Get(src)->buffers()->Get(copy->src_buffer())->size();
  meshvk_buffer_t* landing = nullptr;
  meshvk_buffer_create_info_t info{process, size, MESHVK_BUFFER_STAGING_BIT};
  MESHVK_RETURN_IF_ERROR(FromC(meshvk_buffer_create_with_info(set, &info, &landing),
                               path + ": landing buffer for bytes from rank " + std::to_string(rank_of_[src])));
  landings_.push_back(landing);
  *out = landing;
  if (const auto* carried = plans_[function].Carried(process, command)) {  // a group's transport call fills it
    block_landings_[{function, carried->first, carried->second}].push_back(landing);
    return Status();
  }
  uint64_t lo = 0, hi = 0;
  SourceSpan(copy, &lo, &hi);
  receives->push_back(RemoteReceive{landing, lo, hi - lo, rank_of_[src], tags_.at({function, process, command})});
  return Status();
}

void RemoteCopies::BeginInvoke(uint32_t function) {
  // A failed invoke may have left sends in flight from the buffers reused now.
  if (sends_pending_) transport_->wait_sends(transport_->user);
  sends_pending_ = false;
  invoked_ = function;
  next_group_ = 0;
  sent_now_.assign(function < outgoing_.size() ? outgoing_[function].size() : 0, false);
  sent_ = received_ = host_ns_ = 0;
}

Status RemoteCopies::Send(uint32_t to, uint32_t tag, std::vector<uint8_t> bytes) {
  in_flight_.push_back(std::move(bytes));
  const std::vector<uint8_t>& data = in_flight_.back();
  if (int code = transport_->send(transport_->user, to, tag, data.data(), data.size()))
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "transport send of %llu bytes to rank %u failed (code %d)",
                      static_cast<unsigned long long>(data.size()), to, code);
  sent_ += data.size();
  sends_pending_ = true;
  return Status();
}

Status RemoteCopies::ReceiveInto(uint32_t from, uint32_t tag, void* data, uint64_t size) {
  if (int code = transport_->receive(transport_->user, from, tag, data, size))
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "transport receive of %llu bytes from rank %u failed (code %d)",
                      static_cast<unsigned long long>(size), from, code);
  received_ += size;
  return Status();
}

Status RemoteCopies::SendReady(uint32_t function, uint32_t phase,
                               const std::vector<std::vector<meshvk_buffer_t*>>& buffers,
                               const std::vector<meshvk_semaphore_t*>& semaphores, uint64_t base, uint64_t timeout_ns) {
  if (!enabled()) return Status();
  const std::vector<Outgoing>& list = outgoing_[function];
  for (size_t i = 0; i < list.size(); ++i) {
    const Outgoing& o = list[i];
    if (sent_now_[i] || o.after_phase >= static_cast<int64_t>(phase) || o.host_phase >= static_cast<int64_t>(phase))
      continue;
    const std::string what = "process " + std::to_string(o.process) + " sending " + std::to_string(o.size) +
                             " bytes to rank " + std::to_string(o.to_rank);
    if (o.after_phase >= 0)
      MESHVK_RETURN_IF_ERROR(FromC(meshvk_semaphore_wait(semaphores[o.process], base + o.after_phase + 1, timeout_ns),
                                   what + ": waiting for the producer"));
    HostTimer timer(&host_ns_);
    std::vector<uint8_t>& bytes = send_buffers_[function][i];
    bytes.resize(o.size);
    MESHVK_RETURN_IF_ERROR(FromC(meshvk_buffer_read(buffers[o.process][o.buffer], o.offset, bytes.data(), o.size),
                                 what + ": staging out"));
    if (int code = transport_->send(transport_->user, o.to_rank, o.tag, bytes.data(), o.size))
      return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: transport send failed (code %d)", what.c_str(), code);
    sent_ += o.size;
    sends_pending_ = true;
    sent_now_[i] = true;
  }
  return Status();
}

Status RemoteCopies::Receive(const std::vector<RemoteReceive>& receives) {
  HostTimer timer(&host_ns_);
  std::vector<uint8_t>& bytes = receive_buffer_;
  for (const RemoteReceive& r : receives) {
    bytes.resize(r.size);
    MESHVK_RETURN_IF_ERROR(ReceiveInto(r.from_rank, r.tag, bytes.data(), r.size));
    MESHVK_RETURN_IF_ERROR(
        FromC(meshvk_buffer_write(r.landing, r.offset, bytes.data(), r.size),
              "staging in " + std::to_string(r.size) + " bytes from rank " + std::to_string(r.from_rank)));
  }
  return Status();
}

Status RemoteCopies::RunNextGroup(uint32_t function, const std::vector<std::vector<meshvk_buffer_t*>>& buffers,
                                  const std::vector<meshvk_semaphore_t*>& semaphores,
                                  const std::vector<uint64_t>& last_signal, uint64_t timeout_ns) {
  const RankGroup& g = plans_[function].groups[next_group_];
  const uint32_t index = static_cast<uint32_t>(next_group_++);
  if (!std::binary_search(g.ranks.begin(), g.ranks.end(), transport_->rank)) return Status();  // not ours
  const std::string what = "collective " + std::to_string(g.collective) + " (" + CollectiveKindName(g.kind) + " of " +
                           std::to_string(g.bytes) + " bytes over " + std::to_string(g.ranks.size()) + " ranks)";
  // The partials / blocks are complete, and nothing still reads the memory
  // the step writes.
  for (uint32_t p = 0; p < semaphores.size(); ++p)
    if (Local(p) && last_signal[p] > 0)
      MESHVK_RETURN_IF_ERROR(FromC(meshvk_semaphore_wait(semaphores[p], last_signal[p], timeout_ns),
                                   what + ": waiting for process " + std::to_string(p)));
  HostTimer timer(&host_ns_);
  const Status status = g.call == TransportCall::kAllReduce       ? AllReduce(g, index, buffers, what)
                        : g.call == TransportCall::kReduceScatter ? ReduceScatter(g, index, buffers, what)
                                                                  : MoveBlocks(function, g, index, buffers, what);
  return status.ok() || status.message().rfind(what, 0) == 0 ? status
                                                             : Status(status.code(), what + ": " + status.message());
}

// Hierarchical all_reduce: within the rank on the host, among the ranks
// through the transport, back into each local member. Where every local
// partial and result is host-mapped device memory (lavapipe, integrated GPUs)
// the partials are reduced straight into the first local member's result and
// the transport works there: no staging copies; else through host staging.
Status RemoteCopies::AllReduce(const RankGroup& g, uint32_t index,
                               const std::vector<std::vector<meshvk_buffer_t*>>& buffers, const std::string& what) {
  const uint32_t size = artifact::ElementSize(static_cast<artifact::ElementType>(g.element_type));
  const uint64_t count = g.bytes / size;
  std::vector<size_t> local;  // indexes of the local members
  for (size_t i = 0; i < g.members.size(); ++i)
    if (Local(g.members[i])) local.push_back(i);
  auto address = [&](const mvk::BufferBinding& b, size_t i) {
    auto* base = static_cast<uint8_t*>(meshvk_buffer_host_address(buffers[g.members[i]][b.buffer()]));
    return base ? base + b.offset() : nullptr;
  };
  bool mapped = true;
  for (size_t i : local) mapped = mapped && address(g.input[i], i) && address(g.output[i], i);
  group_part_.resize(g.bytes);
  uint8_t* sum = nullptr;  // the rank's partial, then the result
  if (mapped) {
    sum = address(g.output[local[0]], local[0]);
    std::memmove(sum, address(g.input[local[0]], local[0]), g.bytes);
    for (size_t j = 1; j < local.size(); ++j)
      ReduceInto(g.element_type, g.reduction, address(g.input[local[j]], local[j]), sum, count);
  } else {
    group_sum_.resize(g.bytes);
    sum = group_sum_.data();
    for (size_t j = 0; j < local.size(); ++j) {
      const size_t i = local[j];
      uint8_t* into = j == 0 ? sum : group_part_.data();
      MESHVK_RETURN_IF_ERROR(
          FromC(meshvk_buffer_read(buffers[g.members[i]][g.input[i].buffer()], g.input[i].offset(), into, g.bytes),
                what + ": staging out the partial of process " + std::to_string(g.members[i])));
      if (j > 0) ReduceInto(g.element_type, g.reduction, group_part_.data(), sum, count);
    }
  }
  // Among the ranks: one all-reduce of that partial.
  const uint32_t R = static_cast<uint32_t>(g.ranks.size());
  const uint32_t position = Position(g);
  if (transport_->all_reduce && mode_ != RankCollectiveMode::kRing) {
    if (int code = transport_->all_reduce(transport_->user, g.ranks.data(), R, sum, count,
                                          static_cast<uint32_t>(g.element_type), static_cast<uint32_t>(g.reduction)))
      return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: transport all_reduce among ranks %s failed (code %d)",
                        what.c_str(), RankList(g.ranks).c_str(), code);
    uint64_t sent = 0, received = 0;
    GroupTraffic(g, position, &sent, &received);
    sent_ += sent;
    received_ += received;
  } else {
    // Ring: reduce-scatter, then all-gather (chunk c = elements [count*c/R, count*(c+1)/R)).
    const uint32_t right = g.ranks[(position + 1) % R], left = g.ranks[(position + R - 1) % R];
    const uint32_t tag = kCollectiveTagBase + index;
    auto lo = [&](uint32_t c) { return count * c / R * size; };
    auto len = [&](uint32_t c) { return lo(c + 1) - lo(c); };
    for (uint32_t s = 0; s + 1 < R; ++s) {
      const uint32_t out = (position + R - s) % R, in = (position + 2 * R - s - 1) % R;
      MESHVK_RETURN_IF_ERROR(Send(right, tag, std::vector<uint8_t>(sum + lo(out), sum + lo(out) + len(out))));
      MESHVK_RETURN_IF_ERROR(ReceiveInto(left, tag, group_part_.data(), len(in)));
      ReduceInto(g.element_type, g.reduction, group_part_.data(), sum + lo(in), len(in) / size);
    }
    for (uint32_t s = 0; s + 1 < R; ++s) {
      const uint32_t out = (position + 1 + R - s) % R, in = (position + R - s) % R;
      MESHVK_RETURN_IF_ERROR(Send(right, tag, std::vector<uint8_t>(sum + lo(out), sum + lo(out) + len(out))));
      MESHVK_RETURN_IF_ERROR(ReceiveInto(left, tag, sum + lo(in), len(in)));
    }
  }
  // Back within the rank: every local member gets the result.
  for (size_t j = mapped ? 1 : 0; j < local.size(); ++j) {
    const size_t i = local[j];
    if (mapped) {
      std::memcpy(address(g.output[i], i), sum, g.bytes);
      continue;
    }
    MESHVK_RETURN_IF_ERROR(
        FromC(meshvk_buffer_write(buffers[g.members[i]][g.output[i].buffer()], g.output[i].offset(), sum, g.bytes),
              what + ": staging in the result of process " + std::to_string(g.members[i])));
  }
  return Status();
}

// Hierarchical reduce_scatter: the local members' whole partials reduced on
// the host, reordered so each rank's members' chunks are adjacent (ranks in
// order, each rank's members ascending), one reduce-scatter among the ranks,
// each local member's chunk written into its result.
Status RemoteCopies::ReduceScatter(const RankGroup& g, uint32_t index,
                                   const std::vector<std::vector<meshvk_buffer_t*>>& buffers, const std::string& what) {
  const uint32_t size = artifact::ElementSize(static_cast<artifact::ElementType>(g.element_type));
  const uint64_t chunk = g.bytes, whole = chunk * g.members.size();
  const uint32_t R = static_cast<uint32_t>(g.ranks.size()), me = Position(g);
  group_sum_.resize(whole);
  group_part_.resize(whole);
  bool first = true;
  for (size_t i = 0; i < g.members.size(); ++i) {
    if (!Local(g.members[i])) continue;
    uint8_t* into = first ? group_sum_.data() : group_part_.data();
    MESHVK_RETURN_IF_ERROR(
        FromC(meshvk_buffer_read(buffers[g.members[i]][g.input[i].buffer()], g.input[i].offset(), into, whole),
              what + ": staging out the partial of process " + std::to_string(g.members[i])));
    if (!first) ReduceInto(g.element_type, g.reduction, group_part_.data(), group_sum_.data(), whole / size);
    first = false;
  }
  // Rank order: segment r = the chunks of rank r's members.
  std::vector<uint64_t> counts(R, 0), at(R, 0);
  for (uint32_t r : g.member_position) counts[r] += chunk / size;
  for (uint32_t r = 1; r < R; ++r) at[r] = at[r - 1] + counts[r - 1] * size;
  group_order_.resize(whole);
  std::vector<uint64_t> placed(R, 0), mine;  // mine: where each local member's chunk lands in my segment
  for (size_t i = 0; i < g.members.size(); ++i) {
    const uint32_t r = g.member_position[i];
    std::memcpy(group_order_.data() + at[r] + placed[r], group_sum_.data() + g.chunk[i] * chunk, chunk);
    if (r == me) mine.push_back(placed[r]);
    placed[r] += chunk;
  }
  uint8_t* segment = nullptr;
  if (transport_->reduce_scatter && mode_ != RankCollectiveMode::kRing) {
    if (int code =
            transport_->reduce_scatter(transport_->user, g.ranks.data(), R, group_order_.data(), counts.data(),
                                       static_cast<uint32_t>(g.element_type), static_cast<uint32_t>(g.reduction)))
      return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: transport reduce_scatter among ranks %s failed (code %d)",
                        what.c_str(), RankList(g.ranks).c_str(), code);
    uint64_t sent = 0, received = 0;
    GroupTraffic(g, me, &sent, &received);
    sent_ += sent;
    received_ += received;
    segment = group_order_.data();
  } else {
    const uint32_t tag = kCollectiveTagBase + index;
    for (uint32_t r = 0; r < R; ++r)
      if (r != me)
        MESHVK_RETURN_IF_ERROR(
            Send(g.ranks[r], tag,
                 std::vector<uint8_t>(group_order_.data() + at[r], group_order_.data() + at[r] + counts[r] * size)));
    segment = group_order_.data() + at[me];
    for (uint32_t r = 0; r < R; ++r)
      if (r != me) {
        MESHVK_RETURN_IF_ERROR(ReceiveInto(g.ranks[r], tag, group_part_.data(), counts[me] * size));
        ReduceInto(g.element_type, g.reduction, group_part_.data(), segment, counts[me]);
      }
  }
  for (size_t i = 0, j = 0; i < g.members.size(); ++i) {
    if (!Local(g.members[i])) continue;
    MESHVK_RETURN_IF_ERROR(FromC(meshvk_buffer_write(buffers[g.members[i]][g.output[i].buffer()], g.output[i].offset(),
                                                     segment + mine[j++], chunk),
                                 what + ": staging in the result of process " + std::to_string(g.members[i])));
  }
  return Status();
}

// A copy collective's blocks: each owned block staged out once, one
// transport call (or one message per peer rank), each needed block written
// into the landing buffer of every local copy that reads it.
//  * all_gather / broadcast: one buffer, every block at its place in block
//    order (each rank's blocks contiguous: blocks are sorted by owner);
//  * all_to_all: a send buffer by destination and a receive buffer by
//    source, each in block order.
Status RemoteCopies::MoveBlocks(uint32_t function, const RankGroup& g, uint32_t index,
                                const std::vector<std::vector<meshvk_buffer_t*>>& buffers, const std::string& what) {
  const uint32_t R = static_cast<uint32_t>(g.ranks.size()), me = Position(g);
  const bool gathered = g.call != TransportCall::kAllToAll;  // one buffer holds every block
  auto reads = [&](const Block& b, uint32_t r) { return std::binary_search(b.to.begin(), b.to.end(), r); };
  // Bytes to / from each peer position, and where each block lies.
  std::vector<uint64_t> out_bytes(R, 0), in_bytes(R, 0), block_at(g.blocks.size(), UINT64_MAX);
  std::vector<std::vector<uint64_t>> send_at(g.blocks.size());  // all_to_all: the block's places in the send buffer
  uint64_t total = 0;
  if (gathered) {
    for (size_t i = 0; i < g.blocks.size(); ++i) {
      block_at[i] = total;
      total += g.blocks[i].size;
      in_bytes[g.blocks[i].from] += g.blocks[i].size;  // all_gather's per-rank counts
    }
    group_sum_.resize(total);
  } else {
    uint64_t out_total = 0, in_total = 0;
    for (uint32_t r = 0; r < R; ++r)
      for (size_t i = 0; i < g.blocks.size(); ++i)
        if (g.blocks[i].from == me && reads(g.blocks[i], r)) {
          send_at[i].push_back(out_total);
          out_total += g.blocks[i].size;
          out_bytes[r] += g.blocks[i].size;
        }
    for (size_t i = 0; i < g.blocks.size(); ++i)
      if (reads(g.blocks[i], me)) {
        block_at[i] = in_total;
        in_total += g.blocks[i].size;
        in_bytes[g.blocks[i].from] += g.blocks[i].size;
      }
    group_sum_.resize(out_total);
    group_part_.resize(in_total);
  }
  // Stage out the blocks this rank owns, once each.
  for (size_t i = 0; i < g.blocks.size(); ++i) {
    const Block& b = g.blocks[i];
    if (b.from != me) continue;
    uint8_t* into = group_sum_.data() + (gathered ? block_at[i] : send_at[i].empty() ? 0 : send_at[i][0]);
    if (!gathered && send_at[i].empty()) continue;
    MESHVK_RETURN_IF_ERROR(
        FromC(meshvk_buffer_read(buffers[b.process][b.buffer], b.offset, into, b.size),
              "staging out " + std::to_string(b.size) + " bytes of process " + std::to_string(b.process)));
    for (size_t j = 1; !gathered && j < send_at[i].size(); ++j)
      std::memcpy(group_sum_.data() + send_at[i][j], into, b.size);
  }
  const bool own = mode_ != RankCollectiveMode::kRing;
  const char* call = nullptr;
  int code = 0;
  if (g.call == TransportCall::kAllGather && own && transport_->all_gather) {
    call = "all_gather";
    code = transport_->all_gather(transport_->user, g.ranks.data(), R, group_sum_.data(), in_bytes.data());
  } else if (g.call == TransportCall::kBroadcast && own && transport_->broadcast) {
    call = "broadcast";
    code = transport_->broadcast(transport_->user, g.ranks.data(), R, g.blocks[0].from, group_sum_.data(), total);
  } else if (g.call == TransportCall::kAllToAll && own && transport_->all_to_all) {
    call = "all_to_all";
    code = transport_->all_to_all(transport_->user, g.ranks.data(), R, group_sum_.data(), out_bytes.data(),
                                  group_part_.data(), in_bytes.data());
  }
  if (code)
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: transport %s among ranks %s failed (code %d)", what.c_str(), call,
                      RankList(g.ranks).c_str(), code);
  if (call) {
    uint64_t sent = 0, received = 0;
    GroupTraffic(g, me, &sent, &received);
    sent_ += sent;
    received_ += received;
  } else {
    // One message per peer rank: what it reads of this rank's blocks.
    const uint32_t tag = kCollectiveTagBase + index;
    std::vector<uint64_t> in_at(R, 0);  // where each peer's bytes start in the receive buffer
    uint64_t at = 0;
    for (uint32_t r = 0; r < R; at += in_bytes[r++]) in_at[r] = at;
    at = 0;
    for (uint32_t r = 0; r < R; ++r) {
      if (r == me) continue;
      if (gathered) {  // my blocks, to every rank that reads one (all of them for all_gather / broadcast)
        bool any = false;
        for (const Block& b : g.blocks) any = any || (b.from == me && reads(b, r));
        if (any)
          MESHVK_RETURN_IF_ERROR(
              Send(g.ranks[r], tag,
                   std::vector<uint8_t>(group_sum_.data() + in_at[me], group_sum_.data() + in_at[me] + in_bytes[me])));
      } else if (out_bytes[r]) {
        MESHVK_RETURN_IF_ERROR(
            Send(g.ranks[r], tag, std::vector<uint8_t>(group_sum_.data() + at, group_sum_.data() + at + out_bytes[r])));
      }
      at += out_bytes[r];
    }
    uint8_t* in = gathered ? group_sum_.data() : group_part_.data();
    for (uint32_t r = 0; r < R; ++r) {
      bool any = false;
      for (const Block& b : g.blocks) any = any || (b.from == r && reads(b, me));
      if (r != me && any) MESHVK_RETURN_IF_ERROR(ReceiveInto(g.ranks[r], tag, in + in_at[r], in_bytes[r]));
    }
  }
  // Each needed block into the landing buffer of every local copy reading it.
  const uint8_t* in = gathered ? group_sum_.data() : group_part_.data();
  for (uint32_t i = 0; i < g.blocks.size(); ++i) {
    const Block& b = g.blocks[i];
    if (!reads(b, me)) continue;
    auto it = block_landings_.find({function, index, i});
    for (size_t l = 0; it != block_landings_.end() && l < it->second.size(); ++l)
      MESHVK_RETURN_IF_ERROR(FromC(meshvk_buffer_write(it->second[l], b.offset, in + block_at[i], b.size),
                                   "staging in " + std::to_string(b.size) + " bytes of process " +
                                       std::to_string(b.process) + " from rank " + std::to_string(g.ranks[b.from])));
  }
  return Status();
}

uint32_t RemoteCopies::Position(const RankGroup& g) const {
  return static_cast<uint32_t>(std::lower_bound(g.ranks.begin(), g.ranks.end(), transport_->rank) - g.ranks.begin());
}

Status RemoteCopies::FinishInvoke() {
  if (!enabled()) return Status();
  HostTimer timer(&host_ns_);
  int code = transport_->wait_sends(transport_->user);
  in_flight_.clear();
  sends_pending_ = false;
  if (code) return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "transport: completing sends failed (code %d)", code);
  return Status();
}

}  // namespace meshvk::module

extern "C" {

meshvk_status_t meshvk_module_rank_bytes(const meshvk_module_t* module, uint32_t function, const uint32_t* process_rank,
                                         uint32_t rank_count, uint32_t root_rank, uint64_t* out_sent,
                                         uint64_t* out_received) {
  using meshvk::MakeStatus;
  namespace mvk = meshvk::mvk;
  if (!module || !process_rank || !out_sent || !out_received)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "module, process_rank or outputs are NULL").ToC();
  const mvk::Artifact* artifact = module->artifact;
  if (!artifact->functions() || function >= artifact->functions()->size())
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "function %u out of range", function).ToC();
  const uint32_t P = artifact->processes()->size();
  std::vector<uint32_t> rank_of(process_rank, process_rank + P);
  for (uint32_t p = 0; p < P; ++p)
    if (rank_of[p] >= rank_count)
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "process %u is mapped to rank %u of %u", p, rank_of[p],
                        rank_count)
          .ToC();
  std::fill(out_sent, out_sent + rank_count, 0);
  std::fill(out_received, out_received + rank_count, 0);
  const meshvk::module::RankCollectivePlan plan =
      meshvk::module::PlanRankCollectives(artifact, module->schedule.functions[function], function, rank_of);
  meshvk::module::ForEachCrossRankCopy(artifact, function, rank_of, plan,
                                       [&](uint32_t p, uint32_t, const mvk::Copy* copy) {
                                         uint64_t lo = 0, hi = 0;
                                         meshvk::module::SourceSpan(copy, &lo, &hi);
                                         out_sent[rank_of[copy->src_process()]] += hi - lo;
                                         out_received[rank_of[p]] += hi - lo;
                                       });
  for (const meshvk::module::RankGroup& g : plan.groups)
    for (uint32_t i = 0; i < g.ranks.size(); ++i) {
      uint64_t sent = 0, received = 0;
      meshvk::module::GroupTraffic(g, i, &sent, &received);
      out_sent[g.ranks[i]] += sent;
      out_received[g.ranks[i]] += received;
    }
  // Results: each distinct part once, from its first shard's rank to the root.
  const auto* results = artifact->functions()->Get(function)->results();
  for (uint32_t i = 0; results && i < results->size(); ++i) {
    const mvk::TensorSignature* t = results->Get(i);
    std::set<std::vector<uint64_t>> done;
    for (const mvk::Shard* sh : *t->shards()) {
      if (!done.insert(std::vector<uint64_t>(sh->global_offset()->begin(), sh->global_offset()->end())).second)
        continue;
      const uint32_t owner = rank_of[sh->process()];
      if (owner == root_rank) continue;
      out_sent[owner] += meshvk::module::ShardBytes(t, sh);
      out_received[root_rank] += meshvk::module::ShardBytes(t, sh);
    }
  }
  return MESHVK_OK;
}

meshvk_status_t meshvk_module_rank_collectives(const meshvk_module_t* module, uint32_t function,
                                               const uint32_t* process_rank, uint32_t rank_count,
                                               meshvk_rank_collective_t* out_groups, uint32_t capacity,
                                               uint32_t* out_count) {
  using meshvk::MakeStatus;
  if (!module || !process_rank || !out_count || (capacity && !out_groups))
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "module, process_rank or outputs are NULL").ToC();
  const meshvk::mvk::Artifact* artifact = module->artifact;
  if (!artifact->functions() || function >= artifact->functions()->size())
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "function %u out of range", function).ToC();
  std::vector<uint32_t> rank_of(process_rank, process_rank + artifact->processes()->size());
  for (uint32_t p = 0; p < rank_of.size(); ++p)
    if (rank_of[p] >= rank_count)
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "process %u is mapped to rank %u of %u", p, rank_of[p],
                        rank_count)
          .ToC();
  const meshvk::module::RankCollectivePlan plan =
      meshvk::module::PlanRankCollectives(artifact, module->schedule.functions[function], function, rank_of);
  *out_count = static_cast<uint32_t>(plan.groups.size());
  for (uint32_t i = 0; i < capacity && i < plan.groups.size(); ++i) {
    const meshvk::module::RankGroup& g = plan.groups[i];
    meshvk_rank_collective_t& out = out_groups[i];
    out = meshvk_rank_collective_t{};
    out.collective = g.collective;
    out.member_count = static_cast<uint32_t>(g.members.size());
    out.rank_count = static_cast<uint32_t>(g.ranks.size());
    out.first_process = g.members.front();
    out.bytes = g.bytes;
    out.call = static_cast<uint32_t>(g.call);
    out.kind = static_cast<uint32_t>(g.kind);
    for (uint32_t r = 0; r < g.ranks.size(); ++r) {
      uint64_t sent = 0, received = 0;
      meshvk::module::GroupTraffic(g, r, &sent, &received);
      out.ring_bytes = std::max(out.ring_bytes, sent);
      out.received_bytes = std::max(out.received_bytes, received);
    }
  }
  return MESHVK_OK;
}

}  // extern "C"
