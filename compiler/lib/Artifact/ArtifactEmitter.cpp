// The artifact emitter (see meshvk/Artifact/ArtifactEmitter.h): walks one plan
// function in plan order and turns each plan op into builder calls. The plan
// already fixed every size, offset and reuse; the emitter never re-plans, it
// refuses what it cannot express (and says which op and why).
#include "meshvk/Artifact/ArtifactEmitter.h"

#include <map>
#include <optional>

#include "meshvk/Codegen/KernelCompiler.h"
#include "meshvk/Dialect/MeshVKDialect.h"
#include "meshvk/artifact/builder.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"

namespace meshvk {
namespace {

using namespace mlir;
namespace art = meshvk::artifact;

// Where a plan value lives: a byte range of one buffer of one process.
struct Place {
  uint32_t process = 0;
  uint32_t buffer = 0;
  uint64_t offset = 0;
  uint64_t bytes = 0;
};

std::optional<art::ElementType> elementTypeOf(Type type) {
  if (type.isF32())
    return art::ElementType::kF32;
  if (type.isF16())
    return art::ElementType::kF16;
  if (type.isSignlessInteger(32) || type.isSignedInteger(32))
    return art::ElementType::kI32;
  return std::nullopt;
}

uint64_t byteSize(RankedTensorType type) {
  return static_cast<uint64_t>(type.getNumElements()) *
         art::ElementSize(*elementTypeOf(type.getElementType()));
}

// Buffers and kernel bindings are whole 32-bit words (the runtime's rule, as
// for Vulkan fills): a shard of an odd number of f16 gets a padding half that
// no kernel, copy or host transfer touches (all of them use the value's bytes).
uint64_t wordBytes(uint64_t bytes) { return (bytes + 3) / 4 * 4; }

// A buffer or binding of an empty shard (3 rows over 4 processes: the last
// holds 0) is one word: Vulkan has no 0-byte buffer, and a binding range of
// 0 means "to the end" in the artifact.
uint64_t boundBytes(uint64_t bytes) { return std::max<uint64_t>(wordBytes(bytes), 4); }

std::vector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

class Emitter {
public:
  Emitter(ModuleOp module, func::FuncOp plan, const EmitOptions &options)
      : module_(module), plan_(plan), options_(options) {}

  FailureOr<std::vector<uint8_t>> run();

private:
  LogicalResult readGrid();
  LogicalResult createBuffers();
  LogicalResult buildSignature();
  FailureOr<Place> placeOf(Value value);
  std::vector<art::CommandRef> crossProcessDeps(ValueRange operands, uint32_t process);
  LogicalResult emitCopy(CopyOp copy);
  LogicalResult emitRowCopies(CopyOp copy, const Place &src, const Place &dst, int64_t srcBase,
                              int64_t dstBase, int64_t run, int64_t k, uint64_t esize);
  LogicalResult emitLaunch(LaunchOp launch, const codegen::CompiledKernels &kernels);
  FailureOr<uint32_t> executableFor(LaunchOp launch, const codegen::CompiledKernels &kernels);
  void tagCollective(Operation *op);

  ModuleOp module_;
  func::FuncOp plan_;
  const EmitOptions &options_;
  std::vector<uint32_t> gridShape_;
  std::vector<uint32_t> peeredAxes_;
  uint32_t processes_ = 0;
  std::unique_ptr<art::ArtifactBuilder> builder_;
  std::vector<uint32_t> argumentBuffer_, resultBuffer_; // plan arg/result -> buffer of its process
  std::vector<uint32_t> argumentProcess_, resultProcess_;
  std::vector<std::optional<uint32_t>> transientBuffer_; // per process
  std::vector<std::vector<uint32_t>> constantBuffers_;   // per process, by constant index
  llvm::DenseMap<Value, art::CommandRef> producer_;      // the command that last wrote a value
  std::map<size_t, uint32_t> executableOfKernel_;        // compiled kernel index -> executable
  art::FunctionDesc function_;                 // added after its commands (the builder's order)
  std::map<int64_t, int32_t> collectiveIndex_; // meshvk.collective_id -> function_.collectives
};

art::CollectiveKind collectiveKindOf(StringRef kind) {
  return llvm::StringSwitch<art::CollectiveKind>(kind)
      .Case("all_reduce", art::CollectiveKind::kAllReduce)
      .Case("all_gather", art::CollectiveKind::kAllGather)
      .Case("reduce_scatter", art::CollectiveKind::kReduceScatter)
      .Case("all_to_all", art::CollectiveKind::kAllToAll)
      .Case("broadcast", art::CollectiveKind::kBroadcast)
      .Case("all_slice", art::CollectiveKind::kAllSlice)
      .Case("shift", art::CollectiveKind::kShift)
      .Default(art::CollectiveKind::kOther);
}

// The combiner of a collective's reduction kernel (its one arith op kind).
art::Reduction reductionOf(func::FuncOp kernel) {
  art::Reduction found = art::Reduction::kNone;
  if (!kernel)
    return found;
  kernel.walk([&](Operation *op) {
    if (found != art::Reduction::kNone)
      return;
    if (isa<arith::AddFOp, arith::AddIOp>(op))
      found = art::Reduction::kSum;
    else if (isa<arith::MulFOp, arith::MulIOp>(op))
      found = art::Reduction::kProduct;
    else if (isa<arith::MaximumFOp, arith::MaxSIOp>(op))
      found = art::Reduction::kMax;
    else if (isa<arith::MinimumFOp, arith::MinSIOp>(op))
      found = art::Reduction::kMin;
    else if (isa<arith::MaxNumFOp>(op))
      found = art::Reduction::kMaxNum;
    else if (isa<arith::MinNumFOp>(op))
      found = art::Reduction::kMinNum;
  });
  return found;
}

// Tags the commands `op` adds with its collective (mvk.fbs Command.collective):
// index into the function's collectives, described from the plan's
// meshvk.collectives report and, for reductions, the kernel's combiner.
void Emitter::tagCollective(Operation *op) {
  IntegerAttr id = MeshVKDialect::CollectiveIdAttrHelper(op->getContext()).getAttr(op);
  if (!id) {
    builder_->set_collective(-1);
    return;
  }
  auto [it, fresh] =
      collectiveIndex_.try_emplace(id.getInt(), (int32_t)function_.collectives.size());
  if (fresh) {
    art::CollectiveDesc desc;
    if (ArrayAttr report = MeshVKDialect::CollectivesAttrHelper(op->getContext()).getAttr(plan_))
      for (CollectiveAttr c : report.getAsRange<CollectiveAttr>())
        if (c.getId() == id.getInt()) {
          desc.kind = collectiveKindOf(c.getKind());
          desc.algorithm = c.getAlgorithm().str();
        }
    function_.collectives.push_back(std::move(desc));
  }
  if (auto launch = dyn_cast<LaunchOp>(op)) {
    art::CollectiveDesc &desc = function_.collectives[it->second];
    if (desc.reduction == art::Reduction::kNone && launch->getNumResults() == 1) {
      desc.reduction = reductionOf(module_.lookupSymbol<func::FuncOp>(launch.getKernel()));
      auto type = dyn_cast<RankedTensorType>(launch->getResult(0).getType());
      if (std::optional<art::ElementType> elem =
              type ? elementTypeOf(type.getElementType()) : std::nullopt)
        desc.element_type = *elem;
    }
  }
  builder_->set_collective(it->second);
}

// The process a plan op records on (its destination for a copy), checked
// against the plan's process count.
FailureOr<uint32_t> processOf(Operation *op, uint32_t processes) {
  int64_t p = isa<CopyOp>(op)       ? cast<CopyOp>(op).getDestProcess()
              : isa<LaunchOp>(op)   ? cast<LaunchOp>(op).getProcess()
              : isa<ConstantOp>(op) ? getProcess(op)
                                    : cast<EmptyOp>(op).getProcess();
  if (p < 0 || p >= processes)
    return op->emitOpError() << "runs on process " << p << " (expected a process in [0, "
                             << processes << "))";
  return static_cast<uint32_t>(p);
}

LogicalResult Emitter::readGrid() {
  PlanAttr plan = getPlan(plan_);
  processes_ = 1;
  for (int64_t extent : plan.getGridShape().asArrayRef()) {
    if (extent > 4096)
      return plan_.emitOpError() << "grid extent " << extent << " out of range";
    gridShape_.push_back(static_cast<uint32_t>(extent));
    processes_ *= static_cast<uint32_t>(extent);
  }
  for (int64_t axis : plan.getPeeredAxes().asArrayRef())
    peeredAxes_.push_back(static_cast<uint32_t>(axis));
  builder_ = std::make_unique<art::ArtifactBuilder>(gridShape_, peeredAxes_);
  builder_->set_producer(options_.producer);
  return success();
}

LogicalResult Emitter::createBuffers() {
  FunctionType type = plan_.getFunctionType();
  auto checkType = [&](Type t, const char *what, unsigned i) -> LogicalResult {
    auto ranked = dyn_cast<RankedTensorType>(t);
    if (!ranked || !ranked.hasStaticShape())
      return plan_.emitOpError() << what << " #" << i << " is " << t
                                 << "; expected a statically shaped tensor";
    if (!elementTypeOf(ranked.getElementType()))
      return plan_.emitOpError() << what << " #" << i << " has element type "
                                 << ranked.getElementType()
                                 << "; the runtime supports f32, f16 and i32";
    return success();
  };
  StringAttr processTag = MeshVKDialect::ProcessAttrHelper(plan_.getContext()).getName();
  for (unsigned i = 0; i < type.getNumInputs(); ++i) {
    if (failed(checkType(type.getInput(i), "argument", i)))
      return failure();
    auto p = plan_.getArgAttrOfType<IntegerAttr>(i, processTag);
    if (!p || p.getInt() >= processes_)
      return plan_.emitOpError() << "argument #" << i << " has no valid '" << processTag.strref()
                                 << "'";
    argumentProcess_.push_back(static_cast<uint32_t>(p.getInt()));
    argumentBuffer_.push_back(builder_->AddBuffer(
        argumentProcess_.back(), {boundBytes(byteSize(cast<RankedTensorType>(type.getInput(i)))),
                                  art::BufferKind::kArgumentShard}));
  }
  for (unsigned i = 0; i < type.getNumResults(); ++i) {
    if (failed(checkType(type.getResult(i), "result", i)))
      return failure();
    auto p = plan_.getResultAttrOfType<IntegerAttr>(i, processTag);
    if (!p || p.getInt() >= processes_)
      return plan_.emitOpError() << "result #" << i << " has no valid '" << processTag.strref()
                                 << "'";
    resultProcess_.push_back(static_cast<uint32_t>(p.getInt()));
    resultBuffer_.push_back(builder_->AddBuffer(
        resultProcess_.back(), {boundBytes(byteSize(cast<RankedTensorType>(type.getResult(i)))),
                                art::BufferKind::kResultShard}));
  }
  // One transient arena per process, as large as the plan says.
  transientBuffer_.assign(processes_, std::nullopt);
  MeshVKDialect::MemoryAttrHelper memoryTag(plan_.getContext());
  ArrayAttr memory = memoryTag.getAttr(plan_);
  if (!memory || memory.size() != processes_)
    return plan_.emitOpError() << "needs '" << memoryTag.getNameStr()
                               << "' with one entry per process (run meshvk-plan-allocations)";
  for (auto [process, entry] : llvm::enumerate(memory.getAsRange<ProcessMemoryAttr>()))
    if (entry.getTransientBytes() > 0)
      transientBuffer_[process] =
          builder_->AddBuffer(static_cast<uint32_t>(process),
                              {wordBytes(static_cast<uint64_t>(entry.getTransientBytes())),
                               art::BufferKind::kTransient});
  // Constants: one buffer each, its data written once at program creation
  // (padded to whole words with zeros, as every buffer is).
  constantBuffers_.assign(processes_, {});
  WalkResult bad = plan_.walk([&](ConstantOp constant) {
    FailureOr<uint32_t> process = processOf(constant, processes_);
    if (failed(process))
      return WalkResult::interrupt();
    auto type = cast<RankedTensorType>(constant.getType());
    std::optional<std::vector<char>> bytes = constant.getElementBytes();
    if (!elementTypeOf(type.getElementType()) || !bytes || bytes->size() != byteSize(type) ||
        constant.getGridAttr()) {
      constant.emitOpError() << "holds no " << type
                             << " data of a process (expected f32/f16/i32 elements, unrolled)";
      return WalkResult::interrupt();
    }
    art::BufferDesc desc{boundBytes(bytes->size()), art::BufferKind::kConstant};
    desc.initial_data.assign(bytes->begin(), bytes->end());
    desc.initial_data.resize(desc.size, 0);
    constantBuffers_[*process].push_back(builder_->AddBuffer(*process, std::move(desc)));
    return WalkResult::advance();
  });
  return failure(bad.wasInterrupted());
}

LogicalResult Emitter::buildSignature() {
  AbiAttr abi = getAbi(plan_);
  StringRef abiTag = MeshVKDialect::AbiAttrHelper::getNameStr();
  if (!abi)
    return plan_.emitOpError() << "has no '" << abiTag << "'";
  art::FunctionDesc &function = function_;
  function.name = plan_.getSymName().str();
  auto convert = [&](StringRef key, ArrayAttr list, const std::vector<uint32_t> &buffers,
                     const std::vector<uint32_t> &owners,
                     std::vector<art::TensorDesc> *out) -> LogicalResult {
    if (list.size() * processes_ != buffers.size() || abi.getProcessCount() != processes_)
      return plan_.emitOpError() << "'" << abiTag << "." << key
                                 << "' does not match the plan signature (" << buffers.size()
                                 << " shards for " << processes_ << " processes)";
    for (auto [i, entry] : llvm::enumerate(list.getAsRange<ValueAbiAttr>())) {
      auto tensor = dyn_cast<RankedTensorType>(entry.getType());
      if (!tensor)
        return plan_.emitOpError()
               << "'" << abiTag << "." << key << "[" << i << "]' is " << entry.getType()
               << "; the runtime takes and returns tensors only";
      if (!elementTypeOf(tensor.getElementType()))
        return plan_.emitOpError()
               << "'" << abiTag << "." << key << "[" << i << "]' has element type "
               << tensor.getElementType() << "; the runtime supports f32, f16 and i32";
      art::TensorDesc desc;
      for (int64_t d : tensor.getShape())
        desc.shape.push_back(static_cast<uint64_t>(d));
      desc.element_type = *elementTypeOf(tensor.getElementType());
      desc.split_axes.assign(tensor.getRank(), {});
      // Entries past the rank are empty (the #meshvk.value_abi verifier checked):
      // `split_axes = [[]]` on a 0-d tensor (replicated) is how people write it.
      for (auto [d, axes] : llvm::enumerate(entry.getSplitAxes())) {
        if (d >= static_cast<size_t>(tensor.getRank()))
          continue;
        for (int16_t axis : axes.asArrayRef())
          desc.split_axes[d].push_back(static_cast<uint32_t>(axis));
      }
      for (uint32_t p = 0; p < processes_; ++p) {
        size_t index = i * processes_ + p;
        if (owners[index] != p)
          return plan_.emitOpError()
                 << "'" << abiTag << "." << key << "[" << i << "]' shard of process " << p
                 << " does not match the plan signature";
        art::ShardDesc shard;
        shard.process = p;
        shard.buffer = buffers[index];
        for (int64_t o : entry.getShardOffset(p))
          shard.global_offset.push_back(static_cast<uint64_t>(o));
        for (int64_t s : entry.getProcessShardShape(p))
          shard.shape.push_back(static_cast<uint64_t>(s));
        desc.shards.push_back(std::move(shard));
      }
      out->push_back(std::move(desc));
    }
    return success();
  };
  if (failed(
          convert("args", abi.getArgs(), argumentBuffer_, argumentProcess_, &function.arguments)) ||
      failed(
          convert("results", abi.getResults(), resultBuffer_, resultProcess_, &function.results)))
    return failure();
  return success();
}

FailureOr<Place> Emitter::placeOf(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape() || !elementTypeOf(type.getElementType()))
    return mlir::emitError(value.getLoc())
           << "plan value of type " << value.getType() << " (expected a static f32/f16/i32 tensor)";
  uint64_t bytes = byteSize(type);
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    unsigned i = arg.getArgNumber();
    return Place{argumentProcess_[i], argumentBuffer_[i], 0, bytes};
  }
  auto result = cast<OpResult>(value);
  Operation *op = result.getOwner();
  MeshVKDialect::BuffersAttrHelper buffersTag(op->getContext());
  ArrayAttr buffers = buffersTag.getAttr(op);
  if (!buffers || !isa<EmptyOp, CopyOp, LaunchOp, ConstantOp>(op))
    return op->emitOpError() << "has no '" << buffersTag.getNameStr()
                             << "' (run meshvk-plan-allocations)";
  auto entry = cast<BufferAttr>(buffers[result.getResultNumber()]);
  if (static_cast<uint64_t>(entry.getBytes()) != bytes)
    return op->emitOpError() << "'" << buffersTag.getNameStr() << "' entry "
                             << result.getResultNumber() << " is " << entry.getBytes()
                             << " bytes, the value is " << bytes;
  FailureOr<uint32_t> process = processOf(op, processes_);
  if (failed(process))
    return failure();
  int64_t index = entry.getIndex();
  switch (entry.getKind()) {
  case BufferKind::Argument:
    if (index >= static_cast<int64_t>(argumentBuffer_.size()) ||
        argumentProcess_[index] != *process)
      break;
    return Place{*process, argumentBuffer_[index], 0, bytes};
  case BufferKind::Result:
    if (index >= static_cast<int64_t>(resultBuffer_.size()) || resultProcess_[index] != *process)
      break;
    return Place{*process, resultBuffer_[index], 0, bytes};
  case BufferKind::Transient:
    if (!transientBuffer_[*process])
      break;
    return Place{*process, *transientBuffer_[*process], static_cast<uint64_t>(index), bytes};
  case BufferKind::Constant:
    if (index >= static_cast<int64_t>(constantBuffers_[*process].size()))
      break;
    return Place{*process, constantBuffers_[*process][index], 0, bytes};
  }
  return op->emitOpError() << "'" << buffersTag.getNameStr() << "' entry " << entry
                           << " names no buffer of process " << *process;
}

std::vector<art::CommandRef> Emitter::crossProcessDeps(ValueRange operands, uint32_t process) {
  std::vector<art::CommandRef> deps;
  for (Value v : operands) {
    auto it = producer_.find(v);
    if (it == producer_.end() || it->second.process == process)
      continue;
    bool seen = false;
    for (const art::CommandRef &d : deps)
      seen |= d.process == it->second.process && d.command == it->second.command;
    if (!seen)
      deps.push_back(it->second);
  }
  return deps;
}

LogicalResult Emitter::emitCopy(CopyOp copy) {
  FailureOr<Place> src = placeOf(copy.getSource());
  FailureOr<Place> dst = placeOf(copy.getResult());
  if (failed(src) || failed(dst))
    return failure();
  // A box of 0 elements (from or into an empty shard) moves nothing: no
  // command; readers of the result wait for whatever wrote the destination.
  if (llvm::is_contained(copy.getSizes(), 0)) {
    if (auto it = producer_.find(copy.getDest()); it != producer_.end())
      producer_[copy.getResult()] = it->second;
    return success();
  }
  if (src->process != copy.getSourceProcess())
    return copy.emitOpError() << "reads process " << src->process << "'s value but says 'from "
                              << copy.getSourceProcess() << "'";
  auto srcType = cast<RankedTensorType>(copy.getSource().getType());
  auto dstType = cast<RankedTensorType>(copy.getDest().getType());
  ArrayRef<int64_t> sizes = copy.getSizes(), so = copy.getSourceOffsets(),
                    dOff = copy.getDestOffsets();
  const int64_t rank = srcType.getRank();
  const uint64_t esize = art::ElementSize(*elementTypeOf(srcType.getElementType()));
  std::vector<int64_t> sStride = rowMajorStrides(srcType.getShape()),
                       dStride = rowMajorStrides(dstType.getShape());
  int64_t srcBase = 0, dstBase = 0;
  for (int64_t i = 0; i < rank; ++i) {
    srcBase += so[i] * sStride[i];
    dstBase += dOff[i] * dStride[i];
  }
  // Merge trailing dimensions the box covers completely on both sides into one
  // contiguous run; dims [0, k) stay strided.
  int64_t k = rank - 1, run = rank ? sizes[rank - 1] : 1;
  while (k > 0 && sizes[k] == srcType.getDimSize(k) && sizes[k] == dstType.getDimSize(k)) {
    --k;
    run *= sizes[k];
  }
  art::CopyDesc desc;
  desc.src_process = src->process;
  desc.src_buffer = src->buffer;
  desc.dst_buffer = dst->buffer;
  if (k <= 0) { // one contiguous range
    desc.src_offset = src->offset + srcBase * esize;
    desc.dst_offset = dst->offset + dstBase * esize;
    desc.size = run * esize;
  } else {
    // Strided: 32-bit words. x = the run, y = dim k-1, z = dim k-2, one region
    // per index of the dims above.
    auto words = [&](int64_t elements) { return static_cast<uint64_t>(elements) * esize; };
    bool aligned = words(run) % 4 == 0 && words(srcBase) % 4 == 0 && words(dstBase) % 4 == 0 &&
                   src->offset % 4 == 0 && dst->offset % 4 == 0;
    for (int64_t i = 0; i < k; ++i)
      aligned &= words(sStride[i]) % 4 == 0 && words(dStride[i]) % 4 == 0;
    if (!aligned)
      return emitRowCopies(copy, *src, *dst, srcBase, dstBase, run, k, esize);
    desc.src_offset = src->offset;
    desc.dst_offset = dst->offset;
    int64_t y = k - 1, z = k - 2;
    std::vector<int64_t> outer(std::max<int64_t>(z, 0), 0); // index over dims [0, z)
    while (true) {
      art::StridedRegionDesc region;
      int64_t s = srcBase, d = dstBase;
      for (int64_t i = 0; i < z; ++i) {
        s += outer[i] * sStride[i];
        d += outer[i] * dStride[i];
      }
      region.src_offset_words = words(s) / 4;
      region.dst_offset_words = words(d) / 4;
      region.count[0] = static_cast<uint32_t>(words(run) / 4);
      region.src_stride[0] = region.dst_stride[0] = 1;
      region.count[1] = static_cast<uint32_t>(sizes[y]);
      region.src_stride[1] = static_cast<uint32_t>(words(sStride[y]) / 4);
      region.dst_stride[1] = static_cast<uint32_t>(words(dStride[y]) / 4);
      if (z >= 0) {
        region.count[2] = static_cast<uint32_t>(sizes[z]);
        region.src_stride[2] = static_cast<uint32_t>(words(sStride[z]) / 4);
        region.dst_stride[2] = static_cast<uint32_t>(words(dStride[z]) / 4);
      }
      desc.regions.push_back(region);
      int64_t i = z - 1;
      while (i >= 0 && ++outer[i] == sizes[i])
        outer[i--] = 0;
      if (i < 0)
        break;
    }
  }
  std::vector<art::CommandRef> deps =
      crossProcessDeps({copy.getSource(), copy.getDest()}, dst->process);
  producer_[copy.getResult()] = builder_->AddCopy(dst->process, std::move(desc), std::move(deps));
  return success();
}

// A box whose contiguous rows are not whole 32-bit words (f16 halves split
// by columns) cannot use the strided word copy: one contiguous byte copy per
// row instead (vkCmdCopyBuffer has no alignment rule). Each row copy follows
// the previous one in the destination's stream; consumers wait for the last.
LogicalResult Emitter::emitRowCopies(CopyOp copy, const Place &src, const Place &dst,
                                     int64_t srcBase, int64_t dstBase, int64_t run, int64_t k,
                                     uint64_t esize) {
  auto srcType = cast<RankedTensorType>(copy.getSource().getType());
  auto dstType = cast<RankedTensorType>(copy.getDest().getType());
  ArrayRef<int64_t> sizes = copy.getSizes();
  std::vector<int64_t> sStride = rowMajorStrides(srcType.getShape()),
                       dStride = rowMajorStrides(dstType.getShape());
  std::vector<art::CommandRef> deps =
      crossProcessDeps({copy.getSource(), copy.getDest()}, dst.process);
  std::vector<int64_t> index(k, 0); // over dims [0, k)
  art::CommandRef last;
  while (true) {
    int64_t s = srcBase, d = dstBase;
    for (int64_t i = 0; i < k; ++i) {
      s += index[i] * sStride[i];
      d += index[i] * dStride[i];
    }
    art::CopyDesc desc;
    desc.src_process = src.process;
    desc.src_buffer = src.buffer;
    desc.dst_buffer = dst.buffer;
    desc.src_offset = src.offset + s * esize;
    desc.dst_offset = dst.offset + d * esize;
    desc.size = run * esize;
    last = builder_->AddCopy(dst.process, std::move(desc), deps);
    int64_t i = k - 1;
    while (i >= 0 && ++index[i] == sizes[i])
      index[i--] = 0;
    if (i < 0)
      break;
  }
  producer_[copy.getResult()] = last;
  return success();
}

// Operations a kernel performs, for benchmarks' FLOP/s and roofline: each
// linalg op's iteration points times the arithmetic ops in its body (matmul:
// mulf + addf = 2 per point; fill: 0). Ops with dynamic loop bounds count 0.
static uint64_t kernelOperations(func::FuncOp kernel) {
  uint64_t total = 0;
  if (!kernel)
    return 0;
  kernel.walk([&](linalg::LinalgOp op) {
    uint64_t points = 1;
    for (int64_t range : op.getStaticLoopRanges()) {
      if (ShapedType::isDynamic(range))
        return;
      points *= static_cast<uint64_t>(range);
    }
    uint64_t perPoint = 0;
    for (Operation &inner : op.getBlock()->without_terminator())
      if (inner.getDialect() && inner.getDialect()->getNamespace() == "arith" &&
          !isa<arith::ConstantOp>(inner))
        ++perPoint;
    total += points * perPoint;
  });
  return total;
}

FailureOr<uint32_t> Emitter::executableFor(LaunchOp launch,
                                           const codegen::CompiledKernels &kernels) {
  auto it = kernels.byFunction.find(launch.getKernel().str());
  if (it == kernels.byFunction.end())
    return launch.emitOpError() << "kernel @" << launch.getKernel() << " was not compiled";
  auto known = executableOfKernel_.find(it->second);
  if (known != executableOfKernel_.end())
    return known->second;
  const codegen::CompiledKernel &kernel = kernels.kernels[it->second];
  uint32_t version = kernel.spirv.size() > 1
                         ? ((kernel.spirv[1] >> 16) & 0xff) * 100 + ((kernel.spirv[1] >> 8) & 0xff)
                         : 0;
  if (version > options_.maxSpirvVersion)
    return launch.emitOpError() << "kernel @" << launch.getKernel() << " needs SPIR-V "
                                << version / 100 << "." << version % 100
                                << ", the target accepts at most " << options_.maxSpirvVersion / 100
                                << "." << options_.maxSpirvVersion % 100;
  art::ExecutableDesc desc;
  desc.spirv = kernel.spirv;
  desc.entry_point = kernel.entryPoint;
  for (int i = 0; i < 3; ++i)
    desc.workgroup_size[i] = kernel.workgroupSize[i];
  for (const codegen::KernelBinding &b : kernel.bindings)
    desc.writable_bindings.push_back(b.writes);
  desc.push_constant_size = kernel.pushConstantSize;
  uint32_t index = builder_->AddExecutable(std::move(desc));
  executableOfKernel_[it->second] = index;
  return index;
}

LogicalResult Emitter::emitLaunch(LaunchOp launch, const codegen::CompiledKernels &kernels) {
  // An empty shard's kernel (every result 0 elements) writes nothing: no
  // dispatch (OutlineKernels gave it no kernel function either).
  if (launch.getNumResults() > 0 && llvm::all_of(launch.getResultTypes(), [](Type t) {
        return cast<RankedTensorType>(t).getNumElements() == 0;
      }))
    return success();
  FailureOr<uint32_t> process = processOf(launch, processes_);
  FailureOr<uint32_t> executable = executableFor(launch, kernels);
  if (failed(process) || failed(executable))
    return failure();
  const codegen::CompiledKernel &kernel =
      kernels.kernels[kernels.byFunction.at(launch.getKernel().str())];
  if (kernel.pushConstantSize != 0)
    return launch.emitOpError() << "kernel needs push constants; the plan has no values for them";
  art::DispatchDesc dispatch;
  dispatch.executable = *executable;
  dispatch.flops = kernelOperations(module_.lookupSymbol<func::FuncOp>(launch.getKernel()));
  for (int i = 0; i < 3; ++i)
    dispatch.workgroup_count[i] = kernel.workgroupCount[i];
  std::vector<Value> operands(launch.getInputs().begin(), launch.getInputs().end());
  operands.insert(operands.end(), launch.getResults().begin(), launch.getResults().end());
  if (operands.size() != kernel.bindings.size())
    return launch.emitOpError() << "passes " << operands.size() << " buffers to a kernel with "
                                << kernel.bindings.size() << " bindings";
  for (auto [i, v] : llvm::enumerate(operands)) {
    FailureOr<Place> place = placeOf(v);
    if (failed(place))
      return failure();
    if (place->process != *process)
      return launch.emitOpError() << "operand " << i << " lives on process " << place->process
                                  << "; kernels only read their own process's buffers";
    if (place->bytes != kernel.bindings[i].sizeBytes)
      return launch.emitOpError() << "binding " << i << " is " << place->bytes
                                  << " bytes, the kernel expects " << kernel.bindings[i].sizeBytes;
    // A shard of an odd number of f16 is bound with its padding half
    // (wordBytes); the kernel's array ends before it.
    dispatch.bindings.push_back({place->buffer, place->offset, boundBytes(place->bytes)});
  }
  std::vector<art::CommandRef> deps = crossProcessDeps(launch.getInputs(), *process);
  art::CommandRef ref = builder_->AddDispatch(*process, std::move(dispatch), std::move(deps));
  for (Value r : launch.getResults())
    producer_[r] = ref;
  return success();
}

FailureOr<std::vector<uint8_t>> Emitter::run() {
  if (failed(readGrid()) || failed(createBuffers()) || failed(buildSignature()))
    return failure();
  FailureOr<codegen::CompiledKernels> kernels =
      codegen::compileKernels(module_, options_.device, options_.codegen);
  if (failed(kernels))
    return failure();
  for (Operation &op : plan_.getBody().front()) {
    if (auto empty = dyn_cast<EmptyOp>(op)) {
      if (failed(placeOf(empty.getResult())))
        return failure();
      continue; // a buffer range, no command: the copies fill it
    }
    if (auto constant = dyn_cast<ConstantOp>(op)) {
      if (failed(placeOf(constant.getResult())))
        return failure();
      continue; // its buffer holds the data from program creation on
    }
    if (isa<CopyOp, LaunchOp>(op))
      tagCollective(&op);
    if (auto copy = dyn_cast<CopyOp>(op)) {
      if (failed(emitCopy(copy)))
        return failure();
      continue;
    }
    if (auto launch = dyn_cast<LaunchOp>(op)) {
      if (failed(emitLaunch(launch, *kernels)))
        return failure();
      continue;
    }
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      // Each result must already be in its own result buffer.
      for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
        FailureOr<Place> place = placeOf(v);
        if (failed(place))
          return failure();
        if (place->process != resultProcess_[i] || place->buffer != resultBuffer_[i] ||
            place->offset != 0)
          return ret.emitOpError() << "result #" << i
                                   << " is not in its result buffer (the plan must place it there)";
      }
      continue;
    }
    return op.emitOpError()
           << "is not a plan op (expected meshvk.empty/constant/copy/launch); cannot emit it";
  }
  builder_->AddFunction(std::move(function_));
  return builder_->Finish();
}

} // namespace

FailureOr<std::vector<uint8_t>> emitArtifact(ModuleOp module, const EmitOptions &options) {
  func::FuncOp plan;
  for (auto f : module.getOps<func::FuncOp>()) {
    if (!getPlan(f))
      continue;
    if (plan)
      return f.emitOpError()
             << "is a second plan function; one program (one public function) per artifact "
                "is supported (first: @"
             << plan.getSymName() << ")";
    plan = f;
  }
  if (!plan)
    return module.emitError() << "no function marked '"
                              << MeshVKDialect::PlanAttrHelper::getNameStr()
                              << "' (run meshvk-compile-plan)";
  Emitter emitter(module, plan, options);
  return emitter.run();
}

} // namespace meshvk
