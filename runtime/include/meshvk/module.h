// meshvk/module.h — load a .mvk artifact, and run its functions on a device set.
//
// A module is a verified, immutable artifact (see runtime/artifact/mvk.fbs).
// Loading is a trust boundary: the FlatBuffer structure, the format version and
// every semantic rule (indices in range, copy/binding ranges inside their
// buffers, acyclic dependencies, valid SPIR-V, shard sizes consistent with
// shapes and sharding) are checked before anything else happens; no Vulkan
// call is made. A broken file gets DATA_LOSS with one line
// "FIELD.PATH: reason" (e.g. "processes[1].commands[3].dispatch.bindings[0]:
// bytes [0, 0+4096) leave buffer 2 of process 1 (1024 bytes)").
//
// A program is a module instantiated on a device set: buffers allocated on the
// device of their process, pipelines created, and command buffers recorded ONCE
// (one per function, process and phase; phases split at cross-process
// dependencies, timeline semaphores between them). Each invoke only streams
// inputs in, replays the recorded work of one function and gathers results.
//
// Threading: modules are immutable (any thread). One program is used by one
// thread at a time (invoke, invoke_async, result/argument shards, timings);
// different programs, even on one device set, may be invoked concurrently from
// different threads (queues are locked). Reference counting (meshvk/meshvk.h):
// a program retains its module and its device set.
#ifndef MESHVK_MODULE_H_
#define MESHVK_MODULE_H_

#include "meshvk/buffer.h"
#include "meshvk/device_set.h"
#include "meshvk/executable.h"
#include "meshvk/semaphore.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct meshvk_module_s meshvk_module_t;
typedef struct meshvk_program_s meshvk_program_t;

typedef enum meshvk_element_type_e {
  MESHVK_ELEMENT_F32 = 0,
  MESHVK_ELEMENT_F16 = 1,
  MESHVK_ELEMENT_I32 = 2,
  MESHVK_ELEMENT_F64 = 3,  // devices with shaderFloat64 (an ONNX DOUBLE tensor)
} meshvk_element_type_t;

// Loads an artifact from memory (the bytes are copied). DATA_LOSS for a
// malformed or incompatible file (message names the field and the reason);
// INVALID_ARGUMENT for a NULL out_module, or NULL data with a size.
meshvk_status_t meshvk_module_load(const void* data, size_t size, meshvk_module_t** out_module);
// Loads from a file. UNAVAILABLE when it cannot be read (message names the
// path and errno text; a directory too); DATA_LOSS as above, prefixed with
// the path, and for a file past the size limit of a .mvk; INVALID_ARGUMENT
// for NULL path/out_module.
meshvk_status_t meshvk_module_load_file(const char* path, meshvk_module_t** out_module);
void meshvk_module_retain(meshvk_module_t* module);
void meshvk_module_release(meshvk_module_t* module);

// ---- Plans for several process counts (a dynamic grid) ----------------------
// meshvk unrolls the grid into one program per process at compile time, so a
// plan runs on one process count. A program over `shard.grid @g(shape = ?)`
// compiled by mesh-vk-compile without --grid-shape is ONE file holding a plan
// per process count it was compiled for (mvk.fbs GridVariant,
// format_version 2). Loading such a file verifies every plan, as it would
// each as a file of its own. The loaded module is a set of plans, not a plan:
// it has no grid (meshvk_module_grid_info: rank 0, process_count 0) and no
// functions (meshvk_module_function_count: 0); meshvk_module_find_function
// and meshvk_program_create return FAILED_PRECONDITION naming the counts it
// holds. Pick a plan with meshvk_module_select_process_count; every other
// call then works on the module it returns. Modules of one plan (every file
// compiled for a fixed grid) answer these calls too, so a caller can treat
// both alike. The other queries answer a set of plans as a module without
// functions or executables (0, OUT_OF_RANGE). Thread-safe (modules are
// immutable). No Vulkan call.

// Number of plans the module holds; 0 for a module of one plan.
uint32_t meshvk_module_variant_count(const meshvk_module_t* module);
// Process count of plan `variant` (file order, not sorted); 0 when out of
// range or for a module of one plan.
uint32_t meshvk_module_variant_process_count(const meshvk_module_t* module, uint32_t variant);
// The module of the plan for `process_count` processes, with a +1 reference
// (release it; it stays valid after `module` is released). For a module of
// one plan: the module itself (+1) when `process_count` is its grid's process
// count or 0 (OUT_OF_RANGE for another count). OUT_OF_RANGE when there is no
// plan for that count (the message
// lists the counts held: "no plan for 5 processes: the module holds plans for
// 1, 2, 3 and 4 processes (a dynamic grid)"); INVALID_ARGUMENT for 0 on a set
// of plans or a NULL pointer. *out_module is NULL on failure.
meshvk_status_t meshvk_module_select_process_count(meshvk_module_t* module, uint32_t process_count,
                                                   meshvk_module_t** out_module);

typedef struct meshvk_grid_info_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_GRID_INFO
  const void* next;
  uint32_t rank;
  const uint32_t* shape;      // rank entries, owned by the module
  uint32_t peered_axes_mask;  // bit a set: grid axis a has peer memory (axes 0..31)
  uint32_t process_count;
} meshvk_grid_info_t;
#define MESHVK_GRID_INFO_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_GRID_INFO)
// All zero (shape NULL) for a set of plans (meshvk_module_variant_count > 0).
// INVALID_ARGUMENT for NULL or another structure type (as for every
// meshvk_module_* call that fills a struct).
meshvk_status_t meshvk_module_grid_info(const meshvk_module_t* module, meshvk_grid_info_t* out_info);

uint32_t meshvk_module_function_count(const meshvk_module_t* module);
// Finds a function by name (FAILED_PRECONDITION on a set of plans). NULL or
// "" picks the only function (INVALID_ARGUMENT when there are several or
// none: the message lists them). OUT_OF_RANGE when absent.
meshvk_status_t meshvk_module_find_function(const meshvk_module_t* module, const char* name, uint32_t* out_function);

typedef struct meshvk_function_info_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_FUNCTION_INFO
  const void* next;
  const char* name;  // owned by the module
  uint32_t argument_count;
  uint32_t result_count;
} meshvk_function_info_t;
#define MESHVK_FUNCTION_INFO_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_FUNCTION_INFO)
// OUT_OF_RANGE for a bad function (and, for the tensor infos below, a bad
// argument or result).
meshvk_status_t meshvk_module_function_info(const meshvk_module_t* module, uint32_t function,
                                            meshvk_function_info_t* out_info);

// A global tensor of a function signature and its sharding. The arrays are
// owned by the module (valid while it lives).
typedef struct meshvk_tensor_info_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_TENSOR_INFO
  const void* next;
  uint32_t rank;
  const uint64_t* shape;  // rank entries: the global shape
  meshvk_element_type_t element_type;
  uint64_t byte_size;                 // product(shape) * element size
  const uint32_t* split_axis_count;   // rank entries: grid axes splitting each dimension
  const uint32_t* const* split_axes;  // rank entries: split_axes[d][0..split_axis_count[d]) (NULL when 0)
  uint32_t shard_count;               // processes holding a shard (or replica)
  // The source model's name for the tensor (an ONNX input or output name),
  // owned by the module; "" when the artifact names none (an .mlir program).
  const char* name;
} meshvk_tensor_info_t;
#define MESHVK_TENSOR_INFO_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_TENSOR_INFO)
meshvk_status_t meshvk_module_argument_info(const meshvk_module_t* module, uint32_t function, uint32_t argument,
                                            meshvk_tensor_info_t* out_info);
meshvk_status_t meshvk_module_result_info(const meshvk_module_t* module, uint32_t function, uint32_t result,
                                          meshvk_tensor_info_t* out_info);

// The dtype the source model declares for a tensor that the program holds in
// another element type: an ONNX int64 or bool tensor is held as
// MESHVK_ELEMENT_I32 (its values range-checked into it by the caller), a
// double as MESHVK_ELEMENT_F32 where the target has no shaderFloat64. A runner widens such a result back (i32 ->
// int64, i32 != 0 -> bool, f32 -> double) so that its user gets the dtypes
// the model's framework gives. SAME: the element type itself (every .mlir
// program, an artifact written before the field existed).
typedef enum meshvk_declared_type_e {
  MESHVK_DECLARED_SAME = 0,
  MESHVK_DECLARED_I64 = 1,
  MESHVK_DECLARED_BOOL = 2,
  MESHVK_DECLARED_F64 = 3,
  // An f32 tensor held as MESHVK_ELEMENT_F16 (a program compiled with
  // --precision=f16): a runner converts f32 inputs to f16 when it uploads
  // them and f16 results to f32 when it reads them.
  MESHVK_DECLARED_F32 = 4,
} meshvk_declared_type_t;
// The declared type of an argument or a result (added beside the tensor
// infos, whose layout never changes). INVALID_ARGUMENT for NULL module or
// out_type; OUT_OF_RANGE for a bad function, argument or result (*out_type
// is then SAME).
meshvk_status_t meshvk_module_argument_declared_type(const meshvk_module_t* module, uint32_t function,
                                                     uint32_t argument, meshvk_declared_type_t* out_type);
meshvk_status_t meshvk_module_result_declared_type(const meshvk_module_t* module, uint32_t function, uint32_t result,
                                                   meshvk_declared_type_t* out_type);

// The artifact bytes the module holds (for a plan chosen with
// meshvk_module_select_process_count: that plan's own bytes, a .mvk file of
// one plan), owned by the module: what to write to save it. INVALID_ARGUMENT
// for NULL pointers.
meshvk_status_t meshvk_module_bytes(const meshvk_module_t* module, const void** out_data, size_t* out_size);

// The module's kernels (the artifact's executables, in file order: kernel_<i>).
// 0 for NULL or a set of plans.
uint32_t meshvk_module_executable_count(const meshvk_module_t* module);
// Executable `index` as meshvk_executable_create would take it: its SPIR-V
// (owned by the module), entry point, binding count, push-constant size and
// workgroup size. OUT_OF_RANGE for a bad index (every index of a set of
// plans).
meshvk_status_t meshvk_module_executable_info(const meshvk_module_t* module, uint32_t index,
                                              meshvk_executable_create_info_t* out_info);
// 1 when executable `index` writes binding `binding` (the artifact's
// BindingInfo.writable), 0 when it only reads it or either index is out of
// range (or for NULL).
uint32_t meshvk_module_executable_writes_binding(const meshvk_module_t* module, uint32_t index, uint32_t binding);

// What one process does in one function and what it holds, computed from the
// artifact without a device (for mesh-vk-run --print-plan). Allocations are
// the process's (shared by all functions).
typedef struct meshvk_process_summary_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_PROCESS_SUMMARY
  const void* next;
  // Bytes allocated by buffer kind: argument shards, result shards,
  // transients (after reuse slots share memory), constants.
  uint64_t argument_bytes, result_bytes, transient_bytes, constant_bytes;
  uint32_t dispatch_count, copy_count, fill_count;
  uint64_t peer_bytes_in;     // bytes this process copies in from other processes
  uint64_t local_copy_bytes;  // bytes copied between its own buffers
  uint32_t phase_count;       // phases in which this process has commands
  // Device bytes the process holds while the program is loaded: every buffer
  // above is allocated when the program is created and kept until it is
  // released, so the peak is their sum (argument + result + transient +
  // constant). constant_bytes are the parameters (a model's weights),
  // transient_bytes the activations. Not included: the landing buffers and
  // staging rings of host-staged copies (meshvk_device_set_staging_bytes)
  // and each allocation's rounding to the device's alignment.
  uint64_t peak_bytes;
} meshvk_process_summary_t;
#define MESHVK_PROCESS_SUMMARY_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_PROCESS_SUMMARY)
meshvk_status_t meshvk_module_function_process_summary(const meshvk_module_t* module, uint32_t function,
                                                       uint32_t process, meshvk_process_summary_t* out_summary);
// The same summed over all functions (phase_count: the largest); for the
// usual one-function program, that function's summary. Both: OUT_OF_RANGE
// for a bad function or process.
meshvk_status_t meshvk_module_process_summary(const meshvk_module_t* module, uint32_t process,
                                              meshvk_process_summary_t* out_summary);
// Number of phases of `function` (stream segments between cross-process
// waits); 0 for a function without commands or out of range.
uint32_t meshvk_module_function_phase_count(const meshvk_module_t* module, uint32_t function);
// The largest phase count of any function (0 for NULL).
uint32_t meshvk_module_phase_count(const meshvk_module_t* module);

// ORs into *out the shader features every executable of the module declares
// (meshvk_executable_spirv_features), for meshvk_vulkan_requirements: what an
// application must enable on a VkDevice it hands to meshvk for this module.
meshvk_status_t meshvk_module_shader_features(const meshvk_module_t* module, meshvk_shader_features_t* out);

// Optional, chained to meshvk_program_create_info_t: receives the events of
// every invoke (meshvk/trace.h). Copied; user_data must outlive the program.
typedef struct meshvk_trace_sink_s meshvk_trace_sink_t;
// Optional, chained to meshvk_program_create_info_t: run only the processes of
// one rank of a job (meshvk/transport.h).
typedef struct meshvk_program_ranks_s meshvk_program_ranks_t;

typedef struct meshvk_program_create_info_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_PROGRAM_CREATE_INFO
  const void* next;              // may chain a meshvk_trace_sink_t and a meshvk_program_ranks_t
  meshvk_module_t* module;
  meshvk_device_set_t* set;
} meshvk_program_create_info_t;
#define MESHVK_PROGRAM_CREATE_INFO_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_PROGRAM_CREATE_INFO)

// Instantiates info->module on info->set (whose process count must equal the
// grid's; FAILED_PRECONDITION for a set of plans, see
// meshvk_module_select_process_count):
// checks the module against each device's limits (workgroup counts and sizes,
// push constants, binding alignment/ranges, allocation sizes) and the
// program's memory against each device's heap BEFORE any allocation, then
// allocates buffers (transients sharing a reuse slot share one buffer),
// writes constants, creates pipelines and records the command buffers.
// INVALID_ARGUMENT for NULL info/module/set/out_program, another structure
// type, a process count mismatch, a trace sink without `event` or a bad
// meshvk_program_ranks_t (meshvk/transport.h); OUT_OF_RANGE for a limit the
// device does not meet (message names the field); RESOURCE_EXHAUSTED when the
// program does not fit a device's memory; any buffer/executable/command
// buffer error otherwise. With a trace sink, UNAVAILABLE when a device has no
// timestamp support. *out_program is NULL on failure. The program retains
// both.
meshvk_status_t meshvk_program_create_with_info(const meshvk_program_create_info_t* info,
                                                meshvk_program_t** out_program);
// meshvk_program_create_with_info with nothing chained.
meshvk_status_t meshvk_program_create(meshvk_module_t* module, meshvk_device_set_t* set,
                                      meshvk_program_t** out_program);
void meshvk_program_retain(meshvk_program_t* program);
// The last release stops the worker of asynchronous invokes, waits for the
// program's work on the devices to finish (recorded work may still be in
// flight after a failed invoke; each wait bounded by the device timeout),
// then frees its buffers and pipelines.
void meshvk_program_release(meshvk_program_t* program);

typedef struct meshvk_host_input_s {
  const void* data;  // the whole global tensor, dense row-major
  uint64_t size;     // bytes; must equal the argument's byte_size
} meshvk_host_input_t;

typedef struct meshvk_host_output_s {
  void* data;     // receives the whole global tensor
  uint64_t size;  // bytes; must equal the result's byte_size
} meshvk_host_output_t;
// (A program created for ranks writes outputs only on the root rank; the
// other ranks may pass `outputs` NULL.)

typedef enum meshvk_invoke_flag_bits_e {
  // Leave results on the devices; read them with meshvk_program_result_shard.
  // `outputs` may then be NULL.
  MESHVK_INVOKE_KEEP_RESULTS_SHARDED_BIT = 1u << 0,
  // Measure each (process, phase) with timestamp queries; read with
  // meshvk_program_phase_timings.
  MESHVK_INVOKE_TIMESTAMPS_BIT = 1u << 1,
  // A program created for ranks (meshvk/transport.h): each input holds only
  // the bytes this rank's processes read, the runs of
  // meshvk_module_rank_input_runs for this rank in that order, each run's rows
  // back to back (size: the sum of rows x row_bytes), so a rank never holds a
  // whole input tensor. INVALID_ARGUMENT on a program without ranks.
  MESHVK_INVOKE_RANK_INPUTS_BIT = 1u << 2,
} meshvk_invoke_flag_bits_t;
typedef uint32_t meshvk_invoke_flags_t;

typedef struct meshvk_invoke_info_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_INVOKE_INFO
  const void* next;
  uint32_t function;
  const meshvk_host_input_t* inputs;
  uint32_t input_count;  // the function's argument count
  meshvk_host_output_t* outputs;
  uint32_t output_count;  // the function's result count (or 0 when kept sharded)
  meshvk_invoke_flags_t flags;
  // How long each of the invoke's waits may take (meshvk/meshvk.h; the
  // initializer: MESHVK_TIMEOUT_INFINITE, each device still bounded by its
  // device timeout).
  meshvk_timeout_t timeout;
} meshvk_invoke_info_t;
#if MESHVK_DESIGNATED_INITIALIZERS
#define MESHVK_INVOKE_INFO_INIT {.type = MESHVK_STRUCTURE_TYPE_INVOKE_INFO, .timeout = MESHVK_TIMEOUT_INFINITE}
#else
#define MESHVK_INVOKE_INFO_INIT \
  {MESHVK_STRUCTURE_TYPE_INVOKE_INFO, NULL, 0, NULL, 0, NULL, 0, 0, MESHVK_TIMEOUT_INFINITE}
#endif

// Runs `function`: streams each argument shard straight out of the global host
// tensor into its device buffer (strided writes, no unsharded staging copy),
// submits the recorded phases, waits, and gathers each result from its shards
// into the global host tensor. Asynchronous invokes still queued on the
// program's worker (meshvk_program_invoke_async) are waited for first, for
// as long as they take (`timeout` does not bound that), and an error of one
// of them is returned. INVALID_ARGUMENT for NULL program/info, another
// structure type, a wrong input/output count or size or a NULL data pointer
// (message names the argument), MESHVK_INVOKE_RANK_INPUTS_BIT without ranks;
// OUT_OF_RANGE for a bad function; DEADLINE_EXCEEDED / DEVICE_LOST from the
// waits.
meshvk_status_t meshvk_program_invoke(meshvk_program_t* program, const meshvk_invoke_info_t* info);

// A result shard left on a device by the last invoke. `buffer` is borrowed
// (retain it to keep it); its contents are overwritten by the next invoke.
typedef struct meshvk_shard_view_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_SHARD_VIEW
  const void* next;
  uint32_t process;
  meshvk_buffer_t* buffer;
  uint64_t offset;  // bytes into buffer
  uint32_t rank;
  const uint64_t* global_offset;  // rank entries: elements, per dimension (owned by the module)
  const uint64_t* shape;          // rank entries (owned by the module)
} meshvk_shard_view_t;
#define MESHVK_SHARD_VIEW_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_SHARD_VIEW)

// Where shard `shard` of an argument (or result) lives, from the artifact
// alone (no device): `process`, `rank`, `global_offset` and `shape` (owned by
// the module) as meshvk_program_argument_shard reports them, `offset` the
// byte offset in the process's buffer, `buffer` NULL. OUT_OF_RANGE for a bad
// index; shards are numbered as meshvk_tensor_info_t::shard_count counts them.
// meshvk_program_result_shard: the same with the program's buffer.
meshvk_status_t meshvk_module_argument_shard(const meshvk_module_t* module, uint32_t function, uint32_t argument,
                                             uint32_t shard, meshvk_shard_view_t* out_view);
meshvk_status_t meshvk_module_result_shard(const meshvk_module_t* module, uint32_t function, uint32_t result,
                                           uint32_t shard, meshvk_shard_view_t* out_view);
meshvk_status_t meshvk_program_result_shard(const meshvk_program_t* program, uint32_t function, uint32_t result,
                                            uint32_t shard, meshvk_shard_view_t* out_view);

// An argument shard's place in the program's own buffers (the buffer an
// application may also fill itself, e.g. through meshvk_buffer_vk_buffer, and
// then invoke asynchronously with `arguments` NULL). Numbered like the
// argument's shards (meshvk_tensor_info_t::shard_count); `buffer` borrowed.
meshvk_status_t meshvk_program_argument_shard(const meshvk_program_t* program, uint32_t function, uint32_t argument,
                                              uint32_t shard, meshvk_shard_view_t* out_view);

// One shard of a device-resident tensor: bytes at `offset` of `buffer`, laid
// out like the program's shard (dense row-major, the shard's shape).
typedef struct meshvk_shard_buffer_s {
  meshvk_buffer_t* buffer;  // NULL: skip this shard (e.g. a replica)
  uint64_t offset;
} meshvk_shard_buffer_t;

// A tensor held in shard buffers: one entry per shard of the argument or
// result, in shard order (meshvk_program_argument_shard / _result_shard).
typedef struct meshvk_device_tensor_s {
  const meshvk_shard_buffer_t* shards;
  uint32_t shard_count;
} meshvk_device_tensor_t;

typedef enum meshvk_async_invoke_bits_e {
  // Copy every given shard into (or out of) the program's own buffers even
  // where it could be bound directly (to measure what binding saves).
  MESHVK_ASYNC_INVOKE_COPY_SHARDS_BIT = 1u << 0,
} meshvk_async_invoke_bits_t;
typedef uint32_t meshvk_async_invoke_flags_t;

typedef struct meshvk_async_invoke_info_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_ASYNC_INVOKE_INFO
  const void* next;
  uint32_t function;
  // argument_count entries, or NULL: the arguments are already in the
  // program's own argument shards. A shard is BOUND DIRECTLY (the program's
  // kernels and copies use the given buffer in place of the program's, no
  // copy) when: all processes are on one VkDevice and in this process; the
  // given offset is 0, the buffer is the shard's process's and at least as
  // large as the program's buffer for the shard; that program buffer holds
  // only this shard (offset 0, same size, no other argument or result in it);
  // and the program never writes it. Otherwise it is copied on the device into
  // the program's shard, recorded on the shard's process, and
  // meshvk_program_note says why (once per reason).
  const meshvk_device_tensor_t* arguments;
  uint32_t argument_count;
  // result_count entries, or NULL: results stay in the program's result
  // shards. Bound directly under the same conditions, except that the program
  // must write the buffer before it reads it (the program's own result shard
  // then keeps its old contents); otherwise copied out on the device by the
  // shard's process, so its buffer must be that process's.
  const meshvk_device_tensor_t* results;
  uint32_t result_count;
  // Timeline semaphores (the application's, through meshvk_semaphore_import,
  // or meshvk's) that must reach their values before meshvk touches any
  // argument or the program's buffers, and that meshvk signals once every
  // result is written.
  const meshvk_semaphore_value_t* waits;
  uint32_t wait_count;
  const meshvk_semaphore_value_t* signals;
  uint32_t signal_count;
  meshvk_async_invoke_flags_t flags;
} meshvk_async_invoke_info_t;
#define MESHVK_ASYNC_INVOKE_INFO_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_ASYNC_INVOKE_INFO)

// Runs `function` on device-resident tensors without blocking the calling
// thread: submits the copies in, the recorded phases, the copies out and a
// final submission that signals `signals`, each ordered by timeline
// semaphores, and returns. Nothing passes through host memory. The copies
// and the recording with directly bound shards are made once per distinct set
// of shard buffers (changing the buffers releases the previous ones, which
// waits for their last use). Later
// invokes (async or not) are ordered after this one on the device; a
// host-tensor invoke waits for it first.
// Processes on several VkDevices (independent devices, or several imported
// VkDevices): a command buffer cannot wait across VkDevices, so the call
// checks and records, then queues the invoke on the program's worker thread
// and returns; the worker waits on the host for `waits`, runs the copies in,
// the phases (with their host waits and host-staged copies) and the copies
// out in order, then signals `signals` with a submission on each semaphore's
// VkDevice. Invokes queued this way run one after another; a host-tensor
// invoke, a change of shard buffers and meshvk_program_release wait for the
// queue (release stops an invoke still waiting for `waits`: it never
// signals). An invoke that fails on the worker does not signal; its error is
// returned by the next meshvk_program_invoke_async or meshvk_program_invoke.
// UNIMPLEMENTED (a later version may do it) for such a program split over
// ranks or traced.
// INVALID_ARGUMENT for NULL program/info, another structure type, counts,
// shard counts, NULL wait/signal lists or semaphores of another set;
// OUT_OF_RANGE for a bad function or a shard that does not fit its buffer.
// Not thread-safe per program (as invoke).
meshvk_status_t meshvk_program_invoke_async(meshvk_program_t* program, const meshvk_async_invoke_info_t* info);

// Blocks until every invoke made on `program` so far has finished on the
// devices (the asynchronous ones included: those queued on its worker thread
// first), so the caller may read result buffers or reuse argument buffers
// without semaphores of its own. Returns the first error a queued invoke hit
// (which, without this call, the next invoke would return). `timeout` bounds
// the wait (meshvk/types.h): with MESHVK_TIMEOUT_INFINITE each device wait
// lasts as long as the device timeout allows, and a queued invoke that waits
// for an application's semaphore for as long as that takes; 0 checks once.
// DEADLINE_EXCEEDED (the invokes stay queued) / DEVICE_LOST from the waits;
// INVALID_ARGUMENT for NULL. Not thread-safe per program (as invoke).
meshvk_status_t meshvk_program_wait(meshvk_program_t* program, meshvk_timeout_t timeout);

typedef struct meshvk_phase_timing_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_PHASE_TIMING
  const void* next;
  uint32_t phase;
  uint32_t process;
  uint64_t device_ns;  // GPU time between the phase's first and last command
} meshvk_phase_timing_t;
#define MESHVK_PHASE_TIMING_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_PHASE_TIMING)
// Timings of the last invoke made with MESHVK_INVOKE_TIMESTAMPS_BIT: one entry
// per recorded (process, phase), in phase order. Writes at most `capacity`
// entries (each initialized with MESHVK_PHASE_TIMING_INIT by the caller) and
// the total into *out_count. FAILED_PRECONDITION when none exist (also when
// the devices have no timestamps: such an invoke succeeds without timings);
// INVALID_ARGUMENT for NULL program/out_count, NULL out_timings with a
// capacity, or an element of another structure type.
meshvk_status_t meshvk_program_phase_timings(const meshvk_program_t* program, meshvk_phase_timing_t* out_timings,
                                             uint32_t capacity, uint32_t* out_count);

// Number of command buffers recorded and commands they hold (for benchmarks).
typedef struct meshvk_program_stats_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_PROGRAM_STATS
  const void* next;
  uint32_t command_buffer_count;
  uint32_t command_count;
  uint64_t record_ns;  // host time spent recording in meshvk_program_create
} meshvk_program_stats_t;
#define MESHVK_PROGRAM_STATS_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_PROGRAM_STATS)
meshvk_status_t meshvk_program_stats(const meshvk_program_t* program, meshvk_program_stats_t* out_stats);

// How asynchronous invokes (meshvk_program_invoke_async) found their
// buffers' recording: each distinct set of caller buffers (and flags) is
// recorded once (copies in and out, and the function re-recorded with the
// shards bound directly) and kept; the `capacity` most recently used are
// kept, an older one is released (after its last submission) when a new one
// is recorded. A loop that alternates between a few sets of buffers (a
// decode step whose results are the next step's arguments, two sets used in
// turn) records each once. Not thread-safe per program (as invoke).
typedef struct meshvk_binding_stats_s {
  meshvk_structure_type_t type;  // MESHVK_STRUCTURE_TYPE_BINDING_STATS
  const void* next;
  uint64_t recorded;  // sets of buffers recorded (the invokes that found none cached)
  uint64_t reused;    // invokes that found theirs cached
  uint32_t cached;    // recordings held now
  uint32_t capacity;  // the most held at once
} meshvk_binding_stats_t;
#define MESHVK_BINDING_STATS_INIT MESHVK_STRUCT_INIT(MESHVK_STRUCTURE_TYPE_BINDING_STATS)
// INVALID_ARGUMENT for NULL or another structure type.
meshvk_status_t meshvk_program_binding_stats(const meshvk_program_t* program, meshvk_binding_stats_t* out_stats);

// Bytes that arrive at `process` in one invoke of `function`, by the path they
// take on this program's device set (out_bytes[MESHVK_COPY_PATH_...]): what the
// plan moves, split by what the devices share; an import the driver refused
// counts under HOST_STAGING. INVALID_ARGUMENT for NULL; OUT_OF_RANGE for a
// bad function or process.
meshvk_status_t meshvk_program_copy_bytes(const meshvk_program_t* program, uint32_t function, uint32_t process,
                                          uint64_t out_bytes[MESHVK_COPY_PATH_COUNT]);
// One-line explanations of what meshvk_program_create decided differently from
// the plain plan (e.g. "an import the driver refused: host staging instead"),
// for a --verbose runner. Valid while the program lives (0 and NULL for NULL
// or an index past the count).
uint32_t meshvk_program_note_count(const meshvk_program_t* program);
const char* meshvk_program_note(const meshvk_program_t* program, uint32_t index);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MESHVK_MODULE_H_
