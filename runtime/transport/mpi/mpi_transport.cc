// The MPI transport (meshvk/transport_mpi.h): meshvk_transport_t's calls
// as MPI point-to-point messages and collectives, and its C API.
#include "mpi_transport.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

namespace meshvk::mpi {

namespace {
// The reductions MPI cannot do itself, as user-defined MPI_Ops that run the
// runtime's own host reduction (meshvk_transport_reduce): every f16 one (MPI
// has no half type: MPI_UINT16_T elements) and float max/min (MPI_MAX leaves
// NaN to the implementation; meshvk's propagate or ignore it as the devices
// do). Made on first use, freed before MPI_Finalize. [0]: f32, [1]: f16.
constexpr uint32_t kReductions = MESHVK_TRANSPORT_MIN_NUM + 1;
std::array<std::array<MPI_Op, kReductions>, 2> host_ops = [] {
  std::array<std::array<MPI_Op, kReductions>, 2> none;
  for (auto& ops : none) ops.fill(MPI_OP_NULL);  // not necessarily 0
  return none;
}();

template <uint32_t kType, uint32_t kReduction>
void HostReduction(void* in, void* inout, int* len, MPI_Datatype*) {
  meshvk_transport_reduce(kType, kReduction, in, inout, static_cast<uint64_t>(*len));
}
using HostFunction = void (*)(void*, void*, int*, MPI_Datatype*);
template <uint32_t kType>
constexpr HostFunction kHostFunctions[kReductions] = {nullptr,
                                                      HostReduction<kType, MESHVK_TRANSPORT_SUM>,
                                                      HostReduction<kType, MESHVK_TRANSPORT_PRODUCT>,
                                                      HostReduction<kType, MESHVK_TRANSPORT_MAX>,
                                                      HostReduction<kType, MESHVK_TRANSPORT_MIN>,
                                                      HostReduction<kType, MESHVK_TRANSPORT_MAX_NUM>,
                                                      HostReduction<kType, MESHVK_TRANSPORT_MIN_NUM>};
}  // namespace

MpiTransport::MpiTransport(bool owns_mpi) : owns_mpi_(owns_mpi) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  transport_ = meshvk_transport_t{MESHVK_STRUCTURE_TYPE_TRANSPORT,
                                  nullptr,
                                  this,
                                  static_cast<uint32_t>(rank),
                                  static_cast<uint32_t>(size),
                                  &MpiTransport::Send,
                                  &MpiTransport::Receive,
                                  &MpiTransport::WaitSends,
                                  &MpiTransport::AllReduce,
                                  &MpiTransport::AllGather,
                                  &MpiTransport::Broadcast,
                                  &MpiTransport::AllToAll,
                                  &MpiTransport::ReduceScatter,
                                  &MpiTransport::AllGatherPieces};
}

MpiTransport::~MpiTransport() {
  WaitSends(this);
  for (auto& [ranks, comm] : communicators_) MPI_Comm_free(&comm);  // before MPI_Finalize
  for (auto& ops : host_ops)
    for (MPI_Op& op : ops)
      if (op != MPI_OP_NULL) MPI_Op_free(&op);
  if (owns_mpi_) MPI_Finalize();
}

// One communicator per distinct rank list (a group of a collective), made on
// first use by exactly those ranks (MPI_Comm_create_group is collective over
// the group only; the runtime makes its collective calls in the same order
// on every rank), kept for the transport's life. Communicator rank i =
// ranks[i]. All ranks get a duplicate of MPI_COMM_WORLD: all_gather_pieces
// sends point to point on it, apart from the runtime's own tags on
// MPI_COMM_WORLD.
int MpiTransport::CommunicatorFor(const uint32_t* ranks, uint32_t rank_count, MPI_Comm* out) {
  std::vector<uint32_t> key(ranks, ranks + rank_count);
  auto it = communicators_.find(key);
  if (it == communicators_.end()) {
    MPI_Comm comm = MPI_COMM_NULL;
    if (rank_count == transport_.rank_count) {
      if (int code = MPI_Comm_dup(MPI_COMM_WORLD, &comm)) return code;
    } else {
      MPI_Group world, group;
      MPI_Comm_group(MPI_COMM_WORLD, &world);
      std::vector<int> list(ranks, ranks + rank_count);
      MPI_Group_incl(world, static_cast<int>(rank_count), list.data(), &group);
      int code = MPI_Comm_create_group(MPI_COMM_WORLD, group, 0, &comm);
      MPI_Group_free(&group);
      MPI_Group_free(&world);
      if (code != MPI_SUCCESS) return code;
    }
    it = communicators_.emplace(std::move(key), comm).first;
  }
  *out = it->second;
  return MPI_SUCCESS;
}

// MPI's type, operation and element size for a transport element type /
// reduction (false: one it does not know).
static bool MpiReduction(uint32_t element_type, uint32_t reduction, MPI_Datatype* type, MPI_Op* op,
                         uint32_t* element_size) {
  if (reduction < MESHVK_TRANSPORT_SUM || reduction > MESHVK_TRANSPORT_MIN_NUM) return false;
  const bool half = element_type == MESHVK_TRANSPORT_F16;
  if (half || (element_type == MESHVK_TRANSPORT_F32 && reduction >= MESHVK_TRANSPORT_MAX)) {
    MPI_Op& made = host_ops[half][reduction];
    HostFunction function =
        half ? kHostFunctions<MESHVK_TRANSPORT_F16>[reduction] : kHostFunctions<MESHVK_TRANSPORT_F32>[reduction];
    if (made == MPI_OP_NULL && MPI_Op_create(function, 1, &made) != MPI_SUCCESS) return false;
    *type = half ? MPI_UINT16_T : MPI_FLOAT;
    *op = made;
    *element_size = half ? 2 : 4;
    return true;
  }
  if (element_type != MESHVK_TRANSPORT_I32 && element_type != MESHVK_TRANSPORT_F32) return false;
  *type = element_type == MESHVK_TRANSPORT_I32 ? MPI_INT : MPI_FLOAT;
  *op = reduction == MESHVK_TRANSPORT_PRODUCT                                        ? MPI_PROD
        : reduction == MESHVK_TRANSPORT_MAX || reduction == MESHVK_TRANSPORT_MAX_NUM ? MPI_MAX
        : reduction == MESHVK_TRANSPORT_MIN || reduction == MESHVK_TRANSPORT_MIN_NUM ? MPI_MIN
                                                                                     : MPI_SUM;
  *element_size = 4;
  return true;
}

// What an all_reduce / reduce_scatter call needs: the ranks' communicator,
// MPI's element type and operation, the element size.
struct ReductionCall {
  MPI_Comm comm;
  MPI_Datatype type;
  MPI_Op op;
  uint32_t size;
};
int MpiTransport::PrepareReduction(const uint32_t* ranks, uint32_t rank_count, uint32_t element_type,
                                   uint32_t reduction, ReductionCall* out) {
  if (int code = CommunicatorFor(ranks, rank_count, &out->comm)) return code;
  return MpiReduction(element_type, reduction, &out->type, &out->op, &out->size) ? 0 : -3;
}

uint32_t MpiTransport::Position(const uint32_t* ranks, uint32_t rank_count) const {
  uint32_t position = 0;
  while (position < rank_count && ranks[position] != transport_.rank) ++position;
  return position;
}

int MpiTransport::AllReduce(void* user, const uint32_t* ranks, uint32_t rank_count, void* data, uint64_t count,
                            uint32_t element_type, uint32_t reduction) {
  auto* self = static_cast<MpiTransport*>(user);
  ReductionCall call;
  if (int code = self->PrepareReduction(ranks, rank_count, element_type, reduction, &call)) return code;
  const auto [comm, type, op, size] = call;
  auto* bytes = static_cast<uint8_t*>(data);
  for (uint64_t done = 0; done < count;) {  // MPI counts are int
    const int n = static_cast<int>(std::min<uint64_t>(count - done, INT_MAX / 4));
    int code = MPI_Allreduce(MPI_IN_PLACE, bytes + done * size, n, type, op, comm);
    if (code != MPI_SUCCESS) return code;
    done += static_cast<uint64_t>(n);
  }
  const uint32_t position = self->Position(ranks, rank_count);
  self->sent_ += meshvk_transport_ring_bytes(count, size, rank_count, position);
  self->received_ += meshvk_transport_ring_bytes(count, size, rank_count, (position + rank_count - 1) % rank_count);
  ++self->collectives_;
  return 0;
}

int MpiTransport::ReduceScatter(void* user, const uint32_t* ranks, uint32_t rank_count, void* data,
                                const uint64_t* counts, uint32_t element_type, uint32_t reduction) {
  auto* self = static_cast<MpiTransport*>(user);
  ReductionCall call;
  if (int code = self->PrepareReduction(ranks, rank_count, element_type, reduction, &call)) return code;
  const auto [comm, type, op, size] = call;
  std::vector<int> recv_counts;
  uint64_t total = 0;
  for (uint32_t i = 0; i < rank_count; ++i) {
    total += counts[i];
    recv_counts.push_back(static_cast<int>(counts[i]));
  }
  if (total > static_cast<uint64_t>(INT_MAX)) return -1;  // MPI counts are int
  int code = MPI_Reduce_scatter(MPI_IN_PLACE, data, recv_counts.data(), type, op, comm);
  if (code != MPI_SUCCESS) return code;
  // Each rank's segment from each other rank (what the plan counts).
  const uint32_t me = self->Position(ranks, rank_count);
  for (uint32_t i = 0; i < rank_count; ++i)
    if (i != me) {
      self->sent_ += counts[i] * size;
      self->received_ += counts[me] * size;
    }
  ++self->collectives_;
  return 0;
}

// MPI's counts and displacements are int. The v-collectives count in units
// of the largest power of two up to 1 MiB that divides every byte count (an
// MPI_Type_contiguous of that many bytes): blocks of whole elements give
// units of 4 bytes at least, so a call may move 8 GiB and far more; only one
// moving more than 2^31-1 units is refused (code -1).
constexpr uint64_t kMaxUnit = uint64_t(1) << 20;
static uint64_t CommonUnit(uint64_t unit, const uint64_t* bytes, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i)
    while (bytes[i] % unit) unit /= 2;
  return unit;
}
static bool IntCounts(const uint64_t* bytes, uint32_t n, uint64_t unit, std::vector<int>* counts,
                      std::vector<int>* displs) {
  uint64_t at = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if ((at + bytes[i]) / unit > static_cast<uint64_t>(INT_MAX)) return false;
    counts->push_back(static_cast<int>(bytes[i] / unit));
    displs->push_back(static_cast<int>(at / unit));
    at += bytes[i];
  }
  return true;
}
// The committed MPI type of one unit, freed at the end of the call.
class UnitType {
 public:
  explicit UnitType(uint64_t unit) {
    if (unit > 1 && (MPI_Type_contiguous(static_cast<int>(unit), MPI_BYTE, &type_) != MPI_SUCCESS ||
                     MPI_Type_commit(&type_) != MPI_SUCCESS))
      type_ = MPI_DATATYPE_NULL;
  }
  ~UnitType() {
    if (type_ != MPI_BYTE && type_ != MPI_DATATYPE_NULL) MPI_Type_free(&type_);
  }
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_BYTE;
};

int MpiTransport::AllGather(void* user, const uint32_t* ranks, uint32_t rank_count, void* data, const uint64_t* bytes) {
  auto* self = static_cast<MpiTransport*>(user);
  MPI_Comm comm;
  if (int code = self->CommunicatorFor(ranks, rank_count, &comm)) return code;
  std::vector<int> counts, displs;
  const uint64_t unit = CommonUnit(kMaxUnit, bytes, rank_count);
  if (!IntCounts(bytes, rank_count, unit, &counts, &displs)) return -1;
  UnitType type(unit);
  if (type.get() == MPI_DATATYPE_NULL) return -1;
  int code = MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data, counts.data(), displs.data(), type.get(), comm);
  if (code != MPI_SUCCESS) return code;
  self->CountAllGather(bytes, rank_count, self->Position(ranks, rank_count));
  return 0;
}

// A message over 1 GiB goes as several (MPI counts are int), cut the same
// way on both sides; messages with one tag between two ranks keep their
// order, so the pieces arrive in order.
constexpr uint64_t kMessagePiece = uint64_t(1) << 30;

// Nonblocking receives of every other rank's pieces and sends of this
// rank's pieces to every other rank, on the group's communicator (tag 0:
// messages from one rank keep their order), then one wait for all: what
// MPI_Allgatherv does between two ranks, from and into the pieces' own
// memory. A piece over 1 GiB goes as several messages (MPI counts are int),
// cut the same way on both sides.
int MpiTransport::AllGatherPieces(void* user, const uint32_t* ranks, uint32_t rank_count,
                                  const meshvk_transport_piece_t* pieces, const uint32_t* piece_counts) {
  auto* self = static_cast<MpiTransport*>(user);
  MPI_Comm comm;
  if (int code = self->CommunicatorFor(ranks, rank_count, &comm)) return code;
  const uint32_t me = self->Position(ranks, rank_count);
  std::vector<uint32_t> first(rank_count, 0);
  std::vector<uint64_t> bytes(rank_count, 0);
  for (uint32_t i = 0; i < rank_count; ++i) {
    if (i > 0) first[i] = first[i - 1] + piece_counts[i - 1];
    for (uint32_t k = 0; k < piece_counts[i]; ++k) bytes[i] += pieces[first[i] + k].bytes;
  }
  std::vector<MPI_Request> requests;
  int code = MPI_SUCCESS;
  auto post = [&](uint32_t owner, uint32_t peer, bool receive) {
    for (uint32_t k = 0; code == MPI_SUCCESS && k < piece_counts[owner]; ++k) {
      auto* data = static_cast<uint8_t*>(pieces[first[owner] + k].data);
      const uint64_t size = pieces[first[owner] + k].bytes;
      for (uint64_t at = 0; code == MPI_SUCCESS && at < size; at += kMessagePiece) {
        const int n = static_cast<int>(std::min(kMessagePiece, size - at));
        requests.emplace_back();
        code = receive ? MPI_Irecv(data + at, n, MPI_BYTE, static_cast<int>(peer), 0, comm, &requests.back())
                       : MPI_Isend(data + at, n, MPI_BYTE, static_cast<int>(peer), 0, comm, &requests.back());
        if (code != MPI_SUCCESS) requests.pop_back();
      }
    }
  };
  for (uint32_t i = 0; i < rank_count; ++i)
    if (i != me) post(i, i, true);
  for (uint32_t i = 0; i < rank_count; ++i)
    if (i != me) post(me, i, false);
  // Even after a failed post: the posted ones must finish before their
  // memory is reused.
  const int waited = requests.empty()
                         ? MPI_SUCCESS
                         : MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  if (code != MPI_SUCCESS) return code;
  if (waited != MPI_SUCCESS) return waited;
  self->CountAllGather(bytes.data(), rank_count, me);
  return 0;
}

// Each rank's block reaches each other rank once (what the plan counts).
void MpiTransport::CountAllGather(const uint64_t* bytes, uint32_t rank_count, uint32_t me) {
  for (uint32_t i = 0; i < rank_count; ++i)
    if (i != me) {
      sent_ += bytes[me];
      received_ += bytes[i];
    }
  ++collectives_;
}

int MpiTransport::Broadcast(void* user, const uint32_t* ranks, uint32_t rank_count, uint32_t root, void* data,
                            uint64_t bytes) {
  auto* self = static_cast<MpiTransport*>(user);
  MPI_Comm comm;
  if (int code = self->CommunicatorFor(ranks, rank_count, &comm)) return code;
  auto* base = static_cast<uint8_t*>(data);
  for (uint64_t done = 0; done < bytes;) {
    const int n = static_cast<int>(std::min<uint64_t>(bytes - done, INT_MAX));
    int code = MPI_Bcast(base + done, n, MPI_BYTE, static_cast<int>(root), comm);
    if (code != MPI_SUCCESS) return code;
    done += static_cast<uint64_t>(n);
  }
  if (self->Position(ranks, rank_count) == root)
    self->sent_ += bytes * (rank_count - 1);
  else
    self->received_ += bytes;
  ++self->collectives_;
  return 0;
}

int MpiTransport::AllToAll(void* user, const uint32_t* ranks, uint32_t rank_count, const void* send,
                           const uint64_t* send_bytes, void* recv, const uint64_t* recv_bytes) {
  auto* self = static_cast<MpiTransport*>(user);
  MPI_Comm comm;
  if (int code = self->CommunicatorFor(ranks, rank_count, &comm)) return code;
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs;
  const uint64_t unit = CommonUnit(CommonUnit(kMaxUnit, send_bytes, rank_count), recv_bytes, rank_count);
  if (!IntCounts(send_bytes, rank_count, unit, &send_counts, &send_displs) ||
      !IntCounts(recv_bytes, rank_count, unit, &recv_counts, &recv_displs))
    return -1;
  UnitType type(unit);
  if (type.get() == MPI_DATATYPE_NULL) return -1;
  int code = MPI_Alltoallv(send, send_counts.data(), send_displs.data(), type.get(), recv, recv_counts.data(),
                           recv_displs.data(), type.get(), comm);
  if (code != MPI_SUCCESS) return code;
  for (uint32_t i = 0; i < rank_count; ++i) {
    self->sent_ += send_bytes[i];
    self->received_ += recv_bytes[i];
  }
  ++self->collectives_;
  return 0;
}

int MpiTransport::Send(void* user, uint32_t to, uint32_t tag, const void* data, uint64_t size) {
  auto* self = static_cast<MpiTransport*>(user);
  const auto* bytes = static_cast<const uint8_t*>(data);
  uint64_t at = 0;
  do {  // at least one message: an empty one too
    const int n = static_cast<int>(std::min(kMessagePiece, size - at));
    MPI_Request request;
    int code =
        MPI_Isend(bytes + at, n, MPI_BYTE, static_cast<int>(to), static_cast<int>(tag), MPI_COMM_WORLD, &request);
    if (code != MPI_SUCCESS) return code;
    self->requests_.push_back(request);
    at += static_cast<uint64_t>(n);
  } while (at < size);
  self->sent_ += size;
  return 0;
}

int MpiTransport::Receive(void* user, uint32_t from, uint32_t tag, void* data, uint64_t size) {
  auto* self = static_cast<MpiTransport*>(user);
  auto* bytes = static_cast<uint8_t*>(data);
  uint64_t at = 0;
  do {
    const int n = static_cast<int>(std::min(kMessagePiece, size - at));
    MPI_Status status;
    int code =
        MPI_Recv(bytes + at, n, MPI_BYTE, static_cast<int>(from), static_cast<int>(tag), MPI_COMM_WORLD, &status);
    if (code != MPI_SUCCESS) return code;
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    if (count != n) return -2;  // the ranks disagree on the plan
    at += static_cast<uint64_t>(n);
  } while (at < size);
  self->received_ += size;
  return 0;
}

int MpiTransport::WaitSends(void* user) {
  auto* self = static_cast<MpiTransport*>(user);
  std::vector<MPI_Request>& requests = self->requests_;
  int code = requests.empty() ? MPI_SUCCESS
                              : MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  requests.clear();
  return code == MPI_SUCCESS ? 0 : code;
}

}  // namespace meshvk::mpi
