// The runtime's MPI transport (meshvk/transport_mpi.h) on its
// own, under `mpirun -np R mpi_transport_test BYTES`: every callback the
// runtime uses moves blocks of BYTES per rank (odd sizes: counted in bytes;
// powers of two: in MPI_Type_contiguous units), and each received byte is
// checked against the pattern its sender wrote (Pattern below: a function
// of the sending rank and the byte's index, never read back from the
// transport). At BYTES over 1 GiB (by hand, ~3 x BYTES of memory per rank)
// the calls pass MPI's int counts: messages cut into pieces, an all_gather
// of more than 2 GiB in one call. Prints "PASS: ..." on rank 0.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "meshvk/transport_mpi.h"

namespace {

uint8_t Pattern(uint32_t rank, uint64_t i) { return static_cast<uint8_t>((rank * 131u + i * 7u + (i >> 20)) & 0xff); }

void Fill(uint8_t* data, uint64_t bytes, uint32_t rank, uint64_t first = 0) {
  for (uint64_t i = 0; i < bytes; ++i) data[i] = Pattern(rank, first + i);
}

// The first byte that differs from rank `rank`'s pattern, or "".
std::string Check(const uint8_t* data, uint64_t bytes, uint32_t rank, uint64_t first, const char* what) {
  for (uint64_t i = 0; i < bytes; ++i)
    if (data[i] != Pattern(rank, first + i))
      return std::string(what) + ": byte " + std::to_string(first + i) + " from rank " + std::to_string(rank) + " is " +
             std::to_string(data[i]) + ", expected " + std::to_string(Pattern(rank, first + i));
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  meshvk_mpi_transport_t* mpi = nullptr;
  if (meshvk_status_t status = meshvk_mpi_transport_create(&argc, &argv, &mpi)) {
    std::fprintf(stderr, "mpi_transport_test: %s\n", meshvk_status_message(status));
    meshvk_status_free(status);
    return 2;
  }
  const meshvk_transport_t* t = meshvk_mpi_transport_get(mpi);
  if (argc != 2 || t->rank_count < 2) {
    std::fprintf(stderr, "usage: mpirun -np R (R >= 2) mpi_transport_test BYTES\n");
    meshvk_mpi_transport_abort(mpi, 2);
  }
  const uint64_t B = std::strtoull(argv[1], nullptr, 10);
  const uint32_t R = t->rank_count, me = t->rank;
  std::vector<uint32_t> ranks(R);
  for (uint32_t r = 0; r < R; ++r) ranks[r] = r;
  std::vector<std::string> failures;
  auto expect = [&](int code, const char* what) {
    if (code) failures.push_back(std::string(what) + " returned " + std::to_string(code));
    return code == 0;
  };
  auto verify = [&](const std::string& failure) {
    if (!failure.empty()) failures.push_back(failure);
  };
  {  // all_gather in place: R blocks of B bytes in one call (R x B may pass 2 GiB).
    std::vector<uint8_t> data(R * B);
    Fill(data.data() + me * B, B, me);
    std::vector<uint64_t> bytes(R, B);
    if (expect(t->all_gather(t->user, ranks.data(), R, data.data(), bytes.data()), "all_gather"))
      for (uint32_t r = 0; r < R; ++r) verify(Check(data.data() + r * B, B, r, 0, "all_gather"));
  }
  {  // all_gather_pieces: each rank's block as two pieces in buffers of their own.
    const uint64_t head = B / 3;
    std::vector<std::vector<uint8_t>> owned(2 * R);
    std::vector<meshvk_transport_piece_t> pieces;
    for (uint32_t r = 0; r < R; ++r) {
      owned[2 * r].resize(head);
      owned[2 * r + 1].resize(B - head);
      pieces.push_back({owned[2 * r].data(), head});
      pieces.push_back({owned[2 * r + 1].data(), B - head});
    }
    Fill(owned[2 * me].data(), head, me);
    Fill(owned[2 * me + 1].data(), B - head, me, head);
    std::vector<uint32_t> counts(R, 2);
    if (expect(t->all_gather_pieces(t->user, ranks.data(), R, pieces.data(), counts.data()), "all_gather_pieces"))
      for (uint32_t r = 0; r < R; ++r) {
        verify(Check(owned[2 * r].data(), head, r, 0, "all_gather_pieces"));
        verify(Check(owned[2 * r + 1].data(), B - head, r, head, "all_gather_pieces"));
      }
  }
  {  // send / receive around a ring: B bytes to the right, from the left.
    std::vector<uint8_t> out(B), in(B);
    Fill(out.data(), B, me);
    const uint32_t right = (me + 1) % R, left = (me + R - 1) % R;
    if (expect(t->send(t->user, right, 7, out.data(), B), "send") &&
        expect(t->receive(t->user, left, 7, in.data(), B), "receive") && expect(t->wait_sends(t->user), "wait_sends"))
      verify(Check(in.data(), B, left, 0, "send/receive"));
  }
  {  // all_to_all: B / R bytes for each other rank (this rank's entries 0).
    const uint64_t part = B / R;
    std::vector<uint64_t> send_bytes(R, part), recv_bytes(R, part);
    send_bytes[me] = recv_bytes[me] = 0;
    std::vector<uint8_t> out((R - 1) * part), in((R - 1) * part);
    for (uint32_t r = 0, k = 0; r < R; ++r)
      if (r != me) Fill(out.data() + part * k++, part, me, r * part);
    if (expect(t->all_to_all(t->user, ranks.data(), R, out.data(), send_bytes.data(), in.data(), recv_bytes.data()),
               "all_to_all"))
      for (uint32_t r = 0, k = 0; r < R; ++r)
        if (r != me) verify(Check(in.data() + part * k++, part, r, me * part, "all_to_all"));
  }
  const int failed = meshvk_mpi_transport_agree(mpi, failures.empty() ? 0 : 1, nullptr);
  for (const std::string& f : failures) std::fprintf(stderr, "rank %u: %s\n", me, f.c_str());
  if (me == 0 && failed == 0)
    std::printf("PASS: all_gather, all_gather_pieces, send/receive, all_to_all of %llu bytes per rank on %u ranks\n",
                static_cast<unsigned long long>(B), R);
  meshvk_mpi_transport_release(mpi);
  return failed;
}
