// meshvk/transport.h — running one program's grid across several ranks
// (machines, or processes of one machine), with the bytes between ranks
// carried by a host transport the caller provides.
//
// Each rank creates the same module's program with the same process -> rank
// map; a rank runs only the grid processes mapped to it (buffers, command
// buffers and submissions of the others are never made). A copy whose source
// process lives on another rank is carried by the transport: the source rank
// stages the bytes the copy reads out to host memory once their producer
// finished (meshvk_buffer_read: the same host staging that copies between
// VkDevices use) and sends them; the destination rank receives them into a
// landing buffer (meshvk_buffer_write) before the consuming segment is
// submitted. Results are gathered to `root_rank`.
//
// The runtime has no MPI dependency: the MPI transport is its own library
// (meshvk/transport_mpi.h, meshvk::transport_mpi); the in-process one below
// (ranks as threads of one process) is the other implementation.
#ifndef MESHVK_TRANSPORT_H_
#define MESHVK_TRANSPORT_H_

#include "meshvk/module.h"
#include "meshvk/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

// One piece of a rank's block in all_gather_pieces: `bytes` bytes at `data`.
typedef struct meshvk_transport_piece_s {
  void* data;
  uint64_t bytes;
} meshvk_transport_piece_t;

// Callbacks return 0 on success, any other value on failure (the runtime
// reports "transport send/receive of N bytes to/from rank R failed (code C)").
// Ordering: messages between two ranks with the same tag arrive in the order
// they were sent (MPI's non-overtaking rule).
typedef struct meshvk_transport_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_TRANSPORT
  const void* next;
  void* user;
  uint32_t rank;  // this rank, < rank_count
  uint32_t rank_count;
  // Starts sending `size` bytes to rank `to`; may return before delivery.
  // `data` stays valid and unchanged until wait_sends returns.
  int (*send)(void* user, uint32_t to, uint32_t tag, const void* data, uint64_t size);
  // Receives exactly `size` bytes sent by rank `from` with `tag`; blocks.
  int (*receive)(void* user, uint32_t from, uint32_t tag, void* data, uint64_t size);
  // Completes every send started so far (the runtime then frees their data).
  int (*wait_sends)(void* user);
  // Optional (NULL: the runtime runs a ring over send/receive instead): an
  // all-reduce among `ranks` (ascending, this rank included) of `count`
  // elements in place. element_type: MESHVK_TRANSPORT_F32 / _F16 / _I32;
  // reduction: MESHVK_TRANSPORT_SUM / _PRODUCT / _MAX / _MIN. Every listed
  // rank calls it with the same arguments, in the same order relative to the
  // other collectives (MPI_Allreduce on a communicator of those ranks).
  int (*all_reduce)(void* user, const uint32_t* ranks, uint32_t rank_count, void* data, uint64_t count,
                    uint32_t element_type, uint32_t reduction);
  // The byte-moving collectives below are optional too (NULL: the runtime
  // sends each rank's blocks point to point, one message per peer rank, the
  // same bytes). Same calling rules as all_reduce; counts are bytes.
  // all_gather, in place (MPI_Allgatherv with MPI_IN_PLACE): `data` holds
  // every listed rank's block, concatenated in `ranks` order, `bytes[i]`
  // from ranks[i]; this rank's block is filled on entry, the others on return.
  int (*all_gather)(void* user, const uint32_t* ranks, uint32_t rank_count, void* data, const uint64_t* bytes);
  // broadcast, in place (MPI_Bcast): `bytes` bytes at `data` from
  // ranks[root] (root: a position in `ranks`) to every listed rank.
  int (*broadcast)(void* user, const uint32_t* ranks, uint32_t rank_count, uint32_t root, void* data, uint64_t bytes);
  // all_to_all (MPI_Alltoallv): `send` holds send_bytes[i] bytes for
  // ranks[i], concatenated in `ranks` order; `recv` gets recv_bytes[i] bytes
  // from ranks[i], concatenated the same way. This rank's own entries are 0.
  int (*all_to_all)(void* user, const uint32_t* ranks, uint32_t rank_count, const void* send,
                    const uint64_t* send_bytes, void* recv, const uint64_t* recv_bytes);
  // Optional (NULL: each rank sends every other rank its segment, point to
  // point, and reduces what it receives): a reduce-scatter among `ranks`, in
  // place (MPI_Reduce_scatter with MPI_IN_PLACE). `data` holds counts[i]
  // elements for ranks[i], concatenated in `ranks` order; on return its first
  // counts[position of this rank] elements hold this rank's segment reduced
  // over the ranks. element_type / reduction as for all_reduce.
  int (*reduce_scatter)(void* user, const uint32_t* ranks, uint32_t rank_count, void* data, const uint64_t* counts,
                        uint32_t element_type, uint32_t reduction);
  // Optional (NULL: all_gather through a host buffer): all_gather where each
  // rank's block is made of pieces at their own addresses, so the runtime
  // hands device memory the host maps (CPU devices, integrated GPUs, ReBAR)
  // straight to the transport, with no staging copy on either side.
  // `pieces` lists every listed rank's pieces, concatenated in `ranks` order,
  // piece_counts[i] of them from ranks[i]; this rank's pieces are read (and
  // not changed), the others' written, each with the bytes of the same piece
  // on its owner. The pieces written never overlap (this rank's, only
  // read, may). Same calling rules as all_reduce. (MPI: nonblocking sends and receives of each piece on the
  // ranks' communicator: what MPI_Allgatherv does between two ranks.)
  int (*all_gather_pieces)(void* user, const uint32_t* ranks, uint32_t rank_count,
                           const meshvk_transport_piece_t* pieces, const uint32_t* piece_counts);
} meshvk_transport_t;
#define MESHVK_TRANSPORT_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_TRANSPORT)

// Values of all_reduce's element_type and reduction (the artifact's own).
enum { MESHVK_TRANSPORT_F32 = 0, MESHVK_TRANSPORT_F16 = 1, MESHVK_TRANSPORT_I32 = 2 };
// Float MAX/MIN propagate NaN (IEEE maximum/minimum, numpy); MAX_NUM/MIN_NUM
// return the other operand of a NaN (C fmax/fmin). MPI's own MPI_MAX leaves
// NaN to the implementation: float max/min need the transport's own operation
// (meshvk_transport_reduce does the arithmetic).
enum {
  MESHVK_TRANSPORT_SUM = 1,
  MESHVK_TRANSPORT_PRODUCT = 2,
  MESHVK_TRANSPORT_MAX = 3,
  MESHVK_TRANSPORT_MIN = 4,
  MESHVK_TRANSPORT_MAX_NUM = 5,
  MESHVK_TRANSPORT_MIN_NUM = 6
};

// Collectives between ranks. The compiler tags the commands of each lowered
// collective (mvk.fbs Command.collective). When the grid spans ranks, the
// runtime runs the part of a tagged collective that crosses ranks through
// the transport, hierarchically, so that each byte crosses ranks once:
//  * all_reduce (direct or reduce_scatter+all_gather lowering, f32, f16, i32),
//    per group whose members sit on two or more ranks: each rank stages its
//    members' partials out (host staging), reduces them on the host,
//    all-reduces that one partial among the group's ranks (the transport's
//    all_reduce, or a ring over send/receive: 2(R-1)/R of the bytes sent and
//    received per rank, the ring minimum), and writes the result into each
//    member's output; the group's copies and reduction kernel are not run.
//  * reduce_scatter (direct lowering, f32/f16/i32, chunks contiguous: the
//    scatter axis outermost): each rank reduces its members' whole partials
//    on the host, reorders them so each rank's members' chunks are adjacent,
//    one reduce-scatter among the ranks (the transport's, or each segment
//    sent to its rank point to point: x its segment received and the
//    others' segments sent per rank), and writes each local member's chunk.
//  * all_gather, broadcast, all_to_all: the copies between ranks become
//    blocks (a source process's span that copies on other ranks read); each
//    rank stages every block it owns out once and one transport collective
//    among the ranks (all_gather when every block goes to every other rank,
//    broadcast when one rank owns them all, else all_to_all) hands each rank
//    each block it needs once, which the host writes into the landing buffer
//    of every local copy reading it; the copies then run on the devices as
//    within one rank. Groups on the same ranks are merged into one call.
//    An all_gather whose blocks and landing buffers are all host-mapped
//    device memory skips the staging: with the transport's
//    all_gather_pieces, the blocks are sent from where the kernels wrote
//    them and received straight into the landing buffers (a host copy only
//    for a further VkDevice of the rank). Likewise a point-to-point copy
//    receives straight into a mapped landing buffer.
// Every other collective (shift: one block to one rank already, all_slice:
// local, halos) and every group within one rank keeps the compiler's
// copies: cross-rank copies go point to point.
// Which transport call a group makes (the artifact's CollectiveKind values).
enum {
  MESHVK_TRANSPORT_ALL_REDUCE = 1,
  MESHVK_TRANSPORT_ALL_GATHER = 2,
  MESHVK_TRANSPORT_REDUCE_SCATTER = 3,
  MESHVK_TRANSPORT_ALL_TO_ALL = 4,
  MESHVK_TRANSPORT_BROADCAST = 5
};
typedef struct meshvk_rank_collective_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_RANK_COLLECTIVE
  const void* next;
  uint32_t collective;    // index in the function's collectives (the artifact)
  uint32_t member_count;  // grid processes in the group (all_reduce) / whose copies it carries
  uint32_t rank_count;    // ranks it spans
  uint32_t first_process;
  uint64_t bytes;           // all_reduce: the reduced tensor, per member; others: the distinct blocks, all ranks
  uint64_t ring_bytes;      // the most any rank of the group sends (all_reduce: a ring's bytes)
  uint32_t call;            // MESHVK_TRANSPORT_ALL_REDUCE / _ALL_GATHER / _REDUCE_SCATTER / _BROADCAST / _ALL_TO_ALL
  uint32_t kind;            // the collective's mvk CollectiveKind (all_to_all may carry an odd all_gather)
  uint64_t received_bytes;  // the most any rank of the group receives
} meshvk_rank_collective_t;
#define MESHVK_RANK_COLLECTIVE_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_RANK_COLLECTIVE)

// How a program on ranks runs the collective groups that span ranks
// (meshvk_program_ranks_t::collectives; mesh-vk-run and the Python package
// take it from MESHVK_RANK_COLLECTIVES). Every rank must choose the same.
typedef enum meshvk_rank_collective_mode_e {
  // The transport's collective calls where it has them (MPI_Allreduce, ...),
  // else the runtime's own exchange over send/receive.
  MESHVK_RANK_COLLECTIVES_TRANSPORT = 0,
  // The runtime's own exchange even where the transport has collectives: a
  // ring for all_reduce, one message per peer rank for blocks.
  MESHVK_RANK_COLLECTIVES_RING = 1,
  // No groups: the compiler's copies, point to point between ranks (for
  // comparisons).
  MESHVK_RANK_COLLECTIVES_COPIES = 2,
  // As TRANSPORT, but every host step stages through host buffers of its own
  // even where device memory is host-mapped (the path of device-local memory).
  MESHVK_RANK_COLLECTIVES_STAGED = 3,
} meshvk_rank_collective_mode_t;

// "transport", "ring", "copies", "staged"; NULL for another value.
const char* meshvk_rank_collective_mode_name(meshvk_rank_collective_mode_t mode);

// Reduces `count` elements of `from` into `into` (into[i] = into[i] op
// from[i]) as the runtime's host steps do; f16 combines in float and rounds
// each result to the nearest half. For transports whose library lacks a type
// (MPI has no half: the MPI transport makes a user-defined MPI_Op
// of it). Unknown types / reductions: nothing.
void meshvk_transport_reduce(uint32_t element_type, uint32_t reduction, const void* from, void* into, uint64_t count);

// Bytes the rank at `position` of `rank_count` sends in a ring all-reduce of
// `count` elements of `element_size` bytes (chunk i = elements
// [count*i/R, count*(i+1)/R); reduce-scatter then all-gather); it receives
// what position-1 sends. 2(R-1)/R of the bytes when R divides count. What the
// runtime counts for a transport's own all_reduce (MPI picks its algorithm).
// 0 when rank_count < 2 or position >= rank_count.
uint64_t meshvk_transport_ring_bytes(uint64_t count, uint32_t element_size, uint32_t rank_count, uint32_t position);

// The groups of `function` that run through the transport under this
// process -> rank map and collective mode (no device; the same decision every
// rank's program makes; none under MESHVK_RANK_COLLECTIVES_COPIES). Writes up
// to `capacity` entries (each initialized with MESHVK_RANK_COLLECTIVE_INIT by
// the caller), returns the count in *out_count. INVALID_ARGUMENT for NULL
// module/process_rank/out_count, NULL out_groups with a capacity, an element
// of another structure type, a rank out of range in the map or an unknown
// mode; OUT_OF_RANGE for a bad function.
meshvk_status_t meshvk_module_rank_collectives(const meshvk_module_t* module, uint32_t function,
                                               const uint32_t* process_rank, uint32_t rank_count,
                                               meshvk_rank_collective_mode_t mode, meshvk_rank_collective_t* out_groups,
                                               uint32_t capacity, uint32_t* out_count);

// Which rank runs each grid process when the grid is laid over `rank_count`
// ranks along `axes` (ascending grid axes; axis_count 0: the outermost axes
// whose product is rank_count). Processes are numbered row-major over the grid
// (the artifact's order); the rank axes' coordinates of a process, numbered
// row-major among the rank axes, are its rank: with a 2x2 grid and axes {0},
// processes 0,1 run on rank 0 and 2,3 on rank 1; with axes {1}, processes 0,2
// on rank 0. Fills process_rank[process_count] (process_count: the grid's;
// INVALID_ARGUMENT for another) and, when out_axes is not NULL, the axes used
// (up to the grid's rank of them) with their count in *out_axis_count.
// INVALID_ARGUMENT with one line for NULL module/process_rank (or axes with
// axis_count > 0, or out_axis_count with out_axes), a module without a grid
// (a set of plans), rank_count 0, or axes that do not exist, are not
// ascending or hold another number of processes than rank_count.
meshvk_status_t meshvk_module_rank_layout(const meshvk_module_t* module, uint32_t rank_count, const uint32_t* axes,
                                          uint32_t axis_count, uint32_t* process_rank, uint32_t process_count,
                                          uint32_t* out_axes, uint32_t* out_axis_count);

struct meshvk_program_ranks_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_PROGRAM_RANKS
  const void* next;
  const meshvk_transport_t* transport;        // borrowed; must outlive the program
  const uint32_t* process_rank;               // [grid process count]: the rank running each process
  uint32_t root_rank;                         // receives the gathered results
  meshvk_rank_collective_mode_t collectives;  // default (0): TRANSPORT
};
#define MESHVK_PROGRAM_RANKS_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_PROGRAM_RANKS)

// Chained to meshvk_program_create_info_t (meshvk/module.h) for
// meshvk_program_create_with_info: the program is created for the processes
// of `ranks->transport->rank` only. INVALID_ARGUMENT for a NULL transport/map,
// a transport of another structure type or without send/receive/wait_sends,
// a rank or root_rank out of range, a map that leaves this rank no process,
// or an unknown collective mode; UNIMPLEMENTED for a function with more
// collective groups or copies between ranks than the message tags allow
// (8191 groups, 16384 copies). Invoke: every rank calls
// meshvk_program_invoke
// with the same function and full-size host inputs/outputs; only the shards
// of local processes are read from the inputs, and only `root_rank`'s outputs
// receive the whole results (other ranks' outputs are never written; they
// may pass `outputs` NULL). With MESHVK_INVOKE_RANK_INPUTS_BIT (module.h) each
// input holds only this rank's runs (meshvk_module_rank_input_runs), packed.

// The plan's bytes between ranks for one invoke of `function` (no device):
// copies whose source and destination processes sit on different ranks
// (bytes of the source span each copy reads), plus the bytes of each group
// run through the transport (meshvk_module_rank_collectives: an all_reduce
// counted as a ring; a block counted once per rank that receives it, at its
// owner and at that rank, whatever algorithm the transport uses), plus
// result shards gathered to `root_rank`, all under collective mode `mode`.
// out_sent/out_received: [rank_count] each. OUT_OF_RANGE for a bad function;
// INVALID_ARGUMENT for NULL pointers, a rank out of range in the map or an
// unknown mode (root_rank must be below rank_count).
meshvk_status_t meshvk_module_rank_bytes(const meshvk_module_t* module, uint32_t function, const uint32_t* process_rank,
                                         uint32_t rank_count, uint32_t root_rank, meshvk_rank_collective_mode_t mode,
                                         uint64_t* out_sent, uint64_t* out_received);

// A run of bytes in a dense row-major host tensor: `rows` rows of
// `row_bytes` bytes, row r at byte offset `offset + r * pitch`.
typedef struct meshvk_host_run_s {
  uint64_t offset, row_bytes, rows, pitch;
} meshvk_host_run_t;

// The bytes of argument `argument` of `function` that the processes of rank
// `rank` read from the host input in meshvk_program_invoke (their shards;
// a replicated part listed once). The rest of that input is never read on
// the rank, so a caller may leave it unfilled (mesh-vk-run reads only these
// bytes of its input files). Writes up to `capacity` runs, the count in
// *out_count. OUT_OF_RANGE for a bad function/argument; INVALID_ARGUMENT for
// NULL module/process_rank/out_count (or out_runs with a capacity), a bad map
// or rank.
meshvk_status_t meshvk_module_rank_input_runs(const meshvk_module_t* module, uint32_t function, uint32_t argument,
                                              const uint32_t* process_rank, uint32_t rank_count, uint32_t rank,
                                              meshvk_host_run_t* out_runs, uint32_t capacity, uint32_t* out_count);

// What this rank's program did through the transport in its last invoke:
// bytes handed to send/receive, and host time spent staging those bytes out
// of / into device memory and in the transport's calls (waits for a local
// producer excluded; a receive's wait for the peer included).
// staged_bytes: bytes the host copied between device memory and host
// buffers of the runtime's own for the transport (staging a block out before
// a send, in after a receive, and each further copy of a received block or
// reduced result into the memory of another local process); reductions on
// the host are not counted. 0 for an all_gather on host-mapped memory whose
// landing buffers all sit on one VkDevice per rank: the transport reads and
// writes the device memory itself.
typedef struct meshvk_transport_stats_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_TRANSPORT_STATS
  const void* next;
  uint64_t bytes_sent, bytes_received;
  uint64_t host_ns;
  uint64_t staged_bytes;
} meshvk_transport_stats_t;
#define MESHVK_TRANSPORT_STATS_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_TRANSPORT_STATS)
// All zero for a program without ranks. INVALID_ARGUMENT for NULL or another
// structure type.
meshvk_status_t meshvk_program_transport_stats(const meshvk_program_t* program, meshvk_transport_stats_t* out_stats);

// An in-process transport: `rank_count` endpoints (out_transports[r] for
// rank r) that pass messages between threads of this process through
// mailboxes. Sends copy their data. It has all_gather, all_gather_pieces,
// broadcast and all_to_all (direct messages to each peer), no all_reduce
// or reduce_scatter (the runtime's own exchanges run). Receives wait at most
// `timeout` (meshvk/meshvk.h; 0: a message must already be there), then fail.
// out_transports has rank_count entries, each overwritten whole. The
// transports are valid while the hub lives (reference counted; the programs
// using them do not retain it, so release it after them). INVALID_ARGUMENT
// for rank_count 0 or NULL outputs.
typedef struct meshvk_in_process_hub_s meshvk_in_process_hub_t;
meshvk_status_t meshvk_transport_in_process_create(uint32_t rank_count, meshvk_timeout_t timeout,
                                                   meshvk_transport_t* out_transports,
                                                   meshvk_in_process_hub_t** out_hub);
void meshvk_transport_in_process_retain(meshvk_in_process_hub_t* hub);
void meshvk_transport_in_process_release(meshvk_in_process_hub_t* hub);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MESHVK_TRANSPORT_H_
