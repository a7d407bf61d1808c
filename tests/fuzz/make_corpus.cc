// Writes the fuzz seed corpora: valid builder-made artifacts of every command
// kind, plus a few near-misses, one file each into DIR; and, with TENSOR_DIR,
// inputs for fuzz_tensor_io (a mode byte, then a .npy/.bin file or a spec).
#include <cstdio>
#include <string>
#include <vector>

#include "meshvk/artifact/variants.h"
#include "npy_header.h"
#include "programs.h"

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: fuzz_make_corpus DIR [TENSOR_DIR]\n");
    return 2;
  }
  std::vector<std::pair<std::string, std::vector<uint8_t>>> seeds = {
      {"elementwise_rows", meshvk_test::Elementwise({2}, {{0}, {}}, 4, 8, 2.0f)},
      {"elementwise_2x2", meshvk_test::Elementwise({2, 2}, {{0}, {1}}, 4, 4, 1.0f)},
      {"allgather2", meshvk_test::RingAllGather(2, 4)},
      {"allgather4", meshvk_test::RingAllGather(4, 2)},
      {"chain3", meshvk_test::DispatchChain(3, 16)},
  };
  meshvk::artifact::ArtifactBuilder newer = meshvk_test::ElementwiseBuilder({1}, {{0}, {}}, 2, 2, 1.0f);
  newer.set_format_version(3);
  seeds.push_back({"newer", newer.Finish()});
  // A file of plans (a dynamic grid, format_version 2): one plan per count.
  seeds.push_back({"variants_1_2", meshvk::artifact::BuildVariantsArtifact(
                                       {{1, meshvk_test::Elementwise({1}, {{0}, {}}, 4, 8, 2.0f)},
                                        {2, meshvk_test::Elementwise({2}, {{0}, {}}, 4, 8, 2.0f)}})});
  meshvk::artifact::ArtifactBuilder strided = meshvk_test::ElementwiseBuilder({1}, {{0}, {}}, 4, 4, 1.0f);
  meshvk::artifact::CopyDesc copy;
  copy.src_buffer = 0;
  copy.dst_buffer = 2;
  copy.regions = {meshvk_test::StridedRows(2, 2, 4, 2)};
  strided.AddCopy(0, copy, {{0, 0}});
  seeds.push_back({"strided", strided.Finish()});
  std::vector<std::pair<std::string, std::vector<uint8_t>>> tensor_seeds;
  auto npy = [](uint8_t mode, std::vector<uint64_t> shape, meshvk_element_type_t type, size_t data_bytes) {
    std::vector<uint8_t> bytes = {mode};
    std::vector<uint8_t> header = meshvk_run::MakeNpyHeader(shape, type);
    bytes.insert(bytes.end(), header.begin(), header.end());
    bytes.resize(bytes.size() + data_bytes, 0x3f);
    return bytes;
  };
  auto text = [](uint8_t mode, const std::string& s) {
    std::vector<uint8_t> bytes = {mode};
    bytes.insert(bytes.end(), s.begin(), s.end());
    return bytes;
  };
  tensor_seeds.push_back({"npy_4x3", npy(0, {4, 3}, MESHVK_ELEMENT_F32, 48)});
  tensor_seeds.push_back({"npy_f16", npy(0, {5}, MESHVK_ELEMENT_F16, 10)});
  tensor_seeds.push_back({"npy_scalar", npy(0, {}, MESHVK_ELEMENT_I32, 4)});
  tensor_seeds.push_back({"npy_header", npy(3, {2, 3, 4}, MESHVK_ELEMENT_F32, 0)});
  tensor_seeds.push_back({"bin", text(1, std::string(48, 'x'))});
  tensor_seeds.push_back({"spec_values", text(2, "2x3xf32=1 2 3 4 5 6")});
  tensor_seeds.push_back({"spec_splat", text(2, "4x4xi32=-7")});
  tensor_seeds.push_back({"spec_commas", text(2, "3xf16=0.5,1e-3,65504")});
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::vector<uint8_t>>>*>> dirs = {
      {argv[1], &seeds}};
  for (auto& [name, bytes] : seeds) name += ".mvk";
  if (argc == 3) dirs.push_back({argv[2], &tensor_seeds});
  for (const auto& [dir, list] : dirs)
    for (const auto& [name, bytes] : *list) {
      std::string path = dir + "/" + name;
      FILE* f = std::fopen(path.c_str(), "wb");
      if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fclose(f) != 0) {
        std::fprintf(stderr, "fuzz_make_corpus: cannot write %s\n", path.c_str());
        return 1;
      }
    }
  return 0;
}
