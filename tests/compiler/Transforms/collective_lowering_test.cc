// Checks meshvk-lower-collectives against an independent oracle
// (collective_oracle.h): every lowered collective, on each grid and axis set
// of kTopologies (1-D and 2-D grids, one or two axes) and with every
// algorithm, is EXECUTED by a small interpreter of the plan ops on
// per-process data, and each process's result is compared with the
// collective's definition evaluated here on the host. The bytes each process
// pulls from peers (counted by the interpreter from the copies it runs) must
// equal the algorithm's minimum, computed here from the shapes; the plan's
// own report must agree.
#include "collective_oracle.h"

namespace {

using namespace collective_oracle;

/// One grid and the grid axes of the collective's groups.
class OnTopology : public testing::TestWithParam<std::pair<Shape, Shape>> {
 protected:
  const Shape& grid() const { return GetParam().first; }
  const Shape& axes() const { return GetParam().second; }
  int64_t n() const { return groupSize(grid(), axes()); }
  /// The members of p's group, in in-group order.
  std::function<std::vector<int64_t>(int64_t)> members() const {
    Shape g = grid(), a = axes();
    return [=](int64_t p) { return group(g, a, p).first; };
  }
  /// p's index in its group.
  std::function<int64_t(int64_t)> rankIn() const {
    Shape g = grid(), a = axes();
    return [=](int64_t p) { return group(g, a, p).second; };
  }
  /// The root of a rooted collective: the last member of each group
  /// (in-group multi-index = sizes - 1), as the op writes it.
  std::string lastMemberRoot() const {
    std::string root = "[";
    for (size_t i = 0; i < axes().size(); ++i) root += (i ? ", " : "") + std::to_string(grid()[axes()[i]] - 1);
    return root + "]";
  }
  Case make(const std::string& what, const std::string& op, Shape out,
            std::function<Tensor(const std::vector<Tensor>&, int64_t)> expected,
            std::function<int64_t(int64_t)> minPulled) const {
    return Case{name(what, grid(), axes()), grid(), axes(), op, kIn, std::move(out), std::move(expected),
                std::move(minPulled)};
  }
  std::string on() const { return " %x on @g grid_axes = " + axesText(axes()); }
};

/// The group members' inputs, in in-group order.
std::vector<Tensor> partsOf(const std::vector<Tensor>& in, const std::vector<int64_t>& members) {
  std::vector<Tensor> parts;
  for (int64_t q : members) parts.push_back(in[q]);
  return parts;
}

TEST_P(OnTopology, AllGather) {
  int64_t n = this->n();
  auto members = this->members();
  runCase(make(
      "all_gather", "shard.all_gather" + on() + " gather_axis = 1", {12, 6 * n},
      [=](const std::vector<Tensor>& in, int64_t p) { return concat(partsOf(in, members(p)), 1); },
      [=](int64_t) { return (n - 1) * kInBytes; }));
}

TEST_P(OnTopology, AllSlice) {
  int64_t n = this->n();
  auto rankIn = this->rankIn();
  runCase(make(
      "all_slice", "shard.all_slice" + on() + " slice_axis = 0", {12 / n, 6},
      [=](const std::vector<Tensor>& in, int64_t p) { return slice(in[p], 0, rankIn(p) * (12 / n), 12 / n); },
      [=](int64_t) { return int64_t(0); }));
}

// Split the 12 rows, concatenate along the 6 columns.
TEST_P(OnTopology, AllToAll) {
  int64_t n = this->n();
  auto members = this->members();
  auto rankIn = this->rankIn();
  runCase(make(
      "all_to_all", "shard.all_to_all" + on() + " split_axis = 0 concat_axis = 1", {12 / n, 6 * n},
      [=](const std::vector<Tensor>& in, int64_t p) {
        std::vector<Tensor> parts;
        for (int64_t q : members(p)) parts.push_back(slice(in[q], 0, rankIn(p) * (12 / n), 12 / n));
        return concat(parts, 1);
      },
      [=](int64_t) { return (n - 1) * kInBytes / n; }));
}

TEST_P(OnTopology, AllReduceDirectAndReduceScatterAllGather) {
  const std::vector<std::pair<std::string, Kind>> kinds = {
      {"sum", Kind::Sum}, {"max", Kind::Max}, {"min", Kind::Min}, {"product", Kind::Product}};
  int64_t n = this->n();
  auto members = this->members();
  for (auto& [kindName, kind] : kinds)
    for (int64_t threshold : {int64_t(65536), int64_t(0)}) {
      Kind k = kind;
      // Reduce-scatter + all-gather is chosen above the threshold when the
      // group has more than 2 processes (12 rows divide by every n here).
      bool twoPhase = threshold == 0 && n > 2;
      Case c = make(
          "all_reduce " + kindName + (twoPhase ? " rs+ag" : " direct"),
          "shard.all_reduce" + on() + " reduction = " + kindName, kIn,
          [=](const std::vector<Tensor>& in, int64_t p) { return reduceAll(partsOf(in, members(p)), k); },
          [=](int64_t) { return twoPhase ? 2 * (n - 1) * kInBytes / n : (n - 1) * kInBytes; });
      c.directAllReduceMaxBytes = threshold;
      runCase(c);
    }
}

TEST_P(OnTopology, ReduceScatter) {
  int64_t n = this->n();
  auto members = this->members();
  auto rankIn = this->rankIn();
  runCase(make(
      "reduce_scatter", "shard.reduce_scatter" + on() + " scatter_axis = 0", {12 / n, 6},
      [=](const std::vector<Tensor>& in, int64_t p) {
        return slice(reduceAll(partsOf(in, members(p)), Kind::Sum), 0, rankIn(p) * (12 / n), 12 / n);
      },
      [=](int64_t) { return (n - 1) * kInBytes / n; }));
}

TEST_P(OnTopology, Broadcast) {
  int64_t rootRank = n() - 1;
  auto members = this->members();
  auto rankIn = this->rankIn();
  Case c = make(
      "broadcast", "shard.broadcast" + on() + " root = " + lastMemberRoot(), kIn,
      [=](const std::vector<Tensor>& in, int64_t p) { return in[members(p)[rootRank]]; },
      [=](int64_t p) { return rankIn(p) == rootRank ? int64_t(0) : kInBytes; });
  c.functionalType = true;
  runCase(c);
}

TEST_P(OnTopology, Shift) {
  if (axes().size() != 1) GTEST_SKIP() << "shift is over one grid axis";
  int64_t axis = axes()[0];
  Shape gridCopy = grid();
  for (bool rotate : {true, false})
    for (int64_t offset : {int64_t(1), int64_t(-1)}) {
      // Result on p: the input of the process `offset` positions before it
      // along `axis`; without rotation, no source leaves p's own input.
      auto source = [=](int64_t p) -> int64_t {
        Shape m = multiIndex(gridCopy, p);
        int64_t size = gridCopy[axis];
        int64_t c = m[axis] - offset;
        if (rotate) c = ((c % size) + size) % size;
        if (c < 0 || c >= size) return -1;
        m[axis] = c;
        return linear(gridCopy, m);
      };
      runCase(make(
          std::string("shift ") + (rotate ? "rotate " : "") + std::to_string(offset),
          "shard.shift" + on() + " shift_axis = " + std::to_string(axis) + " offset = " + std::to_string(offset) +
              (rotate ? " rotate" : ""),
          kIn,
          [=](const std::vector<Tensor>& in, int64_t p) {
            int64_t q = source(p);
            return in[q < 0 ? p : q];
          },
          [=](int64_t p) {
            int64_t q = source(p);
            return q < 0 || q == p ? int64_t(0) : kInBytes;
          }));
    }
}

// Rooted collectives, root = the last member of each group: gather and reduce
// define the result on the root only (elsewhere undefined, not compared);
// scatter hands member k the k-th block of the root's input.
TEST_P(OnTopology, GatherReduceScatter) {
  int64_t n = this->n();
  int64_t rootRank = n - 1;
  auto members = this->members();
  auto rankIn = this->rankIn();
  auto isRoot = [=](int64_t p) { return rankIn(p) == rootRank; };
  std::string root = " root = " + lastMemberRoot();
  Case gather = make(
      "gather", "shard.gather" + on() + " gather_axis = 1" + root, {12, 6 * n},
      [=](const std::vector<Tensor>& in, int64_t p) { return concat(partsOf(in, members(p)), 1); },
      [=](int64_t p) { return isRoot(p) ? (n - 1) * kInBytes : int64_t(0); });
  Case reduce = make(
      "reduce", "shard.reduce" + on() + " reduction = max" + root, kIn,
      [=](const std::vector<Tensor>& in, int64_t p) { return reduceAll(partsOf(in, members(p)), Kind::Max); },
      [=](int64_t p) { return isRoot(p) ? (n - 1) * kInBytes : int64_t(0); });
  Case scatter = make(
      "scatter", "shard.scatter" + on() + " scatter_axis = 0" + root, {12 / n, 6},
      [=](const std::vector<Tensor>& in, int64_t p) {
        return slice(in[members(p)[rootRank]], 0, rankIn(p) * (12 / n), 12 / n);
      },
      [=](int64_t p) { return isRoot(p) ? int64_t(0) : kInBytes / n; });
  gather.defined = reduce.defined = [=](int64_t p, int64_t) { return isRoot(p); };
  for (Case* c : {&gather, &reduce, &scatter}) {
    c->functionalType = true;
    runCase(*c);
  }
}

INSTANTIATE_TEST_SUITE_P(CollectiveLowering, OnTopology, testing::ValuesIn(kTopologies));

// update_halo, from its meaning rather than its algorithm: every process's
// interior (the local tensor without its halos) is its block of one global
// tensor; after the update, a halo element whose global coordinate lies inside
// the global tensor holds that element (from whichever process owns it,
// diagonal neighbours included). Halo elements outside the global tensor have
// no neighbour to come from and are not compared.
struct HaloCase {
  Shape grid;
  std::vector<Shape> split;  // grid axes per tensor dimension
  Shape halo;                // lower, upper per split dimension
};

TEST(CollectiveLowering, UpdateHalo) {
  const std::vector<HaloCase> cases = {
      {{4}, {{0}}, {1, 2}},                // rows, unequal halos
      {{3}, {{0}}, {0, 2}},                // upper halo only
      {{2, 2}, {{0}, {1}}, {1, 1, 2, 1}},  // 2-D blocks: corners through two steps
      {{2, 2}, {{}, {1}}, {0, 0, 1, 1}},   // columns over axis 1, axis 0 replicated
      {{2, 3}, {{0, 1}}, {2, 1}},          // one dimension over two axes
      {{2, 2}, {{1}, {0}}, {1, 2, 1, 1}},  // axes swapped
  };
  for (const HaloCase& hc : cases) {
    Shape grid = hc.grid;
    std::vector<Shape> split = hc.split;
    Shape halo = hc.halo;
    int64_t rank = 2;
    auto lo = [=](int64_t d) { return d < (int64_t)split.size() ? halo[2 * d] : int64_t(0); };
    auto hi = [=](int64_t d) { return d < (int64_t)split.size() ? halo[2 * d + 1] : int64_t(0); };
    auto axesOf = [=](int64_t d) { return d < (int64_t)split.size() ? split[d] : Shape{}; };
    // Block index of process p along dimension d and the block count.
    auto block = [=](int64_t p, int64_t d) {
      Shape m = multiIndex(grid, p);
      int64_t b = 0;
      for (int64_t a : axesOf(d)) b = b * grid[a] + m[a];
      return b;
    };
    auto blocks = [=](int64_t d) { return groupSize(grid, axesOf(d)); };
    // The process with block `b[d]` along every split dimension, p's
    // coordinates on the other grid axes.
    auto owner = [=](int64_t p, const Shape& b) {
      Shape m = multiIndex(grid, p);
      for (int64_t d = 0; d < rank; ++d) {
        int64_t rest = b[d];
        Shape axes = axesOf(d);
        for (int64_t i = (int64_t)axes.size() - 1; i >= 0; --i) {
          m[axes[i]] = rest % grid[axes[i]];
          rest /= grid[axes[i]];
        }
      }
      return linear(grid, m);
    };
    const Shape local = kIn;
    auto interior = [=](int64_t d) { return local[d] - lo(d) - hi(d); };
    // Where process p's element (i0, i1) lives in the global tensor: the
    // owner and its local index, or -1 outside the global tensor.
    auto source = [=](int64_t p, int64_t e, Shape* index) -> int64_t {
      Shape idx = {e / local[1], e % local[1]}, b(rank);
      for (int64_t d = 0; d < rank; ++d) {
        int64_t global = block(p, d) * interior(d) + idx[d] - lo(d);
        if (global < 0 || global >= blocks(d) * interior(d)) return -1;
        b[d] = global / interior(d);
        (*index)[d] = global % interior(d) + lo(d);
      }
      return owner(p, b);
    };
    std::string splitText = "[";
    for (size_t d = 0; d < split.size(); ++d) splitText += (d ? ", " : "") + axesText(split[d]);
    splitText += "]";
    std::string haloText;
    for (size_t i = 0; i < halo.size(); ++i) haloText += (i ? ", " : "") + std::to_string(halo[i]);
    Shape allAxes;
    for (const Shape& axes : split) allAxes.insert(allAxes.end(), axes.begin(), axes.end());
    Case c{name("update_halo " + splitText + " halo [" + haloText + "]", grid, allAxes),
           grid,
           allAxes,
           "shard.update_halo %x on @g split_axes = " + splitText + " halo_sizes = [" + haloText + "]",
           local,
           local,
           [=](const std::vector<Tensor>& in, int64_t p) {
             Tensor out = in[p];
             for (int64_t e = 0; e < out.size(); ++e) {
               Shape index(rank);
               int64_t q = source(p, e, &index);
               if (q >= 0) out.data[e] = in[q].data[index[0] * local[1] + index[1]];
             }
             return out;
           },
           [=](int64_t p) {
             // One slab per existing neighbour, last split dimension first:
             // the interior of the dimensions still to come, the whole of
             // those already done.
             int64_t bytes = 0;
             for (int64_t d = rank - 1; d >= 0; --d) {
               if (axesOf(d).empty()) continue;
               int64_t other = 1;
               for (int64_t e = 0; e < rank; ++e)
                 if (e != d) other *= e < d ? interior(e) : local[e];
               if (block(p, d) > 0) bytes += lo(d) * other * 4;
               if (block(p, d) + 1 < blocks(d)) bytes += hi(d) * other * 4;
             }
             return bytes;
           }};
    c.resultTypeOnly = true;
    c.defined = [=](int64_t p, int64_t e) {
      Shape index(rank);
      return source(p, e, &index) >= 0;
    };
    runCase(c);
  }
}

}  // namespace
