// The pump of a program whose processes span VkDevices that share no
// semaphores (program_submit.cc): one thread per VkDevice, owned by the
// program, started on the first invoke that needs it and joined when the
// program is released.
//
// Why threads: between such devices the host waits for a producer and moves
// the bytes it made (host staging) before the consumer is submitted. Done on
// the invoking thread, phase by phase, every device's later work waited
// behind the slowest pair's wait and copy, so copies and kernels ran one
// after the other. With a thread per device each device's segments go out in
// their own order: a device whose waits are met (device-side, or producers
// that finished) submits at once, and the thread of a consumer moves its
// bytes while the producer's device already runs its later kernels.
#ifndef MESHVK_RUNTIME_MODULE_SEGMENT_PUMP_H_
#define MESHVK_RUNTIME_MODULE_SEGMENT_PUMP_H_

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "status.h"

namespace meshvk::module {

class SegmentPump {
 public:
  using Job = std::function<Status()>;

  SegmentPump() = default;
  // Joins the threads (they are idle: Run returns only when its jobs have).
  ~SegmentPump();
  SegmentPump(const SegmentPump&) = delete;
  SegmentPump& operator=(const SegmentPump&) = delete;

  // Runs jobs[i] on thread i (started on first use, kept for later calls)
  // and returns when every job has returned: the first failed job's status
  // by index, or OK. Calls are serialised.
  Status Run(std::vector<Job> jobs);

  size_t threads() const { return workers_.size(); }

  // Held by a thread while it stages bytes out of VkDevice `device`: one
  // transfer at a time per source device keeps host staging within its bound
  // (host_staging.h: one ring per device and direction while a transfer
  // runs). Consumers on different devices pulling from one source take
  // turns; pulls from different sources still run at once.
  std::mutex& SourceLock(uint32_t device);

 private:
  struct Worker {
    std::thread thread;
    Job job;
    Status result;
    bool pending = false;  // job set, not yet returned
  };
  void Loop(Worker* worker);

  std::mutex run_mutex_;  // one Run at a time
  std::mutex mutex_;      // the fields below
  std::condition_variable changed_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<std::unique_ptr<std::mutex>> source_locks_;  // per VkDevice, made on demand
  size_t running_ = 0;
  bool stopping_ = false;
};

}  // namespace meshvk::module

#endif  // MESHVK_RUNTIME_MODULE_SEGMENT_PUMP_H_
