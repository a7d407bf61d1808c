// The thread that runs asynchronous invokes of a program whose processes span
// several VkDevices (invoke_async.cc).
//
// Why a thread: a command buffer cannot wait on a semaphore of another
// VkDevice (and lavapipe shares no semaphores between devices), so such an
// invoke needs host waits between its parts: the caller's semaphores, the
// producers on one device before the consumers on another, host-staged bytes.
// meshvk_program_invoke_async must not block its caller, so the calling thread
// only checks and records, and queues the rest here; jobs run one after the
// other, in the order they were queued.
#ifndef MESHVK_RUNTIME_MODULE_ASYNC_WORKER_H_
#define MESHVK_RUNTIME_MODULE_ASYNC_WORKER_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "status.h"

namespace meshvk::module {

class AsyncWorker {
 public:
  // A job sees `stopping` turn true when the program is being released: it
  // should give up waits on the application's semaphores then.
  using Job = std::function<Status(const std::atomic<bool>& stopping)>;

  AsyncWorker() = default;
  // Stops: the job running is told to stop and finishes, queued ones are dropped.
  ~AsyncWorker();
  AsyncWorker(const AsyncWorker&) = delete;
  AsyncWorker& operator=(const AsyncWorker&) = delete;

  // Queues a job (starts the thread on first use).
  void Push(Job job);
  // Blocks until every queued job has run; returns and clears the first error
  // a job returned since the last Drain/TakeError (later jobs after an error
  // are skipped: their order would be broken). Gives up after `timeout_ns`
  // with DEADLINE_EXCEEDED (the jobs stay queued); UINT64_MAX: no bound.
  Status Drain(uint64_t timeout_ns = UINT64_MAX);
  // The first error so far, without waiting (cleared); OK when none.
  Status TakeError();
  // True while a job is queued or running.
  bool Busy();

 private:
  void Run();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Job> jobs_;
  bool running_ = false;  // a job is being run (outside the lock)
  Status error_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace meshvk::module

#endif  // MESHVK_RUNTIME_MODULE_ASYNC_WORKER_H_
