// Writes the fuzz seed corpus: valid builder-made artifacts of every command
// kind, plus a few near-misses, one file each into DIR.
#include <cstdio>
#include <string>
#include <vector>

#include "programs.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_make_corpus DIR\n");
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
  newer.set_format_version(2);
  seeds.push_back({"newer", newer.Finish()});
  meshvk::artifact::ArtifactBuilder strided = meshvk_test::ElementwiseBuilder({1}, {{0}, {}}, 4, 4, 1.0f);
  meshvk::artifact::CopyDesc copy;
  copy.src_buffer = 0;
  copy.dst_buffer = 2;
  meshvk::artifact::StridedRegionDesc region;
  region.count[0] = 2;
  region.count[1] = 2;
  region.src_stride[0] = 1;
  region.src_stride[1] = 4;
  region.dst_stride[0] = 1;
  region.dst_stride[1] = 2;
  copy.regions = {region};
  strided.AddCopy(0, copy, {{0, 0}});
  seeds.push_back({"strided", strided.Finish()});
  for (const auto& [name, bytes] : seeds) {
    std::string path = std::string(argv[1]) + "/" + name + ".mvk";
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fclose(f) != 0) {
      std::fprintf(stderr, "fuzz_make_corpus: cannot write %s\n", path.c_str());
      return 1;
    }
  }
  return 0;
}
