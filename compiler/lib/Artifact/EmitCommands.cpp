// The artifact emitter's commands (see Emitter.h): each meshvk.copy becomes a
// copy recorded in its destination's stream, each meshvk.launch a dispatch of
// its compiled kernel, tagged with the collective they belong to and waiting
// for the commands of other processes that produced their operands.
#include "Emitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSwitch.h"

namespace meshvk::emitter {

namespace {
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

} // namespace

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
    if (auto it = producer_.find(copy.getDest()); it != producer_.end()) {
      art::CommandRef writer = it->second; // copied: inserting may rehash
      producer_[copy.getResult()] = writer;
    }
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

/// The 32-bit pattern a kernel that only fills its one result with a
/// constant writes (the pad around a convolution's input, a reduction's
/// start): the plan records it as a fill (vkCmdFillBuffer), not a dispatch.
static std::optional<uint32_t> splatFillPattern(func::FuncOp kernel) {
  auto ret = cast<func::ReturnOp>(kernel.getBody().front().getTerminator());
  if (ret.getNumOperands() != 1)
    return std::nullopt;
  auto fill = ret.getOperand(0).getDefiningOp<linalg::FillOp>();
  if (!fill || !fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
    return std::nullopt;
  Attribute value;
  if (!matchPattern(fill.getInputs()[0], m_Constant(&value)))
    return std::nullopt;
  if (auto f = dyn_cast<FloatAttr>(value); f && f.getType().isF32())
    return static_cast<uint32_t>(f.getValue().bitcastToAPInt().getZExtValue());
  if (auto i = dyn_cast<IntegerAttr>(value); i && i.getType().isInteger(32))
    return static_cast<uint32_t>(i.getValue().getZExtValue());
  return std::nullopt;
}

LogicalResult Emitter::emitFill(LaunchOp launch, uint32_t process, uint32_t pattern) {
  FailureOr<Place> place = placeOf(launch.getResult(0));
  if (failed(place))
    return failure();
  art::FillDesc fill;
  fill.buffer = place->buffer;
  fill.offset = place->offset;
  fill.size = place->bytes;
  fill.value = pattern;
  producer_[launch.getResult(0)] = builder_->AddFill(process, fill);
  return success();
}

LogicalResult Emitter::emitLaunch(LaunchOp launch, const codegen::CompiledKernels &kernels) {
  // An empty shard's kernel (every result 0 elements) writes nothing: no
  // dispatch (OutlineKernels gave it no kernel function either).
  if (launch.getNumResults() > 0 && llvm::all_of(launch.getResultTypes(), [](Type t) {
        return cast<RankedTensorType>(t).getNumElements() == 0;
      }))
    return success();
  if (std::optional<uint32_t> pattern =
          splatFillPattern(module_.lookupSymbol<func::FuncOp>(launch.getKernel()))) {
    FailureOr<uint32_t> process = processOf(launch, processes_);
    if (failed(process))
      return failure();
    return emitFill(launch, *process, *pattern);
  }
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

} // namespace meshvk::emitter
