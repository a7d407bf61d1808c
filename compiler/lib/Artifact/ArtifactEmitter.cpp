// The artifact emitter (see meshvk/Artifact/ArtifactEmitter.h): walks one plan
// function in plan order and turns each plan op into builder calls. The plan
// already fixed every size, offset and reuse; the emitter never re-plans, it
// refuses what it cannot express (and says which op and why).
#include "Emitter.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

namespace meshvk::emitter {

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

void Emitter::nameTensors(const std::vector<std::string> &names,
                          std::vector<art::TensorDesc> *tensors) {
  if (names.size() != tensors->size())
    return;
  for (size_t i = 0; i < names.size(); ++i)
    (*tensors)[i].name = names[i];
}

void Emitter::declareTypes(const std::vector<art::DeclaredType> &types,
                           std::vector<art::TensorDesc> *tensors) {
  if (types.size() != tensors->size())
    return;
  for (size_t i = 0; i < types.size(); ++i) {
    art::TensorDesc &t = (*tensors)[i];
    bool integer = types[i] == art::DeclaredType::kI64 || types[i] == art::DeclaredType::kBool;
    bool real = types[i] == art::DeclaredType::kF64;
    bool half = types[i] == art::DeclaredType::kF32;
    if ((integer && t.element_type == art::ElementType::kI32) ||
        (real && t.element_type == art::ElementType::kF32) ||
        (half && t.element_type == art::ElementType::kF16))
      t.declared_type = types[i];
  }
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
  nameTensors(options_.argumentNames, &function.arguments);
  nameTensors(options_.resultNames, &function.results);
  declareTypes(options_.argumentDeclaredTypes, &function.arguments);
  declareTypes(options_.resultDeclaredTypes, &function.results);
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
  // A view (meshvk-plan-allocations): the operand's bytes, another shape.
  if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(op))
    return placeOf(op->getOperand(0));
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

FailureOr<std::vector<uint8_t>> Emitter::run() {
  if (failed(readGrid()) || failed(createBuffers()) || failed(buildSignature()))
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
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(op)) {
      if (failed(placeOf(op.getResult(0))))
        return failure();
      // No command: readers wait for whatever wrote the viewed bytes.
      if (auto it = producer_.find(op.getOperand(0)); it != producer_.end()) {
        art::CommandRef writer = it->second; // copied: inserting may rehash
        producer_[op.getResult(0)] = writer;
      }
      continue;
    }
    if (isa<CopyOp, LaunchOp>(op))
      tagCollective(&op);
    if (auto copy = dyn_cast<CopyOp>(op)) {
      if (failed(emitCopy(copy)))
        return failure();
      continue;
    }
    if (auto launch = dyn_cast<LaunchOp>(op)) {
      if (failed(emitLaunch(launch, kernels_)))
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
           << "is not a plan op (expected meshvk.empty/constant/copy/launch or a reshape view); "
              "cannot emit it";
  }
  builder_->AddFunction(std::move(function_));
  return builder_->Finish();
}

} // namespace meshvk::emitter

namespace meshvk {

using namespace mlir;

FailureOr<std::vector<uint8_t>>
emitArtifact(ModuleOp module, const codegen::CompiledKernels &kernels, const EmitOptions &options) {
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
  emitter::Emitter emitter(module, plan, kernels, options);
  return emitter.run();
}

} // namespace meshvk
