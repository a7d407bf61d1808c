// The host-tensor invoke: input tensors are streamed into their shards,
// the function's segments are submitted (program_submit.cc) and the result
// shards are gathered into dense host tensors (to rank 0 across ranks).
#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "invoke_trace.h"
#include "meshvk/artifact/builder.h"
#include "meshvk/module.h"
#include "meshvk/trace.h"
#include "meshvk/transport.h"
#include "module.h"
#include "program.h"
#include "rank_inputs.h"
#include "remote_copies.h"
#include "status.h"
#include "structure.h"

namespace {

using meshvk::FromC;
using meshvk::MakeStatus;
using meshvk::Status;
namespace mvk = meshvk::mvk;

using meshvk::module::Segment;

}  // namespace

namespace {

// Calls `fn(buffer_offset, host_offset, row_bytes, rows, buffer_pitch, host_pitch)`
// for the runs of one shard inside a dense row-major global tensor.
template <typename Fn>
Status ForEachShardRun(const mvk::TensorSignature* t, const mvk::Shard* sh, uint32_t elem, Fn fn) {
  uint32_t rank = t->shape()->size();
  if (rank == 0) return fn(sh->offset(), 0, elem, 1, elem, elem);
  for (uint32_t d = 0; d < rank; ++d)
    if (sh->shape()->Get(d) == 0) return Status();  // an empty shard (3 rows over 4 processes): no runs
  std::vector<uint64_t> g(rank), s(rank), o(rank), gstride(rank), sstride(rank);
  for (uint32_t d = 0; d < rank; ++d) {
    g[d] = t->shape()->Get(d);
    s[d] = sh->shape()->Get(d);
    o[d] = sh->global_offset()->Get(d);
  }
  gstride[rank - 1] = sstride[rank - 1] = elem;
  for (uint32_t d = rank - 1; d-- > 0;) {
    gstride[d] = gstride[d + 1] * g[d + 1];
    sstride[d] = sstride[d + 1] * s[d + 1];
  }
  // k: the outermost dimension from which the shard is one contiguous run.
  uint32_t k = rank - 1;
  while (k > 0 && s[k] == g[k]) --k;
  uint64_t run = s[k] * sstride[k];
  uint64_t base_host = 0;
  for (uint32_t d = 0; d < rank; ++d) base_host += o[d] * gstride[d];
  if (k == 0) return fn(sh->offset(), base_host, run, 1, run, run);
  // Rows along dimension k-1; loop over dimensions 0..k-2.
  uint64_t outer = 1;
  for (uint32_t d = 0; d + 1 < k; ++d) outer *= s[d];
  std::vector<uint64_t> idx(k > 1 ? k - 1 : 0, 0);
  for (uint64_t i = 0; i < outer; ++i) {
    uint64_t host = base_host, dev = sh->offset();
    for (uint32_t d = 0; d + 1 < k; ++d) {
      host += idx[d] * gstride[d];
      dev += idx[d] * sstride[d];
    }
    MESHVK_RETURN_IF_ERROR(fn(dev, host, run, s[k - 1], sstride[k - 1], gstride[k - 1]));
    for (uint32_t d = k - 1; d-- > 0;) {  // increment the multi-index
      if (++idx[d] < s[d]) break;
      idx[d] = 0;
    }
  }
  return Status();
}

// Bytes of the dense row-major host tensor an input or output of `t` is.
uint64_t HostBytes(const mvk::TensorSignature* t) {
  uint64_t bytes = meshvk::artifact::ElementSize(static_cast<meshvk::artifact::ElementType>(t->element_type()));
  for (uint64_t e : *t->shape()) bytes *= e;
  return bytes;
}

Status WriteInputs(meshvk_program_t* prog, const mvk::Function* fn, const meshvk_invoke_info_t* info) {
  uint32_t count = fn->arguments() ? fn->arguments()->size() : 0;
  if (info->input_count != count)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "function '%s' takes %u inputs, got %u", fn->name()->c_str(),
                      count, info->input_count);
  if (count && !info->inputs)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "info->inputs is NULL; function '%s' takes %u inputs",
                      fn->name()->c_str(), count);
  // MESHVK_INVOKE_RANK_INPUTS_BIT: each input holds only this rank's runs (rank_inputs.h).
  const bool packed = info->flags & MESHVK_INVOKE_RANK_INPUTS_BIT;
  if (packed && !prog->remote->enabled())
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "MESHVK_INVOKE_RANK_INPUTS_BIT: the program has no ranks");
  meshvk::module::RankInputLayout layout;
  for (uint32_t i = 0; i < count; ++i) {
    const mvk::TensorSignature* t = fn->arguments()->Get(i);
    uint32_t elem = meshvk::artifact::ElementSize(static_cast<meshvk::artifact::ElementType>(t->element_type()));
    uint64_t bytes = HostBytes(t);
    if (packed) MESHVK_RETURN_IF_ERROR(layout.Build(prog->module, info->function, i, *prog->remote));
    if (packed) bytes = layout.bytes();
    // A rank whose processes hold only empty shards gets 0 bytes (data may be NULL).
    if ((!info->inputs[i].data && bytes != 0) || info->inputs[i].size != bytes)
      return MakeStatus(
          MESHVK_STATUS_INVALID_ARGUMENT, "input %u of '%s': %llu bytes given, the %s tensor needs %llu", i,
          fn->name()->c_str(), static_cast<unsigned long long>(info->inputs[i].size),
          meshvk::artifact::ElementTypeName(static_cast<meshvk::artifact::ElementType>(t->element_type())),
          static_cast<unsigned long long>(bytes));
    const uint8_t* host = static_cast<const uint8_t*>(info->inputs[i].data);
    for (const mvk::Shard* sh : *t->shards()) {
      if (!prog->remote->Local(sh->process())) continue;  // another rank writes it
      meshvk_buffer_t* buffer = prog->buffers[sh->process()][sh->buffer()];
      MESHVK_RETURN_IF_ERROR(ForEachShardRun(
          t, sh, elem,
          [&](uint64_t dev, uint64_t host_off, uint64_t run, uint64_t rows, uint64_t dev_pitch, uint64_t host_pitch) {
            if (packed) {  // the run's rows sit back to back in the rank's input
              host_off = layout.Find(host_off, run, rows, host_pitch);
              host_pitch = run;
            }
            return FromC(meshvk_buffer_write_strided(buffer, dev, dev_pitch, host + host_off, host_pitch, run, rows),
                         "input " + std::to_string(i) + " shard of process " + std::to_string(sh->process()));
          }));
    }
  }
  return Status();
}

Status ReadResults(meshvk_program_t* prog, const mvk::Function* fn, const meshvk_invoke_info_t* info) {
  uint32_t count = fn->results() ? fn->results()->size() : 0;
  for (uint32_t i = 0; i < count; ++i) {
    const mvk::TensorSignature* t = fn->results()->Get(i);
    uint32_t elem = meshvk::artifact::ElementSize(static_cast<meshvk::artifact::ElementType>(t->element_type()));
    uint8_t* host = info->outputs ? static_cast<uint8_t*>(info->outputs[i].data) : nullptr;  // NULL off the root
    std::set<std::vector<uint64_t>> done;  // replicas: read each part once
    size_t part_index = i * 1024;          // result tags: distinct per (result, part)
    for (const mvk::Shard* sh : *t->shards()) {
      if (meshvk::module::ShardBytes(t, sh) == 0) continue;  // an empty shard: nothing to read or send
      std::vector<uint64_t> part(sh->global_offset()->begin(), sh->global_offset()->end());
      if (!done.insert(part).second) continue;
      meshvk::module::RemoteCopies& remote = *prog->remote;
      const uint32_t tag = meshvk::module::kResultTagBase + static_cast<uint32_t>(part_index++);
      if (remote.enabled() && remote.RankOf(sh->process()) != remote.root()) {
        // Gathered to the root rank: the owner sends the dense shard once.
        const uint64_t bytes = meshvk::module::ShardBytes(t, sh);
        std::vector<uint8_t> dense(bytes);
        if (remote.Local(sh->process())) {
          MESHVK_RETURN_IF_ERROR(
              FromC(meshvk_buffer_read(prog->buffers[sh->process()][sh->buffer()], sh->offset(), dense.data(), bytes),
                    "result " + std::to_string(i) + " shard of process " + std::to_string(sh->process())));
          MESHVK_RETURN_IF_ERROR(remote.Send(remote.root(), tag, std::move(dense)));
        } else if (remote.transport()->rank == remote.root()) {
          MESHVK_RETURN_IF_ERROR(remote.ReceiveInto(remote.RankOf(sh->process()), tag, dense.data(), bytes));
          MESHVK_RETURN_IF_ERROR(ForEachShardRun(
              t, sh, elem,
              [&](uint64_t dev, uint64_t host_off, uint64_t run, uint64_t rows, uint64_t dev_pitch,
                  uint64_t host_pitch) {
                for (uint64_t r = 0; r < rows; ++r)
                  std::memcpy(host + host_off + r * host_pitch, dense.data() + dev - sh->offset() + r * dev_pitch, run);
                return Status();
              }));
        }
        continue;
      }
      if (!remote.Local(sh->process())) continue;  // the root's own shard, on the root
      meshvk_buffer_t* buffer = prog->buffers[sh->process()][sh->buffer()];
      MESHVK_RETURN_IF_ERROR(ForEachShardRun(
          t, sh, elem,
          [&](uint64_t dev, uint64_t host_off, uint64_t run, uint64_t rows, uint64_t dev_pitch, uint64_t host_pitch) {
            return FromC(meshvk_buffer_read_strided(buffer, dev, dev_pitch, host + host_off, host_pitch, run, rows),
                         "result " + std::to_string(i) + " shard of process " + std::to_string(sh->process()));
          }));
    }
  }
  return Status();
}

Status CheckOutputs(const meshvk_program_t* prog, const mvk::Function* fn, const meshvk_invoke_info_t* info) {
  if (info->flags & MESHVK_INVOKE_KEEP_RESULTS_SHARDED_BIT) return Status();
  // A rank other than the root never writes its outputs: it may pass none.
  const meshvk::module::RemoteCopies& remote = *prog->remote;
  if (!info->outputs && remote.enabled() && remote.transport()->rank != remote.root()) return Status();
  uint32_t count = fn->results() ? fn->results()->size() : 0;
  if (info->output_count != count || (count && !info->outputs))
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "function '%s' returns %u results, got %u outputs",
                      fn->name()->c_str(), count, info->output_count);
  for (uint32_t i = 0; i < count; ++i) {
    const mvk::TensorSignature* t = fn->results()->Get(i);
    uint64_t bytes = HostBytes(t);
    if (!info->outputs[i].data || info->outputs[i].size != bytes)
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "output %u of '%s': %llu bytes given, the result needs %llu", i,
                        fn->name()->c_str(), static_cast<unsigned long long>(info->outputs[i].size),
                        static_cast<unsigned long long>(bytes));
  }
  return Status();
}

// Device time of each segment of the invoke that just completed. A device
// without timestamp queries leaves the timings invalid (not an error).
Status ReadTimings(meshvk_program_t* prog, uint32_t function) {
  if (prog->timestamps_unavailable) return Status();
  prog->timings.clear();
  for (const Segment& seg : prog->segments[function]) {
    uint64_t ns = 0;
    meshvk_status_t status = meshvk_command_buffer_device_time(seg.command_buffer, &ns);
    if (meshvk_status_code(status) == MESHVK_STATUS_UNAVAILABLE) {
      meshvk_status_free(status);
      prog->timestamps_unavailable = true;
      return Status();
    }
    MESHVK_RETURN_IF_ERROR(
        FromC(status, "timestamps of process " + std::to_string(seg.process) + " phase " + std::to_string(seg.phase)));
    meshvk_phase_timing_t timing = MESHVK_PHASE_TIMING_INIT;
    timing.phase = seg.phase;
    timing.process = seg.process;
    timing.device_ns = ns;
    prog->timings.push_back(timing);
  }
  prog->timings_valid = true;
  return Status();
}

uint64_t InputBytes(const meshvk_invoke_info_t* info) {
  uint64_t bytes = 0;
  for (uint32_t i = 0; i < info->input_count; ++i) bytes += info->inputs[i].size;
  return bytes;
}

uint64_t OutputBytes(const meshvk_invoke_info_t* info) {
  uint64_t bytes = 0;
  for (uint32_t i = 0; info->outputs && i < info->output_count; ++i) bytes += info->outputs[i].size;
  return bytes;
}

Status Invoke(meshvk_program_t* prog, const meshvk_invoke_info_t* info) {
  const auto* functions = prog->artifact->functions();
  if (!functions || info->function >= functions->size())
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "function %u out of range (%u functions)", info->function,
                      functions ? functions->size() : 0);
  const mvk::Function* fn = functions->Get(info->function);
  MESHVK_RETURN_IF_ERROR(CheckOutputs(prog, fn, info));
  // Bounds each wait of this invoke (meshvk.h's timeout rule); every wait on
  // meshvk's own work is also bounded by the set's device timeout.
  const uint64_t timeout = info->timeout;
  // Async invokes queued on the worker (several VkDevices) go first; one that
  // failed reports here.
  if (prog->worker) MESHVK_RETURN_IF_ERROR(prog->worker->Drain(timeout));
  // An asynchronous invoke may still be using the buffers the host writes.
  MESHVK_RETURN_IF_ERROR(meshvk::module::WaitForEarlierInvokes(prog, timeout));
  meshvk::module::InvokeTrace* trace = prog->trace.get();
  if (trace) trace->StartInvoke(info->function);
  uint64_t step = trace ? meshvk::module::TraceNowNs() : 0;
  MESHVK_RETURN_IF_ERROR(WriteInputs(prog, fn, info));
  if (trace)
    trace->Host(MESHVK_TRACE_WRITE_INPUTS, MESHVK_TRACE_NONE, MESHVK_TRACE_NONE, MESHVK_TRACE_NONE, step,
                meshvk::module::TraceNowNs(), InputBytes(info));
  prog->remote->BeginInvoke(info->function);
  prog->timings_valid = false;
  MESHVK_RETURN_IF_ERROR(meshvk::module::SubmitSegments(prog, info->function, timeout, {}, false));
  if (info->flags & MESHVK_INVOKE_TIMESTAMPS_BIT) MESHVK_RETURN_IF_ERROR(ReadTimings(prog, info->function));
  step = trace ? meshvk::module::TraceNowNs() : 0;
  if (!(info->flags & MESHVK_INVOKE_KEEP_RESULTS_SHARDED_BIT)) MESHVK_RETURN_IF_ERROR(ReadResults(prog, fn, info));
  MESHVK_RETURN_IF_ERROR(prog->remote->FinishInvoke());
  if (trace) {
    if (!(info->flags & MESHVK_INVOKE_KEEP_RESULTS_SHARDED_BIT))
      trace->Host(MESHVK_TRACE_READ_RESULTS, MESHVK_TRACE_NONE, MESHVK_TRACE_NONE, MESHVK_TRACE_NONE, step,
                  meshvk::module::TraceNowNs(), OutputBytes(info));
    trace->FinishInvoke();
  }
  return Status();
}

}  // namespace

extern "C" {

meshvk_status_t meshvk_module_rank_input_runs(const meshvk_module_t* module, uint32_t function, uint32_t argument,
                                              const uint32_t* process_rank, uint32_t rank_count, uint32_t rank,
                                              meshvk_host_run_t* out_runs, uint32_t capacity, uint32_t* out_count) {
  if (!module || !process_rank || !out_count || (capacity && !out_runs))
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "module, process_rank or outputs are NULL").ToC();
  const auto* functions = module->artifact->functions();
  if (!functions || function >= functions->size())
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "function %u out of range", function).ToC();
  const auto* args = functions->Get(function)->arguments();
  if (!args || argument >= args->size())
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "argument %u out of range", argument).ToC();
  if (rank >= rank_count) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "rank %u of %u", rank, rank_count).ToC();
  const mvk::TensorSignature* t = args->Get(argument);
  const uint32_t elem = meshvk::artifact::ElementSize(static_cast<meshvk::artifact::ElementType>(t->element_type()));
  std::set<std::tuple<uint64_t, uint64_t, uint64_t, uint64_t>> runs;  // replicas once, in host order
  for (const mvk::Shard* sh : *t->shards()) {
    if (sh->process() >= module->artifact->processes()->size() || process_rank[sh->process()] >= rank_count)
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "process %u has no rank below %u", sh->process(), rank_count)
          .ToC();
    if (process_rank[sh->process()] != rank) continue;
    Status status = ForEachShardRun(
        t, sh, elem, [&](uint64_t, uint64_t host, uint64_t run, uint64_t rows, uint64_t, uint64_t pitch) {
          runs.insert({host, run, rows, pitch});
          return Status();
        });
    if (!status.ok()) return status.ToC();
  }
  *out_count = static_cast<uint32_t>(runs.size());
  uint32_t i = 0;
  for (const auto& [offset, row_bytes, rows, pitch] : runs)
    if (i < capacity) out_runs[i++] = meshvk_host_run_t{offset, row_bytes, rows, pitch};
  return MESHVK_OK;
}

meshvk_status_t meshvk_program_invoke(meshvk_program_t* program, const meshvk_invoke_info_t* info) {
  if (!program) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_program_invoke: program is NULL").ToC();
  if (Status checked = meshvk::CheckStructure(info, MESHVK_STRUCTURE_TYPE_INVOKE_INFO, "meshvk_program_invoke: info");
      !checked.ok())
    return checked.ToC();
  return Invoke(program, info).ToC();
}

meshvk_status_t meshvk_program_phase_timings(const meshvk_program_t* program, meshvk_phase_timing_t* out_timings,
                                             uint32_t capacity, uint32_t* out_count) {
  if (!program || !out_count || (capacity && !out_timings))
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "meshvk_program_phase_timings: program, out_count or out_timings (capacity %u) is NULL", capacity)
        .ToC();
  if (!program->timings_valid)
    return MakeStatus(MESHVK_STATUS_FAILED_PRECONDITION, program->timestamps_unavailable
                                                             ? "the devices have no timestamp support"
                                                             : "no invoke with MESHVK_INVOKE_TIMESTAMPS_BIT yet")
        .ToC();
  const uint32_t count = static_cast<uint32_t>(program->timings.size());
  const uint32_t written = std::min(capacity, count);
  if (Status checked = meshvk::CheckElements(out_timings, written, MESHVK_STRUCTURE_TYPE_PHASE_TIMING,
                                             "meshvk_program_phase_timings: out_timings");
      !checked.ok())
    return checked.ToC();
  *out_count = count;
  for (uint32_t i = 0; i < written; ++i) meshvk::FillKeepingHeader(&out_timings[i], program->timings[i]);
  return MESHVK_OK;
}
}  // extern "C"
