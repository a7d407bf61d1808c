// meshvk/trace.h — what a program did, as timed events, for profilers
// (mesh-vk-run --trace writes them as Chrome trace-event JSON for Perfetto).
//
// Tracing is chosen when the program is created: with a trace sink, every
// recorded command is bracketed by two timestamp queries (so untraced
// programs pay nothing), and each meshvk_program_invoke reports, after its
// wait, one event per command of every process plus the host steps of the
// invoke. Times are
// nanoseconds on the host's steady clock (CLOCK_MONOTONIC): device timestamps
// are taken as they are when the device's clock is that clock (CPU devices), and
// otherwise shifted so that a segment's first command starts when the host
// submitted it (an approximation, marked by MESHVK_TRACE_SHIFTED_BIT).
//
// Thread-safety: the sink is called on the thread that invokes the program,
// inside meshvk_program_invoke, after the invoke's work has completed.
#ifndef MESHVK_TRACE_H_
#define MESHVK_TRACE_H_

#include "meshvk/module.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum meshvk_trace_event_kind_e {
  // Device events: one command of a process's stream.
  MESHVK_TRACE_DISPATCH = 0,  // `name`: the kernel's entry point
  MESHVK_TRACE_COPY = 1,      // `bytes`, `peer`: the source process
  MESHVK_TRACE_FILL = 2,      // `bytes`
  // Device wait: a segment that waits for another process's semaphore, from
  // its submission until its first command starts. `peer`: a process waited for.
  MESHVK_TRACE_SEMAPHORE_WAIT = 3,
  // Host events of one invoke.
  MESHVK_TRACE_WRITE_INPUTS = 4,  // streaming argument shards in (`bytes`)
  MESHVK_TRACE_SUBMIT = 5,        // one segment's queue submission
  MESHVK_TRACE_HOST_WAIT = 6,     // the host waits for `peer` (another VkDevice) before submitting
  MESHVK_TRACE_WAIT = 7,          // the host waits for every process to finish
  MESHVK_TRACE_READ_RESULTS = 8,  // gathering result shards (`bytes`)
  // The host moves `bytes` from `peer` (another VkDevice that shares no memory)
  // into a landing buffer before submitting the consumer (host staging).
  MESHVK_TRACE_HOST_STAGING = 9,
} meshvk_trace_event_kind_t;

typedef enum meshvk_trace_event_flag_bits_e {
  MESHVK_TRACE_SHIFTED_BIT = 1u << 0,  // device times aligned to the host clock by the submission time
} meshvk_trace_event_flag_bits_t;

#define MESHVK_TRACE_NONE 0xffffffffu

typedef struct meshvk_trace_event_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_TRACE_EVENT
  const void* next;
  meshvk_trace_event_kind_t kind;
  uint32_t flags;   // meshvk_trace_event_flag_bits_t
  uint64_t invoke;  // 0 for the program's first invoke, then 1, 2, ...
  uint32_t function;
  uint32_t process;   // the process whose stream holds the command, or whose segment is submitted/waits
  uint32_t phase;     // MESHVK_TRACE_NONE for host events of the whole invoke
  uint32_t command;   // index in the process's command stream (device events), else MESHVK_TRACE_NONE
  uint32_t peer;      // see the kinds; MESHVK_TRACE_NONE otherwise
  uint64_t begin_ns;  // host steady clock
  uint64_t end_ns;
  uint64_t bytes;
  const char* name;  // dispatches: the kernel entry point (owned by the module); else NULL
} meshvk_trace_event_t;
#define MESHVK_TRACE_EVENT_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_TRACE_EVENT)

typedef void (*meshvk_trace_event_fn_t)(void* user_data, const meshvk_trace_event_t* event);

// Chained to meshvk_program_create_info_t (meshvk/module.h).
struct meshvk_trace_sink_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_TRACE_SINK
  const void* next;
  meshvk_trace_event_fn_t event;
  void* user_data;
};
#define MESHVK_TRACE_SINK_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_TRACE_SINK)

// The structure a trace viewer needs to draw dependencies, without a device:
// the commands each command waits for (the artifact's deps).
uint32_t meshvk_module_command_count(const meshvk_module_t* module, uint32_t function, uint32_t process);

typedef struct meshvk_command_info_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_COMMAND_INFO
  const void* next;
  meshvk_trace_event_kind_t kind;  // DISPATCH, COPY or FILL
  uint32_t phase;                  // the segment it is recorded in
  uint64_t bytes;                  // copies and fills (copies: payload bytes); dispatches: bytes bound
  uint32_t peer;                   // copies: the source process; else MESHVK_TRACE_NONE
  const char* name;                // dispatches: entry point; else NULL
  uint32_t executable;             // dispatches: the artifact's executable index (kernel_<index>)
  uint32_t dependency_count;
  uint32_t workgroup_count[3];  // dispatches
  uint64_t flops;               // dispatches: FLOPs the artifact records; 0 when it does not say
} meshvk_command_info_t;
#define MESHVK_COMMAND_INFO_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_COMMAND_INFO)
// OUT_OF_RANGE for a function, process or command out of range;
// INVALID_ARGUMENT for a NULL out_info or another structure
// type. meshvk_module_command_dependency: dependency `index` of the command
// (OUT_OF_RANGE past dependency_count; INVALID_ARGUMENT for NULL outputs).
// meshvk_module_command_count: 0 for NULL or out of range.
meshvk_status_t meshvk_module_command_info(const meshvk_module_t* module, uint32_t function, uint32_t process,
                                           uint32_t command, meshvk_command_info_t* out_info);
meshvk_status_t meshvk_module_command_dependency(const meshvk_module_t* module, uint32_t function, uint32_t process,
                                                 uint32_t command, uint32_t index, uint32_t* out_process,
                                                 uint32_t* out_command);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MESHVK_TRACE_H_
