// meshvk_program_invoke_async: a program run on device-resident tensors,
// ordered by timeline semaphores, without blocking the calling thread.
//
// Order on the device, per invoke (values grow monotonically):
//   caller waits + earlier invoke --> copies in (per process, io timeline)
//   --> recorded segments (process timelines, as in a host invoke)
//   --> copies out (per process, io timeline) --> join (signals the caller).
// Every process's first segment waits for every process's copies in: a peer
// may read another process's argument shard without a recorded dependency
// (arguments are written before a program starts, so the compiler needs none).
//
// Processes on several VkDevices: the same order, kept by the host on the
// program's worker thread (async_worker.h) instead of by device semaphores,
// which cannot cross VkDevices here: wait for the caller's semaphores, copies
// in, the segments (with their host waits and host-staged bytes, as in a host
// invoke), copies out, then signal the caller's semaphores from the host.
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "async_worker.h"
#include "meshvk/artifact/builder.h"
#include "meshvk/queue.h"
#include "program.h"
#include "structure.h"

namespace {

using meshvk::FromC;
using meshvk::MakeStatus;
using meshvk::Status;
namespace mvk = meshvk::mvk;

using meshvk::module::TensorSignatureOf;

uint64_t ShardBytes(const mvk::TensorSignature* t, const mvk::Shard* sh) {
  uint64_t bytes = meshvk::artifact::ElementSize(static_cast<meshvk::artifact::ElementType>(t->element_type()));
  for (uint32_t d = 0; sh->shape() && d < sh->shape()->size(); ++d) bytes *= sh->shape()->Get(d);
  return bytes;
}

// The cache key: which buffers and offsets, for which function and direction.
std::vector<const void*> CopyKey(uint32_t function, const meshvk_device_tensor_t* tensors, uint32_t count) {
  std::vector<const void*> key{reinterpret_cast<const void*>(static_cast<uintptr_t>(function) + 1)};
  for (uint32_t i = 0; i < count; ++i) {
    for (uint32_t s = 0; s < tensors[i].shard_count; ++s) {
      key.push_back(tensors[i].shards[s].buffer);
      key.push_back(reinterpret_cast<const void*>(static_cast<uintptr_t>(tensors[i].shards[s].offset)));
    }
  }
  return key;
}

// direct[i][s]: shard s of tensor i is bound directly (no copy).
using Direct = std::vector<std::vector<bool>>;

// How process p's commands of `function` touch its buffer b.
struct BufferUse {
  bool touched = false, first_is_read = false, written = false;
};
BufferUse UseOf(const meshvk_program_t* prog, uint32_t function, uint32_t p, uint32_t b) {
  BufferUse use;
  auto touch = [&](bool write) {
    if (!use.touched) use.first_is_read = !write;
    use.touched = true;
    use.written |= write;
  };
  const auto* commands = meshvk::module::StreamOf(prog->artifact, function, p);
  for (uint32_t c = 0; commands && c < commands->size(); ++c) {
    const mvk::Command* cmd = commands->Get(c);
    if (const mvk::Dispatch* d = cmd->op_as_Dispatch()) {
      const mvk::Executable* x = prog->artifact->executables()->Get(d->executable());
      // Reads of a kernel binding come before its writes.
      bool reads = false, writes = false;
      for (uint32_t i = 0; d->bindings() && i < d->bindings()->size(); ++i) {
        if (d->bindings()->Get(i)->buffer() != b) continue;
        (x->bindings()->Get(i)->writable() ? writes : reads) = true;
      }
      if (reads) touch(false);
      if (writes) touch(true);
    } else if (const mvk::Copy* copy = cmd->op_as_Copy()) {
      if (copy->src_process() == p && copy->src_buffer() == b) touch(false);
      if (copy->dst_buffer() == b) touch(true);
    } else if (const mvk::Fill* fill = cmd->op_as_Fill()) {
      if (fill->buffer() == b) touch(true);
    }
  }
  return use;
}

// Why shard s of tensor i cannot be bound directly, or "" when it can.
std::string NotBindable(const meshvk_program_t* prog, uint32_t function, bool results, const mvk::TensorSignature* t,
                        const mvk::Shard* sh, const meshvk_shard_buffer_t& given,
                        const std::map<std::pair<uint32_t, uint32_t>, uint32_t>& shards_in_buffer) {
  uint32_t p = sh->process();
  const mvk::Buffer* own = prog->artifact->processes()->Get(p)->buffers()->Get(sh->buffer());
  if (given.offset != 0) return "the given offset is not 0";
  if (meshvk_buffer_process(given.buffer) != p) return "the given buffer is another process's";
  if (meshvk_buffer_size(given.buffer) < own->size()) return "the given buffer is smaller than the program's";
  if (sh->offset() != 0 || own->size() != ShardBytes(t, sh) || own->reuse_slot() >= 0 ||
      shards_in_buffer.at({p, sh->buffer()}) != 1)
    return "the program's buffer holds more than this shard";
  if (own->kind() != (results ? mvk::BufferKind::ResultShard : mvk::BufferKind::ArgumentShard))
    return "the program's buffer is not a plain argument or result shard";
  BufferUse use = UseOf(prog, function, p, sh->buffer());
  if (!results && use.written) return "the program writes it";
  if (results && (!use.written || use.first_is_read)) return "the program reads it before writing it";
  return "";
}

// Decides, per given shard, whether it is bound directly (see module.h).
// Adds a note per distinct reason a shard is copied instead.
Direct DecideBinding(meshvk_program_t* prog, const meshvk_async_invoke_info_t* info, bool results) {
  const meshvk_device_tensor_t* tensors = results ? info->results : info->arguments;
  uint32_t count = results ? info->result_count : info->argument_count;
  const char* kind = results ? "result" : "argument";
  Direct direct(tensors ? count : 0);
  // How many argument and result shards each program buffer holds.
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> shards_in_buffer;
  for (int r = 0; r < 2; ++r) {
    for (uint32_t i = 0;; ++i) {
      const mvk::TensorSignature* t = TensorSignatureOf(prog, info->function, i, r == 1);
      if (!t) break;
      for (uint32_t s = 0; t->shards() && s < t->shards()->size(); ++s)
        ++shards_in_buffer[{t->shards()->Get(s)->process(), t->shards()->Get(s)->buffer()}];
    }
  }
  // Whole-program reasons: one VkDevice, every process here, not asked to copy.
  std::string all;
  if (info->flags & MESHVK_ASYNC_INVOKE_COPY_SHARDS_BIT) all = "MESHVK_ASYNC_INVOKE_COPY_SHARDS_BIT";
  for (uint32_t p = 0; all.empty() && p < prog->logical_device.size(); ++p) {
    if (prog->logical_device[p] != prog->logical_device[0]) all = "the processes span several VkDevices";
    if (!prog->remote->Local(p)) all = "the program runs over several ranks";
  }
  for (uint32_t i = 0; i < direct.size(); ++i) {
    const mvk::TensorSignature* t = TensorSignatureOf(prog, info->function, i, results);
    uint32_t shards = t && t->shards() ? t->shards()->size() : 0;
    direct[i].assign(shards, false);
    if (tensors[i].shard_count != shards || !tensors[i].shards) continue;  // RecordCopies reports it
    for (uint32_t s = 0; s < shards; ++s) {
      const meshvk_shard_buffer_t& given = tensors[i].shards[s];
      if (!given.buffer) continue;
      std::string why =
          all.empty() ? NotBindable(prog, info->function, results, t, t->shards()->Get(s), given, shards_in_buffer)
                      : all;
      direct[i][s] = why.empty();
      if (why.empty()) continue;
      std::string note = std::string("invoke_async: ") + kind + " " + std::to_string(i) +
                         " shard(s) copied into/out of the program's buffers, not bound directly: " + why;
      if (std::find(prog->async_notes.begin(), prog->async_notes.end(), note) == prog->async_notes.end())
        prog->async_notes.push_back(note);
    }
  }
  return direct;
}

// Records, per process, the device copies between the caller's shard buffers
// and the program's (into the program for arguments, out of it for results).
Status RecordCopies(meshvk_program_t* prog, uint32_t function, const meshvk_device_tensor_t* tensors, uint32_t count,
                    bool results, const Direct& direct, meshvk::module::ShardCopies* out) {
  const char* kind = results ? "result" : "argument";
  uint32_t P = static_cast<uint32_t>(prog->buffers.size());
  out->Clear();
  out->per_process.assign(P, nullptr);
  for (uint32_t i = 0; i < count; ++i) {
    const mvk::TensorSignature* t = TensorSignatureOf(prog, function, i, results);
    uint32_t shards = t->shards() ? t->shards()->size() : 0;
    if (tensors[i].shard_count != shards || (shards && !tensors[i].shards))
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s %u: %u shard buffers given, the tensor has %u shards", kind,
                        i, tensors[i].shard_count, shards);
    for (uint32_t s = 0; s < shards; ++s) {
      const meshvk_shard_buffer_t& given = tensors[i].shards[s];
      if (!given.buffer || direct[i][s]) continue;
      const mvk::Shard* sh = t->shards()->Get(s);
      uint32_t p = sh->process();
      meshvk_command_buffer_t*& cb = out->per_process[p];
      std::string where = std::string(kind) + " " + std::to_string(i) + " shard " + std::to_string(s);
      if (!cb) MESHVK_RETURN_IF_ERROR(FromC(meshvk_command_buffer_create(prog->set, p, &cb), where));
      meshvk_buffer_t* own = prog->buffers[p][sh->buffer()];
      uint64_t bytes = ShardBytes(t, sh);
      meshvk_status_t status =
          results ? meshvk_command_buffer_copy(cb, own, sh->offset(), given.buffer, given.offset, bytes)
                  : meshvk_command_buffer_copy(cb, given.buffer, given.offset, own, sh->offset(), bytes);
      MESHVK_RETURN_IF_ERROR(FromC(status, where));
    }
  }
  for (uint32_t p = 0; p < P; ++p) {
    if (out->per_process[p])
      MESHVK_RETURN_IF_ERROR(FromC(meshvk_command_buffer_end(out->per_process[p]), "process " + std::to_string(p)));
  }
  return Status();
}

Status Submit(meshvk_program_t* prog, meshvk_command_buffer_t* cb, std::vector<meshvk_semaphore_value_t> waits,
              const meshvk_semaphore_value_t* signals, uint32_t signal_count, const std::string& what) {
  meshvk_submit_info_t submit = MESHVK_SUBMIT_INFO_INIT;
  submit.command_buffer = cb;
  submit.waits = waits.data();
  submit.wait_count = static_cast<uint32_t>(waits.size());
  submit.signals = signals;
  submit.signal_count = signal_count;
  return FromC(meshvk_queue_submit(prog->set, &submit), what);
}

// Every process's timeline and io timeline at their last values.
std::vector<meshvk_semaphore_value_t> Latest(const meshvk_program_t* prog) {
  std::vector<meshvk_semaphore_value_t> waits;
  for (uint32_t q = 0; q < prog->semaphores.size(); ++q) {
    if (prog->last_signal[q]) waits.push_back({prog->semaphores[q], prog->last_signal[q]});
    if (prog->io_value[q]) waits.push_back({prog->io_semaphores[q], prog->io_value[q]});
  }
  return waits;
}

bool SeveralDevices(const meshvk_program_t* prog) {
  for (uint32_t p = 1; p < prog->logical_device.size(); ++p)
    if (prog->logical_device[p] != prog->logical_device[0]) return true;
  return false;
}

Status Prepare(meshvk_program_t* prog) {
  uint32_t P = static_cast<uint32_t>(prog->semaphores.size());
  if (SeveralDevices(prog)) {
    for (uint32_t p = 0; p < P; ++p)
      if (!prog->remote->Local(p))
        return MakeStatus(MESHVK_STATUS_UNIMPLEMENTED,
                          "the program runs over several ranks and several VkDevices: an asynchronous invoke "
                          "needs all processes in this process (or one VkDevice)");
    if (prog->trace)
      return MakeStatus(MESHVK_STATUS_UNIMPLEMENTED,
                        "a traced program on several VkDevices: asynchronous invokes are not traced");
    if (!prog->worker) {
      prog->joins.assign(P, nullptr);
      for (uint32_t p = 0; p < P; ++p) {
        MESHVK_RETURN_IF_ERROR(
            FromC(meshvk_command_buffer_create(prog->set, p, &prog->joins[p]), "join of process " + std::to_string(p)));
        MESHVK_RETURN_IF_ERROR(
            FromC(meshvk_command_buffer_end(prog->joins[p]), "join of process " + std::to_string(p)));
      }
      prog->worker = std::make_unique<meshvk::module::AsyncWorker>();
    }
    // A queued invoke that failed reports on the next call.
    MESHVK_RETURN_IF_ERROR(prog->worker->TakeError());
  }
  if (prog->io_semaphores.empty()) {
    for (uint32_t p = 0; p < P; ++p) {
      meshvk_semaphore_t* sem = nullptr;
      MESHVK_RETURN_IF_ERROR(FromC(meshvk_semaphore_create(prog->set, p, 0, &sem), "process " + std::to_string(p)));
      prog->io_semaphores.push_back(sem);
    }
    prog->io_value.assign(P, 0);
  }
  if (!prog->join) {
    MESHVK_RETURN_IF_ERROR(FromC(meshvk_command_buffer_create(prog->set, 0, &prog->join), "join"));
    MESHVK_RETURN_IF_ERROR(FromC(meshvk_command_buffer_end(prog->join), "join"));
  }
  return Status();
}

// The cache key of an invoke: function, flags, and every given buffer and offset.
std::vector<const void*> BindingKey(const meshvk_async_invoke_info_t* info, uint32_t arguments, uint32_t results) {
  std::vector<const void*> key = CopyKey(info->function, info->arguments, info->arguments ? arguments : 0);
  key.push_back(reinterpret_cast<const void*>(static_cast<uintptr_t>(info->flags) + 1));
  if (info->results) {
    std::vector<const void*> out = CopyKey(info->function, info->results, results);
    key.insert(key.end(), out.begin(), out.end());
  }
  return key;
}

// For a new set of caller buffers: which shards are bound directly, the
// copies of the others, and the function recorded with the bound ones.
Status RecordBinding(meshvk_program_t* prog, const meshvk_async_invoke_info_t* info, uint32_t arguments,
                     uint32_t results, meshvk::module::Binding* out) {
  Direct direct_in = DecideBinding(prog, info, false), direct_out = DecideBinding(prog, info, true);
  if (info->arguments)
    MESHVK_RETURN_IF_ERROR(
        RecordCopies(prog, info->function, info->arguments, arguments, false, direct_in, &out->copies_in));
  if (info->results)
    MESHVK_RETURN_IF_ERROR(
        RecordCopies(prog, info->function, info->results, results, true, direct_out, &out->copies_out));
  std::vector<std::vector<meshvk_buffer_t*>> buffers = prog->buffers;
  uint32_t bound = 0;
  for (int r = 0; r < 2; ++r) {
    const Direct& direct = r ? direct_out : direct_in;
    const meshvk_device_tensor_t* tensors = r ? info->results : info->arguments;
    for (uint32_t i = 0; i < direct.size(); ++i) {
      for (uint32_t s = 0; s < direct[i].size(); ++s) {
        if (!direct[i][s]) continue;
        const mvk::Shard* sh = TensorSignatureOf(prog, info->function, i, r == 1)->shards()->Get(s);
        buffers[sh->process()][sh->buffer()] = tensors[i].shards[s].buffer;
        ++bound;
      }
    }
  }
  if (bound)
    MESHVK_RETURN_IF_ERROR(meshvk::module::RecordFunctionWith(prog, info->function, buffers, &out->bound.segments));
  out->bound.direct_shards = bound;
  return Status();
}

// The binding of this invoke's buffers: a cached one (moved to the front of
// the LRU order), else a new recording that replaces the least recently used.
Status Plan(meshvk_program_t* prog, const meshvk_async_invoke_info_t* info, uint32_t arguments, uint32_t results,
            std::shared_ptr<meshvk::module::Binding>* out) {
  meshvk::module::BindingCache& cache = prog->bindings;
  std::vector<const void*> key = BindingKey(info, arguments, results);
  for (const std::shared_ptr<meshvk::module::Binding>& entry : cache.entries) {
    if (entry->key != key) continue;
    entry->last_use = ++cache.clock;
    ++cache.reused;
    *out = entry;
    return Status();
  }
  // Queued invokes run on the worker thread while this one records: let
  // them finish first (a miss only; hits record nothing).
  if (prog->worker) MESHVK_RETURN_IF_ERROR(prog->worker->Drain());
  auto binding = std::make_shared<meshvk::module::Binding>();
  MESHVK_RETURN_IF_ERROR(RecordBinding(prog, info, arguments, results, binding.get()));
  binding->key = std::move(key);
  binding->last_use = ++cache.clock;
  ++cache.recorded;
  if (cache.entries.size() >= meshvk::module::BindingCache::kCapacity) {
    auto oldest = std::min_element(cache.entries.begin(), cache.entries.end(),
                                   [](const auto& a, const auto& b) { return a->last_use < b->last_use; });
    cache.entries.erase(oldest);  // waits for its last submission (or a queued invoke still holds it)
  }
  cache.entries.push_back(binding);
  *out = std::move(binding);
  return Status();
}

// An invoke over several VkDevices, queued on the worker. Holds a reference
// on the caller's semaphores until it ran.
struct HostOrderedInvoke {
  meshvk_program_t* prog = nullptr;
  uint32_t function = 0;
  std::shared_ptr<meshvk::module::Binding> binding;  // its copies, kept while queued
  std::vector<meshvk_semaphore_value_t> waits, signals;
  HostOrderedInvoke(meshvk_program_t* p, const meshvk_async_invoke_info_t* info,
                    std::shared_ptr<meshvk::module::Binding> b)
      : prog(p),
        function(info->function),
        binding(std::move(b)),
        waits(info->waits, info->waits + info->wait_count),
        signals(info->signals, info->signals + info->signal_count) {
    for (const auto& w : waits) meshvk_semaphore_retain(w.semaphore);
    for (const auto& s : signals) meshvk_semaphore_retain(s.semaphore);
  }
  ~HostOrderedInvoke() {
    for (const auto& w : waits) meshvk_semaphore_release(w.semaphore);
    for (const auto& s : signals) meshvk_semaphore_release(s.semaphore);
  }
  HostOrderedInvoke(const HostOrderedInvoke&) = delete;
  HostOrderedInvoke& operator=(const HostOrderedInvoke&) = delete;

  // Submits each process's copies (no device waits: the host ordered them)
  // and waits for them on the host.
  Status RunCopies(const meshvk::module::ShardCopies& copies, const char* what) {
    for (uint32_t p = 0; p < copies.per_process.size(); ++p) {
      if (!copies.per_process[p]) continue;
      meshvk_semaphore_value_t signal{prog->io_semaphores[p], prog->io_value[p] + 1};
      MESHVK_RETURN_IF_ERROR(
          Submit(prog, copies.per_process[p], {}, &signal, 1, std::string(what) + " of process " + std::to_string(p)));
      prog->io_value[p] = signal.value;
    }
    for (uint32_t p = 0; p < copies.per_process.size(); ++p) {
      if (!copies.per_process[p]) continue;
      MESHVK_RETURN_IF_ERROR(FromC(meshvk_semaphore_wait(prog->io_semaphores[p], prog->io_value[p], UINT64_MAX),
                                   std::string(what) + " of process " + std::to_string(p)));
    }
    return Status();
  }

  Status Run(const std::atomic<bool>& stopping) {
    // The caller's semaphores may be signalled much later (by the host, or by
    // work the application has yet to submit): wait in slices, so that
    // releasing the program can stop the wait.
    constexpr uint64_t kSlice = 100ull * 1000 * 1000;
    for (const meshvk_semaphore_value_t& w : waits) {
      for (;;) {
        meshvk_status_t status = meshvk_semaphore_wait(w.semaphore, w.value, kSlice);
        if (!status) break;
        if (meshvk_status_code(status) != MESHVK_STATUS_DEADLINE_EXCEEDED) return FromC(status, "caller's wait");
        meshvk_status_free(status);
        if (stopping)
          return MakeStatus(MESHVK_STATUS_FAILED_PRECONDITION,
                            "the program was released while an invoke waited for value %llu of a semaphore",
                            static_cast<unsigned long long>(w.value));
      }
    }
    MESHVK_RETURN_IF_ERROR(meshvk::module::WaitForEarlierInvokes(prog, UINT64_MAX));
    MESHVK_RETURN_IF_ERROR(RunCopies(binding->copies_in, "copies in"));
    prog->timings_valid = false;
    MESHVK_RETURN_IF_ERROR(meshvk::module::SubmitSegments(prog, function, UINT64_MAX, {}, /*async=*/false));
    MESHVK_RETURN_IF_ERROR(RunCopies(binding->copies_out, "copies out"));
    // Signalled by a submission on each semaphore's VkDevice, not by
    // vkSignalSemaphore: the Khronos validation layer (1.3.239) loses host
    // signals made on one thread while another waits (a spurious
    // "VkSemaphore-state-timeout" after 10 s).
    for (const meshvk_semaphore_value_t& s : signals) {
      uint32_t p = meshvk_semaphore_process(s.semaphore);
      if (p >= prog->joins.size())
        return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "a signal semaphore is not of the program's device set");
      MESHVK_RETURN_IF_ERROR(Submit(prog, prog->joins[p], {}, &s, 1, "signalling the caller"));
    }
    return Status();
  }
};

Status InvokeAsync(meshvk_program_t* prog, const meshvk_async_invoke_info_t* info) {
  const auto* functions = prog->artifact->functions();
  if (!functions || info->function >= functions->size())
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "function %u out of range", info->function);
  const mvk::Function* fn = functions->Get(info->function);
  uint32_t arguments = fn->arguments() ? fn->arguments()->size() : 0;
  uint32_t results = fn->results() ? fn->results()->size() : 0;
  if (info->arguments && info->argument_count != arguments)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "function '%s' takes %u arguments, got %u", fn->name()->c_str(),
                      arguments, info->argument_count);
  if (info->results && info->result_count != results)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "function '%s' returns %u results, got %u", fn->name()->c_str(),
                      results, info->result_count);
  if ((info->wait_count && !info->waits) || (info->signal_count && !info->signals))
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "waits or signals is NULL");
  MESHVK_RETURN_IF_ERROR(Prepare(prog));

  for (int r = 0; r < 2; ++r) {
    const meshvk_device_tensor_t* tensors = r ? info->results : info->arguments;
    for (uint32_t i = 0; tensors && i < (r ? results : arguments); ++i) {
      const mvk::TensorSignature* t = TensorSignatureOf(prog, info->function, i, r == 1);
      uint32_t shards = t->shards() ? t->shards()->size() : 0;
      if (tensors[i].shard_count != shards || (shards && !tensors[i].shards))
        return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s %u: %u shard buffers given, the tensor has %u shards",
                          r ? "result" : "argument", i, tensors[i].shard_count, shards);
    }
  }
  std::shared_ptr<meshvk::module::Binding> binding;
  MESHVK_RETURN_IF_ERROR(Plan(prog, info, arguments, results, &binding));
  if (prog->worker) {
    auto job = std::make_shared<HostOrderedInvoke>(prog, info, binding);
    prog->worker->Push([job](const std::atomic<bool>& stopping) { return job->Run(stopping); });
    return Status();
  }
  uint32_t P = static_cast<uint32_t>(prog->semaphores.size());
  std::vector<meshvk_semaphore_value_t> caller(info->waits, info->waits + info->wait_count);

  // Copies in: after the caller's waits and everything earlier.
  if (info->arguments) {
    std::vector<meshvk_semaphore_value_t> waits = Latest(prog);
    waits.insert(waits.end(), caller.begin(), caller.end());
    for (uint32_t p = 0; p < P; ++p) {
      if (!binding->copies_in.per_process[p]) continue;
      meshvk_semaphore_value_t signal{prog->io_semaphores[p], prog->io_value[p] + 1};
      MESHVK_RETURN_IF_ERROR(Submit(prog, binding->copies_in.per_process[p], waits, &signal, 1,
                                    "copies in of process " + std::to_string(p)));
      prog->io_value[p] = signal.value;
    }
  }
  // The segments: each process's first one after the caller's waits and all
  // copies in (and, as always, after the previous invoke).
  std::vector<meshvk_semaphore_value_t> first = caller;
  for (uint32_t q = 0; q < P; ++q)
    if (prog->io_value[q]) first.push_back({prog->io_semaphores[q], prog->io_value[q]});
  prog->timings_valid = false;
  // With shards bound directly, the function's recording on those buffers.
  const bool bound = binding->bound.direct_shards > 0;
  if (bound) std::swap(prog->segments[info->function], binding->bound.segments);
  Status submitted = meshvk::module::SubmitSegments(prog, info->function, 0, first, /*async=*/true);
  if (bound) std::swap(prog->segments[info->function], binding->bound.segments);
  MESHVK_RETURN_IF_ERROR(submitted);
  // Copies out: after every process's last segment.
  if (info->results) {
    std::vector<meshvk_semaphore_value_t> waits = Latest(prog);
    for (uint32_t p = 0; p < P; ++p) {
      if (!binding->copies_out.per_process[p]) continue;
      meshvk_semaphore_value_t signal{prog->io_semaphores[p], prog->io_value[p] + 1};
      MESHVK_RETURN_IF_ERROR(Submit(prog, binding->copies_out.per_process[p], waits, &signal, 1,
                                    "copies out of process " + std::to_string(p)));
      prog->io_value[p] = signal.value;
    }
  }
  // Join: the caller's signals once everything above has finished.
  if (info->signal_count) {
    std::vector<meshvk_semaphore_value_t> waits = Latest(prog);
    MESHVK_RETURN_IF_ERROR(Submit(prog, prog->join, waits, info->signals, info->signal_count, "signalling"));
  }
  return Status();
}

}  // namespace

extern "C" {

meshvk_status_t meshvk_program_invoke_async(meshvk_program_t* program, const meshvk_async_invoke_info_t* info) {
  if (!program) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_program_invoke_async: program is NULL").ToC();
  Status status =
      meshvk::CheckStructure(info, MESHVK_STRUCTURE_TYPE_ASYNC_INVOKE_INFO, "meshvk_program_invoke_async: info");
  if (!status.ok()) return status.ToC();
  status = InvokeAsync(program, info);
  if (!status.ok()) return MakeStatus(status.code(), "meshvk_program_invoke_async: %s", status.message().c_str()).ToC();
  return MESHVK_OK;
}

meshvk_status_t meshvk_program_binding_stats(const meshvk_program_t* program, meshvk_binding_stats_t* out_stats) {
  if (!program)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_program_binding_stats: program is NULL").ToC();
  Status status =
      meshvk::CheckStructure(out_stats, MESHVK_STRUCTURE_TYPE_BINDING_STATS, "meshvk_program_binding_stats: out_stats");
  if (!status.ok()) return status.ToC();
  meshvk_binding_stats_t stats = MESHVK_BINDING_STATS_INIT;
  stats.recorded = program->bindings.recorded;
  stats.reused = program->bindings.reused;
  stats.cached = static_cast<uint32_t>(program->bindings.entries.size());
  stats.capacity = static_cast<uint32_t>(meshvk::module::BindingCache::kCapacity);
  meshvk::FillKeepingHeader(out_stats, stats);
  return MESHVK_OK;
}

meshvk_status_t meshvk_program_wait(meshvk_program_t* program, meshvk_timeout_t timeout) {
  if (!program) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_program_wait: program is NULL").ToC();
  // A queued invoke may wait for an application's semaphore, which only a
  // timeout given here bounds (its device waits are bounded by the runtime's).
  Status status = program->worker ? program->worker->Drain(timeout) : Status();
  if (status.ok()) status = meshvk::module::WaitForEarlierInvokes(program, timeout);
  if (!status.ok()) return MakeStatus(status.code(), "meshvk_program_wait: %s", status.message().c_str()).ToC();
  return MESHVK_OK;
}

}  // extern "C"
