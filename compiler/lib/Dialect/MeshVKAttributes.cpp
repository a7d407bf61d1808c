//===- MeshVKAttributes.cpp - the typed plan contract ---------------------===//
//
// Each attribute's verifier (what it says about itself) and where each
// discardable `meshvk.*` attribute may stand (verifyOperationAttribute and the
// argument/result variants). Both run whenever the IR is verified, so a pass
// that reads a contract attribute can trust its shape.
//
//===----------------------------------------------------------------------===//
#include "meshvk/Dialect/MeshVKDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace meshvk;

#include "meshvk/Dialect/MeshVKEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "meshvk/Dialect/MeshVKAttributes.cpp.inc"

void MeshVKDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "meshvk/Dialect/MeshVKAttributes.cpp.inc"
      >();
}

namespace {

int64_t product(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  return n;
}

LogicalResult verifyGridShape(function_ref<InFlightDiagnostic()> emitError,
                              ArrayRef<int64_t> shape) {
  if (shape.empty())
    return emitError() << "grid_shape must have at least one axis";
  for (int64_t extent : shape)
    if (extent < 1)
      return emitError() << "grid_shape extent " << extent << " is not >= 1";
  return success();
}

LogicalResult verifyNonNegative(function_ref<InFlightDiagnostic()> emitError,
                                ArrayRef<std::pair<StringRef, int64_t>> fields) {
  for (auto [name, value] : fields)
    if (value < 0)
      return emitError() << name << " must be >= 0, got " << value;
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// ValueAbiAttr
//===----------------------------------------------------------------------===//

LogicalResult ValueAbiAttr::verify(function_ref<InFlightDiagnostic()> emitError, Type globalType,
                                   shard::GridAxesArrayAttr splitAxes, DenseI64ArrayAttr shardShape,
                                   ArrayAttr shardOffsets, ArrayAttr shardShapes) {
  auto type = dyn_cast<RankedTensorType>(globalType);
  if (!type) {
    if (splitAxes || shardShape || shardOffsets || shardShapes)
      return emitError() << "a non-tensor (" << globalType
                         << ") has no split_axes, shard_shape or shard_offsets";
    return success();
  }
  if (!splitAxes || !shardShape || !shardOffsets)
    return emitError() << "a tensor needs split_axes, shard_shape and "
                          "shard_offsets";
  int64_t rank = type.getRank();
  if (!type.hasStaticShape())
    return emitError() << "type " << type << " must have a static shape";
  // Trailing empty entries split nothing ([[]] is the replicated form).
  int64_t splitDims = splitAxes.size();
  while (splitDims > 0 && splitAxes.getAxes()[splitDims - 1].empty())
    --splitDims;
  if (splitDims > rank)
    return emitError() << "split_axes names " << splitDims << " dimensions but " << type
                       << " has rank " << rank;
  if (shardShape.size() != rank)
    return emitError() << "shard_shape has rank " << shardShape.size() << ", expected " << rank;
  for (int64_t d = 0; d < rank; ++d) {
    if (ShapedType::isDynamic(shardShape[d]) && shardShapes)
      continue; // differs per process: shard_shapes has each
    if (shardShape[d] < 0 || shardShape[d] > type.getDimSize(d))
      return emitError() << "shard_shape[" << d << "] = " << shardShape[d]
                         << " does not fit dimension " << d << " of " << type;
  }
  if (shardOffsets.empty())
    return emitError() << "shard_offsets must name one offset per process";
  if (shardShapes && shardShapes.size() != shardOffsets.size())
    return emitError() << "shard_shapes has " << shardShapes.size() << " entries for "
                       << shardOffsets.size() << " shard offsets (one per process)";
  for (auto [p, entry] : llvm::enumerate(shardOffsets)) {
    auto offset = dyn_cast<DenseI64ArrayAttr>(entry);
    if (!offset || offset.size() != rank)
      return emitError() << "shard_offsets[" << p << "] must be an array of " << rank
                         << " offsets, got " << entry;
    ArrayRef<int64_t> shape = shardShape.asArrayRef();
    if (shardShapes) {
      auto own = dyn_cast<DenseI64ArrayAttr>(shardShapes[p]);
      if (!own || own.size() != rank)
        return emitError() << "shard_shapes[" << p << "] must be an array of " << rank
                           << " sizes, got " << shardShapes[p];
      shape = own.asArrayRef();
      for (int64_t d = 0; d < rank; ++d)
        if (shape[d] < 1 || (!ShapedType::isDynamic(shardShape[d]) && shape[d] != shardShape[d]))
          return emitError() << "shard_shapes[" << p << "][" << d << "] = " << shape[d]
                             << " is empty or disagrees with shard_shape";
    }
    for (int64_t d = 0; d < rank; ++d)
      if (offset[d] < 0 || offset[d] + shape[d] > type.getDimSize(d))
        return emitError() << "the shard of process " << p << " leaves dimension " << d << " of "
                           << type;
  }
  return success();
}

Type ValueAbiAttr::getShardType() const {
  auto tensor = dyn_cast<RankedTensorType>(getType());
  if (!tensor)
    return getType();
  return RankedTensorType::get(getShardShape().asArrayRef(), tensor.getElementType());
}

ArrayRef<int64_t> ValueAbiAttr::getShardOffset(int64_t p) const {
  return cast<DenseI64ArrayAttr>(getShardOffsets()[p]).asArrayRef();
}

ArrayRef<int64_t> ValueAbiAttr::getProcessShardShape(int64_t p) const {
  if (getShardShapes())
    return cast<DenseI64ArrayAttr>(getShardShapes()[p]).asArrayRef();
  return getShardShape().asArrayRef();
}

Type ValueAbiAttr::getProcessShardType(int64_t p) const {
  auto tensor = dyn_cast<RankedTensorType>(getType());
  if (!tensor)
    return getType();
  return RankedTensorType::get(getProcessShardShape(p), tensor.getElementType());
}

//===----------------------------------------------------------------------===//
// AbiAttr
//===----------------------------------------------------------------------===//

LogicalResult AbiAttr::verify(function_ref<InFlightDiagnostic()> emitError, FlatSymbolRefAttr grid,
                              DenseI64ArrayAttr gridShape, ArrayAttr args, ArrayAttr results) {
  if (failed(verifyGridShape(emitError, gridShape.asArrayRef())))
    return failure();
  int64_t processes = product(gridShape.asArrayRef());
  for (auto [what, list] : {std::pair<StringRef, ArrayAttr>{"args", args},
                            std::pair<StringRef, ArrayAttr>{"results", results}})
    for (auto [i, entry] : llvm::enumerate(list)) {
      auto tensor = dyn_cast<ValueAbiAttr>(entry);
      if (!tensor)
        return emitError() << what << "[" << i << "] must be a #meshvk.value_abi, got " << entry;
      if (!tensor.getShardOffsets())
        continue; // a non-tensor
      if ((int64_t)tensor.getShardOffsets().size() != processes)
        return emitError() << what << "[" << i << "] has " << tensor.getShardOffsets().size()
                           << " shard offsets for " << processes << " processes";
      for (shard::GridAxesAttr axes : tensor.getSplitAxes().getAxes())
        for (int16_t axis : axes.asArrayRef())
          if (axis < 0 || axis >= (int64_t)gridShape.size())
            return emitError() << what << "[" << i << "] splits over grid axis " << axis
                               << " of a grid with " << gridShape.size() << " axes";
    }
  return success();
}

int64_t AbiAttr::getProcessCount() const { return product(getGridShape().asArrayRef()); }

//===----------------------------------------------------------------------===//
// PlanAttr
//===----------------------------------------------------------------------===//

LogicalResult PlanAttr::verify(function_ref<InFlightDiagnostic()> emitError, FlatSymbolRefAttr grid,
                               DenseI64ArrayAttr gridShape, DenseI64ArrayAttr peeredAxes) {
  if (failed(verifyGridShape(emitError, gridShape.asArrayRef())))
    return failure();
  llvm::SmallSet<int64_t, 4> seen;
  for (int64_t axis : peeredAxes.asArrayRef())
    if (axis < 0 || axis >= (int64_t)gridShape.size() || !seen.insert(axis).second)
      return emitError() << "peered axis " << axis << " is out of range [0, " << gridShape.size()
                         << ") or repeated";
  return success();
}

int64_t PlanAttr::getProcessCount() const { return product(getGridShape().asArrayRef()); }

//===----------------------------------------------------------------------===//
// CollectiveAttr, ProcessMemoryAttr, BufferAttr
//===----------------------------------------------------------------------===//

LogicalResult CollectiveAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t id,
                                     StringRef kind, StringRef algorithm, int64_t groupSize,
                                     DenseI64ArrayAttr pulledBytes) {
  if (failed(verifyNonNegative(emitError, {{"id", id}})))
    return failure();
  if (groupSize < 1)
    return emitError() << "group_size must be >= 1, got " << groupSize;
  for (int64_t bytes : pulledBytes.asArrayRef())
    if (bytes < 0)
      return emitError() << "pulled_bytes must be >= 0, got " << bytes;
  return success();
}

LogicalResult ProcessMemoryAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                        int64_t argumentBytes, int64_t resultBytes,
                                        int64_t transientBytes, int64_t transientUnsharedBytes,
                                        int64_t constantBytes) {
  return verifyNonNegative(emitError, {{"argument_bytes", argumentBytes},
                                       {"result_bytes", resultBytes},
                                       {"transient_bytes", transientBytes},
                                       {"transient_unshared_bytes", transientUnsharedBytes},
                                       {"constant_bytes", constantBytes}});
}

LogicalResult BufferAttr::verify(function_ref<InFlightDiagnostic()> emitError, BufferKind kind,
                                 int64_t index, int64_t bytes) {
  return verifyNonNegative(emitError, {{"index", index}, {"bytes", bytes}});
}

//===----------------------------------------------------------------------===//
// Where each discardable attribute may stand
//===----------------------------------------------------------------------===//

namespace {

/// One message for every misplaced or mistyped contract attribute.
LogicalResult misplaced(Operation *op, NamedAttribute attr, StringRef what) {
  return op->emitError() << "'" << attr.getName().strref() << "' must be " << what << ", got "
                         << attr.getValue();
}

template <typename T>
bool allOf(Attribute value) {
  auto list = dyn_cast<ArrayAttr>(value);
  return list && llvm::all_of(list, [](Attribute a) { return isa<T>(a); });
}

bool isNonNegativeInteger(Attribute value) {
  auto integer = dyn_cast<IntegerAttr>(value);
  return integer && integer.getType().isSignlessInteger(64) && integer.getInt() >= 0;
}

} // namespace

LogicalResult MeshVKDialect::verifyOperationAttribute(Operation *op, NamedAttribute attr) {
  StringRef name = attr.getName().strref();
  Attribute value = attr.getValue();
  bool isFunction = isa<FunctionOpInterface>(op);
  if (name == PeeredMemoryAxesAttrHelper::getNameStr()) {
    auto grid = dyn_cast<shard::GridOp>(op);
    auto axes = dyn_cast<DenseI64ArrayAttr>(value);
    if (!grid || !axes)
      return misplaced(op, attr, "an array<i64: ...> of axes on a shard.grid");
    llvm::SmallSet<int64_t, 4> seen;
    for (int64_t axis : axes.asArrayRef())
      if (axis < 0 || axis >= grid.getRank() || !seen.insert(axis).second)
        return op->emitError() << name << " names axis " << axis << " but grid @"
                               << grid.getSymName() << " has " << grid.getRank()
                               << " axes (each axis at most once)";
    return success();
  }
  // `ok`: the value has the right type and stands where it may.
  auto expect = [&](bool ok, StringRef what) { return ok ? success() : misplaced(op, attr, what); };
  if (name == AbiAttrHelper::getNameStr())
    return expect(isFunction && isa<AbiAttr>(value), "a #meshvk.abi on a function");
  if (name == PlanAttrHelper::getNameStr())
    return expect(isFunction && isa<PlanAttr>(value), "a #meshvk.plan on a function");
  if (name == CollectivesAttrHelper::getNameStr())
    return expect(isFunction && allOf<CollectiveAttr>(value),
                  "a list of #meshvk.collective on a function");
  if (name == MemoryAttrHelper::getNameStr())
    return expect(isFunction && allOf<ProcessMemoryAttr>(value),
                  "a list of #meshvk.process_memory on a function");
  if (name == KernelAttrHelper::getNameStr())
    return expect(isFunction && isa<UnitAttr>(value), "a unit attribute on a function");
  if (name == NumInputsAttrHelper::getNameStr())
    return expect(isFunction && isNonNegativeInteger(value), "an i64 >= 0 on a function");
  if (name == PushConstantDimsAttrHelper::getNameStr())
    return expect(isFunction && isa<DenseI64ArrayAttr>(value),
                  "an array<i64: binding, dim, ...> on a function");
  if (name == ProcessAttrHelper::getNameStr() || name == CollectiveIdAttrHelper::getNameStr())
    return expect(isNonNegativeInteger(value), "an i64 >= 0");
  if (name == WindowOpAttrHelper::getNameStr())
    return expect(!isFunction && isa<SymbolRefAttr>(value),
                  "a symbol reference (the window op's template) on an op");
  if (name == WindowRolesAttrHelper::getNameStr())
    return expect(!isFunction && isa<DenseI64ArrayAttr>(value),
                  "an array<i64: ...> of one role per input on an op");
  if (name == RegisterTileAttrHelper::getNameStr())
    return expect(isa<DenseI64ArrayAttr>(value), "an array<i64: ...> of per-loop caps");
  if (name == BuffersAttrHelper::getNameStr()) {
    if (!allOf<BufferAttr>(value))
      return misplaced(op, attr, "a list of #meshvk.buffer");
    if (cast<ArrayAttr>(value).size() != op->getNumResults())
      return op->emitError() << "'" << name << "' has " << cast<ArrayAttr>(value).size()
                             << " entries for " << op->getNumResults()
                             << " results (one buffer per result)";
    return success();
  }
  return op->emitError() << "unknown meshvk attribute '" << name
                         << "' (the contract is listed in MeshVKDialect.td)";
}

/// Function arguments carry meshvk.process (plan), meshvk.alias_of and
/// meshvk.push_constants (codegen); results only meshvk.process.
static LogicalResult verifyValueAttribute(Operation *op, NamedAttribute attr, bool argument) {
  StringRef name = attr.getName().strref();
  if (name == MeshVKDialect::ProcessAttrHelper::getNameStr() ||
      (argument && name == MeshVKDialect::AliasOfAttrHelper::getNameStr()))
    return isNonNegativeInteger(attr.getValue()) ? success() : misplaced(op, attr, "an i64 >= 0");
  if (argument && name == MeshVKDialect::PushConstantsAttrHelper::getNameStr())
    return isa<UnitAttr>(attr.getValue()) ? success() : misplaced(op, attr, "a unit attribute");
  return op->emitError() << "unknown meshvk " << (argument ? "argument" : "result")
                         << " attribute '" << name << "'";
}

LogicalResult MeshVKDialect::verifyRegionArgAttribute(Operation *op, unsigned, unsigned,
                                                      NamedAttribute attr) {
  return verifyValueAttribute(op, attr, /*argument=*/true);
}

LogicalResult MeshVKDialect::verifyRegionResultAttribute(Operation *op, unsigned, unsigned,
                                                         NamedAttribute attr) {
  return verifyValueAttribute(op, attr, /*argument=*/false);
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

int64_t meshvk::getProcess(Operation *op) {
  IntegerAttr p = MeshVKDialect::ProcessAttrHelper(op->getContext()).getAttr(op);
  return p ? p.getInt() : -1;
}

void meshvk::setProcess(Operation *op, int64_t p) {
  MeshVKDialect::ProcessAttrHelper(op->getContext())
      .setAttr(op, Builder(op->getContext()).getI64IntegerAttr(p));
}

NamedAttribute meshvk::processEntry(MLIRContext *ctx, int64_t p) {
  return NamedAttribute(MeshVKDialect::ProcessAttrHelper(ctx).getName(),
                        Builder(ctx).getI64IntegerAttr(p));
}

PlanAttr meshvk::getPlan(Operation *func) {
  return MeshVKDialect::PlanAttrHelper(func->getContext()).getAttr(func);
}

AbiAttr meshvk::getAbi(Operation *func) {
  return MeshVKDialect::AbiAttrHelper(func->getContext()).getAttr(func);
}

bool meshvk::isKernel(Operation *func) {
  return MeshVKDialect::KernelAttrHelper(func->getContext()).isAttrPresent(func);
}

bool meshvk::isStorableElementType(Type type) {
  return type.isF32() || type.isF16() || type.isF64() || type.isSignlessInteger(32) ||
         type.isSignedInteger(32);
}
