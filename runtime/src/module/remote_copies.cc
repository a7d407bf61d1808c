// Copies between processes on different ranks (see remote_copies.h), and the
// plan's bytes between ranks (meshvk_module_rank_bytes). The host steps of
// collectives between ranks are in rank_host_steps.cc.
#include "remote_copies.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <set>

#include "cross_device.h"
#include "meshvk/artifact/builder.h"
#include "module.h"
#include "structure.h"

namespace meshvk::module {
namespace {

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
  MESHVK_RETURN_IF_ERROR(CheckStructure(ranks->transport, MESHVK_STRUCTURE_TYPE_TRANSPORT, "ranks->transport"));
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
  if (!IsRankCollectiveMode(ranks->collectives))
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "ranks->collectives is %d: expected a meshvk_rank_collective_mode_t (MESHVK_RANK_COLLECTIVES_*)",
                      static_cast<int>(ranks->collectives));
  mode_ = ranks->collectives;
  const uint32_t F = artifact->functions() ? artifact->functions()->size() : 0;
  outgoing_.resize(F);
  send_buffers_.resize(F);
  for (uint32_t f = 0; f < F; ++f) {
    plans_.push_back(PlanRankCollectives(artifact, schedule.functions[f], f, rank_of_, mode_));
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
  // Local copies on one VkDevice (and queue family: an exclusive buffer)
  // that read the same block of a group's transport call share its landing
  // buffer (only read by the copies), so the host writes each received block
  // once per VkDevice, not once per copy.
  const auto* carried = plans_[function].Carried(process, command);
  meshvk_process_info_t where = MESHVK_PROCESS_INFO_INIT;
  if (carried && meshvk_device_set_process_info(set, process, &where) == MESHVK_OK) {
    for (const auto& [buffer, device, family] : block_landings_[{function, carried->first, carried->second}]) {
      if (device != where.logical_device || family != where.queue_family) continue;
      *out = buffer;
      return Status();
    }
  }
  meshvk_buffer_t* landing = nullptr;
  meshvk_buffer_create_info_t info = MESHVK_BUFFER_CREATE_INFO_INIT;
  info.process = process;
  info.size = size;
  info.flags = MESHVK_BUFFER_STAGING_BIT;
  MESHVK_RETURN_IF_ERROR(FromC(meshvk_buffer_create_with_info(set, &info, &landing),
                               path + ": landing buffer for bytes from rank " + std::to_string(rank_of_[src])));
  landings_.push_back(landing);
  *out = landing;
  if (carried) {  // a group's transport call fills it
    block_landings_[{function, carried->first, carried->second}].push_back(
        {landing, where.logical_device, where.queue_family});
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
  sent_ = received_ = host_ns_ = staged_ = 0;
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
    staged_ += o.size;
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
    // A landing buffer the host maps takes the bytes straight from the
    // transport (nothing on the device reads it before the consuming segment
    // is submitted; the submission makes host writes visible).
    if (auto* mapped = static_cast<uint8_t*>(meshvk_buffer_host_address(r.landing)); mapped && UseMapped()) {
      MESHVK_RETURN_IF_ERROR(ReceiveInto(r.from_rank, r.tag, mapped + r.offset, r.size));
      continue;
    }
    bytes.resize(r.size);
    MESHVK_RETURN_IF_ERROR(ReceiveInto(r.from_rank, r.tag, bytes.data(), r.size));
    MESHVK_RETURN_IF_ERROR(
        FromC(meshvk_buffer_write(r.landing, r.offset, bytes.data(), r.size),
              "staging in " + std::to_string(r.size) + " bytes from rank " + std::to_string(r.from_rank)));
    staged_ += r.size;
  }
  return Status();
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

namespace {

// What both plan queries below check before planning: the function exists,
// every process is mapped to one of `rank_count` ranks, the mode is known.
// Fills *rank_of with the map.
meshvk::Status CheckRankQuery(const meshvk_module_t* module, uint32_t function, const uint32_t* process_rank,
                              uint32_t rank_count, meshvk_rank_collective_mode_t mode, std::vector<uint32_t>* rank_of) {
  using meshvk::MakeStatus;
  const meshvk::mvk::Artifact* artifact = module->artifact;
  if (!artifact->functions() || function >= artifact->functions()->size())
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "function %u out of range", function);
  if (!meshvk::module::IsRankCollectiveMode(mode))
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "collective mode %d: expected a meshvk_rank_collective_mode_t (MESHVK_RANK_COLLECTIVES_*)",
                      static_cast<int>(mode));
  rank_of->assign(process_rank, process_rank + artifact->processes()->size());
  for (uint32_t p = 0; p < rank_of->size(); ++p)
    if ((*rank_of)[p] >= rank_count)
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "process %u is mapped to rank %u of %u", p, (*rank_of)[p],
                        rank_count);
  return meshvk::Status();
}

}  // namespace

extern "C" {

const char* meshvk_rank_collective_mode_name(meshvk_rank_collective_mode_t mode) {
  switch (mode) {
    case MESHVK_RANK_COLLECTIVES_TRANSPORT:
      return "transport";
    case MESHVK_RANK_COLLECTIVES_RING:
      return "ring";
    case MESHVK_RANK_COLLECTIVES_COPIES:
      return "copies";
    case MESHVK_RANK_COLLECTIVES_STAGED:
      return "staged";
  }
  return nullptr;
}

meshvk_status_t meshvk_module_rank_bytes(const meshvk_module_t* module, uint32_t function, const uint32_t* process_rank,
                                         uint32_t rank_count, uint32_t root_rank, meshvk_rank_collective_mode_t mode,
                                         uint64_t* out_sent, uint64_t* out_received) {
  using meshvk::MakeStatus;
  namespace mvk = meshvk::mvk;
  if (!module || !process_rank || !out_sent || !out_received)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "module, process_rank or outputs are NULL").ToC();
  if (root_rank >= rank_count)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_module_rank_bytes: root_rank %u of %u ranks", root_rank,
                      rank_count)
        .ToC();
  std::vector<uint32_t> rank_of;
  if (meshvk::Status checked = CheckRankQuery(module, function, process_rank, rank_count, mode, &rank_of);
      !checked.ok())
    return checked.ToC();
  const mvk::Artifact* artifact = module->artifact;
  std::fill(out_sent, out_sent + rank_count, 0);
  std::fill(out_received, out_received + rank_count, 0);
  const meshvk::module::RankCollectivePlan plan =
      meshvk::module::PlanRankCollectives(artifact, module->schedule.functions[function], function, rank_of, mode);
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
                                               meshvk_rank_collective_mode_t mode, meshvk_rank_collective_t* out_groups,
                                               uint32_t capacity, uint32_t* out_count) {
  using meshvk::MakeStatus;
  if (!module || !process_rank || !out_count || (capacity && !out_groups))
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "module, process_rank or outputs are NULL").ToC();
  std::vector<uint32_t> rank_of;
  if (meshvk::Status checked = CheckRankQuery(module, function, process_rank, rank_count, mode, &rank_of);
      !checked.ok())
    return checked.ToC();
  const meshvk::module::RankCollectivePlan plan = meshvk::module::PlanRankCollectives(
      module->artifact, module->schedule.functions[function], function, rank_of, mode);
  const uint32_t written = std::min(capacity, static_cast<uint32_t>(plan.groups.size()));
  if (meshvk::Status checked = meshvk::CheckElements(out_groups, written, MESHVK_STRUCTURE_TYPE_RANK_COLLECTIVE,
                                                     "meshvk_module_rank_collectives: out_groups");
      !checked.ok())
    return checked.ToC();
  *out_count = static_cast<uint32_t>(plan.groups.size());
  for (uint32_t i = 0; i < written; ++i) {
    const meshvk::module::RankGroup& g = plan.groups[i];
    meshvk_rank_collective_t out = MESHVK_RANK_COLLECTIVE_INIT;
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
    meshvk::FillKeepingHeader(&out_groups[i], out);
  }
  return MESHVK_OK;
}

}  // extern "C"
