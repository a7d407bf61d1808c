// MPI session and transport (see mpi_session.h). Compiled with and without
// MPI: without it, Start says so (the runner then refuses an mpirun launch).
#include "mpi_session.h"

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifdef MESHVK_RUN_HAS_MPI
#include <mpi.h>
#endif

namespace meshvk_run {

#ifdef MESHVK_RUN_HAS_MPI

namespace {
std::vector<MPI_Request>& Requests(const std::shared_ptr<void>& p) {
  return *static_cast<std::vector<MPI_Request>*>(p.get());
}
}  // namespace

std::unique_ptr<MpiSession> MpiSession::Start(int* argc, char*** argv, std::string* error) {
  int provided = 0;
  if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    *error = "MPI_Init failed";
    return nullptr;
  }
  std::unique_ptr<MpiSession> session(new MpiSession);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  session->requests_ = std::make_shared<std::vector<MPI_Request>>();
  session->transport_ = meshvk_transport_t{session.get(),     static_cast<uint32_t>(rank), static_cast<uint32_t>(size),
                                           &MpiSession::Send, &MpiSession::Receive,        &MpiSession::WaitSends};
  return session;
}

MpiSession::~MpiSession() { MPI_Finalize(); }

int MpiSession::Send(void* user, uint32_t to, uint32_t tag, const void* data, uint64_t size) {
  auto* self = static_cast<MpiSession*>(user);
  if (size > INT_MAX) return -1;  // one message per copy; larger ones would need chunking
  MPI_Request request;
  int code = MPI_Isend(data, static_cast<int>(size), MPI_BYTE, static_cast<int>(to), static_cast<int>(tag),
                       MPI_COMM_WORLD, &request);
  if (code != MPI_SUCCESS) return code;
  Requests(self->requests_).push_back(request);
  self->sent_ += size;
  return 0;
}

int MpiSession::Receive(void* user, uint32_t from, uint32_t tag, void* data, uint64_t size) {
  auto* self = static_cast<MpiSession*>(user);
  if (size > INT_MAX) return -1;
  MPI_Status status;
  int code = MPI_Recv(data, static_cast<int>(size), MPI_BYTE, static_cast<int>(from), static_cast<int>(tag),
                      MPI_COMM_WORLD, &status);
  if (code != MPI_SUCCESS) return code;
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  if (static_cast<uint64_t>(count) != size) return -2;  // the ranks disagree on the plan
  self->received_ += size;
  return 0;
}

int MpiSession::WaitSends(void* user) {
  auto* self = static_cast<MpiSession*>(user);
  std::vector<MPI_Request>& requests = Requests(self->requests_);
  int code = requests.empty() ? MPI_SUCCESS
                              : MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  requests.clear();
  return code == MPI_SUCCESS ? 0 : code;
}

void MpiSession::Abort(int code) {
  std::fflush(stdout);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);  // MPI_Abort does not return; keep the promise anyway
}

int MpiSession::AgreeExit(int code) {
  int agreed = code;
  MPI_Allreduce(&code, &agreed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return agreed;
}

#else  // !MESHVK_RUN_HAS_MPI

std::unique_ptr<MpiSession> MpiSession::Start(int*, char***, std::string* error) {
  *error =
      "started by an MPI launcher, but this mesh-vk-run was built without MPI (install libopenmpi-dev and "
      "reconfigure)";
  return nullptr;
}
MpiSession::~MpiSession() = default;
int MpiSession::Send(void*, uint32_t, uint32_t, const void*, uint64_t) { return -1; }
int MpiSession::Receive(void*, uint32_t, uint32_t, void*, uint64_t) { return -1; }
int MpiSession::WaitSends(void*) { return -1; }
void MpiSession::Abort(int code) { std::_Exit(code); }
int MpiSession::AgreeExit(int code) { return code; }

#endif

}  // namespace meshvk_run
