// meshvk/meshvk.h — the public C API of the meshvk runtime (meshvk/trace.h,
// meshvk/transport.h and meshvk/vulkan.h are included on their own), and the
// rules every one of its headers follows.
//
// Extensible structs. Every struct passed to or filled by a call one at a
// time starts with `type` (its meshvk_structure_type_t) and `next` (NULL, or
// a chain of further structs, each starting with the same two members), the
// way Vulkan's sType/pNext work: a later version adds fields in new chained
// structs, never in the old ones. The caller sets `type` on every struct it
// passes, those it wants filled included; a call given a struct of another
// type returns INVALID_ARGUMENT naming it, and a call ignores chained structs
// it does not know. Each struct has an initializer macro, MESHVK_<NAME>_INIT
// (meshvk_invoke_info_t: MESHVK_INVOKE_INFO_INIT), that sets `type` and every
// default (designated initializers in C and C++20, positional before C++20):
//     meshvk_invoke_info_t info = MESHVK_INVOKE_INFO_INIT;
// A call that fills a struct keeps its `type` and `next`. Arrays a call fills
// (a pointer and a capacity: meshvk_program_phase_timings,
// meshvk_module_rank_collectives) hold extensible structs too: the caller
// initializes every element (its `type`), as with Vulkan's
// vkGetPhysicalDeviceQueueFamilyProperties2, and a later version adds fields
// through each element's chain. Arrays the library owns and hands out (the
// queue families of a physical device, a tensor's shape and split axes) and
// arrays a caller passes in (process maps, semaphore values, host runs) are
// plain values whose layout never changes; what a later version adds comes
// beside them, in a new chained struct.
//
// Lifetimes. Every handle is reference counted: `create` (and `import`,
// `share`, `load`, meshvk_module_select_process_count,
// meshvk_executable_builtin) returns it with one reference through an `out_`
// pointer, which is NULL after a failure; `<noun>_retain` adds one,
// `<noun>_release` drops one and frees the object with the last. Children
// keep their parents alive (a device set its instance; buffers, semaphores,
// executables and command buffers their set; a program its module and set;
// a view the object it views), so handles may be released in any order. The
// one exception is a transport (meshvk/transport.h, meshvk/transport_mpi.h):
// programs borrow it, so release it after them. Releasing NULL does nothing.
// Retain and release are thread-safe; the LAST release must not race with
// another use of the object.
//
// Verbs. `import` wraps an application's own Vulkan object (VkInstance,
// VkDevice, VkBuffer, VkSemaphore: meshvk/vulkan.h) without owning it;
// `share` makes a view of a meshvk object on another VkDevice of its set.
//
// NULL and "none". A call that returns a status returns INVALID_ARGUMENT for
// a NULL handle or a NULL pointer it must read or write. A query that returns
// a value answers a NULL handle with the value for "none": 0 for counts and
// sizes, MESHVK_NO_PROCESS for a process, NULL for a pointer or a Vulkan
// handle.
//
// Timeouts. A call that waits takes a meshvk_timeout_t: nanoseconds, 0 to
// check once without waiting, MESHVK_TIMEOUT_INFINITE to wait as long as it
// takes. A call that waits several times (an invoke: one wait per process
// and phase; a host-staged copy: one per chunk) gives each wait the whole
// timeout; it bounds each wait, not the call. A device set also has a device
// timeout (meshvk_device_timeout_t, chained to its create info): how long
// one of ITS devices may take on work meshvk submitted before the device is
// taken as unresponsive (DEADLINE_EXCEEDED) and is never waited on again
// (later waits on it fail at once with DEVICE_LOST); it also bounds the waits
// of calls without a timeout of their own (meshvk_buffer_write/read, release).
// Waits on an application's semaphore are not bounded by it.
//
// ABI: the library exports its symbols under the version node MESHVK_1.0
// (a later release adds nodes, never changes one); meshvk_version() is the
// library's version and MESHVK_VERSION the headers'.
#ifndef MESHVK_MESHVK_H_
#define MESHVK_MESHVK_H_

#include "meshvk/buffer.h"
#include "meshvk/command_buffer.h"
#include "meshvk/device_set.h"
#include "meshvk/executable.h"
#include "meshvk/instance.h"
#include "meshvk/module.h"
#include "meshvk/queue.h"
#include "meshvk/semaphore.h"
#include "meshvk/status.h"
#include "meshvk/types.h"
#include "meshvk/version.h"

#endif  // MESHVK_MESHVK_H_
