// AsyncWorker: one thread per program, started on first use (async_worker.h).
#include "async_worker.h"

#include <chrono>
#include <utility>

namespace meshvk::module {

AsyncWorker::~AsyncWorker() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    jobs_.clear();
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void AsyncWorker::Push(Job job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back(std::move(job));
    if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
  }
  changed_.notify_all();
}

Status AsyncWorker::Drain(uint64_t timeout_ns) {
  std::unique_lock<std::mutex> lock(mutex_);
  const auto idle = [this] { return jobs_.empty() && !running_; };
  // Past ~292 years a deadline overflows: wait without one.
  if (timeout_ns >= (uint64_t{1} << 63)) {
    changed_.wait(lock, idle);
  } else if (!changed_.wait_for(lock, std::chrono::nanoseconds(timeout_ns), idle)) {
    return MakeStatus(MESHVK_STATUS_DEADLINE_EXCEEDED,
                      "asynchronous invokes still queued after %.3f s (one may wait for a semaphore that is never "
                      "signalled)",
                      timeout_ns / 1e9);
  }
  return std::exchange(error_, Status());
}

Status AsyncWorker::TakeError() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::exchange(error_, Status());
}

bool AsyncWorker::Busy() {
  std::lock_guard<std::mutex> lock(mutex_);
  return running_ || !jobs_.empty();
}

void AsyncWorker::Run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
    if (stopping_) return;
    Job job = std::move(jobs_.front());
    jobs_.pop_front();
    if (!error_.ok()) {  // an earlier job failed: what follows it cannot run in order
      changed_.notify_all();
      continue;
    }
    running_ = true;
    lock.unlock();
    Status status = job(stopping_);
    lock.lock();
    running_ = false;
    if (!status.ok() && error_.ok()) error_ = std::move(status);
    changed_.notify_all();
  }
}

}  // namespace meshvk::module
