// The host steps of collectives between ranks (rank_collectives.h):
// RemoteCopies::RunNextGroup and one step per transport call: the
// hierarchical all_reduce and reduce_scatter, and the blocks of copy
// collectives (all_gather, broadcast, all_to_all).
#include <algorithm>
#include <cstring>

#include "meshvk/artifact/builder.h"
#include "remote_copies.h"

namespace meshvk::module {
namespace {

// "0, 1, 3" for messages.
std::string RankList(const std::vector<uint32_t>& ranks) {
  std::string text;
  for (uint32_t r : ranks) text += (text.empty() ? "" : ", ") + std::to_string(r);
  return text;
}

}  // namespace

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
// the ranks exchange there: no staging copies; else through host staging.
// With the transport's all_reduce: in chunks (AllReduceMapped /
// AllReduceStaged); without it (or in `ring` mode) the whole partial goes
// through the runtime's ring below.
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
  bool mapped = UseMapped();
  for (size_t i : local) mapped = mapped && address(g.input[i], i) && address(g.output[i], i);
  const uint32_t R = static_cast<uint32_t>(g.ranks.size());
  const uint32_t position = Position(g);
  if (transport_->all_reduce && mode_ != MESHVK_RANK_COLLECTIVES_RING)
    return mapped ? AllReduceMapped(g, local, address, what) : AllReduceStaged(g, local, buffers, what);
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
      staged_ += g.bytes;
      if (j > 0) ReduceInto(g.element_type, g.reduction, group_part_.data(), sum, count);
    }
  }
  // Among the ranks, the runtime's own ring: reduce-scatter, then
  // all-gather (chunk c = elements [count*c/R, count*(c+1)/R)).
  {
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
    staged_ += g.bytes;
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

// The all_reduce through the transport's all_reduce in host-mapped memory,
// in chunks of kAllReduceChunkBytes: each chunk is reduced within the rank
// straight from the local partials into the first local result (one pass),
// all-reduced among the ranks there, and copied to the other local results
// while it is still in the cache. Chunks hold a multiple of R elements (but
// the last), so the ring bytes of the chunks add up to the whole's exactly.
Status RemoteCopies::AllReduceMapped(const RankGroup& g, const std::vector<size_t>& local,
                                     const std::function<uint8_t*(const mvk::BufferBinding&, size_t)>& address,
                                     const std::string& what) {
  const uint32_t size = artifact::ElementSize(static_cast<artifact::ElementType>(g.element_type));
  const uint64_t count = g.bytes / size;
  const uint32_t R = static_cast<uint32_t>(g.ranks.size());
  const uint64_t chunk = std::max<uint64_t>(R, kAllReduceChunkBytes / size / R * R);
  uint8_t* sum = address(g.output[local[0]], local[0]);
  for (uint64_t first = 0; first < count; first += chunk) {
    const uint64_t n = std::min(chunk, count - first), at = first * size;
    const uint8_t* in0 = address(g.input[local[0]], local[0]) + at;
    if (local.size() == 1) {
      if (in0 != sum + at) std::memmove(sum + at, in0, n * size);
    } else {
      ReduceTwo(g.element_type, g.reduction, in0, address(g.input[local[1]], local[1]) + at, sum + at, n);
      for (size_t j = 2; j < local.size(); ++j)
        ReduceInto(g.element_type, g.reduction, address(g.input[local[j]], local[j]) + at, sum + at, n);
    }
    if (int code = transport_->all_reduce(transport_->user, g.ranks.data(), R, sum + at, n,
                                          static_cast<uint32_t>(g.element_type), static_cast<uint32_t>(g.reduction)))
      return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: transport all_reduce among ranks %s failed (code %d)",
                        what.c_str(), RankList(g.ranks).c_str(), code);
    for (size_t j = 1; j < local.size(); ++j)
      std::memcpy(address(g.output[local[j]], local[j]) + at, sum + at, n * size);
  }
  staged_ += g.bytes * (local.size() - 1);
  CountGroupTraffic(g, Position(g));
  return Status();
}

// The all_reduce through the transport's all_reduce and host staging
// (device-local memory), in the same chunks as AllReduceMapped: each chunk of
// the local partials is staged out, reduced, all-reduced and staged into
// every local result while it is still in the cache (whole partials made
// four passes over memory the cache cannot hold).
Status RemoteCopies::AllReduceStaged(const RankGroup& g, const std::vector<size_t>& local,
                                     const std::vector<std::vector<meshvk_buffer_t*>>& buffers,
                                     const std::string& what) {
  const uint32_t size = artifact::ElementSize(static_cast<artifact::ElementType>(g.element_type));
  const uint64_t count = g.bytes / size;
  const uint32_t R = static_cast<uint32_t>(g.ranks.size());
  const uint64_t chunk = std::max<uint64_t>(R, kAllReduceChunkBytes / size / R * R);
  group_sum_.resize(std::min(chunk, count) * size);
  group_part_.resize(group_sum_.size());
  uint8_t *sum = group_sum_.data(), *part = group_part_.data();
  for (uint64_t first = 0; first < count; first += chunk) {
    const uint64_t n = std::min(chunk, count - first), at = first * size, bytes = n * size;
    for (size_t j = 0; j < local.size(); ++j) {
      const size_t i = local[j];
      MESHVK_RETURN_IF_ERROR(FromC(meshvk_buffer_read(buffers[g.members[i]][g.input[i].buffer()],
                                                      g.input[i].offset() + at, j == 0 ? sum : part, bytes),
                                   what + ": staging out the partial of process " + std::to_string(g.members[i])));
      staged_ += bytes;
      if (j > 0) ReduceInto(g.element_type, g.reduction, part, sum, n);
    }
    if (int code = transport_->all_reduce(transport_->user, g.ranks.data(), R, sum, n,
                                          static_cast<uint32_t>(g.element_type), static_cast<uint32_t>(g.reduction)))
      return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: transport all_reduce among ranks %s failed (code %d)",
                        what.c_str(), RankList(g.ranks).c_str(), code);
    for (size_t i : local) {
      MESHVK_RETURN_IF_ERROR(
          FromC(meshvk_buffer_write(buffers[g.members[i]][g.output[i].buffer()], g.output[i].offset() + at, sum, bytes),
                what + ": staging in the result of process " + std::to_string(g.members[i])));
      staged_ += bytes;
    }
  }
  CountGroupTraffic(g, Position(g));
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
    staged_ += whole;
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
  if (transport_->reduce_scatter && mode_ != MESHVK_RANK_COLLECTIVES_RING) {
    if (int code =
            transport_->reduce_scatter(transport_->user, g.ranks.data(), R, group_order_.data(), counts.data(),
                                       static_cast<uint32_t>(g.element_type), static_cast<uint32_t>(g.reduction)))
      return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: transport reduce_scatter among ranks %s failed (code %d)",
                        what.c_str(), RankList(g.ranks).c_str(), code);
    CountGroupTraffic(g, me);
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
    staged_ += chunk;
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
  if (g.call == TransportCall::kAllGather && transport_->all_gather_pieces &&
      mode_ == MESHVK_RANK_COLLECTIVES_TRANSPORT) {
    bool done = false;
    MESHVK_RETURN_IF_ERROR(GatherMapped(function, g, index, buffers, what, &done));
    if (done) return Status();
  }
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
    staged_ += b.size;
    for (size_t j = 1; !gathered && j < send_at[i].size(); ++j)
      std::memcpy(group_sum_.data() + send_at[i][j], into, b.size);
  }
  const bool own = mode_ != MESHVK_RANK_COLLECTIVES_RING;
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
    CountGroupTraffic(g, me);
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
    for (size_t l = 0; it != block_landings_.end() && l < it->second.size(); ++l) {
      MESHVK_RETURN_IF_ERROR(FromC(meshvk_buffer_write(std::get<0>(it->second[l]), b.offset, in + block_at[i], b.size),
                                   "staging in " + std::to_string(b.size) + " bytes of process " +
                                       std::to_string(b.process) + " from rank " + std::to_string(g.ranks[b.from])));
      staged_ += b.size;
    }
  }
  return Status();
}

// The all_gather without staging, where every block this rank owns and the
// first landing buffer of every other block are host-mapped device memory:
// one all_gather_pieces call sends the owned blocks from where the kernels
// wrote them and receives each other block straight into its landing
// buffer (the step already waited for every local process: the blocks are
// complete and no device reads the landing buffers); a block's further
// landing buffers (other VkDevices of this rank) get a host copy of it.
// Blocks are sorted by owner, so block order is the pieces' rank order on
// every rank.
Status RemoteCopies::GatherMapped(uint32_t function, const RankGroup& g, uint32_t index,
                                  const std::vector<std::vector<meshvk_buffer_t*>>& buffers, const std::string& what,
                                  bool* done) {
  const uint32_t R = static_cast<uint32_t>(g.ranks.size()), me = Position(g);
  std::vector<meshvk_transport_piece_t> pieces;
  std::vector<uint32_t> counts(R, 0);
  for (uint32_t i = 0; i < g.blocks.size(); ++i) {
    const Block& b = g.blocks[i];
    meshvk_buffer_t* at = buffers[b.process][b.buffer];
    if (b.from != me) {
      auto it = block_landings_.find({function, index, i});
      at = it == block_landings_.end() || it->second.empty() ? nullptr : std::get<0>(it->second[0]);
    }
    auto* base = static_cast<uint8_t*>(meshvk_buffer_host_address(at));
    if (!base) {
      *done = false;
      return Status();
    }
    pieces.push_back({base + b.offset, b.size});
    ++counts[b.from];
  }
  *done = true;
  if (int code = transport_->all_gather_pieces(transport_->user, g.ranks.data(), R, pieces.data(), counts.data()))
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: transport all_gather_pieces among ranks %s failed (code %d)",
                      what.c_str(), RankList(g.ranks).c_str(), code);
  CountGroupTraffic(g, me);
  for (uint32_t i = 0; i < g.blocks.size(); ++i) {
    const Block& b = g.blocks[i];
    if (b.from == me) continue;
    const auto& landings = block_landings_.at({function, index, i});
    for (size_t l = 1; l < landings.size(); ++l) {
      MESHVK_RETURN_IF_ERROR(FromC(meshvk_buffer_write(std::get<0>(landings[l]), b.offset, pieces[i].data, b.size),
                                   "copying " + std::to_string(b.size) + " bytes of process " +
                                       std::to_string(b.process) + " from rank " + std::to_string(g.ranks[b.from]) +
                                       " to another device"));
      staged_ += b.size;
    }
  }
  return Status();
}

uint32_t RemoteCopies::Position(const RankGroup& g) const {
  return static_cast<uint32_t>(std::lower_bound(g.ranks.begin(), g.ranks.end(), transport_->rank) - g.ranks.begin());
}

void RemoteCopies::CountGroupTraffic(const RankGroup& g, uint32_t position) {
  uint64_t sent = 0, received = 0;
  GroupTraffic(g, position, &sent, &received);
  sent_ += sent;
  received_ += received;
}

}  // namespace meshvk::module
