//===- CheckInitialized.cpp - no undefined value reaches a result --------===//
//
// meshvk-check-initialized (Passes.td): on the program as written, refuse a
// linalg op that reads an init which is a tensor.empty (an accumulator never
// filled), and a chain of tensor.insert_slice into a tensor.empty that leaves
// elements unwritten and is read. Both compiled silently before and returned
// whatever the buffer held (values near 1e30 on lavapipe). Likewise the other
// reads of a tensor.empty's values: a linalg op's `ins` its payload reads,
// tensor.extract, a function returning it; each through casts, reshapes,
// extract_slices, annotations and scf.for iter_args (the first iteration
// reads the loop's init); and, by default, every other op that reads one (a
// tosa op, an insert_slice's source, a call). Refused, not filled with a neutral element: for an
// input or an extracted element there is no neutral value the user meant,
// and for an accumulator the fill is one line the user should see written.
//
//===----------------------------------------------------------------------===//
#include "meshvk/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AsmState.h"

#include <optional>
#include <set>

using namespace mlir;

namespace meshvk {
#define GEN_PASS_DEF_CHECKINITIALIZED
#include "meshvk/Transforms/Passes.h.inc"
} // namespace meshvk

namespace {

/// The op that allocates `value`'s undefined elements (tensor.empty, or
/// bufferization.alloc_tensor without `copy`), looking through annotations,
/// casts, reshapes and slices of it, and with `throughLoops` from an scf.for
/// iter_arg to the loop's init (what the first iteration reads); null when
/// `value` has defined elements or comes from elsewhere (an argument, a
/// region, another op).
Operation *undefinedSource(Value value, bool throughLoops = true) {
  for (;;) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto loop = dyn_cast_or_null<scf::ForOp>(arg.getOwner()->getParentOp());
      OpOperand *init = throughLoops && loop ? loop.getTiedLoopInit(arg) : nullptr;
      if (!init)
        return nullptr;
      value = init->get();
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (isa<tensor::EmptyOp>(def))
      return def;
    if (auto alloc = dyn_cast<bufferization::AllocTensorOp>(def))
      return alloc.getCopy() ? nullptr : def;
    if (auto shardOp = dyn_cast<shard::ShardOp>(def))
      value = shardOp.getSrc();
    else if (auto cast = dyn_cast<tensor::CastOp>(def))
      value = cast.getSource();
    else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def))
      value = expand.getSrc();
    else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(def))
      value = collapse.getSrc();
    else if (auto reshape = dyn_cast<tensor::ReshapeOp>(def))
      value = reshape.getSource();
    else if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def))
      value = slice.getSource();
    else
      return nullptr;
  }
}

/// Whether `value` holds no element (nothing to read).
bool hasNoElements(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.hasStaticShape() && type.getNumElements() == 0;
}

/// `%3 = tensor.empty (at line 14)`: the name the printer gives the value
/// (the program's own names are not kept) and the line it was written on.
std::string describe(Operation *source) {
  Operation *scope = source->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
  AsmState state(scope ? scope : source);
  std::string text;
  llvm::raw_string_ostream os(text);
  source->getResult(0).printAsOperand(os, state);
  os << " = " << source->getName();
  if (auto file = source->getLoc()->findInstanceOf<FileLineColLoc>())
    os << " (at line " << file.getLine() << ")";
  return text;
}

/// The fix, spelled for the tensor's element type.
std::string fillHint(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "fill it first, e.g. linalg.fill ins(%zero : " << getElementTypeOrSelf(type)
     << ") outs(%empty)";
  return text;
}

/// Refuses a linalg op whose payload reads an init that is undefined:
/// named contractions, convolutions and poolings, linalg.reduce, and
/// generics whose region uses the outs block argument, with reduction
/// iterators or parallel ones alike.
LogicalResult checkInits(linalg::LinalgOp op) {
  if (op->use_empty()) // dead: meshvk-normalize-input erases it
    return success();
  for (OpOperand &init : op.getDpsInitsMutable()) {
    if (!op.payloadUsesValueFromOperand(&init))
      continue;
    Operation *source = undefinedSource(init.get());
    if (!source)
      continue;
    bool accumulates = op.getNumReductionLoops() > 0;
    InFlightDiagnostic error = op->emitError() << op->getName();
    if (accumulates)
      error << " accumulates into ";
    else
      error << " reads its init ";
    if (op.getNumDpsInits() > 1)
      error << "(outs operand #" << init.getOperandNumber() - op.getNumDpsInputs() << ") ";
    return error << describe(source) << ", whose values are undefined (expected an "
                 << (accumulates ? "initialised accumulator: " : "initialised init: ")
                 << fillHint(init.get().getType()) << ")";
  }
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!isa<RankedTensorType>(input->get().getType()) || !op.payloadUsesValueFromOperand(input) ||
        hasNoElements(input->get()))
      continue;
    Operation *source = undefinedSource(input->get());
    if (!source)
      continue;
    InFlightDiagnostic error = op->emitError() << op->getName() << " reads ";
    if (op.getNumDpsInputs() > 1)
      error << "(ins operand #" << input->getOperandNumber() << ") ";
    return error << describe(source) << ", whose values are undefined (expected an initialised "
                 << "input: " << fillHint(input->get().getType()) << ")";
  }
  return success();
}

/// Refuses a tensor.extract of an element of an undefined tensor, and a
/// function returning one, when the value is used.
LogicalResult checkRead(Operation *op) {
  if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
    if (extract->use_empty())
      return success();
    Operation *source = undefinedSource(extract.getTensor());
    if (!source)
      return success();
    return op->emitError() << "tensor.extract reads an element of " << describe(source)
                           << ", whose values are undefined (expected an initialised tensor: "
                           << fillHint(extract.getTensor().getType()) << ")";
  }
  if (auto ret = dyn_cast<func::ReturnOp>(op)) {
    for (OpOperand &result : ret->getOpOperands()) {
      if (!isa<RankedTensorType>(result.get().getType()) || hasNoElements(result.get()))
        continue;
      Operation *source = undefinedSource(result.get());
      if (!source)
        continue;
      return op->emitError() << "func.return returns (result #" << result.getOperandNumber() << ") "
                             << describe(source)
                             << ", whose values are undefined (expected a computed result: "
                             << fillHint(result.get().getType()) << ")";
    }
  }
  return success();
}

/// Whether `op` only passes its tensor operands on, or reads their shapes
/// alone, so that whatever reads its results (or nothing) decides: the views
/// undefinedSource looks through, scf.for (its inits are followed into the
/// loop), the other loops' inits and shared outs (what their bodies do with
/// them is not followed), the yields, tensor.dim, shard.recv's buffer, the
/// allocations themselves.
bool passesValuesOn(Operation *op) {
  return isa<tensor::EmptyOp, bufferization::AllocTensorOp, shard::ShardOp, tensor::CastOp,
             tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::ReshapeOp,
             tensor::ExtractSliceOp, tensor::DimOp, scf::ForOp, scf::YieldOp, scf::ForallOp,
             scf::InParallelOp, scf::WhileOp, scf::ConditionOp,
             shard::RecvOp>(op); // a recv's operand is the buffer it receives into
}

/// Refuses any other op that reads an undefined tensor (the default: an op
/// reads its operands unless it is known not to): a tosa op, the source of a
/// tensor.insert_slice, a call, ... Destinations of a destination-style op
/// other than linalg (tensor.pack's, tensor.insert's) are written, not read.
LogicalResult checkOtherReads(Operation *op) {
  if (passesValuesOn(op) || (op->getNumResults() > 0 && op->use_empty()))
    return success();
  auto destinations = dyn_cast<DestinationStyleOpInterface>(op);
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<RankedTensorType>(operand.get().getType()) || hasNoElements(operand.get()))
      continue;
    if (destinations && destinations.isDpsInit(&operand))
      continue;
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(op);
        insert && &operand == &insert.getDestMutable())
      continue; // checkInsertChain's
    Operation *source = undefinedSource(operand.get());
    if (!source)
      continue;
    InFlightDiagnostic error = op->emitError() << op->getName() << " reads ";
    if (op->getNumOperands() > 1)
      error << "(operand #" << operand.getOperandNumber() << ") ";
    return error << describe(source) << ", whose values are undefined (expected an initialised "
                 << "tensor: " << fillHint(operand.get().getType()) << ")";
  }
  return success();
}

/// Whether `use` reads the values of what it uses: everything does but the
/// destination of an insert_slice (the chain goes on) and a linalg init
/// that the payload overwrites without reading.
bool readsValues(OpOperand &use) {
  Operation *user = use.getOwner();
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(user))
    return &use != &insert.getDestMutable();
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(user))
    return !linalgOp.isDpsInit(&use) || linalgOp.payloadUsesValueFromOperand(&use);
  return true;
}

/// One static slice of a destination: per dimension, offset, size, stride.
struct StaticSlice {
  SmallVector<int64_t> offsets, sizes, strides;

  bool writes(ArrayRef<int64_t> element) const {
    for (auto [d, index] : llvm::enumerate(element)) {
      int64_t from = offsets[d], last = offsets[d] + (sizes[d] - 1) * strides[d];
      if (index < from || index > last || (index - from) % strides[d] != 0)
        return false;
    }
    return true;
  }
};

// Beyond these, coverage is not computed and the chain is left alone (a
// program that slices this finely is not one a user writes by hand).
constexpr int64_t kMaxStridedWrites = 4096;
constexpr int64_t kMaxChecks = int64_t(1) << 22;

/// The first element of `shape` that no slice writes, nullopt when the
/// slices cover it or coverage is too costly to compute. Each dimension is
/// cut where a slice starts or stops writing (a strided slice at each index
/// it writes), so every cell of the cut is written entirely or not at all by
/// each slice, and checking the first element of each cell suffices.
std::optional<SmallVector<int64_t>> firstUnwritten(ArrayRef<int64_t> shape,
                                                   ArrayRef<StaticSlice> slices) {
  int64_t rank = shape.size();
  SmallVector<SmallVector<int64_t>> cuts(rank);
  int64_t cells = 1;
  for (int64_t d = 0; d < rank; ++d) {
    std::set<int64_t> points = {0, shape[d]};
    for (const StaticSlice &slice : slices) {
      if (slice.strides[d] == 1) {
        points.insert({slice.offsets[d], slice.offsets[d] + slice.sizes[d]});
        continue;
      }
      if (slice.sizes[d] > kMaxStridedWrites)
        return std::nullopt;
      for (int64_t k = 0; k < slice.sizes[d]; ++k)
        points.insert(
            {slice.offsets[d] + k * slice.strides[d], slice.offsets[d] + k * slice.strides[d] + 1});
    }
    for (int64_t p : points)
      if (p <= shape[d])
        cuts[d].push_back(p);
    cells *= cuts[d].size() - 1;
    if (cells * std::max<int64_t>(slices.size(), 1) > kMaxChecks)
      return std::nullopt;
  }
  SmallVector<int64_t> cell(rank, 0), element(rank);
  for (int64_t n = 0; n < cells; ++n) {
    for (int64_t d = 0; d < rank; ++d)
      element[d] = cuts[d][cell[d]];
    if (llvm::none_of(slices, [&](const StaticSlice &s) { return s.writes(element); }))
      return element;
    for (int64_t d = rank - 1; d >= 0 && ++cell[d] == int64_t(cuts[d].size()) - 1; --d)
      cell[d] = 0;
  }
  return std::nullopt;
}

/// Refuses `last`, the end of a chain of insert_slices whose result is read,
/// when the chain starts at an undefined tensor with a static shape and its
/// static slices leave an element unwritten. A dynamic shape, offset, size
/// or stride leaves the chain alone: what it covers is known only at run
/// time (the kernels would need a run-time check, which they do not have).
LogicalResult checkInsertChain(tensor::InsertSliceOp last) {
  if (llvm::none_of(last->getUses(), [](OpOperand &use) { return readsValues(use); }))
    return success();
  SmallVector<StaticSlice> slices;
  Value dest = last.getResult();
  while (auto insert = dest.getDefiningOp<tensor::InsertSliceOp>()) {
    StaticSlice slice{SmallVector<int64_t>(insert.getStaticOffsets()),
                      SmallVector<int64_t>(insert.getStaticSizes()),
                      SmallVector<int64_t>(insert.getStaticStrides())};
    auto dynamic = [](ArrayRef<int64_t> values) {
      return llvm::any_of(values, ShapedType::isDynamic);
    };
    if (dynamic(slice.offsets) || dynamic(slice.sizes) || dynamic(slice.strides))
      return success();
    if (llvm::all_of(slice.sizes, [](int64_t size) { return size > 0; }))
      slices.push_back(std::move(slice));
    dest = insert.getDest();
  }
  // Not through loops: a loop writing one tile of its iter_arg per
  // iteration covers it in all of them, not in one.
  Operation *source = undefinedSource(dest, /*throughLoops=*/false);
  auto type = dyn_cast<RankedTensorType>(dest.getType());
  if (!source || !type || !type.hasStaticShape() || type.getNumElements() == 0)
    return success();
  std::optional<SmallVector<int64_t>> unwritten = firstUnwritten(type.getShape(), slices);
  if (!unwritten)
    return success();
  InFlightDiagnostic error = last.emitError() << "tensor.insert_slice leaves element [";
  llvm::interleaveComma(*unwritten, error);
  return error << "] of " << describe(source)
               << " unwritten, and its result is read (expected every element written: "
               << fillHint(type) << ", or insert slices that cover it)";
}

struct CheckInitializedPass : meshvk::impl::CheckInitializedBase<CheckInitializedPass> {
  void runOnOperation() override {
    WalkResult walk = getOperation().walk([&](Operation *op) {
      LogicalResult checked = success();
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
          linalgOp && linalgOp.hasPureTensorSemantics())
        checked = checkInits(linalgOp);
      else if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
        checked = succeeded(checkOtherReads(insert)) ? checkInsertChain(insert) : failure();
      else if (isa<tensor::ExtractOp, func::ReturnOp>(op))
        checked = checkRead(op);
      else if (!isa<linalg::LinalgOp>(op))
        checked = checkOtherReads(op);
      return failed(checked) ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
