// libFuzzer target: user-built neighbor graphs, NeighborGraph<T>::from_lists and from_csr, then
// symmetrization and connected components (docs/errors.md, "Fuzzing").
// The bytes decode into a point count and CSR arrays (see decode()): indices may be out of range,
// negative, self loops or repeated; distances may be NaN, infinite, negative or -0; in CSR mode
// the arrays themselves may be damaged. Sizes are capped, so memory stays small.
// Contract: invalid_argument exactly when the input breaks a documented rule (decided here
// independently), otherwise a graph holding exactly the input's edges, each list sorted by
// (distance, index); is_symmetric() as computed here; union and mutual symmetrization give
// symmetric graphs holding the union / intersection of both directions with the smaller
// distance; component labels agree with every edge, are numbered by smallest point, and their
// count equals a reference search.
#include "fuzz_check.hpp"

#include <nldr/neighbors/components.hpp>
#include <nldr/neighbors/graph.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using nldr::index_t;
using nldr::offset_t;

constexpr index_t max_points = 48;
constexpr int max_degree = 12;

/// The fuzz bytes, read front to back; zeros once they run out.
class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t next() { return at_ < size_ ? data_[at_++] : 0; }
  template <class U>
  U raw() {
    unsigned char bytes[sizeof(U)];
    for (auto& b : bytes) b = next();
    U value;
    std::memcpy(&value, bytes, sizeof(U));
    return value;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_, at_ = 0;
};

template <class T>
struct Csr {
  index_t n = 0;
  std::vector<offset_t> offsets{0};
  std::vector<index_t> indices;
  std::vector<T> distances;
};

/// Mostly a valid index (which may still be a self loop or a repeat), sometimes one out of range.
index_t decode_index(Bytes& in, index_t n) {
  const std::uint8_t b = in.next();
  if (b < 0xF0) return n > 0 ? index_t(b % n) : 0;
  constexpr std::int64_t big = std::numeric_limits<index_t>::max(), small = std::numeric_limits<index_t>::min();
  const std::int64_t special[] = {-1, n, n + std::int64_t{1}, -std::int64_t{n}, small, big, big - 1, 2 * std::int64_t{n}};
  return index_t(special[b % std::size(special)]);  // modular for the few that do not fit
}

/// Mostly a multiple of 1/4 in [0, 4) (many ties), sometimes an edge case or raw bits.
template <class T>
T decode_distance(Bytes& in) {
  const std::uint8_t b = in.next();
  if (b < 0xE0) return T(b % 16) / 4;
  using limits = std::numeric_limits<T>;
  const T special[] = {limits::quiet_NaN(), -limits::quiet_NaN(), limits::infinity(), -limits::infinity(),
                       T(-0.0),             T(-1),                limits::denorm_min(), limits::min(),
                       limits::max(),       limits::lowest(),     limits::epsilon(),    T(1e30)};
  const std::size_t pick = b - 0xE0u;
  return pick < std::size(special) ? special[pick] : in.raw<T>();
}

/// Point count (in CSR mode sometimes negative or huge: only the arrays are capped), per-point
/// lists, then in CSR mode one optional damage to the arrays' structure.
template <class T>
Csr<T> decode(Bytes& in, bool csr_mode) {
  Csr<T> g;
  const std::uint8_t b = in.next();
  constexpr index_t special_n[] = {-1, std::numeric_limits<index_t>::min(), std::numeric_limits<index_t>::max(),
                                   std::numeric_limits<index_t>::max() - 1};
  g.n = csr_mode && b >= 0xF0 ? special_n[b % std::size(special_n)] : index_t(b % (max_points + 1));
  const index_t lists = std::clamp(g.n, index_t{0}, max_points);
  for (index_t i = 0; i < lists; ++i) {
    const int degree = in.next() % (max_degree + 1);
    for (int e = 0; e < degree; ++e) {
      g.indices.push_back(decode_index(in, g.n));
      g.distances.push_back(decode_distance<T>(in));
    }
    g.offsets.push_back(offset_t(g.indices.size()));
  }
  if (!csr_mode) return g;
  const std::uint8_t damage = in.next();
  const std::size_t at = in.next() % g.offsets.size();
  switch (damage % 16) {
    case 0: g.offsets.pop_back(); break;
    case 1: g.offsets.push_back(g.offsets.back()); break;
    case 2: g.offsets[0] = damage & 0x80 ? 1 : -1; break;
    case 3: g.offsets[at] -= 1 + damage / 16; break;  // a decrease, or a negative offset
    case 4: g.offsets.back() += 1; break;
    case 5: g.indices.push_back(0); break;
    case 6: g.distances.push_back(T(1)); break;
    default: break;  // most inputs keep a well-formed structure
  }
  return g;
}

/// The documented preconditions of from_csr, checked without nldr.
template <class T>
bool is_valid(const Csr<T>& g) {
  if (g.n < 0 || std::int64_t(g.offsets.size()) != std::int64_t(g.n) + 1 || g.offsets[0] != 0) return false;
  if (!std::is_sorted(g.offsets.begin(), g.offsets.end())) return false;
  if (g.offsets.back() != offset_t(g.indices.size()) || g.indices.size() != g.distances.size()) return false;
  for (index_t i = 0; i < g.n; ++i) {
    std::set<index_t> seen;
    for (offset_t e = g.offsets[i]; e < g.offsets[i + 1]; ++e) {
      const index_t j = g.indices[e];
      const T d = g.distances[e];
      if (j < 0 || j >= g.n || j == i || !std::isfinite(d) || d < 0 || !seen.insert(j).second) return false;
    }
  }
  return true;
}

/// Directed edges (i, j) -> distance.
template <class T>
using EdgeMap = std::map<std::pair<index_t, index_t>, T>;

template <class T>
EdgeMap<T> edges_of(const Csr<T>& g) {
  EdgeMap<T> edges;
  for (index_t i = 0; i < g.n; ++i)
    for (offset_t e = g.offsets[i]; e < g.offsets[i + 1]; ++e) edges[{i, g.indices[e]}] = g.distances[e];
  return edges;
}

/// The graph's structure is valid and its lists are sorted by (distance, index); returns its edges.
template <class T>
EdgeMap<T> checked_edges(const nldr::NeighborGraph<T>& graph) {
  const index_t n = graph.size();
  const auto offsets = graph.offsets();
  NLDR_FUZZ_REQUIRE(offsets.size() == std::size_t(n) + 1 && offsets[0] == 0);
  NLDR_FUZZ_REQUIRE(std::is_sorted(offsets.begin(), offsets.end()));
  NLDR_FUZZ_REQUIRE(offsets.back() == graph.num_edges());
  NLDR_FUZZ_REQUIRE(graph.indices().size() == std::size_t(graph.num_edges()));
  NLDR_FUZZ_REQUIRE(graph.distances().size() == std::size_t(graph.num_edges()));
  EdgeMap<T> edges;
  for (index_t i = 0; i < n; ++i) {
    const auto neighbors = graph.neighbors(i);
    const auto distances = graph.distances(i);
    for (std::size_t e = 0; e < neighbors.size(); ++e) {
      const index_t j = neighbors[e];
      NLDR_FUZZ_REQUIRE(j >= 0 && j < n && j != i);
      NLDR_FUZZ_REQUIRE(std::isfinite(distances[e]) && distances[e] >= 0);
      if (e > 0)
        NLDR_FUZZ_REQUIRE(std::make_pair(distances[e - 1], neighbors[e - 1]) < std::make_pair(distances[e], j));
      NLDR_FUZZ_REQUIRE(edges.emplace(std::make_pair(i, j), distances[e]).second);  // no repeats
    }
  }
  return edges;
}

/// Every (i, j) has its (j, i), at the same distance.
template <class T>
bool symmetric(const EdgeMap<T>& edges) {
  for (const auto& [edge, d] : edges) {
    const auto back = edges.find({edge.second, edge.first});
    if (back == edges.end() || back->second != d) return false;
  }
  return true;
}

/// Both directions of every edge (union) or of every edge listed both ways (mutual), each with
/// the smaller of its distances.
template <class T>
EdgeMap<T> symmetrize(const EdgeMap<T>& edges, nldr::Symmetrization rule) {
  EdgeMap<T> result;
  const auto keep_min = [&](std::pair<index_t, index_t> edge, T d) {
    const auto [it, inserted] = result.emplace(edge, d);
    if (!inserted) it->second = std::min(it->second, d);
  };
  for (const auto& [edge, d] : edges) {
    const auto [i, j] = edge;
    if (rule == nldr::Symmetrization::mutual_edges && !edges.contains({j, i})) continue;
    keep_min({i, j}, d);
    keep_min({j, i}, d);
  }
  return result;
}

/// Number of weakly connected components, by depth-first search over both directions.
template <class T>
index_t component_count(index_t n, const EdgeMap<T>& edges) {
  std::vector<std::vector<index_t>> adjacent(static_cast<std::size_t>(n));
  for (const auto& [edge, d] : edges) {
    adjacent[edge.first].push_back(edge.second);
    adjacent[edge.second].push_back(edge.first);
  }
  std::vector<bool> seen(std::size_t(n), false);
  index_t count = 0;
  for (index_t start = 0; start < n; ++start) {
    if (seen[start]) continue;
    ++count;
    std::vector<index_t> stack{start};
    seen[start] = true;
    while (!stack.empty()) {
      const index_t i = stack.back();
      stack.pop_back();
      for (index_t j : adjacent[i])
        if (!seen[j]) {
          seen[j] = true;
          stack.push_back(j);
        }
    }
  }
  return count;
}

template <class T>
void check_components(const nldr::NeighborGraph<T>& graph, const EdgeMap<T>& edges) {
  const nldr::Components components = nldr::connected_components(graph);
  const index_t n = graph.size();
  NLDR_FUZZ_REQUIRE(components.label.size() == std::size_t(n));
  NLDR_FUZZ_REQUIRE(components.count() == component_count(n, edges));
  NLDR_FUZZ_REQUIRE(components.connected() == (components.count() <= 1));
  std::vector<index_t> sizes(components.sizes.size(), 0);
  index_t next_new = 0;  // labels appear in order of their smallest point
  for (index_t i = 0; i < n; ++i) {
    const index_t c = components.label[i];
    NLDR_FUZZ_REQUIRE(c >= 0 && c < components.count() && c <= next_new);
    if (c == next_new) ++next_new;
    ++sizes[c];
  }
  NLDR_FUZZ_REQUIRE(sizes == components.sizes);
  for (const auto& [edge, d] : edges) NLDR_FUZZ_REQUIRE(components.label[edge.first] == components.label[edge.second]);
}

template <class T>
void check_symmetrized(const nldr::NeighborGraph<T>& graph, const EdgeMap<T>& edges, nldr::Symmetrization rule) {
  const nldr::NeighborGraph<T> result = graph.symmetrized(rule);
  NLDR_FUZZ_REQUIRE(result.is_symmetric());
  NLDR_FUZZ_REQUIRE(result.size() == graph.size());
  const EdgeMap<T> got = checked_edges(result);
  NLDR_FUZZ_REQUIRE(got == symmetrize(edges, rule));
  NLDR_FUZZ_REQUIRE(symmetric(got));
  check_components(result, got);
}

template <class T>
void run(Bytes& in, bool csr_mode) {
  const Csr<T> input = decode<T>(in, csr_mode);
  const bool valid = is_valid(input);
  std::optional<nldr::NeighborGraph<T>> graph;
  try {
    if (csr_mode) {
      graph = nldr::NeighborGraph<T>::from_csr(input.n, input.offsets, input.indices, input.distances);
    } else {
      std::vector<std::vector<std::pair<index_t, T>>> lists(std::size_t(input.n));
      for (index_t i = 0; i < input.n; ++i)
        for (offset_t e = input.offsets[i]; e < input.offsets[i + 1]; ++e)
          lists[i].emplace_back(input.indices[e], input.distances[e]);
      graph = nldr::NeighborGraph<T>::from_lists(lists);
    }
  } catch (const nldr::invalid_argument& e) {
    NLDR_FUZZ_REQUIRE(!valid);
    NLDR_FUZZ_REQUIRE(!e.parameter().empty());
    return;
  }
  NLDR_FUZZ_REQUIRE(valid);
  NLDR_FUZZ_REQUIRE(graph->size() == input.n);
  const EdgeMap<T> edges = checked_edges(*graph);
  NLDR_FUZZ_REQUIRE(edges == edges_of(input));
  NLDR_FUZZ_REQUIRE(graph->is_symmetric() == symmetric(edges));
  check_components(*graph, edges);
  check_symmetrized(*graph, edges, nldr::Symmetrization::union_edges);
  check_symmetrized(*graph, edges, nldr::Symmetrization::mutual_edges);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Bytes in(data, size);
  const std::uint8_t mode = in.next();
  nldr_fuzz::expect_no_foreign_exception([&] {
    if (mode & 1)
      run<double>(in, (mode & 2) != 0);
    else
      run<float>(in, (mode & 2) != 0);
  });
  return 0;
}
