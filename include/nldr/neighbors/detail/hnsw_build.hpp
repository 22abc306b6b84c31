// Building the HNSW index behind nldr::ApproximateKNearest (neighbors/detail/hnsw_knn.hpp):
// hnswlib's index (Malkov & Yashunin 2018), filled either by hnswlib's own parallel insertion or
// in waves that run in parallel and give the same index for every thread count
// (docs/selectors.md, "ApproximateKNearest").
#pragma once

#if !defined(NLDR_HAVE_HNSWLIB)
#error "nldr/neighbors/detail/hnsw_build.hpp needs hnswlib: link nldr::hnswlib (apt-get install libhnswlib-dev)"
#endif

#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/types.hpp>
#include <nldr/neighbors/detail/distance.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <queue>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// hnswlib 0.6.2 defines non-inline functions and a global variable (its CPU-feature probes and
// SIMD distance pointers) in its headers, so two translation units that include it fail to link.
// Without its manual vectorization none of that is compiled; the index then uses
// detail::HnswSquaredL2 (hnsw_knn.hpp), which has its own kernels.
#if !defined(NO_MANUAL_VECTORIZATION)
#define NO_MANUAL_VECTORIZATION
#define NLDR_UNDEF_NO_MANUAL_VECTORIZATION
#endif
#include <hnswlib/hnswlib.h>
#if defined(NLDR_UNDEF_NO_MANUAL_VECTORIZATION)
#undef NO_MANUAL_VECTORIZATION
#undef NLDR_UNDEF_NO_MANUAL_VECTORIZATION
#endif

namespace nldr::detail {

using HnswIndex = hnswlib::HierarchicalNSW<float>;
using HnswId = hnswlib::tableint;

/// Row i as float: the row itself when T is float, else converted into `buffer`.
template <Real T>
const float* float_row(const PointRows<T>& rows, index_t i, std::vector<float>& buffer) {
  if constexpr (std::is_same_v<T, float>) {
    return rows.row(i);
  } else {
    buffer.assign(rows.row(i), rows.row(i) + rows.cols);
    return buffer.data();
  }
}

/// One wave's worth of work for a new point: the links it chose on each of its layers (0 first),
/// each list as hnswlib's heuristic left it, with the distances to the new point.
using HnswPlan = std::vector<std::vector<std::pair<float, HnswId>>>;

/// Stores point `label` (`row`) under the next internal id at a level drawn from the index's own
/// generator, with empty link lists: the bookkeeping of hnswlib's addPoint without its search.
inline void register_unlinked(HnswIndex& index, const float* row, hnswlib::labeltype label) {
  const auto id = HnswId(index.cur_element_count++);
  index.label_lookup_[label] = id;
  const int level = index.getRandomLevel(index.mult_);
  index.element_levels_[id] = level;
  std::memset(index.data_level0_memory_ + id * index.size_data_per_element_ + index.offsetLevel0_, 0,
              index.size_data_per_element_);
  std::memcpy(index.getExternalLabeLp(id), &label, sizeof label);
  std::memcpy(index.getDataByInternalId(id), row, index.data_size_);
  if (level > 0) {
    index.linkLists_[id] = static_cast<char*>(std::calloc(index.size_links_per_element_ * std::size_t(level) + 1, 1));
    if (index.linkLists_[id] == nullptr) throw std::bad_alloc();
  }
}

/// The links a new point `id` would get from hnswlib's insertion into the index as it stands
/// (only reads the index: many points can plan at once): a greedy descent from the entry point
/// to the point's own top layer, then on each layer the ef_construction best candidates, thinned
/// by hnswlib's heuristic to M.
inline HnswPlan plan_links(HnswIndex& index, HnswId id) {
  const void* point = index.getDataByInternalId(id);
  const auto distance = [&](HnswId other) {
    return index.fstdistfunc_(point, index.getDataByInternalId(other), index.dist_func_param_);
  };
  const int level = index.element_levels_[id], top = index.maxlevel_;
  HnswId current = HnswId(index.enterpoint_node_);
  float current_distance = distance(current);
  for (int layer = top; layer > level; --layer)
    for (bool moved = true; moved;) {
      moved = false;
      auto* list = index.get_linklist(current, layer);
      const auto* ids = reinterpret_cast<const HnswId*>(list + 1);
      for (std::size_t a = 0, size = index.getListCount(list); a < size; ++a)
        if (const float d = distance(ids[a]); d < current_distance) {
          current_distance = d;
          current = ids[a];
          moved = true;
        }
    }
  HnswPlan plan(std::size_t(std::min(level, top)) + 1);
  for (int layer = std::min(level, top); layer >= 0; --layer) {
    auto candidates = index.searchBaseLayer(current, point, layer);
    index.getNeighborsByHeuristic2(candidates, index.M_);
    auto& chosen = plan[std::size_t(layer)];
    for (; !candidates.empty(); candidates.pop()) chosen.push_back(candidates.top());  // farthest first
    current = chosen.back().second;  // the nearest starts the next layer down
  }
  return plan;
}

/// Links point `target` on `layer` to the points `arrivals` ((distance, id), ascending id, none in its
/// list yet): appended while its list has room, else the list and the arrivals thinned together by
/// hnswlib's heuristic to the layer's maximum.
inline void link_back(HnswIndex& index, HnswId target, int layer,
                      const std::vector<std::pair<float, HnswId>>& arrivals) {
  auto* list = index.get_linklist_at_level(target, layer);
  auto* ids = reinterpret_cast<HnswId*>(list + 1);
  const std::size_t size = index.getListCount(list), room = layer == 0 ? index.maxM0_ : index.maxM_;
  if (size + arrivals.size() <= room) {
    for (std::size_t a = 0; a < arrivals.size(); ++a) ids[size + a] = arrivals[a].second;
    index.setListCount(list, static_cast<unsigned short>(size + arrivals.size()));
    return;
  }
  std::priority_queue<std::pair<float, HnswId>, std::vector<std::pair<float, HnswId>>, HnswIndex::CompareByFirst>
      candidates;
  const void* point = index.getDataByInternalId(target);
  for (std::size_t a = 0; a < size; ++a)
    candidates.emplace(index.fstdistfunc_(point, index.getDataByInternalId(ids[a]), index.dist_func_param_), ids[a]);
  for (const auto& arrival : arrivals) candidates.emplace(arrival);
  index.getNeighborsByHeuristic2(candidates, room);
  std::size_t kept = 0;
  for (; !candidates.empty(); candidates.pop()) ids[kept++] = candidates.top().second;
  index.setListCount(list, static_cast<unsigned short>(kept));
}

/// A link to add: `id` into the list of `target` on `layer`, `distance` apart.
struct HnswLink {
  int layer;
  HnswId target, id;
  float distance;
};

/// Adds the links (each once, however often listed), grouped by target in (layer, target, id) order,
/// one target per task: no step depends on the thread count.
inline void add_links(HnswIndex& index, std::vector<HnswLink>& links) {
  const auto key = [](const HnswLink& link) { return std::tie(link.layer, link.target, link.id); };
  std::sort(links.begin(), links.end(), [&](const HnswLink& a, const HnswLink& b) { return key(a) < key(b); });
  const auto same = [&](const HnswLink& a, const HnswLink& b) { return key(a) == key(b); };
  links.erase(std::unique(links.begin(), links.end(), same), links.end());
  std::vector<std::size_t> group_starts;
  for (std::size_t a = 0; a < links.size(); ++a)
    if (a == 0 || links[a].layer != links[a - 1].layer || links[a].target != links[a - 1].target)
      group_starts.push_back(a);
  group_starts.push_back(links.size());
  parallel_for(0, std::int64_t(group_starts.size()) - 1, [&](std::int64_t g) {
    const HnswLink& first = links[group_starts[std::size_t(g)]];
    std::vector<std::pair<float, HnswId>> arrivals;
    for (std::size_t a = group_starts[std::size_t(g)]; a < group_starts[std::size_t(g) + 1]; ++a)
      arrivals.emplace_back(links[a].distance, links[a].id);
    link_back(index, first.target, first.layer, arrivals);
  });
}

/// Inserts the registered, unlinked points [first, end) into the index at once, in three steps, each
/// in parallel and none depending on the thread count:
/// 1. each plans its links against the index without the wave (plan_links: searches only read);
/// 2. each writes its own lists, and each old point it chose takes it in (add_links);
/// 3. the wave's points, blind to each other in step 1, meet through the old points they chose:
///    a wave point now in such a point's list, and nearer than the farthest link the point chose
///    on that layer (so it would have been a candidate), is linked with it both ways. Without this
///    step a point and its exact duplicate arriving in one wave could lose each other (the
///    heuristic keeps one of two coincident points in an old point's list): 24 of 30,000 points
///    did in a trial (tests/neighbors/approximate_knn.cpp).
inline void insert_wave(HnswIndex& index, HnswId first, HnswId end) {
  std::vector<HnswPlan> plans(end - first);
  parallel_for(first, end, [&](std::int64_t id) { plans[std::size_t(id - first)] = plan_links(index, HnswId(id)); }, 4);
  std::vector<HnswLink> links;
  for (HnswId id = first; id < end; ++id) {
    const auto& plan = plans[id - first];
    for (std::size_t layer = 0; layer < plan.size(); ++layer) {
      auto* list = index.get_linklist_at_level(id, int(layer));
      auto* ids = reinterpret_cast<HnswId*>(list + 1);
      for (std::size_t a = 0; a < plan[layer].size(); ++a) {
        ids[a] = plan[layer][a].second;
        links.push_back({int(layer), plan[layer][a].second, id, plan[layer][a].first});
      }
      index.setListCount(list, static_cast<unsigned short>(plan[layer].size()));
    }
  }
  add_links(index, links);

  std::vector<std::vector<HnswLink>> met(end - first);
  parallel_for(first, end, [&](std::int64_t id) {
    const auto& plan = plans[std::size_t(id - first)];
    const void* point = index.getDataByInternalId(HnswId(id));
    std::vector<HnswId> wave_points;  // of one layer, each once however many chosen lists hold it
    for (std::size_t layer = 0; layer < plan.size(); ++layer) {
      wave_points.clear();
      for (const auto& chosen : plan[layer]) {
        auto* list = index.get_linklist_at_level(chosen.second, int(layer));
        const auto* ids = reinterpret_cast<const HnswId*>(list + 1);
        for (std::size_t a = 0, size = index.getListCount(list); a < size; ++a)
          if (ids[a] >= first && ids[a] < end && ids[a] != HnswId(id)) wave_points.push_back(ids[a]);
      }
      std::sort(wave_points.begin(), wave_points.end());
      wave_points.erase(std::unique(wave_points.begin(), wave_points.end()), wave_points.end());
      for (const HnswId other : wave_points) {
        const float d = index.fstdistfunc_(point, index.getDataByInternalId(other), index.dist_func_param_);
        if (d > plan[layer].front().first) continue;  // the plan lists its farthest first
        met[std::size_t(id - first)].push_back({int(layer), HnswId(id), other, d});
        met[std::size_t(id - first)].push_back({int(layer), other, HnswId(id), d});
      }
    }
  }, 4);
  links.clear();
  for (const auto& pairs : met) links.insert(links.end(), pairs.begin(), pairs.end());
  add_links(index, links);

  for (HnswId id = first; id < end; ++id)  // a point above the top layer becomes the entry point
    if (index.element_levels_[id] > index.maxlevel_) {
      index.maxlevel_ = index.element_levels_[id];
      index.enterpoint_node_ = id;
    }
}

/// Fills the index with every row, in a seeded random order (so that each wave is spread over
/// the data however the rows are sorted). With `deterministic`, the first points one at a time,
/// then waves of an eighth of the index so far, each inserted in parallel by insert_wave: the
/// index is the same for every thread count. Otherwise hnswlib's parallel insertion, whose index
/// depends on the thread schedule.
template <Real T>
void build_hnsw_index(HnswIndex& index, const PointRows<T>& rows, bool deterministic, std::uint64_t seed) {
  const std::vector<index_t> order = random_subset(rows.rows, rows.rows, seed);
  std::vector<float> buffer;
  constexpr index_t serial_start = 1024;  // below this a wave would be too few points to share
  const index_t head = deterministic ? std::min(rows.rows, serial_start) : 1;
  for (index_t a = 0; a < head; ++a) index.addPoint(float_row(rows, order[a], buffer), hnswlib::labeltype(order[a]));
  if (!deterministic) {
    parallel_for(head, rows.rows, [&](std::int64_t a) {
      std::vector<float> local;
      index.addPoint(float_row(rows, order[std::size_t(a)], local), hnswlib::labeltype(order[std::size_t(a)]));
    });
    return;
  }
  for (index_t begin = head; begin < rows.rows;) {
    const index_t end = std::min(rows.rows, begin + std::max<index_t>(1, begin / 8));
    for (index_t a = begin; a < end; ++a)
      register_unlinked(index, float_row(rows, order[a], buffer), hnswlib::labeltype(order[a]));
    insert_wave(index, HnswId(begin), HnswId(end));
    begin = end;
  }
}

}  // namespace nldr::detail
