// Hand-built test programs (see programs.h).
#include "programs.h"

#include <cstring>

#include "meshvk_test_kernels.h"

namespace meshvk_test {

using namespace meshvk::artifact;

ExecutableDesc ScaledAddKernel() {
  ExecutableDesc x;
  x.spirv.assign(meshvk::test_spirv::scaled_add,
                 meshvk::test_spirv::scaled_add + meshvk::test_spirv::scaled_add_word_count);
  x.entry_point = "main";
  x.workgroup_size[0] = 64;
  x.writable_bindings = {false, false, true};
  x.push_constant_size = 8;
  return x;
}

std::vector<uint8_t> ScaledAddPush(uint32_t count, float scale) {
  std::vector<uint8_t> push(8);
  std::memcpy(push.data(), &count, 4);
  std::memcpy(push.data() + 4, &scale, 4);
  return push;
}

namespace {

uint32_t Groups(uint64_t count) {
  uint64_t groups = (count + 63) / 64;
  return static_cast<uint32_t>(groups > 256 ? 256 : groups);  // the kernel strides
}

TensorDesc Tensor(const std::vector<uint64_t>& shape, const std::vector<std::vector<uint32_t>>& split) {
  TensorDesc t;
  t.shape = shape;
  t.element_type = ElementType::kF32;
  t.split_axes = split;
  return t;
}

}  // namespace

ArtifactBuilder ElementwiseBuilder(const std::vector<uint32_t>& grid_shape,
                                   const std::vector<std::vector<uint32_t>>& split_axes, uint64_t rows, uint64_t cols,
                                   float scale, FunctionDesc* function) {
  ArtifactBuilder b(grid_shape);
  uint32_t kernel = b.AddExecutable(ScaledAddKernel());
  std::vector<uint64_t> global = {rows, cols};
  TensorDesc a = Tensor(global, split_axes), bt = Tensor(global, split_axes), c = Tensor(global, split_axes);
  for (uint32_t p = 0; p < b.process_count(); ++p) {
    std::vector<uint64_t> offset, shape;
    ShardOf(grid_shape, split_axes, global, p, &offset, &shape);
    uint64_t count = shape[0] * shape[1];
    uint32_t ba = b.AddBuffer(p, {count * 4, BufferKind::kArgumentShard});
    uint32_t bb = b.AddBuffer(p, {count * 4, BufferKind::kArgumentShard});
    uint32_t bc = b.AddBuffer(p, {count * 4, BufferKind::kResultShard});
    DispatchDesc d;
    d.executable = kernel;
    d.workgroup_count[0] = Groups(count);
    d.bindings = {{ba, 0, 0}, {bb, 0, 0}, {bc, 0, 0}};
    d.push_constants = ScaledAddPush(static_cast<uint32_t>(count), scale);
    b.AddDispatch(p, d);
    a.shards.push_back({p, ba, 0, offset, shape});
    bt.shards.push_back({p, bb, 0, offset, shape});
    c.shards.push_back({p, bc, 0, offset, shape});
  }
  FunctionDesc main{"main", {a, bt}, {c}};
  if (function)
    *function = main;
  else
    b.AddFunction(main);
  return b;
}

std::vector<uint8_t> Elementwise(const std::vector<uint32_t>& grid_shape,
                                 const std::vector<std::vector<uint32_t>>& split_axes, uint64_t rows, uint64_t cols,
                                 float scale) {
  return ElementwiseBuilder(grid_shape, split_axes, rows, cols, scale).Finish();
}

std::vector<uint8_t> RingAllGather(uint32_t P, uint64_t n, ElementType type, bool with_deps) {
  ArtifactBuilder b({P}, {0});
  TensorDesc x = Tensor({P * n}, {{0}}), y = Tensor({P * n}, {{}});
  x.element_type = y.element_type = type;
  const uint64_t block = n * ElementSize(type);
  for (uint32_t p = 0; p < P; ++p) {
    uint32_t bx = b.AddBuffer(p, {block, BufferKind::kArgumentShard});
    uint32_t by = b.AddBuffer(p, {P * block, BufferKind::kResultShard});
    x.shards.push_back({p, bx, 0, {p * n}, {n}});
    y.shards.push_back({p, by, 0, {0}, {P * n}});
  }
  for (uint32_t p = 0; p < P; ++p) {
    b.AddFill(p, {1, 0, P * block, 0x7fc00000u});  // NaN: a missed block shows
    CopyDesc own;
    own.src_process = p;
    own.src_buffer = 0;
    own.dst_buffer = 1;
    own.dst_offset = p * block;
    own.size = block;
    b.AddCopy(p, own);
  }
  // Step s: process p pulls block (p - s) mod P from its left neighbour, which
  // received it in step s - 1 (command index s of the neighbour).
  for (uint32_t s = 1; s < P; ++s) {
    for (uint32_t p = 0; p < P; ++p) {
      uint32_t left = (p + P - 1) % P, blk = (p + P - s) % P;
      CopyDesc pull;
      pull.src_process = left;
      pull.src_buffer = 1;
      pull.src_offset = blk * block;
      pull.dst_buffer = 1;
      pull.dst_offset = blk * block;
      pull.size = block;
      b.AddCopy(p, pull, with_deps ? std::vector<CommandRef>{{left, s}} : std::vector<CommandRef>{});
    }
  }
  b.AddFunction({"all_gather", {x}, {y}});
  return b.Finish();
}

std::vector<uint8_t> DispatchChain(uint32_t dispatches, uint64_t n) {
  ArtifactBuilder b({1});
  uint32_t kernel = b.AddExecutable(ScaledAddKernel());
  std::vector<uint8_t> ones(n * 4);
  for (uint64_t i = 0; i < n; ++i) {
    float one = 1.0f;
    std::memcpy(ones.data() + 4 * i, &one, 4);
  }
  uint32_t x = b.AddBuffer(0, {n * 4, BufferKind::kArgumentShard});
  uint32_t y = b.AddBuffer(0, {n * 4, BufferKind::kTransient});
  uint32_t z = b.AddBuffer(0, {n * 4, BufferKind::kResultShard});
  uint32_t one = b.AddBuffer(0, {n * 4, BufferKind::kConstant, -1, ones});
  uint32_t last = x;
  for (uint32_t i = 0; i < dispatches; ++i) {
    uint32_t dst = i % 2 == 0 ? y : z;
    DispatchDesc d;
    d.executable = kernel;
    d.workgroup_count[0] = Groups(n);
    d.bindings = {{last, 0, 0}, {one, 0, 0}, {dst, 0, 0}};
    d.push_constants = ScaledAddPush(static_cast<uint32_t>(n), 1.0f);
    b.AddDispatch(0, d);
    last = dst;
  }
  if (last != z) {
    CopyDesc c;
    c.src_buffer = y;
    c.dst_buffer = z;
    c.size = n * 4;
    b.AddCopy(0, c);
  }
  TensorDesc tx = Tensor({n}, {{}}), tz = Tensor({n}, {{}});
  tx.shards.push_back({0, x, 0, {0}, {n}});
  tz.shards.push_back({0, z, 0, {0}, {n}});
  b.AddFunction({"chain", {tx}, {tz}});
  return b.Finish();
}

meshvk::artifact::StridedRegionDesc StridedRows(uint32_t count0, uint32_t count1, uint32_t src_row, uint32_t dst_row) {
  meshvk::artifact::StridedRegionDesc region;
  region.count[0] = count0;
  region.count[1] = count1;
  region.src_stride[0] = region.dst_stride[0] = 1;
  region.src_stride[1] = src_row;
  region.dst_stride[1] = dst_row;
  return region;
}

}  // namespace meshvk_test
