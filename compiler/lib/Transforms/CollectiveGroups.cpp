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

/// What every family reads of a collective: its ops, their tensor types and
/// rank, and the result being built (one value per process).
struct Collective {
  explicit Collective(CollectiveOps ops)
      : ops(ops), op0(ops.front()), processes(ops.size()),
        inType(cast<RankedTensorType>(op0->getOperand(0).getType())),
        outType(cast<RankedTensorType>(op0->getResult(0).getType())), rank(inType.getRank()),
        zero(rank, 0) {
    lowered.results.resize(processes);
  }
  Value input(int64_t p) const { return ops[p]->getOperand(0); }
  LogicalResult sameElementTypes() const {
    if (inType.getElementType() == outType.getElementType())
      return success();
    return op0->emitError("accumulating in ") << outType.getElementType() << " instead of "
                                              << inType.getElementType() << " is not supported yet";
  }

  CollectiveOps ops;
  Operation *op0;
  int64_t processes;
  RankedTensorType inType, outType;
  int64_t rank;
  SmallVector<int64_t> zero;
  LoweredCollective lowered;
};

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

/// The members' inputs of `g`, each `box` of `c.inType`'s shape placed along
/// `axis` at its in-group index, into a fresh result on `p`.
Value gatherInto(CollectiveBuilder &l, const Collective &c, int64_t p, const ProcessGroup &g,
                 int64_t axis) {
  Value dest = l.empty(p, c.outType);
  for (auto [k, q] : llvm::enumerate(g.members)) {
    SmallVector<int64_t> at(c.rank, 0);
    at[axis] = k * c.inType.getDimSize(axis);
    dest = l.copy(c.input(q), q, dest, p, c.zero, at, c.inType.getShape());
  }
  return dest;
}

/// The partials of `g`'s members reduced on `p`: p's own and the others'
/// pulled whole; p's input itself when it is the only member.
FailureOr<Value> reduceWhole(CollectiveBuilder &l, const Collective &c, int64_t p,
                             const ProcessGroup &g, shard::ReductionKind kind, bool ignoreNaN) {
  SmallVector<Value> partials{c.input(p)};
  for (int64_t q : g.members)
    if (q != p)
      partials.push_back(l.pullWhole(c.input(q), q, p));
  if (partials.size() == 1)
    return c.input(p);
  return l.reduce(c.op0, p, partials, kind, ignoreNaN);
}

} // namespace

FailureOr<LoweredCollective> meshvk::lowerAllGather(CollectiveBuilder &l, CollectiveOps ops,
                                                    ArrayRef<int64_t> gridShape,
                                                    ArrayRef<int16_t> axes) {
  Collective c(ops);
  int64_t axis = cast<shard::AllGatherOp>(c.op0).getGatherAxis().getSExtValue();
  for (int64_t p = 0; p < c.processes; ++p)
    c.lowered.results[p] = gatherInto(l, c, p, groupOf(p, gridShape, axes), axis);
  return c.lowered;
}

FailureOr<LoweredCollective> meshvk::lowerAllSlice(CollectiveBuilder &l, CollectiveOps ops,
                                                   ArrayRef<int64_t> gridShape,
                                                   ArrayRef<int16_t> axes) {
  Collective c(ops);
  int64_t axis = cast<shard::AllSliceOp>(c.op0).getSliceAxis().getSExtValue();
  c.lowered.algorithm = "local";
  for (int64_t p = 0; p < c.processes; ++p) {
    ProcessGroup g = groupOf(p, gridShape, axes);
    SmallVector<int64_t> at(c.rank, 0);
    at[axis] = g.rank * c.outType.getDimSize(axis);
    c.lowered.results[p] =
        l.copy(c.input(p), p, l.empty(p, c.outType), p, at, c.zero, c.outType.getShape());
  }
  return c.lowered;
}

FailureOr<LoweredCollective> meshvk::lowerAllToAll(CollectiveBuilder &l, CollectiveOps ops,
                                                   ArrayRef<int64_t> gridShape,
                                                   ArrayRef<int16_t> axes) {
  Collective c(ops);
  auto a2a = cast<shard::AllToAllOp>(c.op0);
  int64_t split = a2a.getSplitAxis().getSExtValue();
  int64_t concat = a2a.getConcatAxis().getSExtValue();
  SmallVector<int64_t> chunk(c.inType.getShape());
  chunk[split] /= groupOf(0, gridShape, axes).members.size();
  for (int64_t p = 0; p < c.processes; ++p) {
    ProcessGroup g = groupOf(p, gridShape, axes);
    Value dest = l.empty(p, c.outType);
    for (auto [k, q] : llvm::enumerate(g.members)) {
      SmallVector<int64_t> from(c.rank, 0), at(c.rank, 0);
      from[split] = g.rank * chunk[split];
      at[concat] = k * chunk[concat];
      dest = l.copy(c.input(q), q, dest, p, from, at, chunk);
    }
    c.lowered.results[p] = dest;
  }
  return c.lowered;
}

FailureOr<LoweredCollective> meshvk::lowerBroadcast(CollectiveBuilder &l, CollectiveOps ops,
                                                    ArrayRef<int64_t> gridShape,
                                                    ArrayRef<int16_t> axes) {
  Collective c(ops);
  auto bcast = cast<shard::BroadcastOp>(c.op0);
  FailureOr<int64_t> rootIndex =
      rootMember(c.op0, bcast.getRoot(), bcast.getRootDynamic().size(), gridShape, axes);
  if (failed(rootIndex))
    return failure();
  for (int64_t p = 0; p < c.processes; ++p) {
    int64_t q = groupOf(p, gridShape, axes).members[*rootIndex];
    c.lowered.results[p] = q == p ? c.input(p) : l.pullWhole(c.input(q), q, p);
  }
  return c.lowered;
}

FailureOr<LoweredCollective> meshvk::lowerShift(CollectiveBuilder &l, CollectiveOps ops,
                                                ArrayRef<int64_t> gridShape,
                                                ArrayRef<int16_t> axes) {
  Collective c(ops);
  auto shift = cast<shard::ShiftOp>(c.op0);
  int64_t axis = shift.getShiftAxis().getSExtValue();
  if (axis < 0 || axis >= (int64_t)gridShape.size())
    return c.op0->emitError("shift axis ") << axis << " is not a grid axis";
  int64_t offset = shift.getOffset();
  for (int64_t p = 0; p < c.processes; ++p) {
    SmallVector<int64_t> multi = processMultiIndex(gridShape, p);
    int64_t size = gridShape[axis];
    int64_t from = multi[axis] - offset;
    if (shift.getRotate())
      from = ((from % size) + size) % size;
    if (from < 0 || from >= size) {
      c.lowered.results[p] = c.input(p); // no source: the result is undefined; keep ours
      continue;
    }
    multi[axis] = from;
    int64_t q = processLinearIndex(gridShape, multi);
    c.lowered.results[p] = q == p ? c.input(p) : l.pullWhole(c.input(q), q, p);
  }
  return c.lowered;
}

FailureOr<LoweredCollective> meshvk::lowerRooted(CollectiveBuilder &l, CollectiveOps ops,
                                                 ArrayRef<int64_t> gridShape,
                                                 ArrayRef<int16_t> axes) {
  // Results on the other processes (gather, reduce) are undefined: a fresh
  // buffer.
  Collective c(ops);
  ArrayRef<int64_t> root;
  size_t dynamicRoot = 0;
  if (auto g = dyn_cast<shard::GatherOp>(c.op0))
    root = g.getRoot(), dynamicRoot = g.getRootDynamic().size();
  else if (auto r = dyn_cast<shard::ReduceOp>(c.op0))
    root = r.getRoot(), dynamicRoot = r.getRootDynamic().size();
  else
    root = cast<shard::ScatterOp>(c.op0).getRoot(),
    dynamicRoot = cast<shard::ScatterOp>(c.op0).getRootDynamic().size();
  FailureOr<int64_t> rootIndex = rootMember(c.op0, root, dynamicRoot, gridShape, axes);
  if (failed(rootIndex))
    return failure();
  c.lowered.algorithm = "rooted";
  for (int64_t p = 0; p < c.processes; ++p) {
    ProcessGroup g = groupOf(p, gridShape, axes);
    int64_t q = g.members[*rootIndex];
    Value &result = c.lowered.results[p];
    if (auto scatter = dyn_cast<shard::ScatterOp>(c.op0)) {
      int64_t axis = scatter.getScatterAxis().getSExtValue();
      SmallVector<int64_t> from(c.rank, 0);
      from[axis] = g.rank * c.outType.getDimSize(axis);
      result = l.copy(c.input(q), q, l.empty(p, c.outType), p, from, c.zero, c.outType.getShape());
    } else if (q != p) {
      result = l.empty(p, c.outType);
    } else if (auto gather = dyn_cast<shard::GatherOp>(c.op0)) {
      result = gatherInto(l, c, p, g, gather.getGatherAxis().getSExtValue());
    } else {
      if (failed(c.sameElementTypes()))
        return failure();
      FailureOr<Value> sum = reduceWhole(l, c, p, g, cast<shard::ReduceOp>(c.op0).getReduction(),
                                         ignoresNaN(c.op0->getOperand(0)));
      if (failed(sum))
        return failure();
      result = *sum;
    }
  }
  return c.lowered;
}

FailureOr<LoweredCollective> meshvk::lowerReduction(CollectiveBuilder &l, CollectiveOps ops,
                                                    ArrayRef<int64_t> gridShape,
                                                    ArrayRef<int16_t> axes,
                                                    int64_t directMaxBytes) {
  Collective c(ops);
  if (failed(c.sameElementTypes()))
    return failure();
  int64_t groupSize = groupOf(0, gridShape, axes).members.size();
  auto scatter = dyn_cast<shard::ReduceScatterOp>(c.op0);
  shard::ReductionKind kind =
      scatter ? scatter.getReduction() : cast<shard::AllReduceOp>(c.op0).getReduction();
  // Upstream marks reductions it does not classify (e.g. arith.maxnumf)
  // `generic`; the combiner of the op producing the partials tells.
  if (kind == shard::ReductionKind::Generic)
    kind = combinerKind(c.op0->getOperand(0)).value_or(kind);
  bool ignoreNaN = ignoresNaN(c.op0->getOperand(0));
  // The dimension the partials are cut along (reduce_scatter: its scatter
  // axis; all_reduce: the first dimension the group size divides).
  int64_t cut = -1;
  bool direct = false;
  if (scatter) {
    cut = scatter.getScatterAxis().getSExtValue();
  } else {
    for (int64_t d = 0; d < c.rank && cut < 0; ++d)
      if (c.inType.getDimSize(d) % groupSize == 0)
        cut = d;
    // Direct: n-1 whole partials, one reduction. Reduce-scatter +
    // all-gather: 2(n-1)/n of the data, two phases. Equal bytes at n = 2.
    direct = cut < 0 || groupSize <= 2 || bytesOf(c.inType) <= directMaxBytes;
  }
  if (direct) {
    for (int64_t p = 0; p < c.processes; ++p) {
      FailureOr<Value> sum = reduceWhole(l, c, p, groupOf(p, gridShape, axes), kind, ignoreNaN);
      if (failed(sum))
        return failure();
      c.lowered.results[p] = *sum;
    }
    return c.lowered;
  }
  // Phase 1 (reduce-scatter): process p reduces its chunk of all partials.
  SmallVector<int64_t> chunk(c.inType.getShape());
  chunk[cut] /= groupSize;
  auto chunkType = RankedTensorType::get(chunk, c.inType.getElementType());
  SmallVector<Value> reduced(c.processes);
  for (int64_t p = 0; p < c.processes; ++p) {
    ProcessGroup g = groupOf(p, gridShape, axes);
    SmallVector<int64_t> from(c.rank, 0);
    from[cut] = g.rank * chunk[cut];
    SmallVector<Value> partials;
    partials.push_back(l.copy(c.input(p), p, l.empty(p, chunkType), p, from, c.zero, chunk));
    for (int64_t q : g.members)
      if (q != p)
        partials.push_back(l.copy(c.input(q), q, l.empty(p, chunkType), p, from, c.zero, chunk));
    FailureOr<Value> sum = partials.size() == 1 ? FailureOr<Value>(partials.front())
                                                : l.reduce(c.op0, p, partials, kind, ignoreNaN);
    if (failed(sum))
      return failure();
    reduced[p] = *sum;
  }
  if (scatter) {
    c.lowered.results = reduced;
    return c.lowered;
  }
  // Phase 2 (all-gather of the reduced chunks).
  c.lowered.algorithm = "reduce_scatter+all_gather";
  for (int64_t p = 0; p < c.processes; ++p) {
    ProcessGroup g = groupOf(p, gridShape, axes);
    Value dest = l.empty(p, c.outType);
    for (auto [k, q] : llvm::enumerate(g.members)) {
      SmallVector<int64_t> at(c.rank, 0);
      at[cut] = k * chunk[cut];
      dest = l.copy(reduced[q], q, dest, p, c.zero, at, chunk);
    }
    c.lowered.results[p] = dest;
  }
  return c.lowered;
}
