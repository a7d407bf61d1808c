// The device threads of a program's pump (segment_pump.h).
#include "segment_pump.h"

#include <utility>

namespace meshvk::module {

SegmentPump::~SegmentPump() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  for (auto& worker : workers_)
    if (worker->thread.joinable()) worker->thread.join();
}

Status SegmentPump::Run(std::vector<Job> jobs) {
  std::lock_guard<std::mutex> run(run_mutex_);
  std::unique_lock<std::mutex> lock(mutex_);
  while (workers_.size() < jobs.size()) {
    workers_.push_back(std::make_unique<Worker>());
    Worker* worker = workers_.back().get();
    worker->thread = std::thread([this, worker] { Loop(worker); });
  }
  for (size_t i = 0; i < jobs.size(); ++i) {
    workers_[i]->job = std::move(jobs[i]);
    workers_[i]->result = Status();
    workers_[i]->pending = true;
  }
  running_ = jobs.size();
  changed_.notify_all();
  changed_.wait(lock, [this] { return running_ == 0; });
  for (size_t i = 0; i < jobs.size(); ++i)
    if (!workers_[i]->result.ok()) return std::move(workers_[i]->result);
  return Status();
}

std::mutex& SegmentPump::SourceLock(uint32_t device) {
  std::lock_guard<std::mutex> lock(mutex_);
  while (source_locks_.size() <= device) source_locks_.push_back(std::make_unique<std::mutex>());
  return *source_locks_[device];
}

void SegmentPump::Loop(Worker* worker) {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this, worker] { return stopping_ || worker->pending; });
    if (!worker->pending) return;  // stopping, nothing to run
    Job job = std::move(worker->job);
    lock.unlock();
    Status result = job();
    lock.lock();
    worker->result = std::move(result);
    worker->pending = false;
    if (--running_ == 0) changed_.notify_all();
  }
}

}  // namespace meshvk::module
