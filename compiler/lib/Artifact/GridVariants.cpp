// A dynamic grid compiled once per process count into one file of variants
// (see GridVariants.h).
#include "GridVariants.h"

#include <chrono>
#include <set>

#include "meshvk/artifact/variants.h"

namespace meshvk {
namespace {

std::string countsText(const std::vector<int64_t> &counts) {
  std::string text;
  for (size_t i = 0; i < counts.size(); ++i)
    text += (i ? ", " : "") + std::to_string(counts[i]);
  return text;
}

} // namespace

std::string compileGridVariants(const std::string &source, const std::string &bufferName,
                                const ProgramOptions &options, const std::string &gridWhere,
                                const std::string &grid, CompiledProgram *out) {
  const std::vector<int64_t> &sizes =
      options.gridSizes.empty() ? kDefaultGridSizes : options.gridSizes;
  std::vector<artifact::GridVariantDesc> plans;
  std::vector<CompiledVariant> variants;
  std::vector<std::string> warnings, refusals;
  std::set<std::string> seenWarnings; // the program's own warnings repeat per count
  for (int64_t count : sizes) {
    ProgramOptions one = options;
    one.gridSizes.clear();
    one.dynamicGridProcesses = count;
    // Each plan's kernels in their own folder: plans for different counts
    // have kernels of the same name (and other tile sizes).
    if (!options.dumpDirectory.empty())
      one.dumpDirectory = options.dumpDirectory + "/p" + std::to_string(count);
    CompiledProgram compiled;
    auto start = std::chrono::steady_clock::now();
    std::string error = compileProgramSource(source, bufferName, one, &compiled);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!error.empty()) {
      refusals.push_back("for " + std::to_string(count) + ": " + error);
      warnings.push_back(gridWhere + ": warning: " + grid + ": no plan for " +
                         std::to_string(count) + " processes, left out: " + error);
      continue;
    }
    for (std::string &w : compiled.warnings)
      if (seenWarnings.insert(w).second)
        warnings.push_back(std::move(w));
    CompiledVariant v;
    v.processes = count;
    v.gridShape = compiled.gridShape;
    v.artifactBytes = compiled.artifact.size();
    v.compileSeconds = seconds;
    v.memory = std::move(compiled.memory);
    v.collectives = std::move(compiled.collectives);
    variants.push_back(std::move(v));
    plans.push_back({static_cast<uint32_t>(count), std::move(compiled.artifact)});
  }
  *out = CompiledProgram();
  if (plans.empty()) { // one line: every count's reason
    std::string reasons;
    for (const std::string &r : refusals)
      reasons += "; " + r;
    return gridWhere + ": error: " + grid + " compiles for none of the process counts " +
           countsText(sizes) + reasons;
  }
  out->warnings = std::move(warnings);
  out->artifact = artifact::BuildVariantsArtifact(plans, options.producer);
  out->variants = std::move(variants);
  return "";
}

} // namespace meshvk
