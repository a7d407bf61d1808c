// make_sample_data OUTDIR [SAMPLE...]: writes, for each sample program, its
// inputs (random, fixed seed) and the expected results computed by the host
// loops of samples.cc (never by meshvk) as .npy files:
//   OUTDIR/<sample>.in<i>.npy, OUTDIR/<sample>.expected<j>.npy
// and prints the mesh-vk-run flags that use them. scripts/run-sample.sh uses it
// so the README's first command checks its numbers against an independent
// reference.
#include <cstdio>
#include <cstring>
#include <string>

#include "output_files.h"
#include "samples.h"

namespace {

meshvk_run::HostTensor ToNpy(const meshvk_e2e::HostTensor& t) {
  meshvk_run::HostTensor out;
  for (int64_t d : t.shape) out.shape.push_back(static_cast<uint64_t>(d));
  out.type = t.type;
  out.data.resize(t.bytes());
  std::memcpy(out.data.data(), t.data(), t.bytes());
  return out;
}

std::string Spec(const meshvk_run::HostTensor& t, const std::string& path) {
  return meshvk_run::TypeString(t.shape, t.type) + "=@" + path;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: make_sample_data OUTDIR [SAMPLE...] (default: every sample)\n");
    return 2;
  }
  const std::string dir = argv[1];
  std::vector<std::string> names;
  for (int i = 2; i < argc; ++i) names.push_back(argv[i]);
  if (names.empty())
    for (const meshvk_e2e::Sample& s : meshvk_e2e::Samples()) names.push_back(s.name);
  for (const std::string& name : names) {
    const meshvk_e2e::Sample* sample = nullptr;
    for (const meshvk_e2e::Sample& s : meshvk_e2e::Samples())
      if (s.name == name) sample = &s;
    if (!sample) {
      std::fprintf(stderr, "make_sample_data: no sample named '%s'\n", name.c_str());
      return 2;
    }
    std::vector<meshvk_e2e::HostTensor> inputs = sample->make_inputs(20261130);
    std::vector<meshvk_e2e::HostTensor> expected = sample->reference(inputs);
    std::string flags;
    auto write = [&](const meshvk_e2e::HostTensor& t, const std::string& what, const char* flag) {
      std::string path = dir + "/" + name + "." + what + ".npy", error;
      meshvk_run::HostTensor npy = ToNpy(t);
      if (!meshvk_run::WriteNpy(path, npy, &error)) {
        std::fprintf(stderr, "make_sample_data: %s\n", error.c_str());
        return false;
      }
      flags += std::string(flags.empty() ? "" : " ") + flag + Spec(npy, path);
      return true;
    };
    for (size_t i = 0; i < inputs.size(); ++i)
      if (!write(inputs[i], "in" + std::to_string(i), "--input=")) return 2;
    for (size_t j = 0; j < expected.size(); ++j)
      if (!write(expected[j], "expected" + std::to_string(j), "--expected_output=")) return 2;
    std::printf("%s: %s\n", name.c_str(), flags.c_str());
  }
  return 0;
}
