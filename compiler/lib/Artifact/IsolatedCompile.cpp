//===- IsolatedCompile.cpp - A compilation in a child process -------------===//
//
// compileInChildProcess on runInChildProcess (meshvk/Support/CrashIsolation.h):
// the child sends the CompiledProgram back as a small length-prefixed message
// (written by hand: six fields, not worth a schema; the artifact inside it is
// the FlatBuffers .mvk).
//
//===----------------------------------------------------------------------===//
#include "IsolatedCompile.h"

#include <cstring>
#include <string>

#include "meshvk/Support/CrashIsolation.h"

namespace meshvk {
namespace {

// --- the result message ---------------------------------------------------

class MessageWriter {
public:
  void u64(uint64_t v) { bytes.append(reinterpret_cast<const char *>(&v), sizeof v); }
  void i64(int64_t v) { u64(static_cast<uint64_t>(v)); }
  void f64(double v) { bytes.append(reinterpret_cast<const char *>(&v), sizeof v); }
  void text(const std::string &s) {
    u64(s.size());
    bytes += s;
  }
  void ints(const std::vector<int64_t> &v) {
    u64(v.size());
    for (int64_t x : v)
      i64(x);
  }
  void memory(const std::vector<ProcessMemoryPlan> &plans) {
    u64(plans.size());
    for (const ProcessMemoryPlan &m : plans) {
      u64(m.argumentBytes), u64(m.resultBytes), u64(m.transientBytes), u64(m.constantBytes);
    }
  }
  void collectives(const std::vector<CollectivePlan> &plans) {
    u64(plans.size());
    for (const CollectivePlan &c : plans) {
      text(c.kind), text(c.algorithm), i64(c.groupSize), ints(c.pulledBytes);
    }
  }
  std::string bytes;
};

// Reads what MessageWriter wrote; any short or oversized field makes ok false
// (the parent then reports the child's result as lost, never reads past it).
class MessageReader {
public:
  explicit MessageReader(const std::string &bytes) : bytes(bytes) {}
  uint64_t u64() {
    uint64_t v = 0;
    if (at + sizeof v > bytes.size())
      return ok = false, 0;
    std::memcpy(&v, bytes.data() + at, sizeof v);
    at += sizeof v;
    return v;
  }
  int64_t i64() { return static_cast<int64_t>(u64()); }
  double f64() {
    uint64_t bits = u64();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
  // A count of elements of at least `elementBytes` each: larger than what is
  // left means a torn message.
  uint64_t count(uint64_t elementBytes) {
    uint64_t n = u64();
    if (n > (bytes.size() - at) / elementBytes)
      return ok = false, 0;
    return n;
  }
  std::string text() {
    uint64_t n = count(1);
    std::string s = ok ? bytes.substr(at, n) : std::string();
    at += s.size();
    return s;
  }
  std::vector<int64_t> ints() {
    std::vector<int64_t> v(count(8));
    for (int64_t &x : v)
      x = i64();
    return v;
  }
  std::vector<ProcessMemoryPlan> memory() {
    std::vector<ProcessMemoryPlan> plans(count(32));
    for (ProcessMemoryPlan &m : plans)
      m.argumentBytes = u64(), m.resultBytes = u64(), m.transientBytes = u64(),
      m.constantBytes = u64();
    return plans;
  }
  std::vector<CollectivePlan> collectives() {
    std::vector<CollectivePlan> plans(count(32));
    for (CollectivePlan &c : plans) {
      c.kind = text(), c.algorithm = text();
      c.groupSize = i64();
      c.pulledBytes = ints();
    }
    return plans;
  }
  bool done() const { return ok && at == bytes.size(); }

private:
  const std::string &bytes;
  size_t at = 0;
  bool ok = true;
};

std::string encode(const CompiledProgram &p) {
  MessageWriter w;
  w.text(std::string(p.artifact.begin(), p.artifact.end()));
  w.ints(p.gridShape);
  w.memory(p.memory);
  w.collectives(p.collectives);
  w.u64(p.warnings.size());
  for (const std::string &warning : p.warnings)
    w.text(warning);
  w.u64(p.shardingPlan.size());
  for (const std::string &line : p.shardingPlan)
    w.text(line);
  w.u64(p.variants.size());
  for (const CompiledVariant &v : p.variants) {
    w.i64(v.processes), w.ints(v.gridShape), w.u64(v.artifactBytes), w.f64(v.compileSeconds);
    w.memory(v.memory), w.collectives(v.collectives);
  }
  return w.bytes;
}

bool decode(const std::string &bytes, CompiledProgram *p) {
  MessageReader r(bytes);
  std::string artifact = r.text();
  p->artifact.assign(artifact.begin(), artifact.end());
  p->gridShape = r.ints();
  p->memory = r.memory();
  p->collectives = r.collectives();
  p->warnings.resize(r.count(8));
  for (std::string &warning : p->warnings)
    warning = r.text();
  p->shardingPlan.resize(r.count(8));
  for (std::string &line : p->shardingPlan)
    line = r.text();
  p->variants.resize(r.count(48));
  for (CompiledVariant &v : p->variants) {
    v.processes = r.i64(), v.gridShape = r.ints(), v.artifactBytes = r.u64();
    v.compileSeconds = r.f64();
    v.memory = r.memory(), v.collectives = r.collectives();
  }
  return r.done();
}

} // namespace

std::string compileInChildProcess(const std::string &inputName, CompileStep compile,
                                  CompiledProgram *out) {
  *out = CompiledProgram();
  std::string payload;
  std::string error = runInChildProcess(
      inputName,
      [&](std::string *result) {
        CompiledProgram program;
        std::string e = compile(&program);
        *result = encode(program);
        return e;
      },
      &payload);
  if (!error.empty())
    return *out = CompiledProgram(), error;
  if (!decode(payload, out))
    return *out = CompiledProgram(),
           inputName + ": error: the compiling child process sent back a damaged result";
  return "";
}

} // namespace meshvk
