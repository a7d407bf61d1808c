// Register tiles for meshvk-tile-and-distribute (step 5, see KernelLowering.h):
// after bufferization, a contraction or reduction's thread tile keeps its
// output points in registers across the reduction loops. Why: on llvmpipe
// every buffer access is a per-lane gather; 8x8 accumulators measured 1.7-2x
// faster than 4x4 on f32 matmuls (README.md).
#include <functional>
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

// A memref linalg op with reduction loops whose parallel
// loops are at most `caps` long is rewritten, for full tiles, into unrolled
// accumulators carried through the reduction loops (loads deduplicated), and
// keeps the generic loop nest for ragged tiles.
LogicalResult registerTile(IRRewriter &rw, linalg::LinalgOp op, ArrayRef<int64_t> caps) {
  if (op.getNumDpsInits() != 1 || !op.hasPureBufferSemantics())
    return success();
  for (Operation &inner : op.getBlock()->without_terminator())
    if (inner.getNumRegions() != 0)
      return success();
  unsigned n = op.getNumLoops();
  auto iters = op.getIteratorTypesArray();
  OpOperand *init = op.getDpsInitOperand(0);
  AffineMap outMap = op.getMatchingIndexingMap(init);
  for (AffineExpr e : outMap.getResults()) {
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d || !linalg::isParallelIterator(iters[d.getPosition()]))
      return success();
  }
  // The fill that initialises the accumulator, if it is the last write before.
  linalg::FillOp fill;
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (isPure(prev))
      continue;
    fill = dyn_cast<linalg::FillOp>(prev);
    break;
  }
  Location loc = op.getLoc();
  rw.setInsertionPoint(op);
  SmallVector<Range> ranges = op.createLoopRanges(rw, loc);
  SmallVector<Value> sizes;
  for (Range &r : ranges)
    sizes.push_back(getValueOrCreateConstantIndexOp(rw, loc, r.size));
  Value full = arith::ConstantIntOp::create(rw, loc, 1, 1);
  SmallVector<unsigned> parallel, reduction;
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
  // Ragged tile: the original op, lowered to loops later.
  rw.setInsertionPointToStart(ifOp.elseBlock());
  Operation *slow = rw.clone(*op.getOperation());
  MeshVKDialect::RegisterTileAttrHelper(rw.getContext()).removeAttr(slow);

  rw.setInsertionPointToStart(ifOp.thenBlock());
  // Enumerate the output points of the tile.
  SmallVector<SmallVector<int64_t>> points(1);
  for (unsigned d : parallel) {
    SmallVector<SmallVector<int64_t>> next;
    for (auto &pnt : points)
      for (int64_t i = 0; i < caps[d]; ++i) {
        next.push_back(pnt);
        next.back().push_back(i);
      }
    points = std::move(next);
  }
  MLIRContext *ctx = op.getContext();
  auto constIdx = [&](int64_t v) -> Value { return arith::ConstantIndexOp::create(rw, loc, v); };
  // Index of `map` at point `pnt` with reduction ivs `ivs`.
  auto indicesAt = [&](AffineMap map, ArrayRef<int64_t> pnt, ArrayRef<Value> ivs,
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
  };
  Value outBuf = init->get();
  // fill + contraction (the usual pair): start the accumulators from the fill
  // value and only fill in the ragged path.
  if (fill && fill.hasPureBufferSemantics() && fill.getDpsInitOperand(0)->get() == outBuf &&
      !isa<MemRefType>(fill.getDpsInputOperand(0)->get().getType())) {
    rw.moveOpBefore(fill, slow);
  } else {
    fill = nullptr;
  }
  SmallVector<Value> accs;
  // An output the payload never reads (elementwise ops) needs no initial value.
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

  // Builds the body for the innermost reduction iteration.
  auto computeBody = [&](ArrayRef<Value> ivs, ArrayRef<Value> in) {
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
  };

  // Nested reduction loops carrying the accumulators.
  std::function<SmallVector<Value>(unsigned, SmallVector<Value>, SmallVector<Value>)> build =
      [&](unsigned level, SmallVector<Value> ivs, SmallVector<Value> in) -> SmallVector<Value> {
    if (level == reduction.size())
      return computeBody(ivs, in);
    // The innermost reduction loop is unrolled by 4 when its length allows:
    // four consecutive, aligned elements per operand become one vec4 load.
    std::optional<int64_t> len = getConstantIntValue(sizes[reduction[level]]);
    int64_t unroll = level + 1 == reduction.size() && len && *len % 4 == 0 ? 4 : 1;
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
      res = build(level + 1, nextIvs, res);
    }
    scf::YieldOp::create(rw, loc, res);
    return SmallVector<Value>(loop.getResults().begin(), loop.getResults().end());
  };
  SmallVector<Value> results = build(0, {}, accs);
  for (auto [pi, pnt] : llvm::enumerate(points))
    memref::StoreOp::create(rw, loc, results[pi], outBuf, indicesAt(outMap, pnt, {}, nullptr));
  rw.eraseOp(op);
  return success();
}

} // namespace meshvk::codegen
