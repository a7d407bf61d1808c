// Copies between every two processes of a topology (cases.h), each by the
// path the device set chose for the pair: contents checked against the
// pattern written, then bandwidth and latency measured (like CUDA's
// p2pBandwidthLatencyTest, as a matrix over the topology's processes).
#include <algorithm>
#include <chrono>
#include <memory>

#include "cases.h"
#include "meshvk/buffer.h"
#include "meshvk/command_buffer.h"
#include "meshvk/queue.h"
#include "meshvk/semaphore.h"

namespace meshvk_conformance {
namespace {

struct BufferRef {
  meshvk_buffer_t* b = nullptr;
  ~BufferRef() { meshvk_buffer_release(b); }
};

// The processes a copy matrix runs over: one per device of the topology (two
// on one device for logical devices, so the local path is measured too).
uint32_t ProcessCount(meshvk_instance_t* instance, const Topology& topology) {
  if (topology.kind == MESHVK_TOPOLOGY_LOGICAL) return 2;
  if (topology.kind == MESHVK_TOPOLOGY_INDEPENDENT) return static_cast<uint32_t>(topology.physical_devices.size());
  meshvk_device_group_info_t info = MESHVK_DEVICE_GROUP_INFO_INIT;
  Status s(meshvk_instance_device_group_info(instance, topology.group_index, &info));
  return s.ok() ? info.device_count : 0;
}

std::string PairName(uint32_t a, uint32_t b) { return "copy." + std::to_string(a) + "-" + std::to_string(b); }

// One pull of `size` bytes from `src` (process a) into `dst` (process b) by
// `path`, recorded once and replayed `times` times; returns the wall time of
// each replay (submit to completion) or the error.
class PairCopy {
 public:
  PairCopy(meshvk_device_set_t* set, const meshvk_copy_path_info_t& path, const KitOptions& options)
      : set_(set), path_(path), options_(options) {}
  ~PairCopy() {
    meshvk_command_buffer_release(cb_);
    meshvk_semaphore_release(done_);
    meshvk_buffer_release(view_);
  }

  std::string Prepare(meshvk_buffer_t* src, meshvk_buffer_t* dst, uint64_t size) {
    src_ = src, dst_ = dst, size_ = size;
    if (path_.path == MESHVK_COPY_PATH_HOST_STAGING) return "";
    uint32_t b = meshvk_buffer_process(dst);
    meshvk_buffer_t* from = src;
    if (path_.path == MESHVK_COPY_PATH_EXTERNAL_MEMORY) {
      Status s(meshvk_buffer_share(src, b, &view_));
      if (!s.ok()) return "import into process " + std::to_string(b) + ": " + s.Message();
      from = view_;
    }
    Status s1(meshvk_semaphore_create(set_, b, 0, &done_));
    if (!s1.ok()) return s1.Message();
    Status s2(meshvk_command_buffer_create(set_, b, &cb_));
    if (!s2.ok()) return s2.Message();
    Status s3(meshvk_command_buffer_copy(cb_, from, 0, dst, 0, size));
    if (!s3.ok()) return "record: " + s3.Message();
    Status s4(meshvk_command_buffer_end(cb_));
    return s4.ok() ? "" : s4.Message();
  }

  std::string Run(double& seconds) {
    auto start = std::chrono::steady_clock::now();
    if (path_.path == MESHVK_COPY_PATH_HOST_STAGING) {
      Status s(meshvk_buffer_copy_host_staged(src_, 0, dst_, 0, size_, options_.timeout_ns));
      if (!s.ok()) return "host-staged copy: " + s.Message();
    } else {
      meshvk_semaphore_value_t signal = {done_, ++value_};
      meshvk_submit_info_t submit = MESHVK_SUBMIT_INFO_INIT;
      submit.command_buffer = cb_;
      submit.signals = &signal;
      submit.signal_count = 1;
      Status s(meshvk_queue_submit(set_, &submit));
      if (!s.ok()) return "submit: " + s.Message();
      Status w(meshvk_semaphore_wait(done_, value_, options_.timeout_ns));
      if (!w.ok()) return "wait: " + w.Message();
    }
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return "";
  }

  std::string Median(int times, double& median) {
    std::vector<double> t(times);
    for (double& s : t) {
      std::string e = Run(s);
      if (!e.empty()) return e;
    }
    std::sort(t.begin(), t.end());
    median = t[t.size() / 2];
    return "";
  }

 private:
  meshvk_device_set_t* set_;
  meshvk_copy_path_info_t path_ = MESHVK_COPY_PATH_INFO_INIT;
  const KitOptions& options_;
  meshvk_buffer_t *src_ = nullptr, *dst_ = nullptr, *view_ = nullptr;
  meshvk_command_buffer_t* cb_ = nullptr;
  meshvk_semaphore_t* done_ = nullptr;
  uint64_t size_ = 0, value_ = 0;
};

std::vector<uint32_t> Pattern(uint64_t bytes, uint32_t a, uint32_t b) {
  std::vector<uint32_t> words(bytes / 4);
  for (size_t i = 0; i < words.size(); ++i) words[i] = uint32_t(i * 2654435761u) ^ (a << 24) ^ (b << 16);
  return words;
}

std::string Contents(meshvk_buffer_t* dst, const std::vector<uint32_t>& want) {
  std::vector<uint32_t> got(want.size());
  Status s(meshvk_buffer_read(dst, 0, got.data(), got.size() * 4));
  if (!s.ok()) return "read back: " + s.Message();
  auto diff = std::mismatch(want.begin(), want.end(), got.begin());
  if (diff.first == want.end()) return "";
  size_t i = diff.first - want.begin();
  return "word " + std::to_string(i) + " (byte " + std::to_string(i * 4) + "): got " + std::to_string(*diff.second) +
         ", expected " + std::to_string(*diff.first);
}

std::string MakeBuffer(meshvk_device_set_t* set, uint32_t process, uint64_t size, bool exportable, BufferRef& out) {
  meshvk_buffer_create_info_t info = MESHVK_BUFFER_CREATE_INFO_INIT;
  info.process = process;
  info.size = size;
  info.flags = exportable ? MESHVK_BUFFER_EXPORTABLE_BIT : 0u;
  Status s(meshvk_buffer_create_with_info(set, &info, &out.b));
  return s.ok() ? "" : "buffer on process " + std::to_string(process) + ": " + s.Message();
}

// Contents, then bandwidth (median of 3 at options.bandwidth_bytes) and
// latency (median of 5 copies of 4 bytes).
void RunPair(meshvk_device_set_t* set, uint32_t a, uint32_t b, const KitOptions& options, TopologyResult& out) {
  auto start = std::chrono::steady_clock::now();
  std::string name = PairName(a, b) + ".contents";
  meshvk_copy_path_info_t path = MESHVK_COPY_PATH_INFO_INIT;
  Status sp(meshvk_device_set_copy_path(set, a, b, &path));
  if (!sp.ok()) return out.cases.push_back({name, Outcome::kFail, sp.Message(), 0});
  uint64_t size = options.bandwidth_bytes;
  bool exportable = path.path == MESHVK_COPY_PATH_EXTERNAL_MEMORY;
  BufferRef src, dst, small_src, small_dst;
  std::string e = MakeBuffer(set, a, size, exportable, src);
  if (e.empty()) e = MakeBuffer(set, b, size, false, dst);
  if (e.empty()) e = MakeBuffer(set, a, 4, exportable, small_src);
  if (e.empty()) e = MakeBuffer(set, b, 4, false, small_dst);
  std::vector<uint32_t> pattern = Pattern(size, a, b);
  if (e.empty()) {
    Status w(meshvk_buffer_write(src.b, 0, pattern.data(), size));
    if (!w.ok()) e = "write the pattern: " + w.Message();
  }
  // The destination starts as the pattern's complement, written last, so a
  // copy that does nothing (or a read-back that returns stale staging bytes)
  // cannot pass.
  if (e.empty()) {
    std::vector<uint32_t> poison(pattern.size());
    for (size_t i = 0; i < poison.size(); ++i) poison[i] = ~pattern[i];
    Status w(meshvk_buffer_write(dst.b, 0, poison.data(), size));
    if (!w.ok()) e = "write the destination: " + w.Message();
  }
  PairCopy big(set, path, options), tiny(set, path, options);
  if (e.empty()) e = big.Prepare(src.b, dst.b, size);
  double seconds = 0, latency = 0;
  if (e.empty()) e = big.Run(seconds);
  if (e.empty()) e = Contents(dst.b, pattern);
  if (e.empty()) e = big.Median(3, seconds);
  if (e.empty()) e = tiny.Prepare(small_src.b, small_dst.b, 4);
  if (e.empty()) e = tiny.Median(5, latency);
  std::string path_name = meshvk_copy_path_name(path.path);
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.cases.push_back(
      {name, e.empty() ? Outcome::kPass : Outcome::kFail, e.empty() ? "" : path_name + ": " + e, elapsed});
  if (e.empty()) out.bandwidth.push_back({a, b, path_name, size, size / seconds / 1e9, latency * 1e6});
}

}  // namespace

std::vector<std::string> CopyCaseNames(meshvk_instance_t* instance, const Topology& topology) {
  std::vector<std::string> names;
  uint32_t n = ProcessCount(instance, topology);
  for (uint32_t a = 0; a < n; ++a)
    for (uint32_t b = 0; b < n; ++b)
      if (a != b) names.push_back(PairName(a, b) + ".contents");
  return names;
}

void RunCopyCases(meshvk_instance_t* instance, const Topology& topology, const KitOptions& options,
                  TopologyResult& out) {
  std::vector<std::string> names = CopyCaseNames(instance, topology);
  if (std::none_of(names.begin(), names.end(),
                   [&](const std::string& n) { return options.selected(topology.name + "/" + n); }))
    return;
  meshvk_status_t raw = MESHVK_OK;
  meshvk_device_set_t* set =
      CreateDeviceSet(instance, topology, ProcessCount(instance, topology), options.timeout_ns, &raw);
  Status made(raw);
  if (!made.ok()) {
    for (const std::string& n : names)
      if (options.selected(topology.name + "/" + n))
        out.cases.push_back(
            {n, made.NotSupported() ? Outcome::kNotSupported : Outcome::kFail, "device set: " + made.Message(), 0});
    return;
  }
  uint32_t n = meshvk_device_set_process_count(set);
  for (uint32_t a = 0; a < n; ++a)
    for (uint32_t b = 0; b < n; ++b)
      if (a != b && options.selected(topology.name + "/" + PairName(a, b) + ".contents"))
        RunPair(set, a, b, options, out);
  meshvk_device_set_release(set);
}

}  // namespace meshvk_conformance
