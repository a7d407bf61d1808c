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
#include <string>
#include <vector>

#include "meshvk/artifact/builder.h"
#include "meshvk/queue.h"
#include "program.h"

namespace {

using meshvk::FromC;
using meshvk::MakeStatus;
using meshvk::Status;
namespace mvk = meshvk::mvk;

const mvk::TensorSignature* Signature(const meshvk_program_t* prog, uint32_t function, uint32_t index, bool result) {
  const auto* functions = prog->artifact->functions();
  if (!functions || function >= functions->size()) return nullptr;
  const auto* list = result ? functions->Get(function)->results() : functions->Get(function)->arguments();
  return list && index < list->size() ? list->Get(index) : nullptr;
}

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

// Records, per process, the device copies between the caller's shard buffers
// and the program's (into the program for arguments, out of it for results).
Status RecordCopies(meshvk_program_t* prog, uint32_t function, const meshvk_device_tensor_t* tensors, uint32_t count,
                    bool results, meshvk::module::ShardCopies* out) {
  const char* kind = results ? "result" : "argument";
  uint32_t P = static_cast<uint32_t>(prog->buffers.size());
  out->Clear();
  out->per_process.assign(P, nullptr);
  for (uint32_t i = 0; i < count; ++i) {
    const mvk::TensorSignature* t = Signature(prog, function, i, results);
    uint32_t shards = t->shards() ? t->shards()->size() : 0;
    if (tensors[i].shard_count != shards || (shards && !tensors[i].shards))
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s %u: %u shard buffers given, the tensor has %u shards", kind,
                        i, tensors[i].shard_count, shards);
    for (uint32_t s = 0; s < shards; ++s) {
      const meshvk_shard_buffer_t& given = tensors[i].shards[s];
      if (!given.buffer) continue;
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
  meshvk_submit_info_t submit{};
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

Status Prepare(meshvk_program_t* prog) {
  uint32_t P = static_cast<uint32_t>(prog->semaphores.size());
  for (uint32_t p = 1; p < P; ++p) {
    if (prog->logical_device[p] != prog->logical_device[0])
      return MakeStatus(MESHVK_STATUS_UNIMPLEMENTED,
                        "meshvk_program_invoke_async: processes 0 and %u are on different VkDevices; an "
                        "asynchronous invoke needs one VkDevice (a device group or logical processes)",
                        p);
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

  if (info->arguments) {
    std::vector<const void*> key = CopyKey(info->function, info->arguments, arguments);
    if (key != prog->copies_in.key) {
      MESHVK_RETURN_IF_ERROR(RecordCopies(prog, info->function, info->arguments, arguments, false, &prog->copies_in));
      prog->copies_in.key = std::move(key);
    }
  }
  if (info->results) {
    std::vector<const void*> key = CopyKey(info->function, info->results, results);
    if (key != prog->copies_out.key) {
      MESHVK_RETURN_IF_ERROR(RecordCopies(prog, info->function, info->results, results, true, &prog->copies_out));
      prog->copies_out.key = std::move(key);
    }
  }
  uint32_t P = static_cast<uint32_t>(prog->semaphores.size());
  std::vector<meshvk_semaphore_value_t> caller(info->waits, info->waits + info->wait_count);

  // Copies in: after the caller's waits and everything earlier.
  if (info->arguments) {
    std::vector<meshvk_semaphore_value_t> waits = Latest(prog);
    waits.insert(waits.end(), caller.begin(), caller.end());
    for (uint32_t p = 0; p < P; ++p) {
      if (!prog->copies_in.per_process[p]) continue;
      meshvk_semaphore_value_t signal{prog->io_semaphores[p], prog->io_value[p] + 1};
      MESHVK_RETURN_IF_ERROR(
          Submit(prog, prog->copies_in.per_process[p], waits, &signal, 1, "copies in of process " + std::to_string(p)));
      prog->io_value[p] = signal.value;
    }
  }
  // The segments: each process's first one after the caller's waits and all
  // copies in (and, as always, after the previous invoke).
  std::vector<meshvk_semaphore_value_t> first = caller;
  for (uint32_t q = 0; q < P; ++q)
    if (prog->io_value[q]) first.push_back({prog->io_semaphores[q], prog->io_value[q]});
  prog->timings_valid = false;
  MESHVK_RETURN_IF_ERROR(meshvk::module::SubmitSegments(prog, info->function, 0, first, /*async=*/true));
  // Copies out: after every process's last segment.
  if (info->results) {
    std::vector<meshvk_semaphore_value_t> waits = Latest(prog);
    for (uint32_t p = 0; p < P; ++p) {
      if (!prog->copies_out.per_process[p]) continue;
      meshvk_semaphore_value_t signal{prog->io_semaphores[p], prog->io_value[p] + 1};
      MESHVK_RETURN_IF_ERROR(Submit(prog, prog->copies_out.per_process[p], waits, &signal, 1,
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
  if (!program || !info)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_program_invoke_async: program or info is NULL").ToC();
  Status status = InvokeAsync(program, info);
  if (!status.ok()) return MakeStatus(status.code(), "meshvk_program_invoke_async: %s", status.message().c_str()).ToC();
  return MESHVK_OK;
}

meshvk_status_t meshvk_program_argument_shard(const meshvk_program_t* program, uint32_t function, uint32_t argument,
                                              uint32_t shard, meshvk_shard_view_t* out_view) {
  if (!program || !out_view)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_program_argument_shard: program or out_view is NULL")
        .ToC();
  const mvk::TensorSignature* t = Signature(program, function, argument, false);
  if (!t) return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "function %u has no argument %u", function, argument).ToC();
  uint32_t shards = t->shards() ? t->shards()->size() : 0;
  if (shard >= shards)
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "shard %u out of range (%u shards)", shard, shards).ToC();
  const mvk::Shard* sh = t->shards()->Get(shard);
  *out_view = meshvk_shard_view_t{};
  out_view->process = sh->process();
  out_view->buffer = program->buffers[sh->process()][sh->buffer()];
  out_view->offset = sh->offset();
  out_view->rank = t->shape()->size();
  for (uint32_t d = 0; d < out_view->rank; ++d) {
    out_view->global_offset[d] = sh->global_offset()->Get(d);
    out_view->shape[d] = sh->shape()->Get(d);
  }
  return MESHVK_OK;
}

}  // extern "C"
