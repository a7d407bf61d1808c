// The .mvk builder: plain descriptions in, FlatBuffer bytes out. No checks on
// purpose (see builder.h): the loader is the one place that judges a file.
#include "meshvk/artifact/builder.h"

#include <algorithm>
#include <map>
#include <utility>

#include "meshvk/artifact/integrity.h"
#include "meshvk/artifact/mvk_generated.h"

namespace meshvk::artifact {

uint32_t ElementSize(ElementType type) {
  switch (type) {
    case ElementType::kF32:
      return 4;
    case ElementType::kF16:
      return 2;
    case ElementType::kI32:
      return 4;
    case ElementType::kF64:
      return 8;
  }
  return 0;
}

const char* ElementTypeName(ElementType type) {
  switch (type) {
    case ElementType::kF32:
      return "f32";
    case ElementType::kF16:
      return "f16";
    case ElementType::kI32:
      return "i32";
    case ElementType::kF64:
      return "f64";
  }
  return "?";
}

const char* DeclaredTypeName(DeclaredType type) {
  switch (type) {
    case DeclaredType::kSame:
      return "";
    case DeclaredType::kI64:
      return "i64";
    case DeclaredType::kBool:
      return "bool";
    case DeclaredType::kF64:
      return "f64";
    case DeclaredType::kF32:
      return "f32";
  }
  return "?";
}

ArtifactBuilder::ArtifactBuilder(std::vector<uint32_t> grid_shape, std::vector<uint32_t> peered_axes)
    : grid_shape_(std::move(grid_shape)), peered_axes_(std::move(peered_axes)) {
  uint64_t count = 1;
  for (uint32_t extent : grid_shape_) count *= extent;
  buffers_.resize(count);
  pending_.resize(count);
}

uint32_t ArtifactBuilder::AddBuffer(uint32_t process, BufferDesc buffer) {
  if (process >= buffers_.size()) buffers_.resize(process + 1);  // tests: extra processes
  buffers_[process].push_back(std::move(buffer));
  return static_cast<uint32_t>(buffers_[process].size() - 1);
}

uint32_t ArtifactBuilder::AddExecutable(ExecutableDesc executable) {
  for (size_t i = 0; i < executables_.size(); ++i) {
    const ExecutableDesc& e = executables_[i];
    if (e.spirv == executable.spirv && e.entry_point == executable.entry_point &&
        e.writable_bindings == executable.writable_bindings && e.push_constant_size == executable.push_constant_size &&
        e.workgroup_size[0] == executable.workgroup_size[0] && e.workgroup_size[1] == executable.workgroup_size[1] &&
        e.workgroup_size[2] == executable.workgroup_size[2]) {
      return static_cast<uint32_t>(i);
    }
  }
  executables_.push_back(std::move(executable));
  return static_cast<uint32_t>(executables_.size() - 1);
}

CommandRef ArtifactBuilder::Append(uint32_t process, Command command) {
  if (process >= pending_.size()) pending_.resize(process + 1);
  command.dst_process = process;
  command.collective = collective_;
  pending_[process].push_back(std::move(command));
  return CommandRef{process, static_cast<uint32_t>(pending_[process].size() - 1)};
}

CommandRef ArtifactBuilder::AddDispatch(uint32_t process, DispatchDesc dispatch, std::vector<CommandRef> deps) {
  Command c{Command::Kind::kDispatch, std::move(dispatch), {}, {}, 0, std::move(deps)};
  return Append(process, std::move(c));
}

CommandRef ArtifactBuilder::AddCopy(uint32_t dst_process, CopyDesc copy, std::vector<CommandRef> deps) {
  Command c{Command::Kind::kCopy, {}, std::move(copy), {}, 0, std::move(deps)};
  return Append(dst_process, std::move(c));
}

CommandRef ArtifactBuilder::AddFill(uint32_t process, FillDesc fill, std::vector<CommandRef> deps) {
  Command c{Command::Kind::kFill, {}, {}, std::move(fill), 0, std::move(deps)};
  return Append(process, std::move(c));
}

void ArtifactBuilder::AddFunction(FunctionDesc function) {
  functions_.push_back(std::move(function));
  function_streams_.push_back(std::move(pending_));
  pending_.clear();
  pending_.resize(buffers_.size());
}

namespace {

mvk::Dim3 ToDim3(const uint32_t v[3]) { return mvk::Dim3(v[0], v[1], v[2]); }

// A uint64 vector whose data is 8-byte aligned even when it is empty (the shape
// of a 0-d tensor): FlatBuffers skips the alignment of an empty vector and puts
// its data right after the 4-byte length, which the loader refuses as a
// misaligned (corrupt) vector.
flatbuffers::Offset<flatbuffers::Vector<uint64_t>> U64Vector(flatbuffers::FlatBufferBuilder& fbb,
                                                             const std::vector<uint64_t>& v) {
  if (v.empty()) fbb.Align(sizeof(uint64_t));
  return fbb.CreateVector(v);
}

flatbuffers::Offset<mvk::TensorSignature> BuildTensor(flatbuffers::FlatBufferBuilder& fbb, const TensorDesc& t) {
  std::vector<flatbuffers::Offset<mvk::SplitAxes>> split;
  for (const auto& axes : t.split_axes) {
    split.push_back(mvk::CreateSplitAxes(fbb, fbb.CreateVector(axes)));
  }
  std::vector<flatbuffers::Offset<mvk::Shard>> shards;
  for (const ShardDesc& s : t.shards) {
    shards.push_back(
        mvk::CreateShard(fbb, s.process, s.buffer, s.offset, U64Vector(fbb, s.global_offset), U64Vector(fbb, s.shape)));
  }
  return mvk::CreateTensorSignature(fbb, U64Vector(fbb, t.shape), static_cast<mvk::ElementType>(t.element_type),
                                    fbb.CreateVector(split), fbb.CreateVector(shards),
                                    t.name.empty() ? 0 : fbb.CreateString(t.name),
                                    static_cast<mvk::DeclaredType>(t.declared_type));
}

}  // namespace

std::vector<uint8_t> ArtifactBuilder::Finish() const {
  flatbuffers::FlatBufferBuilder fbb(1 << 16);

  // Constant buffers with the same bytes (a replicated weight: one copy per
  // process) share one vector: a FlatBuffers offset may point at an object
  // another table points at, so the file holds the bytes once and every
  // reader, older ones too, still sees each buffer's own initial_data.
  struct BytesLess {
    bool operator()(const std::vector<uint8_t>* a, const std::vector<uint8_t>* b) const { return *a < *b; }
  };
  std::map<const std::vector<uint8_t>*, flatbuffers::Offset<flatbuffers::Vector<uint8_t>>, BytesLess> stored;
  std::vector<flatbuffers::Offset<mvk::Process>> processes;
  for (const std::vector<BufferDesc>& list : buffers_) {
    std::vector<flatbuffers::Offset<mvk::Buffer>> buffers;
    for (const BufferDesc& b : list) {
      flatbuffers::Offset<flatbuffers::Vector<uint8_t>> data = 0;
      if (!b.initial_data.empty()) {
        auto [it, added] = stored.emplace(&b.initial_data, 0);
        if (added) it->second = fbb.CreateVector(b.initial_data);
        data = it->second;
      }
      buffers.push_back(mvk::CreateBuffer(fbb, b.size, static_cast<mvk::BufferKind>(b.kind), b.reuse_slot, data));
    }
    processes.push_back(mvk::CreateProcess(fbb, fbb.CreateVector(buffers)));
  }

  auto build_command = [&](const Command& c) {
    flatbuffers::Offset<void> op;
    mvk::Op op_type = mvk::Op::NONE;
    switch (c.kind) {
      case Command::Kind::kDispatch: {
        std::vector<mvk::BufferBinding> bindings;
        for (const BindingDesc& b : c.dispatch.bindings) {
          bindings.emplace_back(b.buffer, b.offset, b.range);
        }
        mvk::Dim3 count = ToDim3(c.dispatch.workgroup_count);
        op = mvk::CreateDispatch(fbb, c.dispatch.executable, &count, fbb.CreateVectorOfStructs(bindings),
                                 fbb.CreateVector(c.dispatch.push_constants), c.dispatch.flops)
                 .Union();
        op_type = mvk::Op::Dispatch;
        break;
      }
      case Command::Kind::kCopy: {
        std::vector<mvk::StridedRegion> regions;
        for (const StridedRegionDesc& r : c.copy.regions) {
          regions.emplace_back(r.src_offset_words, r.dst_offset_words, ToDim3(r.count), ToDim3(r.src_stride),
                               ToDim3(r.dst_stride));
        }
        uint32_t dst_process = copy_dst_override_ >= 0 ? static_cast<uint32_t>(copy_dst_override_) : c.dst_process;
        op = mvk::CreateCopy(fbb, c.copy.src_process, c.copy.src_buffer, c.copy.src_offset, dst_process,
                             c.copy.dst_buffer, c.copy.dst_offset, c.copy.size,
                             regions.empty() ? 0 : fbb.CreateVectorOfStructs(regions))
                 .Union();
        op_type = mvk::Op::Copy;
        break;
      }
      case Command::Kind::kFill:
        op = mvk::CreateFill(fbb, c.fill.buffer, c.fill.offset, c.fill.size, c.fill.value).Union();
        op_type = mvk::Op::Fill;
        break;
    }
    std::vector<mvk::CommandRef> deps;
    for (const CommandRef& d : c.deps) deps.emplace_back(d.process, d.command);
    return mvk::CreateCommand(fbb, op_type, op, deps.empty() ? 0 : fbb.CreateVectorOfStructs(deps), c.collective);
  };

  // Commands left after the last AddFunction belong to the last function.
  std::vector<Streams> all_streams = function_streams_;
  if (!all_streams.empty()) {
    Streams& last = all_streams.back();
    if (last.size() < pending_.size()) last.resize(pending_.size());
    for (size_t p = 0; p < pending_.size(); ++p) last[p].insert(last[p].end(), pending_[p].begin(), pending_[p].end());
  }
  std::vector<flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<mvk::CommandStream>>>> streams_of;
  for (const Streams& streams : all_streams) {
    std::vector<flatbuffers::Offset<mvk::CommandStream>> per_process;
    for (size_t p = 0; p < std::max(streams.size(), buffers_.size()); ++p) {
      std::vector<flatbuffers::Offset<mvk::Command>> commands;
      if (p < streams.size()) {
        for (const Command& c : streams[p]) commands.push_back(build_command(c));
      }
      per_process.push_back(mvk::CreateCommandStream(fbb, fbb.CreateVector(commands)));
    }
    streams_of.push_back(fbb.CreateVector(per_process));
  }

  std::vector<flatbuffers::Offset<mvk::Executable>> executables;
  for (const ExecutableDesc& e : executables_) {
    std::vector<flatbuffers::Offset<mvk::BindingInfo>> bindings;
    for (bool w : e.writable_bindings) bindings.push_back(mvk::CreateBindingInfo(fbb, w));
    std::vector<uint32_t> wg(e.workgroup_size, e.workgroup_size + 3);
    executables.push_back(mvk::CreateExecutable(fbb, fbb.CreateVector(e.spirv), fbb.CreateString(e.entry_point),
                                                fbb.CreateVector(wg), fbb.CreateVector(bindings),
                                                e.push_constant_size));
  }

  std::vector<flatbuffers::Offset<mvk::Function>> functions;
  for (const FunctionDesc& f : functions_) {
    std::vector<flatbuffers::Offset<mvk::TensorSignature>> args, results;
    for (const TensorDesc& t : f.arguments) args.push_back(BuildTensor(fbb, t));
    for (const TensorDesc& t : f.results) results.push_back(BuildTensor(fbb, t));
    std::vector<flatbuffers::Offset<mvk::Collective>> collectives;
    for (const CollectiveDesc& c : f.collectives)
      collectives.push_back(
          mvk::CreateCollective(fbb, static_cast<mvk::CollectiveKind>(c.kind), static_cast<mvk::Reduction>(c.reduction),
                                fbb.CreateString(c.algorithm), static_cast<mvk::ElementType>(c.element_type)));
    functions.push_back(mvk::CreateFunction(fbb, fbb.CreateString(f.name), fbb.CreateVector(args),
                                            fbb.CreateVector(results), streams_of[functions.size()],
                                            collectives.empty() ? 0 : fbb.CreateVector(collectives)));
  }

  auto grid =
      mvk::CreateGrid(fbb, fbb.CreateVector(grid_shape_), fbb.CreateVector(peered_axes_), mvk::Placement::RoundRobin);
  auto root = mvk::CreateArtifact(fbb, format_version_, fbb.CreateString(producer_), grid, fbb.CreateVector(processes),
                                  fbb.CreateVector(executables), fbb.CreateVector(functions));
  mvk::FinishArtifactBuffer(fbb, root);
  std::vector<uint8_t> file(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
  AppendTrailer(&file);  // the checksum the loader checks first (integrity.h)
  return file;
}

void ShardOf(const std::vector<uint32_t>& grid_shape, const std::vector<std::vector<uint32_t>>& split_axes,
             const std::vector<uint64_t>& global_shape, uint32_t process, std::vector<uint64_t>* global_offset,
             std::vector<uint64_t>* shard_shape) {
  // Row-major multi-index of `process` in the grid.
  std::vector<uint32_t> index(grid_shape.size(), 0);
  uint32_t rest = process;
  for (size_t a = grid_shape.size(); a-- > 0;) {
    index[a] = grid_shape[a] ? rest % grid_shape[a] : 0;
    rest = grid_shape[a] ? rest / grid_shape[a] : 0;
  }
  global_offset->assign(global_shape.size(), 0);
  *shard_shape = global_shape;
  for (size_t d = 0; d < global_shape.size() && d < split_axes.size(); ++d) {
    uint64_t parts = 1, part = 0;
    for (uint32_t axis : split_axes[d]) {  // first axis is the most significant
      if (axis >= grid_shape.size()) continue;
      parts *= grid_shape[axis];
      part = part * grid_shape[axis] + index[axis];
    }
    (*shard_shape)[d] = global_shape[d] / parts;
    (*global_offset)[d] = part * (*shard_shape)[d];
  }
}

}  // namespace meshvk::artifact
