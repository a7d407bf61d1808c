// Writes the files the mesh-vk-run CLI tests use into DIR: builder-made
// programs (.mvk, good and broken), inputs and host-computed expected outputs
// (.npy/.bin, good and broken).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "npy_header.h"
#include "output_files.h"
#include "programs.h"

namespace {

std::string dir;

void WriteBytes(const std::string& name, const std::vector<uint8_t>& bytes) {
  FILE* f = std::fopen((dir + "/" + name).c_str(), "wb");
  if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fclose(f) != 0) {
    std::fprintf(stderr, "make_test_data: cannot write %s\n", name.c_str());
    std::exit(1);
  }
}

void WriteTensor(const std::string& name, const std::vector<uint64_t>& shape, meshvk_element_type_t type,
                 const std::vector<float>& values) {
  meshvk_run::HostTensor t;
  t.shape = shape;
  t.type = type;
  t.data.resize(values.size() * meshvk_run::ElementBytes(type));
  for (size_t i = 0; i < values.size(); ++i) {
    if (type == MESHVK_ELEMENT_I32) {
      int32_t v = static_cast<int32_t>(values[i]);
      std::memcpy(t.data.data() + 4 * i, &v, 4);
    } else if (type == MESHVK_ELEMENT_F16) {
      uint16_t h = meshvk_run::FloatToHalf(values[i]);
      std::memcpy(t.data.data() + 2 * i, &h, 2);
    } else {
      std::memcpy(t.data.data() + 4 * i, &values[i], 4);
    }
  }
  std::string error;
  if (!meshvk_run::WriteNpy(dir + "/" + name, t, &error)) {
    std::fprintf(stderr, "make_test_data: %s\n", error.c_str());
    std::exit(1);
  }
}

std::vector<uint8_t> ReadBack(const std::string& name) {
  std::vector<uint8_t> bytes;
  FILE* f = std::fopen((dir + "/" + name).c_str(), "rb");
  int c;
  while (f && (c = std::fgetc(f)) != EOF) bytes.push_back(static_cast<uint8_t>(c));
  if (f) std::fclose(f);
  return bytes;
}

// c = a + scale * b over `count` floats on one process, with `kernel` (the
// test kernel, possibly edited) as the only executable.
std::vector<uint8_t> OneDispatch(const meshvk::artifact::ExecutableDesc& kernel, uint64_t count, uint32_t push_bytes) {
  using namespace meshvk::artifact;
  ArtifactBuilder b({1});
  uint32_t x = b.AddExecutable(kernel);
  uint32_t ba = b.AddBuffer(0, {count * 4, BufferKind::kArgumentShard});
  uint32_t bb = b.AddBuffer(0, {count * 4, BufferKind::kArgumentShard});
  uint32_t bc = b.AddBuffer(0, {count * 4, BufferKind::kResultShard});
  DispatchDesc d;
  d.executable = x;
  d.bindings = {{ba, 0, 0}, {bb, 0, 0}, {bc, 0, 0}};
  d.push_constants = meshvk_test::ScaledAddPush(static_cast<uint32_t>(count), 0.5f);
  d.push_constants.resize(push_bytes);
  b.AddDispatch(0, d);
  auto tensor = [&](uint32_t buffer) {
    TensorDesc t;
    t.shape = {count};
    t.split_axes = {{}};
    t.shards = {{0, buffer, 0, {0}, {count}}};
    return t;
  };
  b.AddFunction({"main", {tensor(ba), tensor(bb)}, {tensor(bc)}});
  return b.Finish();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_test_data DIR\n");
    return 2;
  }
  dir = argv[1];
  // c = a + 0.5 b on 4x3 f32, rows split over 2 processes.
  WriteBytes("add.mvk", meshvk_test::Elementwise({2}, {{0}, {}}, 4, 3, 0.5f));
  WriteBytes("allgather4.mvk", meshvk_test::RingAllGather(4, 2));
  WriteBytes("allgather_i32.mvk", meshvk_test::RingAllGather(2, 2, meshvk::artifact::ElementType::kI32));
  WriteBytes("allgather_f16.mvk", meshvk_test::RingAllGather(2, 2, meshvk::artifact::ElementType::kF16));
  WriteTensor("h.npy", {4}, MESHVK_ELEMENT_F16, {0.5f, -1.5f, 3.0f, 65504.0f});
  std::vector<float> a(12), b(12, 2.0f), c(12), c_near(12), x(8);
  for (int i = 0; i < 12; ++i) {
    a[i] = static_cast<float>(i);
    c[i] = a[i] + 0.5f * b[i];  // the host oracle
    c_near[i] = c[i] + 0.01f;
  }
  for (int i = 0; i < 8; ++i) x[i] = 100.0f + i;
  WriteTensor("a.npy", {4, 3}, MESHVK_ELEMENT_F32, a);
  WriteTensor("b.npy", {4, 3}, MESHVK_ELEMENT_F32, b);
  WriteTensor("expected_c.npy", {4, 3}, MESHVK_ELEMENT_F32, c);
  WriteTensor("near_c.npy", {4, 3}, MESHVK_ELEMENT_F32, c_near);
  WriteTensor("a_i32.npy", {4, 3}, MESHVK_ELEMENT_I32, a);
  WriteTensor("x.npy", {8}, MESHVK_ELEMENT_F32, x);
  std::vector<uint8_t> raw(12 * 4);
  std::memcpy(raw.data(), b.data(), raw.size());
  WriteBytes("b.bin", raw);
  WriteBytes("short.bin", std::vector<uint8_t>(raw.begin(), raw.begin() + 20));

  // Broken .npy files, each broken one way.
  std::vector<uint8_t> npy = ReadBack("a.npy");
  std::vector<uint8_t> bad_magic = npy;
  bad_magic[1] = 'X';
  WriteBytes("bad_magic.npy", bad_magic);
  WriteBytes("truncated.npy", std::vector<uint8_t>(npy.begin(), npy.end() - 8));
  WriteBytes("header_only.npy", std::vector<uint8_t>(npy.begin(), npy.begin() + 9));
  std::string text(npy.begin(), npy.end());
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string s = text;
    s.replace(s.find(from), from.size(), to);
    return std::vector<uint8_t>(s.begin(), s.end());
  };
  WriteBytes("f64.npy", replaced("'<f4'", "'<f8'"));
  WriteBytes("fortran.npy", replaced("False", "True "));
  WriteBytes("bad_shape.npy", replaced("(4, 3)", "(4, q)"));

  // Broken programs.
  std::vector<uint8_t> good = meshvk_test::Elementwise({2}, {{0}, {}}, 4, 3, 0.5f);
  WriteBytes("truncated.mvk", std::vector<uint8_t>(good.begin(), good.begin() + good.size() / 2));
  meshvk::artifact::ArtifactBuilder newer = meshvk_test::ElementwiseBuilder({2}, {{0}, {}}, 4, 3, 0.5f);
  newer.set_format_version(7);
  WriteBytes("newer.mvk", newer.Finish());
  WriteBytes("program.mlir", {'/', '/', '\n'});

  // Two results (c and a copy of c): all-or-nothing output files.
  {
    meshvk::artifact::FunctionDesc fn;
    meshvk::artifact::ArtifactBuilder two = meshvk_test::ElementwiseBuilder({2}, {{0}, {}}, 4, 3, 0.5f, &fn);
    meshvk::artifact::TensorDesc copy = fn.results[0];
    for (uint32_t p = 0; p < 2; ++p) {
      uint32_t d = two.AddBuffer(p, {24, meshvk::artifact::BufferKind::kResultShard});
      meshvk::artifact::CopyDesc c;
      c.src_process = p;
      c.src_buffer = 2;  // c's shard (ElementwiseBuilder: a, b, c)
      c.dst_buffer = d;
      c.size = 24;
      two.AddCopy(p, c, {{p, 0}});
      copy.shards[p].buffer = d;
    }
    fn.results.push_back(copy);
    two.AddFunction(fn);
    WriteBytes("add2.mvk", two.Finish());
  }
  // Kernels the verifier must refuse (issue 13): the push-constant range
  // declared 12 bytes for an 8-byte block; and the resealed bit flip that
  // segfaulted lavapipe (BuiltIn GlobalInvocationId -> LocalInvocationIndex
  // on a uvec3, which spirv-val 2023.1 accepts).
  {
    meshvk::artifact::ExecutableDesc wide = meshvk_test::ScaledAddKernel();
    wide.push_constant_size = 12;
    WriteBytes("push_mismatch.mvk", OneDispatch(wide, 12, 12));
    meshvk::artifact::ExecutableDesc flipped = meshvk_test::ScaledAddKernel();
    for (size_t i = 5; i < flipped.spirv.size(); i += flipped.spirv[i] >> 16)
      if ((flipped.spirv[i] & 0xffff) == 71 && flipped.spirv[i + 2] == 11 && flipped.spirv[i + 3] == 28)
        flipped.spirv[i + 3] = 29;  // OpDecorate %id BuiltIn GlobalInvocationId -> LocalInvocationIndex
    WriteBytes("builtin_flip.mvk", OneDispatch(flipped, 12, 8));
  }
  // Arguments the signature allows but no 1 GiB process holds (2^32 f32 each).
  WriteBytes("huge_args.mvk", OneDispatch(meshvk_test::ScaledAddKernel(), uint64_t(1) << 32, 8));

  // The header of an 8 GiB .npy (the test makes it sparse with truncate).
  std::vector<uint8_t> big = meshvk_run::MakeNpyHeader({65536, 32768}, MESHVK_ELEMENT_F32);
  WriteBytes("big_header.npy", big);
  return 0;
}
