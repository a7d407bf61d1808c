// Steps 3, 4 and 6 of meshvk-tile-and-distribute (the whole sequence is in
// TileAndDistribute.cpp): tile sizes from the target, tiling to scf.forall
// mapped to workgroups and invocations, one-shot bufferization, and the
// cyclic (grid-stride) distribution of every tile loop.
#include <algorithm>
#include <map>
#include <numeric>

#include "KernelLowering.h"
#include "RowTiles.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Transforms.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace meshvk::codegen {

using namespace mlir;

namespace {

// Function memory (per invocation) in the numeric memref memory spaces that
// MLIR's Vulkan storage-class map understands.
constexpr int64_t kFunctionMemorySpace = 6;
// Most accumulators one invocation keeps in registers (lavapipe's 16x16:
// llvmpipe spills them to the stack, far cheaper than its per-lane loads).
constexpr int64_t kMaxRegisterTileOutputs = 256;
// Most payload operations of one reduction step of a register tile (points x
// payload ops): a matmul's 16x16 x (mul, add).
constexpr int64_t kMaxRegisterTilePayloadOps = 512;

int64_t nextPowerOf2(int64_t v) {
  int64_t p = 1;
  while (p < v)
    p <<= 1;
  return p;
}

// ---------------------------------------------------------------------------
// 3. Tile sizes from the target.
// ---------------------------------------------------------------------------
struct TilePlan {
  SmallVector<int64_t> workgroupTile; // per loop; 0 = not tiled
  SmallVector<int64_t> threadTile;    // per loop; 0 = not tiled
  SmallVector<int64_t> registerTile;  // per loop (parallel caps) or empty
  int64_t invocations = 1;
};

/// Operations of a linalg op's payload (the yield not counted).
int64_t payloadOps(linalg::LinalgOp op) {
  return std::max<int64_t>(1, static_cast<int64_t>(op.getBlock()->getOperations().size()) - 1);
}

/// A register tile edge for a loop of static length `len`: `want`, capped
/// by the length, or the largest divisor of the length down to want/2 (a
/// 56-wide conv row gets 14 for 16, so that no tile is ragged: ragged tiles
/// take the slow generic loop). Dynamic lengths keep `want`.
int64_t fitTile(int64_t want, int64_t len) {
  if (ShapedType::isDynamic(len))
    return want;
  len = std::max<int64_t>(1, len);
  if (want >= len)
    return len;
  for (int64_t t = want; 2 * t >= want; --t)
    if (len % t == 0)
      return t;
  return want;
}

FailureOr<TilePlan> planTiles(linalg::LinalgOp op, const TargetDescription &target) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto iters = op.getIteratorTypesArray();
  unsigned n = op.getNumLoops();
  if (op.getNumDpsInits() < 1)
    return op->emitError("op has no outputs");
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<unsigned> outDims; // loop dims of the output, outermost first
  for (AffineExpr e : outMap.getResults())
    if (auto d = dyn_cast<AffineDimExpr>(e))
      if (linalg::isParallelIterator(iters[d.getPosition()]))
        outDims.push_back(d.getPosition());
  if (outDims.empty())
    return op->emitError("reduction to a 0-d result is not supported by the kernel tiler; "
                         "expected at least one parallel dimension in the output");
  unsigned numReductions = op.getNumReductionLoops();
  int64_t T = target.workgroupInvocations();
  // Softmax / LayerNorm rows: whole rows per invocation (RowTiles.cpp).
  if (std::optional<RowTiles> rows = planRowTiles(op, T))
    return TilePlan{rows->workgroupTile, rows->threadTile, {}, rows->invocations};
  auto size = [&](unsigned d) {
    return ShapedType::isDynamic(ranges[d]) ? int64_t(1) << 30 : std::max<int64_t>(1, ranges[d]);
  };
  TilePlan p;
  p.workgroupTile.assign(n, 0);
  p.threadTile.assign(n, 0);
  for (unsigned d = 0; d < n; ++d)
    if (linalg::isParallelIterator(iters[d])) {
      p.workgroupTile[d] = 1;
      p.threadTile[d] = 1;
    }
  unsigned dn = outDims.back();
  if (numReductions > 0 && outDims.size() >= 2) {
    // Contraction: each invocation owns an rm x rn register tile.
    unsigned dm = outDims[outDims.size() - 2];
    int64_t rm = target.registerTileRows ? target.registerTileRows : 4;
    int64_t rn = target.registerTileCols ? target.registerTileCols : 4;
    // The payload is copied once per point: a body of several taps (a conv's
    // tap group) gets a smaller tile, so the unrolled loop body stays at a
    // size llvmpipe compiles in well under a second (8x16 points of a 4-tap
    // body unrolled by 4 took over a minute in llvmpipe's JIT).
    int64_t payload = payloadOps(op);
    // A convolution (window and channel reductions, loops nested around the
    // tile's body): at most the target's conv tile, 4x8 by default. ResNet-18
    // batch 4 on lavapipe, one run (llvmpipe JITs each kernel at its first
    // dispatch): 16x16 21.7 s total, 209 ms an inference; 8x8 about the
    // same; 4x8 13 s, 144 ms.
    if (op.getNumReductionLoops() > 1) {
      rm = std::min<int64_t>(rm, target.convRegisterTileRows ? target.convRegisterTileRows : 4);
      rn = std::min<int64_t>(rn, target.convRegisterTileCols ? target.convRegisterTileCols : 8);
    }
    while (rm * rn * payload > kMaxRegisterTilePayloadOps && std::max(rm, rn) > 1)
      (rm >= rn ? rm : rn) /= 2;
    rm = fitTile(rm, ranges[dm]);
    rn = fitTile(rn, ranges[dn]);
    int64_t tn = std::min<int64_t>(std::max<int64_t>(1, T / 8) >= 8 ? 8 : T,
                                   nextPowerOf2(ceilDiv(size(dn), rn)));
    tn = std::max<int64_t>(1, std::min(tn, T));
    int64_t tm = std::max<int64_t>(1, std::min(T / tn, nextPowerOf2(ceilDiv(size(dm), rm))));
    p.threadTile[dm] = rm;
    p.threadTile[dn] = rn;
    p.workgroupTile[dm] = rm * tm;
    p.workgroupTile[dn] = rn * tn;
    p.invocations = tm * tn;
  } else {
    // Elementwise ops: several consecutive elements per invocation where the
    // row length allows (vec4 accesses after vectorizeBuffers): the target's
    // width (8 measured best on lavapipe), else 4, else 1.
    int64_t v = 1;
    if (numReductions == 0 && !ShapedType::isDynamic(ranges[dn])) {
      int64_t wide = std::max<int64_t>(4, target.elementwiseElementsPerInvocation);
      if (ranges[dn] % wide == 0)
        v = wide;
      else if (ranges[dn] % 4 == 0)
        v = 4;
    }
    p.threadTile[dn] = v;
    int64_t tn = std::min(T, nextPowerOf2(ceilDiv(size(dn), v)));
    p.workgroupTile[dn] = tn * v;
    p.invocations = tn;
    if (outDims.size() >= 2) {
      unsigned dm = outDims[outDims.size() - 2];
      int64_t tm = std::max<int64_t>(1, std::min(T / tn, nextPowerOf2(size(dm))));
      p.workgroupTile[dm] = tm;
      p.invocations *= tm;
    }
  }
  if (numReductions > 0 || p.threadTile[dn] > 1) {
    int64_t outputs = 1;
    for (unsigned d = 0; d < n; ++d)
      if (linalg::isParallelIterator(iters[d]))
        outputs *= p.threadTile[d];
    if (outputs <= kMaxRegisterTileOutputs) {
      p.registerTile.assign(n, 0);
      for (unsigned d = 0; d < n; ++d)
        if (linalg::isParallelIterator(iters[d]))
          p.registerTile[d] = p.threadTile[d];
    }
  }
  return p;
}

SmallVector<Attribute> mappingFor(MLIRContext *ctx, ArrayRef<int64_t> tiles, bool threads) {
  SmallVector<Attribute> mapping;
  int id = 0;
  for (int64_t t : tiles) {
    if (t == 0)
      continue;
    auto m = static_cast<gpu::MappingId>(static_cast<int>(gpu::MappingId::LinearDim0) + id++);
    if (threads)
      mapping.push_back(gpu::GPUThreadMappingAttr::get(ctx, m));
    else
      mapping.push_back(gpu::GPUBlockMappingAttr::get(ctx, m));
  }
  return mapping;
}

FailureOr<scf::SCFTileAndFuseResult> tileAndFuse(RewriterBase &rw, TilingInterface op,
                                                 ArrayRef<int64_t> tiles, bool threads) {
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(getAsIndexOpFoldResult(op->getContext(), tiles));
  tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  tiling.setMapping(mappingFor(op->getContext(), tiles, threads));
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  rw.setInsertionPoint(op);
  FailureOr<scf::SCFTileAndFuseResult> res =
      scf::tileConsumerAndFuseProducersUsingSCF(rw, op, options);
  if (failed(res))
    return op->emitError("tiling failed"), failure();
  for (OpResult r : op->getResults()) {
    Value repl = res->replacements.lookup(r);
    if (repl)
      rw.replaceAllUsesWith(r, repl);
  }
  return res;
}

// ---------------------------------------------------------------------------
// Fused kernels (meshvk-fuse-kernels): a root whose operand is a contraction's
// result read through a permutation (the contraction's epilogue: bias,
// activation, residual add, a transpose) is tiled as that contraction would
// be, so each invocation keeps a register tile of the contraction and applies
// the epilogue to it.
// ---------------------------------------------------------------------------
bool isContraction(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInits() != 1)
    return false;
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  return out.isProjectedPermutation() && out.getNumResults() >= 2;
}

/// The contraction that produces an operand of `root` read through a
/// permutation, and that operand's map; root itself when it is one.
struct Anchor {
  linalg::LinalgOp op;
  AffineMap rootMap; // root loops -> the contraction's output dims
};

/// At most this many elementwise ops between a root and its contraction.
constexpr int kMaxEpilogueChain = 8;

/// An elementwise op whose loops are its output's dims (identity output map):
/// an epilogue step the anchor search may look through.
bool isEpilogueStep(linalg::LinalgOp op) {
  return op.getNumReductionLoops() == 0 && op.getNumDpsInits() == 1 &&
         op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity();
}

/// The contraction that produces `op`'s operand read through a permutation,
/// directly or through a chain of epilogue steps each read through a
/// permutation (the in-place elementwise chain a conv's bias, accumulators
/// and activation become: `add(add(conv, a), b)` writes into its producer),
/// with the map from `op`'s loops to its output dims.
std::optional<Anchor> findContractionOperand(linalg::LinalgOp op) {
  linalg::LinalgOp cur = op;
  AffineMap toCur = AffineMap::getMultiDimIdentityMap(op.getNumLoops(), op.getContext());
  for (int depth = 0; depth < kMaxEpilogueChain; ++depth) {
    linalg::LinalgOp next;
    AffineMap nextMap;
    for (OpOperand &operand : cur->getOpOperands()) {
      auto producer = operand.get().getDefiningOp<linalg::LinalgOp>();
      AffineMap map = cur.getMatchingIndexingMap(&operand);
      if (!producer || !map.isPermutation())
        continue;
      AffineMap composed = map.compose(toCur);
      if (isContraction(producer))
        return Anchor{producer, composed};
      if (!next && isEpilogueStep(producer)) {
        next = producer;
        nextMap = composed;
      }
    }
    if (!next)
      return std::nullopt;
    cur = next;
    toCur = nextMap;
  }
  return std::nullopt;
}

/// The contraction `root` is tiled as, if any. None for a row chain (a
/// softmax after attention's scores, meshvk-fuse-row-chains): its rows are
/// tiled whole, and the contraction computes each row's part in the row tile.
std::optional<Anchor> findAnchor(linalg::LinalgOp root, int64_t workgroupInvocations) {
  if (isContraction(root) || root.getNumReductionLoops() != 0 ||
      planRowTiles(root, workgroupInvocations))
    return std::nullopt;
  return findContractionOperand(root);
}

/// Per loop of `op`: the root loop its output dimension `k` is (through the
/// root's map of that output), or -1 for reduction loops.
SmallVector<int64_t> rootLoopsOf(linalg::LinalgOp op, AffineMap rootMap) {
  SmallVector<int64_t> loops(op.getNumLoops(), -1);
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  for (auto [k, e] : llvm::enumerate(out.getResults()))
    loops[cast<AffineDimExpr>(e).getPosition()] =
        cast<AffineDimExpr>(rootMap.getResult(k)).getPosition();
  return loops;
}

/// The contraction's plan in the root's loops.
TilePlan planInRootLoops(const TilePlan &anchorPlan, linalg::LinalgOp anchor, AffineMap rootMap,
                         unsigned rootLoops) {
  SmallVector<int64_t> toRoot = rootLoopsOf(anchor, rootMap);
  TilePlan p;
  p.invocations = anchorPlan.invocations;
  p.workgroupTile.assign(rootLoops, 1);
  p.threadTile.assign(rootLoops, 1);
  for (auto [d, l] : llvm::enumerate(toRoot)) {
    if (l < 0)
      continue;
    p.workgroupTile[l] = anchorPlan.workgroupTile[d];
    p.threadTile[l] = anchorPlan.threadTile[d];
  }
  int64_t outputs = 1;
  for (int64_t t : p.threadTile)
    outputs *= t;
  if (outputs <= kMaxRegisterTileOutputs)
    p.registerTile = p.threadTile;
  return p;
}

/// Register tiles for the contractions fused into a tiled root: the root's
/// thread tile on their output loops (RegisterTiles.cpp guards full tiles).
void markFusedContractions(linalg::LinalgOp tiledRoot, ArrayRef<int64_t> rootThreadTile) {
  MeshVKDialect::RegisterTileAttrHelper caps(tiledRoot.getContext());
  std::optional<Anchor> found = findContractionOperand(tiledRoot);
  if (!found || caps.isAttrPresent(found->op))
    return;
  linalg::LinalgOp producer = found->op;
  SmallVector<int64_t> tile(producer.getNumLoops(), 0);
  int64_t outputs = 1;
  for (auto [d, l] : llvm::enumerate(rootLoopsOf(producer, found->rootMap)))
    if (l >= 0) {
      tile[d] = rootThreadTile[l];
      outputs *= tile[d];
    }
  if (outputs <= kMaxRegisterTileOutputs)
    caps.setAttr(producer, DenseI64ArrayAttr::get(tiledRoot.getContext(), tile));
}

} // namespace

LogicalResult tileRoots(func::FuncOp f, const TargetDescription &target, int64_t *invocations) {
  SmallVector<bufferization::MaterializeInDestinationOp> outs;
  f.walk([&](bufferization::MaterializeInDestinationOp m) { outs.push_back(m); });
  IRRewriter rw(f.getContext());
  *invocations = 1;
  for (auto m : outs) {
    auto root = m.getSource().getDefiningOp<linalg::LinalgOp>();
    if (!root)
      return m.emitError("kernel result is not computed by a linalg op");
    std::optional<Anchor> anchor = findAnchor(root, target.workgroupInvocations());
    FailureOr<TilePlan> plan = planTiles(anchor ? anchor->op : root, target);
    if (failed(plan))
      return failure();
    if (anchor)
      plan = planInRootLoops(*plan, anchor->op, anchor->rootMap, root.getNumLoops());
    *invocations = std::max(*invocations, plan->invocations);
    auto wg = tileAndFuse(rw, cast<TilingInterface>(root.getOperation()), plan->workgroupTile,
                          /*threads=*/false);
    if (failed(wg))
      return failure();
    auto tiledRoot = cast<TilingInterface>(wg->tiledAndFusedOps.front());
    auto th = tileAndFuse(rw, tiledRoot, plan->threadTile, /*threads=*/true);
    if (failed(th))
      return failure();
    if (!plan->registerTile.empty())
      MeshVKDialect::RegisterTileAttrHelper(rw.getContext())
          .setAttr(th->tiledAndFusedOps.front(), rw.getDenseI64ArrayAttr(plan->registerTile));
    if (anchor)
      markFusedContractions(cast<linalg::LinalgOp>(th->tiledAndFusedOps.front()), plan->threadTile);
  }
  return success();
}

// Dynamic-size temporaries (ragged tiles) get a static upper bound so that
// they fit in Function memory: tensor.empty(%sz) -> slice of tensor.empty(cap).
LogicalResult boundTemporaries(func::FuncOp f) {
  SmallVector<tensor::EmptyOp> empties;
  f.walk([&](tensor::EmptyOp e) {
    if (!e.getType().hasStaticShape())
      empties.push_back(e);
  });
  for (tensor::EmptyOp e : empties) {
    OpBuilder b(e);
    SmallVector<int64_t> shape;
    SmallVector<OpFoldResult> sizes = e.getMixedSizes();
    for (OpFoldResult s : sizes) {
      FailureOr<int64_t> ub = ValueBoundsConstraintSet::computeConstantBound(
          presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(s), nullptr,
          /*closedUB=*/true);
      if (failed(ub))
        return e.emitError("temporary tensor has no static upper bound; cannot place it "
                           "in invocation-private memory");
      shape.push_back(*ub);
    }
    Value big = tensor::EmptyOp::create(b, e.getLoc(), shape, e.getType().getElementType());
    SmallVector<OpFoldResult> zeros(shape.size(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> ones(shape.size(), b.getIndexAttr(1));
    Value slice =
        tensor::ExtractSliceOp::create(b, e.getLoc(), e.getType(), big, zeros, sizes, ones);
    e.replaceAllUsesWith(slice);
    e.erase();
  }
  return success();
}

LogicalResult bufferize(func::FuncOp f) {
  MLIRContext *ctx = f.getContext();
  bufferization::OneShotBufferizationOptions options;
  options.bufferizeFunctionBoundaries = false;
  options.memCpyFn = [](OpBuilder &b, Location loc, Value from, Value to) {
    linalg::CopyOp::create(b, loc, from, to);
    return success();
  };
  options.defaultMemorySpaceFn = [ctx](TensorType) -> std::optional<Attribute> {
    return IntegerAttr::get(IntegerType::get(ctx, 64), kFunctionMemorySpace);
  };
  bufferization::BufferizationState state;
  if (failed(bufferization::runOneShotBufferize(f, options, state)))
    return f.emitError("bufferization failed");
  return success();
}

// Function-memory allocations become OpVariables at the top of the kernel.
LogicalResult allocationsToPrivateVariables(func::FuncOp f, gpu::LaunchOp launch) {
  SmallVector<memref::AllocOp> allocs;
  f.walk([&](memref::AllocOp a) { allocs.push_back(a); });
  SmallVector<memref::DeallocOp> deallocs;
  f.walk([&](memref::DeallocOp d) { deallocs.push_back(d); });
  for (auto d : deallocs)
    d.erase();
  OpBuilder b(f.getContext());
  for (memref::AllocOp a : allocs) {
    // (Re)set each time: the previous insertion point may be an erased alloc.
    b.setInsertionPointToStart(&launch.getBody().front());
    if (!a.getType().hasStaticShape())
      return a.emitError("dynamic temporary buffer inside a kernel");
    if (!a->getParentOfType<gpu::LaunchOp>())
      return a.emitError("temporary buffer outside the kernel launch");
    auto alloca = memref::AllocaOp::create(b, a.getLoc(), a.getType());
    a.replaceAllUsesWith(alloca.getResult());
    a.erase();
  }
  return success();
}

// ---------------------------------------------------------------------------
// 6. scf.forall (buffers, mapped to #gpu.block / #gpu.thread) -> cyclic loop:
//   for %t = id to prod(tripcounts) step count { ivs = delinearize(%t) ... }
// ---------------------------------------------------------------------------
// `invocations` is the workgroup size: when a thread loop provably has at most
// that many iterations, each invocation runs at most one, and the loop becomes
// an `if` (llvmpipe runs loops with per-lane masks; an if is cheaper).
LogicalResult distributeCyclically(IRRewriter &rw, scf::ForallOp forall, int64_t invocations) {
  if (!forall.getOutputs().empty())
    return forall.emitError("scf.forall still has tensor outputs after bufferization");
  std::optional<ArrayAttr> mapping = forall.getMapping();
  bool threads = mapping && !mapping->empty() && isa<gpu::GPUThreadMappingAttr>((*mapping)[0]);
  Location loc = forall.getLoc();
  rw.setInsertionPoint(forall);
  Value id, count;
  if (threads) {
    id = gpu::ThreadIdOp::create(rw, loc, gpu::Dimension::x);
    count = gpu::BlockDimOp::create(rw, loc, gpu::Dimension::x);
  } else {
    id = gpu::BlockIdOp::create(rw, loc, gpu::Dimension::x);
    count = gpu::GridDimOp::create(rw, loc, gpu::Dimension::x);
  }
  SmallVector<Value> lbs = getValueOrCreateConstantIndexOp(rw, loc, forall.getMixedLowerBound());
  SmallVector<Value> ubs = getValueOrCreateConstantIndexOp(rw, loc, forall.getMixedUpperBound());
  SmallVector<Value> steps = getValueOrCreateConstantIndexOp(rw, loc, forall.getMixedStep());
  SmallVector<Value> trips, spans;
  Value one = arith::ConstantIndexOp::create(rw, loc, 1);
  Value total = one;
  for (unsigned d = 0; d < lbs.size(); ++d) {
    // Trip count (ub - lb + step - 1) / step; spans are never negative here.
    Value span = arith::SubIOp::create(rw, loc, ubs[d], lbs[d]);
    spans.push_back(span);
    Value stepMinusOne = arith::SubIOp::create(rw, loc, steps[d], one);
    Value padded = arith::AddIOp::create(rw, loc, span, stepMinusOne);
    Value trip = arith::DivUIOp::create(rw, loc, padded, steps[d]);
    trips.push_back(trip);
    total = arith::MulIOp::create(rw, loc, total, trip);
  }
  bool single = threads;
  int64_t maxTotal = 1;
  for (unsigned d = 0; single && d < lbs.size(); ++d) {
    std::optional<int64_t> step = getConstantIntValue(steps[d]);
    FailureOr<int64_t> span = ValueBoundsConstraintSet::computeConstantBound(
        presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(spans[d]), nullptr,
        /*closedUB=*/true);
    if (!step || *step <= 0 || failed(span)) {
      single = false;
      break;
    }
    maxTotal *= ceilDiv(std::max<int64_t>(*span, 0), *step);
  }
  single = single && maxTotal <= invocations;
  Block *bodyBlock;
  Operation *terminator;
  Value linear;
  if (single) {
    Value inRange = arith::CmpIOp::create(rw, loc, arith::CmpIPredicate::ult, id, total);
    auto ifOp = scf::IfOp::create(rw, loc, inRange, /*withElseRegion=*/false);
    bodyBlock = ifOp.thenBlock();
    terminator = bodyBlock->getTerminator();
    linear = id;
  } else {
    auto loop = scf::ForOp::create(rw, loc, id, total, count);
    bodyBlock = loop.getBody();
    terminator = bodyBlock->getTerminator();
    linear = loop.getInductionVar();
  }
  rw.setInsertionPointToStart(bodyBlock);
  SmallVector<Value> ivs(lbs.size());
  Value rest = linear;
  for (int d = static_cast<int>(lbs.size()) - 1; d >= 0; --d) {
    Value idx = d == 0 ? rest : arith::RemUIOp::create(rw, loc, rest, trips[d]).getResult();
    if (d > 0)
      rest = arith::DivUIOp::create(rw, loc, rest, trips[d]);
    Value scaled = arith::MulIOp::create(rw, loc, idx, steps[d]);
    ivs[d] = arith::AddIOp::create(rw, loc, lbs[d], scaled);
  }
  Block *body = forall.getBody();
  rw.eraseOp(body->getTerminator());
  rw.inlineBlockBefore(body, terminator, ivs);
  rw.eraseOp(forall);
  return success();
}

} // namespace meshvk::codegen
