//===- CollectiveGroups.cpp - group collectives as peer copies ------------===//
//
// The collectives that move data within each group of processes (over the
// op's grid axes) and those that reduce partials, as meshvk-lower-collectives
// writes them: box copies each destination process pulls from its peers,
// and a small elementwise kernel where partials are combined. Also the
// builder of those plan ops (CollectiveLowering.h).
//
//===----------------------------------------------------------------------===//
#include "CollectiveLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace meshvk;

Value CollectiveBuilder::empty(int64_t p, RankedTensorType type) {
  return EmptyOp::create(b, loc, type, b.getI64IntegerAttr(p));
}

Value CollectiveBuilder::copy(Value src, int64_t from, Value dest, int64_t to,
                              ArrayRef<int64_t> srcOffsets, ArrayRef<int64_t> destOffsets,
                              ArrayRef<int64_t> sizes) {
  auto op = CopyOp::create(b, loc, dest.getType(), src, b.getI64IntegerAttr(from), dest,
                           b.getI64IntegerAttr(to), b.getDenseI64ArrayAttr(srcOffsets),
                           b.getDenseI64ArrayAttr(destOffsets), b.getDenseI64ArrayAttr(sizes));
  if (from != to)
    pulled[to] += op.getByteCount();
  tag(op);
  return op.getResult();
}

Value CollectiveBuilder::fill(int64_t p, RankedTensorType type, TypedAttr value) {
  auto init = tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  setProcess(init, p);
  Value scalar = arith::ConstantOp::create(b, loc, value);
  auto filled = linalg::FillOp::create(b, loc, scalar, init.getResult());
  setProcess(filled, p);
  tag(filled);
  return filled.getResult(0);
}

Value CollectiveBuilder::pullWhole(Value src, int64_t from, int64_t to) {
  auto type = cast<RankedTensorType>(src.getType());
  SmallVector<int64_t> zero(type.getRank(), 0);
  return copy(src, from, empty(to, type), to, zero, zero, type.getShape());
}

/// `acc <kind> v` in a reduction kernel's body.
static Value combine(OpBuilder &nb, Location l, shard::ReductionKind kind, bool isFloat,
                     bool ignoreNaN, Value acc, Value v) {
  switch (kind) {
  case shard::ReductionKind::Sum:
    return isFloat ? (Value)arith::AddFOp::create(nb, l, acc, v)
                   : (Value)arith::AddIOp::create(nb, l, acc, v);
  case shard::ReductionKind::Product:
    return isFloat ? (Value)arith::MulFOp::create(nb, l, acc, v)
                   : (Value)arith::MulIOp::create(nb, l, acc, v);
  case shard::ReductionKind::Max:
    return !isFloat    ? (Value)arith::MaxSIOp::create(nb, l, acc, v)
           : ignoreNaN ? (Value)arith::MaxNumFOp::create(nb, l, acc, v)
                       : (Value)arith::MaximumFOp::create(nb, l, acc, v);
  default:
    return !isFloat    ? (Value)arith::MinSIOp::create(nb, l, acc, v)
           : ignoreNaN ? (Value)arith::MinNumFOp::create(nb, l, acc, v)
                       : (Value)arith::MinimumFOp::create(nb, l, acc, v);
  }
}

FailureOr<Value> CollectiveBuilder::reduce(Operation *at, int64_t p, ArrayRef<Value> inputs,
                                           shard::ReductionKind kind, bool ignoreNaN) {
  auto type = cast<RankedTensorType>(inputs.front().getType());
  Type elem = type.getElementType();
  bool isFloat = isa<FloatType>(elem);
  if (!isFloat && !elem.isSignlessInteger())
    return at->emitError("reductions of ") << elem << " are not supported";
  switch (kind) {
  case shard::ReductionKind::Sum:
  case shard::ReductionKind::Max:
  case shard::ReductionKind::Min:
  case shard::ReductionKind::Product:
    break;
  default:
    return at->emitError("reduction <") << shard::stringifyReductionKind(kind)
                                        << "> is not supported yet (sum, max, min, product are)";
  }
  auto init = tensor::EmptyOp::create(b, loc, type.getShape(), elem);
  setProcess(init, p);
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<AffineMap> maps(inputs.size() + 1, id);
  SmallVector<utils::IteratorType> iterators(type.getRank(), utils::IteratorType::parallel);
  auto generic =
      linalg::GenericOp::create(b, loc, TypeRange{type}, inputs, ValueRange{init}, maps, iterators,
                                [&](OpBuilder &nb, Location l, ValueRange args) {
                                  Value acc = args[0];
                                  for (Value v : args.drop_front().drop_back())
                                    acc = combine(nb, l, kind, isFloat, ignoreNaN, acc, v);
                                  linalg::YieldOp::create(nb, l, acc);
                                });
  setProcess(generic, p);
  tag(generic);
  return generic.getResult(0);
}

void CollectiveBuilder::tag(Operation *op) {
  MeshVKDialect::CollectiveIdAttrHelper(b.getContext()).setAttr(op, b.getI64IntegerAttr(id));
}

namespace {

int64_t bytesOf(RankedTensorType type) {
  return type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
}

/// The single combining op of the linalg op that produced `partial`, if any.
Operation *combinerOf(Value partial) {
  auto linalgOp = partial.getDefiningOp<linalg::LinalgOp>();
  if (!linalgOp || linalgOp->getNumRegions() != 1)
    return nullptr;
  Block &body = linalgOp->getRegion(0).front();
  return body.getOperations().size() == 2 ? &body.front() : nullptr;
}

/// Whether the partials were combined ignoring NaN (arith.maxnumf/minnumf):
/// the collective must combine them the same way, or a NaN in one shard
/// decides the result differently from the unsharded program.
bool ignoresNaN(Value partial) {
  return isa_and_nonnull<arith::MaxNumFOp, arith::MinNumFOp>(combinerOf(partial));
}

/// The reduction a linalg op's single combining op performs, if it is one.
std::optional<shard::ReductionKind> combinerKind(Value partial) {
  Operation *op = combinerOf(partial);
  if (!op)
    return std::nullopt;
  Operation &combiner = *op;
  if (isa<arith::AddFOp, arith::AddIOp>(combiner))
    return shard::ReductionKind::Sum;
  if (isa<arith::MulFOp, arith::MulIOp>(combiner))
    return shard::ReductionKind::Product;
  if (isa<arith::MaxNumFOp, arith::MaximumFOp, arith::MaxSIOp>(combiner))
    return shard::ReductionKind::Max;
  if (isa<arith::MinNumFOp, arith::MinimumFOp, arith::MinSIOp>(combiner))
    return shard::ReductionKind::Min;
  return std::nullopt;
}

/// The in-group index of a rooted collective's root (its in-group
/// multi-index over `axes`).
FailureOr<int64_t> rootMember(Operation *op, ArrayRef<int64_t> root, size_t dynamic,
                              ArrayRef<int64_t> gridShape, ArrayRef<int16_t> axes) {
  if (dynamic != 0)
    return op->emitError("'") << op->getName() << "' with a dynamic root is not supported",
           failure();
  if (root.size() != axes.size())
    return op->emitError("'") << op->getName() << "' root must have one index per grid axis",
           failure();
  int64_t index = 0;
  for (auto [i, axis] : llvm::enumerate(axes)) {
    if (root[i] < 0 || root[i] >= gridShape[axis])
      return op->emitError("'") << op->getName() << "' root index " << root[i]
                                << " is outside grid axis " << axis,
             failure();
    index = index * gridShape[axis] + root[i];
  }
  return index;
}

} // namespace

GroupLowering::GroupLowering(CollectiveBuilder &l, CollectiveOps ops, ArrayRef<int64_t> gridShape,
                             ArrayRef<int16_t> axes)
    : l(l), ops(ops), gridShape(gridShape), axes(axes), op0(ops.front()), processes(ops.size()),
      inType(cast<RankedTensorType>(op0->getOperand(0).getType())),
      outType(cast<RankedTensorType>(op0->getResult(0).getType())), rank(inType.getRank()),
      zero(rank, 0) {
  lowered.results.resize(processes);
}

LogicalResult GroupLowering::sameElementTypes() const {
  if (inType.getElementType() == outType.getElementType())
    return success();
  return op0->emitError("accumulating in ") << outType.getElementType() << " instead of "
                                            << inType.getElementType() << " is not supported yet";
}

/// The members' inputs of `g`, each `box` of `inType`'s shape placed along
/// `axis` at its in-group index, into a fresh result on `p`.
Value GroupLowering::gatherInto(int64_t p, const ProcessGroup &g, int64_t axis) {
  Value dest = l.empty(p, outType);
  for (auto [k, q] : llvm::enumerate(g.members)) {
    SmallVector<int64_t> at(rank, 0);
    at[axis] = k * inType.getDimSize(axis);
    dest = l.copy(input(q), q, dest, p, zero, at, inType.getShape());
  }
  return dest;
}

/// The partials of `g`'s members reduced on `p`: p's own and the others'
/// pulled whole; p's input itself when it is the only member.
FailureOr<Value> GroupLowering::reduceWhole(int64_t p, const ProcessGroup &g,
                                            shard::ReductionKind kind, bool ignoreNaN) {
  SmallVector<Value> partials{input(p)};
  for (int64_t q : g.members)
    if (q != p)
      partials.push_back(l.pullWhole(input(q), q, p));
  if (partials.size() == 1)
    return input(p);
  return l.reduce(op0, p, partials, kind, ignoreNaN);
}

FailureOr<LoweredCollective> GroupLowering::allGather() {
  int64_t axis = cast<shard::AllGatherOp>(op0).getGatherAxis().getSExtValue();
  for (int64_t p = 0; p < processes; ++p)
    lowered.results[p] = gatherInto(p, groupOf(p, gridShape, axes), axis);
  return lowered;
}

FailureOr<LoweredCollective> GroupLowering::allSlice() {
  int64_t axis = cast<shard::AllSliceOp>(op0).getSliceAxis().getSExtValue();
  lowered.algorithm = "local";
  for (int64_t p = 0; p < processes; ++p) {
    ProcessGroup g = groupOf(p, gridShape, axes);
    SmallVector<int64_t> at(rank, 0);
    at[axis] = g.rank * outType.getDimSize(axis);
    lowered.results[p] = l.copy(input(p), p, l.empty(p, outType), p, at, zero, outType.getShape());
  }
  return lowered;
}

FailureOr<LoweredCollective> GroupLowering::allToAll() {
  auto a2a = cast<shard::AllToAllOp>(op0);
  int64_t split = a2a.getSplitAxis().getSExtValue();
  int64_t concat = a2a.getConcatAxis().getSExtValue();
  SmallVector<int64_t> chunk(inType.getShape());
  chunk[split] /= groupOf(0, gridShape, axes).members.size();
  for (int64_t p = 0; p < processes; ++p) {
    ProcessGroup g = groupOf(p, gridShape, axes);
    Value dest = l.empty(p, outType);
    for (auto [k, q] : llvm::enumerate(g.members)) {
      SmallVector<int64_t> from(rank, 0), at(rank, 0);
      from[split] = g.rank * chunk[split];
      at[concat] = k * chunk[concat];
      dest = l.copy(input(q), q, dest, p, from, at, chunk);
    }
    lowered.results[p] = dest;
  }
  return lowered;
}

FailureOr<LoweredCollective> GroupLowering::broadcast() {
  auto bcast = cast<shard::BroadcastOp>(op0);
  FailureOr<int64_t> rootIndex =
      rootMember(op0, bcast.getRoot(), bcast.getRootDynamic().size(), gridShape, axes);
  if (failed(rootIndex))
    return failure();
  for (int64_t p = 0; p < processes; ++p) {
    int64_t q = groupOf(p, gridShape, axes).members[*rootIndex];
    lowered.results[p] = q == p ? input(p) : l.pullWhole(input(q), q, p);
  }
  return lowered;
}

FailureOr<LoweredCollective> GroupLowering::shift() {
  auto shift = cast<shard::ShiftOp>(op0);
  int64_t axis = shift.getShiftAxis().getSExtValue();
  if (axis < 0 || axis >= (int64_t)gridShape.size())
    return op0->emitError("shift axis ") << axis << " is not a grid axis";
  int64_t offset = shift.getOffset();
  for (int64_t p = 0; p < processes; ++p) {
    SmallVector<int64_t> multi = processMultiIndex(gridShape, p);
    int64_t size = gridShape[axis];
    int64_t from = multi[axis] - offset;
    if (shift.getRotate())
      from = ((from % size) + size) % size;
    if (from < 0 || from >= size) {
      lowered.results[p] = input(p); // no source: the result is undefined; keep ours
      continue;
    }
    multi[axis] = from;
    int64_t q = processLinearIndex(gridShape, multi);
    lowered.results[p] = q == p ? input(p) : l.pullWhole(input(q), q, p);
  }
  return lowered;
}

FailureOr<LoweredCollective> GroupLowering::rooted() {
  // Results on the other processes (gather, reduce) are undefined: a fresh
  // buffer.
  ArrayRef<int64_t> root;
  size_t dynamicRoot = 0;
  if (auto g = dyn_cast<shard::GatherOp>(op0))
    root = g.getRoot(), dynamicRoot = g.getRootDynamic().size();
  else if (auto r = dyn_cast<shard::ReduceOp>(op0))
    root = r.getRoot(), dynamicRoot = r.getRootDynamic().size();
  else
    root = cast<shard::ScatterOp>(op0).getRoot(),
    dynamicRoot = cast<shard::ScatterOp>(op0).getRootDynamic().size();
  FailureOr<int64_t> rootIndex = rootMember(op0, root, dynamicRoot, gridShape, axes);
  if (failed(rootIndex))
    return failure();
  lowered.algorithm = "rooted";
  for (int64_t p = 0; p < processes; ++p) {
    ProcessGroup g = groupOf(p, gridShape, axes);
    int64_t q = g.members[*rootIndex];
    Value &result = lowered.results[p];
    if (auto scatter = dyn_cast<shard::ScatterOp>(op0)) {
      int64_t axis = scatter.getScatterAxis().getSExtValue();
      SmallVector<int64_t> from(rank, 0);
      from[axis] = g.rank * outType.getDimSize(axis);
      result = l.copy(input(q), q, l.empty(p, outType), p, from, zero, outType.getShape());
    } else if (q != p) {
      result = l.empty(p, outType);
    } else if (auto gather = dyn_cast<shard::GatherOp>(op0)) {
      result = gatherInto(p, g, gather.getGatherAxis().getSExtValue());
    } else {
      if (failed(sameElementTypes()))
        return failure();
      FailureOr<Value> sum = reduceWhole(p, g, cast<shard::ReduceOp>(op0).getReduction(),
                                         ignoresNaN(op0->getOperand(0)));
      if (failed(sum))
        return failure();
      result = *sum;
    }
  }
  return lowered;
}

FailureOr<LoweredCollective> GroupLowering::reduction(int64_t directMaxBytes) {
  if (failed(sameElementTypes()))
    return failure();
  int64_t groupSize = groupOf(0, gridShape, axes).members.size();
  auto scatter = dyn_cast<shard::ReduceScatterOp>(op0);
  shard::ReductionKind kind =
      scatter ? scatter.getReduction() : cast<shard::AllReduceOp>(op0).getReduction();
  // Upstream marks reductions it does not classify (e.g. arith.maxnumf)
  // `generic`; the combiner of the op producing the partials tells.
  if (kind == shard::ReductionKind::Generic)
    kind = combinerKind(op0->getOperand(0)).value_or(kind);
  bool ignoreNaN = ignoresNaN(op0->getOperand(0));
  // The dimension the partials are cut along (reduce_scatter: its scatter
  // axis; all_reduce: the first dimension the group size divides).
  int64_t cut = -1;
  bool direct = false;
  if (scatter) {
    cut = scatter.getScatterAxis().getSExtValue();
  } else {
    for (int64_t d = 0; d < rank && cut < 0; ++d)
      if (inType.getDimSize(d) % groupSize == 0)
        cut = d;
    // Direct: n-1 whole partials, one reduction. Reduce-scatter +
    // all-gather: 2(n-1)/n of the data, two phases. Equal bytes at n = 2.
    direct = cut < 0 || groupSize <= 2 || bytesOf(inType) <= directMaxBytes;
  }
  if (direct) {
    for (int64_t p = 0; p < processes; ++p) {
      FailureOr<Value> sum = reduceWhole(p, groupOf(p, gridShape, axes), kind, ignoreNaN);
      if (failed(sum))
        return failure();
      lowered.results[p] = *sum;
    }
    return lowered;
  }
  // Phase 1 (reduce-scatter): process p reduces its chunk of all partials.
  SmallVector<int64_t> chunk(inType.getShape());
  chunk[cut] /= groupSize;
  auto chunkType = RankedTensorType::get(chunk, inType.getElementType());
  SmallVector<Value> reduced(processes);
  for (int64_t p = 0; p < processes; ++p) {
    ProcessGroup g = groupOf(p, gridShape, axes);
    SmallVector<int64_t> from(rank, 0);
    from[cut] = g.rank * chunk[cut];
    SmallVector<Value> partials;
    partials.push_back(l.copy(input(p), p, l.empty(p, chunkType), p, from, zero, chunk));
    for (int64_t q : g.members)
      if (q != p)
        partials.push_back(l.copy(input(q), q, l.empty(p, chunkType), p, from, zero, chunk));
    FailureOr<Value> sum = partials.size() == 1 ? FailureOr<Value>(partials.front())
                                                : l.reduce(op0, p, partials, kind, ignoreNaN);
    if (failed(sum))
      return failure();
    reduced[p] = *sum;
  }
  if (scatter) {
    lowered.results = reduced;
    return lowered;
  }
  // Phase 2 (all-gather of the reduced chunks).
  lowered.algorithm = "reduce_scatter+all_gather";
  for (int64_t p = 0; p < processes; ++p) {
    ProcessGroup g = groupOf(p, gridShape, axes);
    Value dest = l.empty(p, outType);
    for (auto [k, q] : llvm::enumerate(g.members)) {
      SmallVector<int64_t> at(rank, 0);
      at[cut] = k * chunk[cut];
      dest = l.copy(reduced[q], q, dest, p, zero, at, chunk);
    }
    lowered.results[p] = dest;
  }
  return lowered;
}
