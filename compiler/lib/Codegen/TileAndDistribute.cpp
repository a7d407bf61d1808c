// meshvk-tile-and-distribute: `meshvk.kernel` functions on tensors become
// functions on buffers that hold one gpu.launch, tiled for workgroups and then
// for invocations, with every tile loop distributed CYCLICALLY over the ids
// (grid-stride), so a kernel is correct for any workgroup count the runtime
// picks (DESIGN.md §2: the runtime may clamp counts to the device limit).
//
// Before (contract, see README.md):
//   func.func @k(%a: tensor<MxKxf32>, %b: tensor<KxNxf32>) -> tensor<MxNxf32>
//       attributes {meshvk.kernel} { fill + matmul + bias/activation generics }
// After:
//   func.func @k(%a: memref<MxKxf32>, %b: memref<KxNxf32>, %c: memref<MxNxf32>)
//       attributes {meshvk.kernel, meshvk.num_inputs = 2} {
//     gpu.launch blocks(..) in (%gx = <tiles>, 1, 1) threads(..) in (%tx = 64, 1, 1) {
//       scf.for %t = %block_id to %num_tiles step %grid_dim {          // workgroup tiles
//         scf.if %thread_id < %num_thread_tiles {   // register tiles (<= 1 per invocation)
//           scf.if %full_tile { 4x4 accumulators in registers over K }
//           else { scalar loops for the ragged edge }
//           epilogue loops }}}}
//
// Steps (each an upstream MLIR utility unless noted):
//  1. wrap: buffer arguments (inputs, then outputs), bufferization.to_tensor /
//     materialize_in_destination at the edges, body moved into a gpu.launch;
//  2. elementwise fusion + canonicalization; elementwise consumers are made
//     to write in place into their producer's tensor (meshvk pattern), then
//     empty-tensor elimination so results are computed straight into outputs;
//  3. per output: tile the root op to scf.forall mapped to #gpu.block and fuse
//     its producers, then tile again to scf.forall mapped to #gpu.thread;
//  4. one-shot bufferization (temporaries in Function memory, space 6);
//  5. contraction / reduction thread tiles get register accumulators
//     (meshvk rewrite: full tiles unrolled with the K loop carrying the
//     accumulators, partial tiles keep the generic loop);
//  6. scf.forall -> cyclic scf.for over the linearised tile index (an scf.if
//     for invocation tiles that provably fit in one workgroup);
//  7. remaining linalg ops -> loops.
#include <algorithm>
#include <map>
#include <numeric>

#include "meshvk/Codegen/Passes.h"
#include "meshvk/Codegen/Target.h"
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
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Pass/Pass.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace meshvk::codegen {
namespace {

using namespace mlir;

constexpr llvm::StringLiteral kKernelAttr = "meshvk.kernel";
constexpr llvm::StringLiteral kNumInputsAttr = "meshvk.num_inputs";
constexpr llvm::StringLiteral kRegisterTileAttr = "meshvk.register_tile";
// Function memory (per invocation) in the numeric memref memory spaces that
// MLIR's Vulkan storage-class map understands (FACTS.md).
constexpr int64_t kFunctionMemorySpace = 6;
// Most accumulators one invocation keeps in registers.
constexpr int64_t kMaxRegisterTileOutputs = 64;

int64_t nextPowerOf2(int64_t v) {
  int64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// ---------------------------------------------------------------------------
// 1. Wrap the tensor function into a buffer function with one gpu.launch.
// ---------------------------------------------------------------------------
// When the tensor function is still referenced (e.g. by meshvk.launch in a
// plan), it stays as is and the buffer function is added as <name>_lowered.
constexpr llvm::StringLiteral kLoweredSuffix = "_lowered";

FailureOr<func::FuncOp> wrapKernel(func::FuncOp f, bool keepOriginal) {
  MLIRContext* ctx = f.getContext();
  Location loc = f.getLoc();
  if (f.isExternal()) return f.emitError("meshvk.kernel function has no body");
  if (!f.getBody().hasOneBlock())
    return f.emitError("meshvk.kernel body must be a single block (no control flow)");
  FunctionType ft = f.getFunctionType();
  SmallVector<Type> bufferTypes;
  auto toBuffer = [&](Type t, StringRef what, unsigned i) -> FailureOr<Type> {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt || rt.getEncoding())
      return f.emitError() << what << " " << i << " has type " << t
                           << "; expected a ranked tensor without encoding";
    if (!rt.hasStaticShape())
      return f.emitError() << what << " " << i << " has dynamic shape " << t
                           << "; kernels need static shapes (no push constants yet)";
    return Type(MemRefType::get(rt.getShape(), rt.getElementType()));
  };
  for (auto [i, t] : llvm::enumerate(ft.getInputs())) {
    FailureOr<Type> b = toBuffer(t, "argument", i);
    if (failed(b)) return failure();
    bufferTypes.push_back(*b);
  }
  if (ft.getNumResults() == 0) return f.emitError("meshvk.kernel has no results");
  for (auto [i, t] : llvm::enumerate(ft.getResults())) {
    FailureOr<Type> b = toBuffer(t, "result", i);
    if (failed(b)) return failure();
    bufferTypes.push_back(*b);
  }

  OpBuilder b(f);
  std::string name = f.getName().str();
  if (keepOriginal) {
    name += kLoweredSuffix.str();
    b.setInsertionPointAfter(f);
  }
  auto nf = func::FuncOp::create(b, loc, name, FunctionType::get(ctx, bufferTypes, {}));
  nf->setAttr(kKernelAttr, UnitAttr::get(ctx));
  nf->setAttr(kNumInputsAttr, b.getI64IntegerAttr(ft.getNumInputs()));
  Block* entry = nf.addEntryBlock();
  b.setInsertionPointToStart(entry);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto launch = gpu::LaunchOp::create(b, loc, one, one, one, one, one, one);
  func::ReturnOp::create(b, loc);

  Block& body = launch.getBody().front();
  b.setInsertionPointToStart(&body);
  IRMapping map;
  for (unsigned i = 0; i < ft.getNumInputs(); ++i) {
    Value t = bufferization::ToTensorOp::create(b, loc, ft.getInput(i), entry->getArgument(i),
                                                /*restrict=*/true, /*writable=*/false);
    map.map(f.getArgument(i), t);
  }
  Block& old = f.getBody().front();
  for (Operation& op : old.without_terminator()) b.clone(op, map);
  Operation* ret = old.getTerminator();
  for (unsigned j = 0; j < ft.getNumResults(); ++j) {
    bufferization::MaterializeInDestinationOp::create(
        b, loc, TypeRange{}, map.lookupOrDefault(ret->getOperand(j)),
        entry->getArgument(ft.getNumInputs() + j), /*restrict=*/true, /*writable=*/true);
  }
  gpu::TerminatorOp::create(b, loc);
  if (!keepOriginal) f.erase();
  return nf;
}

// ---------------------------------------------------------------------------
// 2. An elementwise consumer whose fresh (tensor.empty) output has the same
// shape as one of its inputs, computed in this kernel and used only here,
// writes into that input instead. After tiling this keeps e.g. a matmul's
// accumulator tile and its bias+activation epilogue in ONE buffer (no
// temporary, no copy).
// ---------------------------------------------------------------------------
struct ElementwiseInPlace : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op, PatternRewriter& rw) const override {
    if (op.getNumDpsInits() != 1 || !op.hasPureTensorSemantics()) return failure();
    if (op.getNumParallelLoops() != op.getNumLoops()) return failure();
    OpOperand* init = op.getDpsInitOperand(0);
    if (!init->get().getDefiningOp<tensor::EmptyOp>()) return failure();
    if (op.payloadUsesValueFromOperand(init)) return failure();
    if (!op.getMatchingIndexingMap(init).isIdentity()) return failure();
    for (OpOperand* in : op.getDpsInputOperands()) {
      Value v = in->get();
      if (v.getType() != init->get().getType() || !v.hasOneUse()) continue;
      if (!op.getMatchingIndexingMap(in).isIdentity()) continue;
      if (!isa_and_nonnull<linalg::LinalgOp>(v.getDefiningOp())) continue;
      unsigned idx = in->getOperandNumber();
      SmallVector<Value> inputs;
      SmallVector<AffineMap> maps;
      for (OpOperand* other : op.getDpsInputOperands()) {
        if (other == in) continue;
        inputs.push_back(other->get());
        maps.push_back(op.getMatchingIndexingMap(other));
      }
      maps.push_back(op.getMatchingIndexingMap(init));
      auto newOp = linalg::GenericOp::create(rw, op.getLoc(), op->getResultTypes(), inputs,
                                             ValueRange{v}, maps, op.getIteratorTypesArray());
      rw.inlineRegionBefore(op.getRegion(), newOp.getRegion(), newOp.getRegion().end());
      Block& blk = newOp.getRegion().front();
      // The old output block argument is unused: it becomes the in-place one.
      rw.replaceAllUsesWith(blk.getArgument(idx), blk.getArgument(op.getNumDpsInputs()));
      blk.eraseArgument(idx);
      rw.replaceOp(op, newOp->getResults());
      return success();
    }
    return failure();
  }
};

// Splat tensor constants (cloned into kernels by the partitioner) become
// fills; other tensor constants have no place in a kernel (no globals yet).
LogicalResult constantsToFills(func::FuncOp f) {
  SmallVector<arith::ConstantOp> constants;
  f.walk([&](arith::ConstantOp c) {
    if (isa<RankedTensorType>(c.getType())) constants.push_back(c);
  });
  for (arith::ConstantOp c : constants) {
    auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
    if (!dense || !dense.isSplat())
      return c.emitError("non-splat tensor constant inside a kernel is not supported; "
                         "pass it as a kernel argument");
    auto tt = cast<RankedTensorType>(c.getType());
    OpBuilder b(c);
    Value scalar = arith::ConstantOp::create(b, c.getLoc(), dense.getSplatValue<TypedAttr>());
    Value empty = tensor::EmptyOp::create(b, c.getLoc(), tt.getShape(), tt.getElementType());
    Value filled = linalg::FillOp::create(b, c.getLoc(), scalar, empty).getResult(0);
    c.replaceAllUsesWith(filled);
    c.erase();
  }
  return success();
}

LogicalResult simplifyOnTensors(func::FuncOp f) {
  MLIRContext* ctx = f.getContext();
  RewritePatternSet patterns(ctx);
  linalg::populateElementwiseOpsFusionPatterns(patterns, [](OpOperand* operand) {
    Operation* producer = operand->get().getDefiningOp();
    return producer && producer->hasOneUse();
  });
  patterns.add<ElementwiseInPlace>(ctx);
  for (Dialect* d : ctx->getLoadedDialects()) d->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
  return applyPatternsGreedily(f, std::move(patterns));
}

// Every result must come from a tileable linalg op; anything else (an input
// returned as is, a tensor.extract_slice = slice copy, a reshape) is copied by
// a linalg.copy so that it can be tiled and distributed like the rest.
void ensureTileableRoots(func::FuncOp f) {
  SmallVector<bufferization::MaterializeInDestinationOp> outs;
  f.walk([&](bufferization::MaterializeInDestinationOp m) { outs.push_back(m); });
  for (auto m : outs) {
    Value src = m.getSource();
    // A linalg op used only by this output is computed in place into it.
    if (isa_and_nonnull<linalg::LinalgOp>(src.getDefiningOp()) && src.hasOneUse()) continue;
    OpBuilder b(m);
    auto tt = cast<RankedTensorType>(src.getType());
    Value empty = tensor::EmptyOp::create(b, m.getLoc(), tt.getShape(), tt.getElementType());
    Value copied = linalg::CopyOp::create(b, m.getLoc(), src, empty).getResult(0);
    m.getSourceMutable().assign(copied);
  }
}

// ---------------------------------------------------------------------------
// 3. Tile sizes from the target.
// ---------------------------------------------------------------------------
struct TilePlan {
  SmallVector<int64_t> workgroupTile;  // per loop; 0 = not tiled
  SmallVector<int64_t> threadTile;     // per loop; 0 = not tiled
  SmallVector<int64_t> registerTile;   // per loop (parallel caps) or empty
  int64_t invocations = 1;
};

FailureOr<TilePlan> planTiles(linalg::LinalgOp op, const TargetDescription& target) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto iters = op.getIteratorTypesArray();
  unsigned n = op.getNumLoops();
  if (op.getNumDpsInits() < 1) return op->emitError("op has no outputs");
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<unsigned> outDims;  // loop dims of the output, outermost first
  for (AffineExpr e : outMap.getResults())
    if (auto d = dyn_cast<AffineDimExpr>(e))
      if (linalg::isParallelIterator(iters[d.getPosition()])) outDims.push_back(d.getPosition());
  if (outDims.empty())
    return op->emitError("reduction to a 0-d result is not supported by the kernel tiler; "
                         "expected at least one parallel dimension in the output");
  unsigned numReductions = op.getNumReductionLoops();
  int64_t T = target.workgroupInvocations();
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
    rm = std::min(rm, size(dm));
    rn = std::min(rn, size(dn));
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
      if (ranges[dn] % wide == 0) v = wide;
      else if (ranges[dn] % 4 == 0) v = 4;
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
      if (linalg::isParallelIterator(iters[d])) outputs *= p.threadTile[d];
    if (outputs <= kMaxRegisterTileOutputs) {
      p.registerTile.assign(n, 0);
      for (unsigned d = 0; d < n; ++d)
        if (linalg::isParallelIterator(iters[d])) p.registerTile[d] = p.threadTile[d];
    }
  }
  return p;
}

SmallVector<Attribute> mappingFor(MLIRContext* ctx, ArrayRef<int64_t> tiles, bool threads) {
  SmallVector<Attribute> mapping;
  int id = 0;
  for (int64_t t : tiles) {
    if (t == 0) continue;
    auto m = static_cast<gpu::MappingId>(static_cast<int>(gpu::MappingId::LinearDim0) + id++);
    if (threads)
      mapping.push_back(gpu::GPUThreadMappingAttr::get(ctx, m));
    else
      mapping.push_back(gpu::GPUBlockMappingAttr::get(ctx, m));
  }
  return mapping;
}

FailureOr<scf::SCFTileAndFuseResult> tileAndFuse(RewriterBase& rw, TilingInterface op,
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
  if (failed(res)) return op->emitError("tiling failed"), failure();
  for (OpResult r : op->getResults()) {
    Value repl = res->replacements.lookup(r);
    if (repl) rw.replaceAllUsesWith(r, repl);
  }
  return res;
}

LogicalResult tileRoots(func::FuncOp f, const TargetDescription& target, int64_t* invocations) {
  SmallVector<bufferization::MaterializeInDestinationOp> outs;
  f.walk([&](bufferization::MaterializeInDestinationOp m) { outs.push_back(m); });
  IRRewriter rw(f.getContext());
  *invocations = 1;
  for (auto m : outs) {
    auto root = m.getSource().getDefiningOp<linalg::LinalgOp>();
    if (!root) return m.emitError("kernel result is not computed by a linalg op");
    FailureOr<TilePlan> plan = planTiles(root, target);
    if (failed(plan)) return failure();
    *invocations = std::max(*invocations, plan->invocations);
    auto wg = tileAndFuse(rw, cast<TilingInterface>(root.getOperation()), plan->workgroupTile,
                          /*threads=*/false);
    if (failed(wg)) return failure();
    auto tiledRoot = cast<TilingInterface>(wg->tiledAndFusedOps.front());
    auto th = tileAndFuse(rw, tiledRoot, plan->threadTile, /*threads=*/true);
    if (failed(th)) return failure();
    if (!plan->registerTile.empty())
      th->tiledAndFusedOps.front()->setAttr(kRegisterTileAttr,
                                            rw.getDenseI64ArrayAttr(plan->registerTile));
  }
  return success();
}

// Dynamic-size temporaries (ragged tiles) get a static upper bound so that
// they fit in Function memory: tensor.empty(%sz) -> slice of tensor.empty(cap).
LogicalResult boundTemporaries(func::FuncOp f) {
  SmallVector<tensor::EmptyOp> empties;
  f.walk([&](tensor::EmptyOp e) {
    if (!e.getType().hasStaticShape()) empties.push_back(e);
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
    Value slice = tensor::ExtractSliceOp::create(b, e.getLoc(), e.getType(), big, zeros, sizes,
                                                 ones);
    e.replaceAllUsesWith(slice);
    e.erase();
  }
  return success();
}

LogicalResult bufferize(func::FuncOp f) {
  MLIRContext* ctx = f.getContext();
  bufferization::OneShotBufferizationOptions options;
  options.bufferizeFunctionBoundaries = false;
  options.memCpyFn = [](OpBuilder& b, Location loc, Value from, Value to) {
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
  for (auto d : deallocs) d.erase();
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
// 5. Register tiles: a memref linalg op with reduction loops whose parallel
// loops are at most `caps` long is rewritten, for full tiles, into unrolled
// accumulators carried through the reduction loops (loads deduplicated), and
// keeps the generic loop nest for ragged tiles.
// ---------------------------------------------------------------------------
LogicalResult registerTile(IRRewriter& rw, linalg::LinalgOp op, ArrayRef<int64_t> caps) {
  if (op.getNumDpsInits() != 1 || !op.hasPureBufferSemantics()) return success();
  for (Operation& inner : op.getBlock()->without_terminator())
    if (inner.getNumRegions() != 0) return success();
  unsigned n = op.getNumLoops();
  auto iters = op.getIteratorTypesArray();
  OpOperand* init = op.getDpsInitOperand(0);
  AffineMap outMap = op.getMatchingIndexingMap(init);
  for (AffineExpr e : outMap.getResults()) {
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d || !linalg::isParallelIterator(iters[d.getPosition()])) return success();
  }
  // The fill that initialises the accumulator, if it is the last write before.
  linalg::FillOp fill;
  for (Operation* prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (isPure(prev)) continue;
    fill = dyn_cast<linalg::FillOp>(prev);
    break;
  }
  Location loc = op.getLoc();
  rw.setInsertionPoint(op);
  SmallVector<Range> ranges = op.createLoopRanges(rw, loc);
  SmallVector<Value> sizes;
  for (Range& r : ranges) sizes.push_back(getValueOrCreateConstantIndexOp(rw, loc, r.size));
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
  Operation* slow = rw.clone(*op.getOperation());
  slow->removeAttr(kRegisterTileAttr);

  rw.setInsertionPointToStart(ifOp.thenBlock());
  // Enumerate the output points of the tile.
  SmallVector<SmallVector<int64_t>> points(1);
  for (unsigned d : parallel) {
    SmallVector<SmallVector<int64_t>> next;
    for (auto& pnt : points)
      for (int64_t i = 0; i < caps[d]; ++i) {
        next.push_back(pnt);
        next.back().push_back(i);
      }
    points = std::move(next);
  }
  MLIRContext* ctx = op.getContext();
  auto constIdx = [&](int64_t v) -> Value { return arith::ConstantIndexOp::create(rw, loc, v); };
  // Index of `map` at point `pnt` with reduction ivs `ivs`.
  auto indicesAt = [&](AffineMap map, ArrayRef<int64_t> pnt, ArrayRef<Value> ivs,
                       SmallVector<AffineExpr>* key) {
    SmallVector<AffineExpr> repl(n);
    for (auto [i, d] : llvm::enumerate(parallel)) repl[d] = getAffineConstantExpr(pnt[i], ctx);
    for (auto [i, d] : llvm::enumerate(reduction)) repl[d] = getAffineDimExpr(i, ctx);
    SmallVector<Value> idx;
    for (AffineExpr e : map.getResults()) {
      AffineExpr s = simplifyAffineExpr(e.replaceDims(repl), reduction.size(), 0);
      if (key) key->push_back(s);
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
  for (auto& pnt : points)
    accs.push_back(fill     ? fill.getDpsInputOperand(0)->get()
                   : unread ? unread
                            : memref::LoadOp::create(rw, loc, outBuf,
                                                     indicesAt(outMap, pnt, {}, nullptr))
                                  .getResult());

  // Builds the body for the innermost reduction iteration.
  auto computeBody = [&](ArrayRef<Value> ivs, ArrayRef<Value> in) {
    std::map<std::pair<unsigned, SmallVector<const void*>>, Value> loaded;
    SmallVector<Value> out;
    Block* body = op.getBlock();
    for (auto [pi, pnt] : llvm::enumerate(points)) {
      IRMapping map;
      for (OpOperand* input : op.getDpsInputOperands()) {
        Value arg = body->getArgument(input->getOperandNumber());
        if (!isa<MemRefType>(input->get().getType())) {
          map.map(arg, input->get());
          continue;
        }
        SmallVector<AffineExpr> key;
        SmallVector<Value> idx =
            indicesAt(op.getMatchingIndexingMap(input), pnt, ivs, &key);
        SmallVector<const void*> k;
        for (AffineExpr e : key) k.push_back(e.getAsOpaquePointer());
        auto it = loaded.find({input->getOperandNumber(), k});
        if (it == loaded.end()) {
          Value v = memref::LoadOp::create(rw, loc, input->get(), idx);
          it = loaded.emplace(std::make_pair(input->getOperandNumber(), k), v).first;
        }
        map.map(arg, it->second);
      }
      map.map(body->getArgument(op.getNumDpsInputs()), in[pi]);
      for (Operation& inner : body->without_terminator()) {
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
    if (level == reduction.size()) return computeBody(ivs, in);
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
      if (u) iv = arith::AddIOp::create(rw, loc, iv, constIdx(u));
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

// ---------------------------------------------------------------------------
// 6. scf.forall (buffers, mapped to #gpu.block / #gpu.thread) -> cyclic loop:
//   for %t = id to prod(tripcounts) step count { ivs = delinearize(%t) ... }
// ---------------------------------------------------------------------------
// `invocations` is the workgroup size: when a thread loop provably has at most
// that many iterations, each invocation runs at most one, and the loop becomes
// an `if` (llvmpipe runs loops with per-lane masks; an if is cheaper).
LogicalResult distributeCyclically(IRRewriter& rw, scf::ForallOp forall, int64_t invocations) {
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
  Block* bodyBlock;
  Operation* terminator;
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
    if (d > 0) rest = arith::DivUIOp::create(rw, loc, rest, trips[d]);
    Value scaled = arith::MulIOp::create(rw, loc, idx, steps[d]);
    ivs[d] = arith::AddIOp::create(rw, loc, lbs[d], scaled);
  }
  Block* body = forall.getBody();
  rw.eraseOp(body->getTerminator());
  rw.inlineBlockBefore(body, terminator, ivs);
  rw.eraseOp(forall);
  return success();
}


// ---------------------------------------------------------------------------
// 8. vec4 accesses. Buffers whose rows are a multiple of 4 elements get a
// second view as memref<... x N/4 x vector<4xT>> (an extra function argument
// marked meshvk.alias_of = i: the same descriptor binding, see
// LowerToSPIRV.cpp). Four loads (or stores) of consecutive elements starting
// at a provably 4-aligned column become one vec4 access. Only buffers that a
// kernel only reads or only writes are rewritten, so that the two views never
// need to be ordered against each other. Why: llvmpipe turns each scalar
// buffer access into a per-lane gather; vec4 accesses halved matmul time in
// measurements (hand-written GLSL, scalar vs vec4 B loads).
// ---------------------------------------------------------------------------
constexpr llvm::StringLiteral kAliasOfAttr = "meshvk.alias_of";

bool isMultipleOf4(Value v, int depth = 0);

bool exprMultipleOf4(AffineExpr e, unsigned numDims, ValueRange operands, int depth) {
  if (auto c = dyn_cast<AffineConstantExpr>(e)) return c.getValue() % 4 == 0;
  if (auto d = dyn_cast<AffineDimExpr>(e)) return isMultipleOf4(operands[d.getPosition()], depth + 1);
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
  if (depth > 12) return false;
  if (std::optional<int64_t> c = getConstantIntValue(v)) return *c % 4 == 0;
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

SplitIndex splitIndex(Value v) {
  MLIRContext* ctx = v.getContext();
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
    for (unsigned i = 0; i < nd; ++i) dimRepl.push_back(getAffineSymbolExpr(ns + i, ctx));
    for (unsigned i = 0; i < ns; ++i) symRepl.push_back(getAffineSymbolExpr(i, ctx));
    AffineExpr e = m.getResult(0).replaceDimsAndSymbols(dimRepl, symRepl);
    if (auto bin = dyn_cast<AffineBinaryOpExpr>(e); bin && bin.getKind() == AffineExprKind::Add)
      if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS())) {
        r.offset = c.getValue();
        e = bin.getLHS();
      }
    r.base = AffineMap::get(0, nd + ns, e);
    auto ops = apply.getMapOperands();
    r.operands.assign(ops.begin() + nd, ops.end());
    r.operands.append(ops.begin(), ops.begin() + nd);
    return r;
  }
  if (auto add = v.getDefiningOp<arith::AddIOp>())
    if (std::optional<int64_t> c = getConstantIntValue(add.getRhs())) {
      r.operands = {add.getLhs()};
      r.offset = *c;
    }
  return r;
}

using AccessKey = std::vector<const void*>;

AccessKey keyOf(ValueRange leading, const SplitIndex& last) {
  AccessKey k;
  for (Value v : leading) k.push_back(v.getAsOpaquePointer());
  k.push_back(nullptr);
  k.push_back(last.base.getAsOpaquePointer());
  for (Value v : last.operands) k.push_back(v.getAsOpaquePointer());
  return k;
}

void vectorizeBuffers(func::FuncOp f) {
  MLIRContext* ctx = f.getContext();
  IRRewriter rw(ctx);
  unsigned numOriginal = f.getNumArguments();
  for (unsigned i = 0; i < numOriginal; ++i) {
    BlockArgument arg = f.getArgument(i);
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || type.getRank() == 0 || !type.hasStaticShape() ||
        type.getShape().back() % 4 != 0 || type.getElementTypeBitWidth() != 32 ||
        !type.getLayout().isIdentity())
      continue;
    SmallVector<memref::LoadOp> loads;
    SmallVector<memref::StoreOp> stores;
    bool other = false;
    for (Operation* user : arg.getUsers()) {
      if (auto l = dyn_cast<memref::LoadOp>(user)) loads.push_back(l);
      else if (auto st = dyn_cast<memref::StoreOp>(user); st && st.getMemRef() == arg)
        stores.push_back(st);
      else if (!isa<gpu::LaunchOp>(user)) other = true;
    }
    // Uses inside the launch body are what matter (the launch itself does not
    // take the buffers as operands; they are captured).
    if (other || (!loads.empty() && !stores.empty())) continue;
    Value vecView;
    auto getView = [&]() {
      if (vecView) return vecView;
      SmallVector<int64_t> shape(type.getShape().begin(), type.getShape().end());
      shape.back() /= 4;
      auto vt = MemRefType::get(shape, VectorType::get({4}, type.getElementType()));
      unsigned idx = f.getNumArguments();
      (void)f.insertArgument(idx, vt,
                             DictionaryAttr::get(ctx, {NamedAttribute(
                                                          StringAttr::get(ctx, kAliasOfAttr),
                                                          IntegerAttr::get(IntegerType::get(ctx, 64), i))}),
                             arg.getLoc());
      vecView = f.getArgument(idx);
      return vecView;
    };
    auto vecIndex = [&](OpBuilder& b, Location loc, ValueRange leading, const SplitIndex& s,
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
    std::map<std::pair<Block*, AccessKey>, std::map<int64_t, Operation*>> groups;
    std::map<std::pair<Block*, AccessKey>, SplitIndex> splits;
    auto collect = [&](Operation* op, ValueRange indices) {
      SplitIndex s = splitIndex(indices.back());
      auto key = std::make_pair(op->getBlock(), keyOf(indices.drop_back(), s));
      groups[key][s.offset] = op;
      splits.emplace(key, s);
    };
    for (auto l : loads) collect(l, l.getIndices());
    for (auto st : stores) collect(st, st.getIndices());
    for (auto& [key, byOffset] : groups) {
      const SplitIndex& s = splits.at(key);
      if (!exprMultipleOf4(s.base.getResult(0), s.base.getNumDims(), s.operands, 0)) continue;
      for (auto& [offset, first] : byOffset) {
        if (offset % 4 != 0 || !first) continue;
        SmallVector<Operation*> members;
        for (int64_t k = 0; k < 4; ++k) {
          auto it = byOffset.find(offset + k);
          if (it == byOffset.end() || !it->second) break;
          members.push_back(it->second);
        }
        if (members.size() != 4) continue;
        Operation* earliest = members[0];
        Operation* latest = members[0];
        for (Operation* m : members) {
          if (m->isBeforeInBlock(earliest)) earliest = m;
          if (latest->isBeforeInBlock(m)) latest = m;
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
          for (Operation* m : members) elems.push_back(cast<memref::StoreOp>(m).getValueToStore());
          auto vt = VectorType::get({4}, type.getElementType());
          Value v = vector::FromElementsOp::create(rw, loc, vt, elems);
          SmallVector<Value> idx = vecIndex(rw, loc, s0.getIndices().drop_back(), s, offset);
          memref::StoreOp::create(rw, loc, v, getView(), idx);
          for (Operation* m : members) rw.eraseOp(m);
        }
        for (int64_t k = 0; k < 4; ++k) byOffset[offset + k] = nullptr;
      }
    }
  }
}

// Canonicalization may rebuild the gpu.launch: look it up again after each.
gpu::LaunchOp findLaunch(func::FuncOp f) {
  gpu::LaunchOp launch;
  f.walk([&](gpu::LaunchOp l) { launch = l; });
  return launch;
}

LogicalResult lowerKernel(func::FuncOp f, const TargetDescription& target) {
  MLIRContext* ctx = f.getContext();
  if (failed(constantsToFills(f))) return failure();
  if (failed(simplifyOnTensors(f))) return f.emitError("simplification did not converge");
  ensureTileableRoots(f);
  IRRewriter rw(ctx);
  if (failed(bufferization::eliminateEmptyTensors(rw, f)))
    return f.emitError("empty tensor elimination failed");
  int64_t invocations = 1;
  if (failed(tileRoots(f, target, &invocations))) return failure();
  if (failed(simplifyOnTensors(f))) return f.emitError("simplification did not converge");
  // Tiling gives ops whose output is never read a fresh tensor.empty tile;
  // eliminating it again writes those tiles straight into the output.
  if (failed(bufferization::eliminateEmptyTensors(rw, f)))
    return f.emitError("empty tensor elimination failed");
  // Everything that computes must now sit inside the thread loops: an op left
  // at workgroup level would be executed by every invocation.
  WalkResult stray = findLaunch(f).walk([&](linalg::LinalgOp op) {
    auto forall = op->getParentOfType<scf::ForallOp>();
    std::optional<ArrayAttr> mapping = forall ? forall.getMapping() : std::nullopt;
    if (!mapping || mapping->empty() || !isa<gpu::GPUThreadMappingAttr>((*mapping)[0])) {
      op->emitError("op could not be fused into the kernel's tiled loop nest");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (stray.wasInterrupted()) return failure();
  if (failed(boundTemporaries(f))) return failure();
  if (failed(bufferize(f))) return failure();
  if (failed(allocationsToPrivateVariables(f, findLaunch(f)))) return failure();

  SmallVector<linalg::LinalgOp> regTiles;
  f.walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(kRegisterTileAttr)) regTiles.push_back(op);
  });
  for (linalg::LinalgOp op : regTiles) {
    auto caps = cast<DenseI64ArrayAttr>(op->getAttr(kRegisterTileAttr));
    if (failed(registerTile(rw, op, caps.asArrayRef()))) return failure();
  }

  // Workgroup count: one workgroup per tile, clamped to the device limit.
  int64_t tiles = 1;
  SmallVector<scf::ForallOp> foralls;
  f.walk([&](scf::ForallOp fa) { foralls.push_back(fa); });  // post-order: inner first
  for (scf::ForallOp fa : foralls) {
    std::optional<ArrayAttr> mapping = fa.getMapping();
    bool threads = mapping && !mapping->empty() && isa<gpu::GPUThreadMappingAttr>((*mapping)[0]);
    if (!threads) {
      int64_t t = 1;
      for (auto [lb, ub, st] : llvm::zip(fa.getMixedLowerBound(), fa.getMixedUpperBound(),
                                         fa.getMixedStep())) {
        auto l = getConstantIntValue(lb), u = getConstantIntValue(ub), s = getConstantIntValue(st);
        t *= (l && u && s) ? ceilDiv(*u - *l, *s) : int64_t(target.maxWorkgroupCount);
      }
      tiles = std::max(tiles, t);
    }
    if (failed(distributeCyclically(rw, fa, invocations))) return failure();
  }
  tiles = std::max<int64_t>(1, std::min<int64_t>(tiles, target.maxWorkgroupCount));
  gpu::LaunchOp launch = findLaunch(f);
  rw.setInsertionPoint(launch);
  launch.getGridSizeXMutable().assign(arith::ConstantIndexOp::create(rw, launch.getLoc(), tiles));
  launch.getBlockSizeXMutable().assign(
      arith::ConstantIndexOp::create(rw, launch.getLoc(), invocations));

  {
    // In-place results leave copies of a tile onto itself (parallel_insert_slice
    // of the tile that was computed in place): canonicalization (trivial
    // subviews fold away) and CSE make both views one value.
    RewritePatternSet canon(ctx);
    for (Dialect* d : ctx->getLoadedDialects()) d->getCanonicalizationPatterns(canon);
    for (RegisteredOperationName op : ctx->getRegisteredOperations())
      op.getCanonicalizationPatterns(canon, ctx);
    (void)applyPatternsGreedily(f, std::move(canon));
    DominanceInfo dom(f);
    eliminateCommonSubExpressions(rw, dom, f);
    SmallVector<linalg::CopyOp> copies;
    f.walk([&](linalg::CopyOp c) {
      if (c.getDpsInputOperand(0)->get() == c.getDpsInitOperand(0)->get()) copies.push_back(c);
    });
    for (auto c : copies) rw.eraseOp(c);
  }
  SmallVector<linalg::LinalgOp> rest;
  f.walk([&](linalg::LinalgOp op) { rest.push_back(op); });
  for (linalg::LinalgOp op : rest) {
    rw.setInsertionPoint(op);
    if (failed(linalg::linalgOpToLoops(rw, op))) return op->emitError("lowering to loops failed");
    rw.eraseOp(op);
  }
  RewritePatternSet patterns(ctx);
  memref::populateFoldMemRefAliasOpPatterns(patterns);
  for (Dialect* d : ctx->getLoadedDialects()) d->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
  (void)applyPatternsGreedily(f, std::move(patterns));
  {
    // Identical index computations must be one value for access grouping.
    DominanceInfo dom(f);
    eliminateCommonSubExpressions(rw, dom, f);
  }
  vectorizeBuffers(f);
  return success();
}

struct TileAndDistributePass
    : PassWrapper<TileAndDistributePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TileAndDistributePass)
  TileAndDistributePass() = default;
  TileAndDistributePass(const TileAndDistributePass& other) : PassWrapper(other) {}
  explicit TileAndDistributePass(const TargetDescription& t) : fixedTarget(t) {}

  StringRef getArgument() const override { return "meshvk-tile-and-distribute"; }
  StringRef getDescription() const override {
    return "Tile meshvk.kernel functions for workgroups and invocations, distribute the "
           "tiles cyclically, bufferize, and wrap them in gpu.launch";
  }
  void getDependentDialects(DialectRegistry& registry) const override {
    registerCodegenDialects(registry);
  }

  Option<std::string> targetName{*this, "target",
                                 llvm::cl::desc("target preset (lavapipe, generic)"),
                                 llvm::cl::init("lavapipe")};
  Option<unsigned> invocations{*this, "workgroup-invocations",
                               llvm::cl::desc("override the preset's workgroup size"),
                               llvm::cl::init(0)};

  void runOnOperation() override {
    TargetDescription target;
    if (fixedTarget) {
      target = *fixedTarget;
    } else if (!lookupTarget(targetName, &target)) {
      getOperation().emitError() << "unknown codegen target '" << targetName
                                 << "'; expected lavapipe or generic";
      return signalPassFailure();
    }
    if (invocations) target.preferredWorkgroupInvocations = invocations;
    SmallVector<func::FuncOp> kernels;
    getOperation().walk([&](func::FuncOp f) {
      if (f->hasAttr(kKernelAttr) && !f->hasAttr(kNumInputsAttr) &&
          !SymbolTable::lookupNearestSymbolFrom(f, StringAttr::get(f.getContext(),
                                                                   f.getName() + kLoweredSuffix)))
        kernels.push_back(f);
    });
    for (func::FuncOp f : kernels) {
      if (!target.supportsF16()) {
        bool usesF16 = false;
        f.walk([&](Operation* op) {
          for (Type t : op->getResultTypes())
            if (getElementTypeOrSelf(t).isF16()) usesF16 = true;
        });
        for (Type t : f.getArgumentTypes())
          if (getElementTypeOrSelf(t).isF16()) usesF16 = true;
        if (usesF16) {
          f.emitError() << "kernel uses f16 but target '" << target.name
                        << "' lacks shaderFloat16 + storageBuffer16BitAccess";
          return signalPassFailure();
        }
      }
      bool referenced = !SymbolTable::symbolKnownUseEmpty(f, getOperation());
      FailureOr<func::FuncOp> nf = wrapKernel(f, referenced);
      if (failed(nf) || failed(lowerKernel(*nf, target))) return signalPassFailure();
    }
  }

  std::optional<TargetDescription> fixedTarget;
};

}  // namespace

std::unique_ptr<mlir::Pass> createTileAndDistributePass(const TargetDescription& target) {
  return std::make_unique<TileAndDistributePass>(target);
}

void registerTileAndDistributePass() { mlir::PassRegistration<TileAndDistributePass>(); }

}  // namespace meshvk::codegen
