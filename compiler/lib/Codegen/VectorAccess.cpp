// vec4 buffer accesses for meshvk-tile-and-distribute (step 8, see
// KernelLowering.h), run on the lowered loops once indices are CSE'd.
#include <map>
#include <optional>
#include <vector>

#include "KernelLowering.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace meshvk::codegen {
namespace {

using namespace mlir;

// Buffers whose rows are a multiple of 4 elements get a
// second view as memref<... x N/4 x vector<4xT>> (an extra function argument
// marked meshvk.alias_of = i: the same descriptor binding, see
// LowerToSPIRV.cpp). Four loads (or stores) of consecutive elements starting
// at a provably 4-aligned column become one vec4 access. Only buffers that a
// kernel only reads or only writes are rewritten, so that the two views never
// need to be ordered against each other. Why: llvmpipe turns each scalar
// buffer access into a per-lane gather; vec4 accesses halved matmul time in
// measurements (hand-written GLSL, scalar vs vec4 B loads).

bool isMultipleOf4(Value v, int depth = 0);

bool exprMultipleOf4(AffineExpr e, unsigned numDims, ValueRange operands, int depth) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return c.getValue() % 4 == 0;
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return isMultipleOf4(operands[d.getPosition()], depth + 1);
  if (auto sym = dyn_cast<AffineSymbolExpr>(e))
    return isMultipleOf4(operands[numDims + sym.getPosition()], depth + 1);
  auto bin = cast<AffineBinaryOpExpr>(e);
  if (bin.getKind() == AffineExprKind::Add)
    return exprMultipleOf4(bin.getLHS(), numDims, operands, depth) &&
           exprMultipleOf4(bin.getRHS(), numDims, operands, depth);
  if (bin.getKind() == AffineExprKind::Mul)
    return exprMultipleOf4(bin.getLHS(), numDims, operands, depth) ||
           exprMultipleOf4(bin.getRHS(), numDims, operands, depth);
  return false;
}

bool isMultipleOf4(Value v, int depth) {
  if (depth > 12)
    return false;
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return *c % 4 == 0;
  if (auto mul = v.getDefiningOp<arith::MulIOp>())
    return isMultipleOf4(mul.getLhs(), depth + 1) || isMultipleOf4(mul.getRhs(), depth + 1);
  if (auto add = v.getDefiningOp<arith::AddIOp>())
    return isMultipleOf4(add.getLhs(), depth + 1) && isMultipleOf4(add.getRhs(), depth + 1);
  if (auto apply = v.getDefiningOp<affine::AffineApplyOp>())
    return exprMultipleOf4(apply.getAffineMap().getResult(0), apply.getAffineMap().getNumDims(),
                           apply.getMapOperands(), depth);
  if (auto arg = dyn_cast<BlockArgument>(v))
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
      if (arg == loop.getInductionVar())
        return isMultipleOf4(loop.getLowerBound(), depth + 1) &&
               isMultipleOf4(loop.getStep(), depth + 1);
  return false;
}

// index = f(operands) + offset, with f a single-result map.
struct SplitIndex {
  AffineMap base;
  SmallVector<Value> operands;
  int64_t offset = 0;
};

// An operand `x + c` (arith.addi with a constant, as register tiles unroll a
// loop) is read as `x` with `c` moved into `e`: the four unrolled loads of a
// chunk read through a map (a split reduction's p * S + k) then share one
// base and differ by constant offsets, like loads of a 2-D row do.
AffineExpr foldConstantOffsets(AffineExpr e, SmallVectorImpl<Value> &operands) {
  MLIRContext *ctx = e.getContext();
  SmallVector<AffineExpr> symRepl;
  for (unsigned i = 0; i < operands.size(); ++i) {
    symRepl.push_back(getAffineSymbolExpr(i, ctx));
    auto add = operands[i].getDefiningOp<arith::AddIOp>();
    std::optional<int64_t> c = add ? getConstantIntValue(add.getRhs()) : std::nullopt;
    if (!c)
      continue;
    symRepl.back() = symRepl.back() + *c;
    operands[i] = add.getLhs();
  }
  // Simplified even when nothing moved: groups compare the maps, so every
  // base must be in the same (simplified) form.
  return simplifyAffineExpr(e.replaceSymbols(symRepl), 0, operands.size());
}

SplitIndex splitIndex(Value v) {
  MLIRContext *ctx = v.getContext();
  SplitIndex r;
  // Keys compare maps, so every base is written over symbols only.
  r.base = AffineMap::get(0, 1, getAffineSymbolExpr(0, ctx));
  r.operands = {v};
  if (std::optional<int64_t> c = getConstantIntValue(v)) {
    r.base = AffineMap::get(0, 0, getAffineConstantExpr(0, ctx));
    r.operands.clear();
    r.offset = *c;
    return r;
  }
  if (auto apply = v.getDefiningOp<affine::AffineApplyOp>()) {
    AffineMap m = apply.getAffineMap();
    unsigned nd = m.getNumDims(), ns = m.getNumSymbols();
    SmallVector<AffineExpr> dimRepl, symRepl;
    for (unsigned i = 0; i < nd; ++i)
      dimRepl.push_back(getAffineSymbolExpr(ns + i, ctx));
    for (unsigned i = 0; i < ns; ++i)
      symRepl.push_back(getAffineSymbolExpr(i, ctx));
    AffineExpr e = m.getResult(0).replaceDimsAndSymbols(dimRepl, symRepl);
    auto ops = apply.getMapOperands();
    r.operands.assign(ops.begin() + nd, ops.end());
    r.operands.append(ops.begin(), ops.begin() + nd);
    e = foldConstantOffsets(e, r.operands);
    if (auto bin = dyn_cast<AffineBinaryOpExpr>(e); bin && bin.getKind() == AffineExprKind::Add)
      if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS())) {
        r.offset = c.getValue();
        e = bin.getLHS();
      }
    r.base = AffineMap::get(0, nd + ns, e);
    return r;
  }
  if (auto add = v.getDefiningOp<arith::AddIOp>())
    if (std::optional<int64_t> c = getConstantIntValue(add.getRhs())) {
      r.operands = {add.getLhs()};
      r.offset = *c;
    }
  return r;
}

using AccessKey = std::vector<const void *>;

AccessKey keyOf(ValueRange leading, const SplitIndex &last) {
  AccessKey k;
  for (Value v : leading)
    k.push_back(v.getAsOpaquePointer());
  k.push_back(nullptr);
  k.push_back(last.base.getAsOpaquePointer());
  for (Value v : last.operands)
    k.push_back(v.getAsOpaquePointer());
  return k;
}

} // namespace

void vectorizeBuffers(func::FuncOp f) {
  MLIRContext *ctx = f.getContext();
  IRRewriter rw(ctx);
  unsigned numOriginal = f.getNumArguments();
  for (unsigned i = 0; i < numOriginal; ++i) {
    BlockArgument arg = f.getArgument(i);
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || type.getRank() == 0 || !type.hasStaticShape() || type.getShape().back() % 4 != 0 ||
        type.getElementTypeBitWidth() != 32 || !type.getLayout().isIdentity())
      continue;
    SmallVector<memref::LoadOp> loads;
    SmallVector<memref::StoreOp> stores;
    bool other = false;
    for (Operation *user : arg.getUsers()) {
      if (auto l = dyn_cast<memref::LoadOp>(user))
        loads.push_back(l);
      else if (auto st = dyn_cast<memref::StoreOp>(user); st && st.getMemRef() == arg)
        stores.push_back(st);
      else if (!isa<gpu::LaunchOp>(user))
        other = true;
    }
    // Uses inside the launch body are what matter (the launch itself does not
    // take the buffers as operands; they are captured).
    if (other || (!loads.empty() && !stores.empty()))
      continue;
    Value vecView;
    auto getView = [&]() {
      if (vecView)
        return vecView;
      SmallVector<int64_t> shape(type.getShape().begin(), type.getShape().end());
      shape.back() /= 4;
      auto vt = MemRefType::get(shape, VectorType::get({4}, type.getElementType()));
      unsigned idx = f.getNumArguments();
      (void)f.insertArgument(
          idx, vt,
          DictionaryAttr::get(ctx,
                              {NamedAttribute(MeshVKDialect::AliasOfAttrHelper(ctx).getName(),
                                              IntegerAttr::get(IntegerType::get(ctx, 64), i))}),
          arg.getLoc());
      vecView = f.getArgument(idx);
      return vecView;
    };
    auto vecIndex = [&](OpBuilder &b, Location loc, ValueRange leading, const SplitIndex &s,
                        int64_t offset) {
      SmallVector<Value> idx(leading.begin(), leading.end());
      // Indices are never negative: a shift, not floordiv's sign fix-ups.
      AffineExpr e = s.base.getResult(0) + offset;
      auto m = AffineMap::get(s.base.getNumDims(), s.base.getNumSymbols(), e);
      Value element = affine::AffineApplyOp::create(b, loc, m, s.operands);
      Value two = arith::ConstantIndexOp::create(b, loc, 2);
      idx.push_back(arith::ShRUIOp::create(b, loc, element, two));
      return idx;
    };
    // Group by block + key + offset.
    std::map<std::pair<Block *, AccessKey>, std::map<int64_t, Operation *>> groups;
    std::map<std::pair<Block *, AccessKey>, SplitIndex> splits;
    auto collect = [&](Operation *op, ValueRange indices) {
      SplitIndex s = splitIndex(indices.back());
      auto key = std::make_pair(op->getBlock(), keyOf(indices.drop_back(), s));
      groups[key][s.offset] = op;
      splits.emplace(key, s);
    };
    for (auto l : loads)
      collect(l, l.getIndices());
    for (auto st : stores)
      collect(st, st.getIndices());
    for (auto &[key, byOffset] : groups) {
      const SplitIndex &s = splits.at(key);
      if (!exprMultipleOf4(s.base.getResult(0), s.base.getNumDims(), s.operands, 0))
        continue;
      for (auto &[offset, first] : byOffset) {
        if (offset % 4 != 0 || !first)
          continue;
        SmallVector<Operation *> members;
        for (int64_t k = 0; k < 4; ++k) {
          auto it = byOffset.find(offset + k);
          if (it == byOffset.end() || !it->second)
            break;
          members.push_back(it->second);
        }
        if (members.size() != 4)
          continue;
        Operation *earliest = members[0];
        Operation *latest = members[0];
        for (Operation *m : members) {
          if (m->isBeforeInBlock(earliest))
            earliest = m;
          if (latest->isBeforeInBlock(m))
            latest = m;
        }
        Location loc = first->getLoc();
        if (auto l0 = dyn_cast<memref::LoadOp>(members[0])) {
          rw.setInsertionPoint(earliest);
          SmallVector<Value> idx = vecIndex(rw, loc, l0.getIndices().drop_back(), s, offset);
          Value v = memref::LoadOp::create(rw, loc, getView(), idx);
          for (int64_t k = 0; k < 4; ++k) {
            Value e = vector::ExtractOp::create(rw, loc, v, ArrayRef<int64_t>{k});
            rw.replaceOp(members[k], e);
          }
        } else {
          auto s0 = cast<memref::StoreOp>(members[0]);
          rw.setInsertionPoint(latest);
          SmallVector<Value> elems;
          for (Operation *m : members)
            elems.push_back(cast<memref::StoreOp>(m).getValueToStore());
          auto vt = VectorType::get({4}, type.getElementType());
          Value v = vector::FromElementsOp::create(rw, loc, vt, elems);
          SmallVector<Value> idx = vecIndex(rw, loc, s0.getIndices().drop_back(), s, offset);
          memref::StoreOp::create(rw, loc, v, getView(), idx);
          for (Operation *m : members)
            rw.eraseOp(m);
        }
        for (int64_t k = 0; k < 4; ++k)
          byOffset[offset + k] = nullptr;
      }
    }
  }
}

} // namespace meshvk::codegen
