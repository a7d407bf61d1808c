// The in-process transport (meshvk/transport.h): ranks are threads of one
// process, messages go through mailboxes keyed by (from, to, tag). It runs
// the same executor path as the MPI transport, so tests exercise cross-rank
// copies without mpirun. Its all_gather, all_gather_pieces, broadcast and
// all_to_all are the transport collectives the runtime calls (as
// MPI_Allgatherv, MPI_Isend/MPI_Irecv, MPI_Bcast, MPI_Alltoallv under
// mpirun); it has no all_reduce or reduce_scatter, so the runtime's own
// exchanges run for those.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <new>
#include <tuple>
#include <vector>

#include "meshvk/transport.h"
#include "status.h"

struct meshvk_in_process_hub_s {
  std::mutex lock;
  std::condition_variable arrived;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::deque<std::vector<uint8_t>>> mailboxes;
  std::atomic<uint32_t> references{1};
  uint64_t timeout_ns = 0;  // meshvk_timeout_t
  struct Endpoint {
    meshvk_in_process_hub_s* hub;
    uint32_t rank;
  };
  std::vector<Endpoint> endpoints;
};

namespace {

int Send(void* user, uint32_t to, uint32_t tag, const void* data, uint64_t size) {
  auto* e = static_cast<meshvk_in_process_hub_s::Endpoint*>(user);
  const uint8_t* bytes = static_cast<const uint8_t*>(data);
  std::lock_guard<std::mutex> guard(e->hub->lock);
  e->hub->mailboxes[{e->rank, to, tag}].emplace_back(bytes, bytes + size);
  e->hub->arrived.notify_all();
  return 0;
}

int Receive(void* user, uint32_t from, uint32_t tag, void* data, uint64_t size) {
  auto* e = static_cast<meshvk_in_process_hub_s::Endpoint*>(user);
  meshvk_in_process_hub_s* hub = e->hub;
  std::unique_lock<std::mutex> guard(hub->lock);
  auto& box = hub->mailboxes[{from, e->rank, tag}];
  const auto arrived = [&] { return !box.empty(); };
  if (hub->timeout_ns == MESHVK_TIMEOUT_INFINITE) {
    hub->arrived.wait(guard, arrived);
  } else if (!hub->arrived.wait_for(guard, std::chrono::nanoseconds(std::min<uint64_t>(hub->timeout_ns, INT64_MAX)),
                                    arrived)) {
    return 1;  // timed out
  }
  std::vector<uint8_t> message = std::move(box.front());
  box.pop_front();
  if (message.size() != size) return 2;  // the sender and receiver disagree on the size
  std::copy(message.begin(), message.end(), static_cast<uint8_t*>(data));
  return 0;
}

int WaitSends(void*) { return 0; }  // sends copied their data

// The collectives, over the same mailboxes with tags MPI never uses (above
// 32767), one per call kind: messages between two ranks with one tag keep
// their order, and every rank makes the calls in the same order.
constexpr uint32_t kAllGatherTag = 1u << 20, kBroadcastTag = kAllGatherTag + 1, kAllToAllTag = kAllGatherTag + 2,
                   kPiecesTag = kAllGatherTag + 3;

uint32_t PositionOf(void* user, const uint32_t* ranks, uint32_t rank_count) {
  const uint32_t me = static_cast<meshvk_in_process_hub_s::Endpoint*>(user)->rank;
  return static_cast<uint32_t>(std::find(ranks, ranks + rank_count, me) - ranks);
}

int AllGather(void* user, const uint32_t* ranks, uint32_t rank_count, void* data, const uint64_t* bytes) {
  const uint32_t me = PositionOf(user, ranks, rank_count);
  std::vector<uint64_t> at(rank_count, 0);
  for (uint32_t i = 1; i < rank_count; ++i) at[i] = at[i - 1] + bytes[i - 1];
  uint8_t* base = static_cast<uint8_t*>(data);
  for (uint32_t i = 0; i < rank_count; ++i)
    if (i != me)
      if (int code = Send(user, ranks[i], kAllGatherTag, base + at[me], bytes[me])) return code;
  for (uint32_t i = 0; i < rank_count; ++i)
    if (i != me)
      if (int code = Receive(user, ranks[i], kAllGatherTag, base + at[i], bytes[i])) return code;
  return 0;
}

// Each of this rank's pieces to every other rank, one message each; each
// other rank's pieces received in its order.
int AllGatherPieces(void* user, const uint32_t* ranks, uint32_t rank_count, const meshvk_transport_piece_t* pieces,
                    const uint32_t* piece_counts) {
  const uint32_t me = PositionOf(user, ranks, rank_count);
  std::vector<uint32_t> first(rank_count, 0);
  for (uint32_t i = 1; i < rank_count; ++i) first[i] = first[i - 1] + piece_counts[i - 1];
  for (uint32_t i = 0; i < rank_count; ++i)
    for (uint32_t k = 0; i != me && k < piece_counts[me]; ++k)
      if (int code = Send(user, ranks[i], kPiecesTag, pieces[first[me] + k].data, pieces[first[me] + k].bytes))
        return code;
  for (uint32_t i = 0; i < rank_count; ++i)
    for (uint32_t k = 0; i != me && k < piece_counts[i]; ++k)
      if (int code = Receive(user, ranks[i], kPiecesTag, pieces[first[i] + k].data, pieces[first[i] + k].bytes))
        return code;
  return 0;
}

int Broadcast(void* user, const uint32_t* ranks, uint32_t rank_count, uint32_t root, void* data, uint64_t bytes) {
  const uint32_t me = PositionOf(user, ranks, rank_count);
  if (me != root) return Receive(user, ranks[root], kBroadcastTag, data, bytes);
  for (uint32_t i = 0; i < rank_count; ++i)
    if (i != me)
      if (int code = Send(user, ranks[i], kBroadcastTag, data, bytes)) return code;
  return 0;
}

int AllToAll(void* user, const uint32_t* ranks, uint32_t rank_count, const void* send, const uint64_t* send_bytes,
             void* recv, const uint64_t* recv_bytes) {
  const uint8_t* out = static_cast<const uint8_t*>(send);
  uint8_t* in = static_cast<uint8_t*>(recv);
  for (uint32_t i = 0; i < rank_count; out += send_bytes[i++])
    if (send_bytes[i])
      if (int code = Send(user, ranks[i], kAllToAllTag, out, send_bytes[i])) return code;
  for (uint32_t i = 0; i < rank_count; in += recv_bytes[i++])
    if (recv_bytes[i])
      if (int code = Receive(user, ranks[i], kAllToAllTag, in, recv_bytes[i])) return code;
  return 0;
}

}  // namespace

extern "C" {

meshvk_status_t meshvk_transport_in_process_create(uint32_t rank_count, meshvk_timeout_t timeout,
                                                   meshvk_transport_t* out_transports,
                                                   meshvk_in_process_hub_t** out_hub) {
  if (out_hub) *out_hub = nullptr;  // NULL after any failure
  if (!out_hub || !out_transports || rank_count == 0)
    return meshvk::MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                              "meshvk_transport_in_process_create: need rank_count > 0, out_transports and out_hub")
        .ToC();
  auto* hub = new (std::nothrow) meshvk_in_process_hub_s;
  if (!hub) return meshvk::MakeStatus(MESHVK_STATUS_RESOURCE_EXHAUSTED, "in-process transport hub").ToC();
  hub->timeout_ns = timeout;
  hub->endpoints.resize(rank_count);
  for (uint32_t r = 0; r < rank_count; ++r) {
    hub->endpoints[r] = {hub, r};
    // No all_reduce: the runtime's ring over send/receive runs instead.
    meshvk_transport_t t = MESHVK_TRANSPORT_INIT;
    t.type = MESHVK_STRUCTURE_TYPE_TRANSPORT;
    t.user = &hub->endpoints[r];
    t.rank = r;
    t.rank_count = rank_count;
    t.send = Send;
    t.receive = Receive;
    t.wait_sends = WaitSends;
    t.all_gather = AllGather;
    t.broadcast = Broadcast;
    t.all_to_all = AllToAll;
    t.all_gather_pieces = AllGatherPieces;
    out_transports[r] = t;
  }
  *out_hub = hub;
  return MESHVK_OK;
}

void meshvk_transport_in_process_retain(meshvk_in_process_hub_t* hub) {
  if (hub) hub->references.fetch_add(1);
}

void meshvk_transport_in_process_release(meshvk_in_process_hub_t* hub) {
  if (hub && hub->references.fetch_sub(1) == 1) delete hub;
}

}  // extern "C"
