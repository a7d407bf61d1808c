// Register tiles for meshvk-tile-and-distribute (step 5, see KernelLowering.h):
// after bufferization, a contraction or reduction's thread tile keeps its
// output points in registers across the reduction loops. Why: on llvmpipe
// every buffer access is a per-lane gather; 8x8 accumulators measured 1.7-2x
// faster than 4x4 on f32 matmuls (README.md).
#include <map>

#include "KernelLowering.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace meshvk::codegen {

using namespace mlir;

namespace {

/// Most payload operations in the unrolled body of the innermost reduction
/// loop (points x 4 x payload ops); a bigger body is not unrolled: its size
/// bounds llvmpipe's JIT time (superlinear: a 4-tap conv body of 128 points
/// unrolled by 4 took over a minute). lavapipe's 16x16 matmul tile unrolled
/// by 4 is 2048: 1.3-1.5x faster than not unrolled (tests/bench).
constexpr int64_t kMaxUnrolledOps = 2048;

/// The rewrite of one op into register tiles, step by step; the state the
/// steps share.
class RegisterTiler {
public:
  RegisterTiler(IRRewriter &rw, linalg::LinalgOp op, ArrayRef<int64_t> caps)
      : rw(rw), op(op), caps(caps), loc(op.getLoc()), ctx(op.getContext()) {}

  LogicalResult run() {
    if (!matches())
      return success();
    findFill();
    guardFullTile();
    enumeratePoints();
    SmallVector<Value> results = reductionLoops(0, {}, initialAccumulators());
    for (auto [pi, pnt] : llvm::enumerate(points))
      memref::StoreOp::create(rw, loc, results[pi], outBuf, indicesAt(outMap, pnt, {}, nullptr));
    rw.eraseOp(op);
    return success();
  }

private:
  /// One output, written at parallel loops only; a body without regions.
  bool matches() {
    if (op.getNumDpsInits() != 1 || !op.hasPureBufferSemantics())
      return false;
    for (Operation &inner : op.getBlock()->without_terminator())
      if (inner.getNumRegions() != 0)
        return false;
    n = op.getNumLoops();
    iters = op.getIteratorTypesArray();
    init = op.getDpsInitOperand(0);
    outMap = op.getMatchingIndexingMap(init);
    for (AffineExpr e : outMap.getResults()) {
      auto d = dyn_cast<AffineDimExpr>(e);
      if (!d || !linalg::isParallelIterator(iters[d.getPosition()]))
        return false;
    }
    return true;
  }

  /// The fill that initialises the accumulator, if it is the last write
  /// before.
  void findFill() {
    for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
      if (isPure(prev))
        continue;
      fill = dyn_cast<linalg::FillOp>(prev);
      break;
    }
  }

  /// `scf.if` on a full tile (every parallel loop `caps` long): the register
  /// tile in its then-block (the insertion point after this step), the
  /// original op for a ragged tile in its else-block (lowered to loops later).
  void guardFullTile() {
    rw.setInsertionPoint(op);
    SmallVector<Range> ranges = op.createLoopRanges(rw, loc);
    for (Range &r : ranges)
      sizes.push_back(getValueOrCreateConstantIndexOp(rw, loc, r.size));
    Value full = arith::ConstantIntOp::create(rw, loc, 1, 1);
    for (unsigned d = 0; d < n; ++d) {
      if (linalg::isParallelIterator(iters[d])) {
        parallel.push_back(d);
        Value cap = arith::ConstantIndexOp::create(rw, loc, caps[d]);
        Value eq = arith::CmpIOp::create(rw, loc, arith::CmpIPredicate::eq, sizes[d], cap);
        full = arith::AndIOp::create(rw, loc, full, eq);
      } else {
        reduction.push_back(d);
      }
    }
    auto ifOp = scf::IfOp::create(rw, loc, full, /*withElseRegion=*/true);
    rw.setInsertionPointToStart(ifOp.elseBlock());
    slow = rw.clone(*op.getOperation());
    MeshVKDialect::RegisterTileAttrHelper(rw.getContext()).removeAttr(slow);
    rw.setInsertionPointToStart(ifOp.thenBlock());
  }

  /// The output points of the tile, last parallel loop fastest.
  void enumeratePoints() {
    points.assign(1, {});
    for (unsigned d : parallel) {
      SmallVector<SmallVector<int64_t>> next;
      for (auto &pnt : points)
        for (int64_t i = 0; i < caps[d]; ++i) {
          next.push_back(pnt);
          next.back().push_back(i);
        }
      points = std::move(next);
    }
  }

  Value constIdx(int64_t v) { return arith::ConstantIndexOp::create(rw, loc, v); }

  /// Index of `map` at point `pnt` with reduction ivs `ivs` (and, into
  /// `key`, the simplified expressions that tell equal loads apart).
  SmallVector<Value> indicesAt(AffineMap map, ArrayRef<int64_t> pnt, ArrayRef<Value> ivs,
                               SmallVector<AffineExpr> *key) {
    SmallVector<AffineExpr> repl(n);
    for (auto [i, d] : llvm::enumerate(parallel))
      repl[d] = getAffineConstantExpr(pnt[i], ctx);
    for (auto [i, d] : llvm::enumerate(reduction))
      repl[d] = getAffineDimExpr(i, ctx);
    SmallVector<Value> idx;
    for (AffineExpr e : map.getResults()) {
      AffineExpr s = simplifyAffineExpr(e.replaceDims(repl), reduction.size(), 0);
      if (key)
        key->push_back(s);
      if (auto c = dyn_cast<AffineConstantExpr>(s)) {
        idx.push_back(constIdx(c.getValue()));
      } else {
        auto m = AffineMap::get(reduction.size(), 0, s);
        idx.push_back(affine::AffineApplyOp::create(rw, loc, m, ivs));
      }
    }
    return idx;
  }

  /// Each point's accumulator before the reduction: fill + contraction (the
  /// usual pair) starts from the fill value and fills only in the ragged
  /// path; an output the payload never reads (elementwise ops) needs no
  /// initial value; else the output's element.
  SmallVector<Value> initialAccumulators() {
    outBuf = init->get();
    if (fill && fill.hasPureBufferSemantics() && fill.getDpsInitOperand(0)->get() == outBuf &&
        !isa<MemRefType>(fill.getDpsInputOperand(0)->get().getType())) {
      rw.moveOpBefore(fill, slow);
    } else {
      fill = nullptr;
    }
    SmallVector<Value> accs;
    Value unread;
    if (!op.payloadUsesValueFromOperand(init)) {
      Type et = getElementTypeOrSelf(outBuf.getType());
      unread = arith::ConstantOp::create(rw, loc, cast<TypedAttr>(rw.getZeroAttr(et)));
    }
    for (auto &pnt : points)
      accs.push_back(
          fill     ? fill.getDpsInputOperand(0)->get()
          : unread ? unread
                   : memref::LoadOp::create(rw, loc, outBuf, indicesAt(outMap, pnt, {}, nullptr))
                         .getResult());
    return accs;
  }

  /// The body for the innermost reduction iteration: the op's payload once
  /// per point, each operand element loaded once.
  SmallVector<Value> computeBody(ArrayRef<Value> ivs, ArrayRef<Value> in) {
    std::map<std::pair<unsigned, SmallVector<const void *>>, Value> loaded;
    SmallVector<Value> out;
    Block *body = op.getBlock();
    for (auto [pi, pnt] : llvm::enumerate(points)) {
      IRMapping map;
      for (OpOperand *input : op.getDpsInputOperands()) {
        Value arg = body->getArgument(input->getOperandNumber());
        if (!isa<MemRefType>(input->get().getType())) {
          map.map(arg, input->get());
          continue;
        }
        SmallVector<AffineExpr> key;
        SmallVector<Value> idx = indicesAt(op.getMatchingIndexingMap(input), pnt, ivs, &key);
        SmallVector<const void *> k;
        for (AffineExpr e : key)
          k.push_back(e.getAsOpaquePointer());
        auto it = loaded.find({input->getOperandNumber(), k});
        if (it == loaded.end()) {
          Value v = memref::LoadOp::create(rw, loc, input->get(), idx);
          it = loaded.emplace(std::make_pair(input->getOperandNumber(), k), v).first;
        }
        map.map(arg, it->second);
      }
      map.map(body->getArgument(op.getNumDpsInputs()), in[pi]);
      for (Operation &inner : body->without_terminator()) {
        if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
          unsigned d = index.getDim();
          auto pit = llvm::find(parallel, d);
          Value v = pit != parallel.end() ? constIdx(pnt[pit - parallel.begin()])
                                          : ivs[llvm::find(reduction, d) - reduction.begin()];
          map.map(index.getResult(), v);
          continue;
        }
        rw.clone(inner, map);
      }
      out.push_back(map.lookupOrDefault(body->getTerminator()->getOperand(0)));
    }
    return out;
  }

  /// Nested reduction loops from `level` carrying the accumulators `in`.
  /// The innermost reduction loop is unrolled by 4 when its length allows:
  /// four consecutive, aligned elements per operand become one vec4 load.
  SmallVector<Value> reductionLoops(unsigned level, SmallVector<Value> ivs, SmallVector<Value> in) {
    if (level == reduction.size())
      return computeBody(ivs, in);
    std::optional<int64_t> len = getConstantIntValue(sizes[reduction[level]]);
    int64_t payload =
        std::max<int64_t>(1, static_cast<int64_t>(op.getBlock()->getOperations().size()) - 1);
    int64_t unroll = level + 1 == reduction.size() && len && *len % 4 == 0 &&
                             static_cast<int64_t>(points.size()) * 4 * payload <= kMaxUnrolledOps
                         ? 4
                         : 1;
    Value lb = constIdx(0), step = constIdx(unroll);
    auto loop = scf::ForOp::create(rw, loc, lb, sizes[reduction[level]], step, in);
    OpBuilder::InsertionGuard g(rw);
    rw.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> iterArgs(loop.getRegionIterArgs().begin(), loop.getRegionIterArgs().end());
    SmallVector<Value> res = iterArgs;
    for (int64_t u = 0; u < unroll; ++u) {
      SmallVector<Value> nextIvs = ivs;
      Value iv = loop.getInductionVar();
      if (u)
        iv = arith::AddIOp::create(rw, loc, iv, constIdx(u));
      nextIvs.push_back(iv);
      res = reductionLoops(level + 1, nextIvs, res);
    }
    scf::YieldOp::create(rw, loc, res);
    return SmallVector<Value>(loop.getResults().begin(), loop.getResults().end());
  }

  IRRewriter &rw;
  linalg::LinalgOp op;
  ArrayRef<int64_t> caps;
  Location loc;
  MLIRContext *ctx;
  unsigned n = 0; // loops of the op
  SmallVector<utils::IteratorType> iters;
  OpOperand *init = nullptr;
  AffineMap outMap;
  linalg::FillOp fill;
  SmallVector<Value> sizes; // of each loop
  SmallVector<unsigned> parallel, reduction;
  Operation *slow = nullptr; // the ragged tile's op
  SmallVector<SmallVector<int64_t>> points;
  Value outBuf;
};

} // namespace

// A memref linalg op with reduction loops whose parallel
// loops are at most `caps` long is rewritten, for full tiles, into unrolled
// accumulators carried through the reduction loops (loads deduplicated), and
// keeps the generic loop nest for ragged tiles.
LogicalResult registerTile(IRRewriter &rw, linalg::LinalgOp op, ArrayRef<int64_t> caps) {
  return RegisterTiler(rw, op, caps).run();
}

} // namespace meshvk::codegen
