// UMAP's layout optimization (McInnes, Healy & Melville 2018, sec. 3.2 and 4.1; umap-learn 0.5's
// optimize_layout_euclidean): epochs of gradient steps on the fuzzy cross-entropy, each edge sampled
// in proportion to its weight (every epochs_per_sample = w_max / w epochs), each sample followed by
// negative_sample_rate repulsive samples of uniformly drawn points, every gradient term clipped to
// [-4, 4], the learning rate falling linearly to 0.
//
// Attraction along an edge at squared distance r:  -2 a b r^(b-1) / (1 + a r^b) (y_i - y_j);
// repulsion from a negative sample:                2 gamma b / ((0.001 + r)(1 + a r^b)) (y_i - y_k).
//
// Parallel and the same for every thread count (docs/methods/umap.md, "Determinism"): in each epoch
// every point reads the other points at their positions of the start of the epoch (Jacobi across
// points) and draws its negative samples from its own random stream, seeded by (seed, epoch, point).
// umap-learn instead updates both ends of an edge in one shared array in an arbitrary (Hogwild) order,
// which is why it runs single-threaded when seeded. Each undirected edge is listed at both ends;
// umap-learn moves both ends at each of the two samples, so a point is pulled twice per sample of its
// edge: here the point takes both pulls itself. Two ways to step (UmapOptimizer):
// - adam (default): a point's terms of the epoch are summed at its start-of-epoch position into one
//   gradient, and Adam (Kingma & Ba 2015, with their bias correction) moves it, as uwot's reproducible
//   `batch = TRUE` mode does with beta1 = 0.5, beta2 = 0.9, eps = 1e-7 (uwot 0.1's defaults).
// - sgd: the point steps after each term, umap-learn's rule within a point.
//
// Memory (docs/methods/umap.md, "Speed"): the start-of-epoch positions the other points are read from
// are kept in float, as umap-learn keeps its whole layout, which halves the array that every sample
// reads at a random place; the moving point itself stays in double (and Adam's two moments per
// coordinate). A point's samples are drawn before its updates, and their rows prefetched, so that
// their cache misses overlap.
//
// The fuzzy cross-entropy is not computed: its repulsive part sums over all N^2 pairs, more than an
// epoch costs (umap-learn computes none either); the observer gets no objective.
#pragma once

#include <nldr/core/iteration.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/types.hpp>
#include <nldr/embed/routines/weighted_graph.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

namespace nldr::routines {

/// How UMAP's layout steps within an epoch (see the file comment).
enum class UmapOptimizer {
  adam,  ///< one Adam step per point and epoch on the sum of its sampled terms (uwot's batch mode)
  sgd,   ///< a step after every sampled term (umap-learn's rule)
};

/// The optimizer's settings (UmapOptions' names).
struct UmapLayoutSettings {
  double a = 1.577;                 ///< curve parameters (routines/umap_curve.hpp)
  double b = 0.8951;
  double repulsion_strength = 1;    ///< gamma, weight of the negative samples
  double learning_rate = 1;         ///< initial step, falling linearly to 0
  double negative_sample_rate = 5;  ///< negative samples per edge sample
  int n_epochs = 200;
  std::uint64_t seed = 0;
  UmapOptimizer optimizer = UmapOptimizer::adam;
};

/// umap-learn's default number of epochs: 500 for at most 10,000 points, else 200.
inline int default_umap_epochs(index_t n) { return n <= 10000 ? 500 : 200; }

/// `graph` without its entries weaker than w_max / n_epochs, which would be sampled less than once
/// (umap-learn; for n_epochs <= 10 it cuts at w_max / default_epochs instead).
inline WeightedGraph without_weak_edges(const WeightedGraph& graph, int n_epochs, int default_epochs) {
  double strongest = 0;
  for (double w : graph.values) strongest = std::max(strongest, w);
  const double cut = strongest / double(n_epochs > 10 ? n_epochs : default_epochs);
  WeightedGraph kept;
  for (index_t i = 0; i < graph.size(); ++i) {
    const auto neighbors = graph.neighbors(i);
    const auto weights = graph.weights(i);
    for (std::size_t e = 0; e < neighbors.size(); ++e)
      if (weights[e] >= cut) {
        kept.columns.push_back(neighbors[e]);
        kept.values.push_back(weights[e]);
      }
    kept.row_offsets.push_back(offset_t(kept.columns.size()));
  }
  return kept;
}

namespace detail_umap {

inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// The seed of point `point`'s random stream in epoch `epoch` (a counter-based derivation, so that
/// no stream depends on which thread ran which point before it).
inline std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t epoch, std::uint64_t point) {
  return mix(mix(mix(seed) ^ epoch) ^ point);
}

inline double clip(double value) { return std::clamp(value, -4.0, 4.0); }

/// r^b in single precision (as umap-learn computes it): powf costs about half of pow, and the
/// gradients are clipped and noisy far beyond float's rounding. (A polynomial 2^(b log2 r) inline was
/// tried: its chain of dependent multiply-adds is longer than libm's table-driven powf, 1.6x slower.)
inline double power(double r, double b) { return double(std::pow(float(r), float(b))); }

/// An index in [0, count), count < 2^31, from the top 32 random bits by multiply-shift (Lemire 2019),
/// cheaper than a division per negative sample; its bias (some indices drawn with probability
/// 1 / 2^32 more) is no larger than that of umap-learn's 32-bit modulo.
inline index_t uniform_index(Random& random, std::uint64_t count) { return index_t(((random() >> 32) * count) >> 32); }

/// Sampling state of each directed entry: the epoch of its next sample and of its next negative samples.
struct EdgeClock {
  std::vector<double> per_sample, next_sample, per_negative, next_negative;

  EdgeClock(const WeightedGraph& graph, double negative_sample_rate) {
    double strongest = 0;
    for (double w : graph.values) strongest = std::max(strongest, w);
    per_sample.resize(graph.values.size());
    for (std::size_t e = 0; e < per_sample.size(); ++e) per_sample[e] = strongest / graph.values[e];
    next_sample = per_sample;
    per_negative.resize(per_sample.size());
    for (std::size_t e = 0; e < per_sample.size(); ++e) per_negative[e] = per_sample[e] / negative_sample_rate;
    next_negative = per_negative;
  }
};

/// Asks the cache for the line holding `address` ahead of its use (a hint; no effect where the
/// compiler has no such builtin).
inline void prefetch(const void* address) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(address);
#else
  (void)address;
#endif
}

/// One point's samples in one epoch: its entries sampled, in list order, and the rows of their
/// negative samples (those of entries[j] end at negatives_end[j]); with Adam, the sum of their terms.
/// One per thread, each on its own cache lines (the vectors' ends change at every sample).
struct alignas(64) PointSamples {
  std::vector<offset_t> entries;
  std::vector<std::size_t> negatives_end;
  std::vector<index_t> negatives;
  std::vector<double> gradient;
};

/// Point `self`'s samples of epoch `epoch` among its entries [begin, end) of `graph`, its negative
/// samples drawn from `random` among the rows of `others` (a draw of row `self` is dropped; -1: none
/// to drop), and the clock advanced past them. Every row they name is prefetched: the rows lie at
/// random places of `others`, which at 10^6 points is far larger than the cache, and requesting them
/// all before the first is used overlaps their misses (their addresses do not depend on the updates,
/// so this changes no result).
template <class Scalar>
void draw_samples(PointSamples& samples, const WeightedGraph& graph, offset_t begin, offset_t end,
                  const Matrix<Scalar>& others, index_t self, int epoch, EdgeClock& clock, Random& random) {
  const auto count = std::uint64_t(others.rows());
  samples.entries.clear();
  samples.negatives_end.clear();
  samples.negatives.clear();
  for (offset_t e = begin; e < end; ++e) {
    if (clock.next_sample[e] > epoch) continue;
    clock.next_sample[e] += clock.per_sample[e];
    samples.entries.push_back(e);
    prefetch(others.row(graph.columns[e]).data());
    const int negatives = int((epoch - clock.next_negative[e]) / clock.per_negative[e]);
    for (int s = 0; s < negatives; ++s) {
      const index_t k = uniform_index(random, count);
      if (k == self) continue;
      samples.negatives.push_back(k);
      prefetch(others.row(k).data());
    }
    clock.next_negative[e] += negatives * clock.per_negative[e];
    samples.negatives_end.push_back(samples.negatives.size());
  }
}

/// Calls add(k, term) with each clipped gradient term, coordinate k, of the point at y (a d-vector)
/// from its `samples` (draw_samples): `pulls` attractions along each sampled entry of `graph`, whose
/// columns index `others` (N x d), then a push from each of its negative samples. Moving: add may move
/// y (each pull then sees the point where the previous left it); else y stays, so an entry's pulls are
/// equal and come as one term, `pulls` times one pull.
template <bool Moving, class Scalar, class Add>
void for_each_term(const double* y, index_t dim, const WeightedGraph& graph, const PointSamples& samples,
                   const Matrix<Scalar>& others, int pulls, const UmapLayoutSettings& settings, Add add) {
  const double a = settings.a, b = settings.b;
  auto squared_distance = [&](const Scalar* other) {
    double r = 0;
    for (index_t k = 0; k < dim; ++k) r += (y[k] - other[k]) * (y[k] - other[k]);
    return r;
  };
  const int steps = Moving ? pulls : 1, weight = Moving ? 1 : pulls;
  std::size_t s = 0;
  for (std::size_t j = 0; j < samples.entries.size(); ++j) {
    const Scalar* other = others.row(graph.columns[samples.entries[j]]).data();
    for (int step = 0; step < steps; ++step) {
      const double r = squared_distance(other);
      if (!(r > 0)) break;
      const double r_b = power(r, b);
      const double coefficient = -2 * a * b * (r_b / r) / (a * r_b + 1);
      for (index_t k = 0; k < dim; ++k) add(k, weight * clip(coefficient * (y[k] - other[k])));
    }
    for (; s < samples.negatives_end[j]; ++s) {
      const Scalar* sample = others.row(samples.negatives[s]).data();
      const double r = squared_distance(sample);
      const double coefficient =
          r > 0 ? 2 * settings.repulsion_strength * b / ((0.001 + r) * (a * power(r, b) + 1)) : 0.0;
      // umap-learn's push where the coefficient vanishes (coincident points, or gamma = 0).
      for (index_t k = 0; k < dim; ++k) add(k, coefficient > 0 ? clip(coefficient * (y[k] - sample[k])) : 4.0);
    }
  }
}

/// Moves y by a step of `alpha` after each of its terms (UmapOptimizer::sgd; see for_each_term).
template <class Scalar>
void move_point(double* y, index_t dim, const WeightedGraph& graph, const PointSamples& samples,
                const Matrix<Scalar>& others, int pulls, double alpha, const UmapLayoutSettings& settings) {
  for_each_term<true>(y, dim, graph, samples, others, pulls, settings,
                      [&](index_t k, double term) { y[k] += term * alpha; });
}

/// Adam's state (Kingma & Ba 2015, Algorithm 1): the moments of each coordinate's gradient and the
/// step of the current epoch, bias-corrected as their sec. 2 rewrites it (alpha_t and epsilon-hat).
class AdamSteps {
 public:
  static constexpr double beta1 = 0.5, beta2 = 0.9, epsilon = 1e-7;  // uwot 0.1's batch-mode defaults

  AdamSteps(index_t n, index_t dim) : first_(Matrix<double>::Zero(n, dim)), second_(Matrix<double>::Zero(n, dim)) {}

  /// Starts step t = 1, 2, ... with rate alpha.
  void next_epoch(double alpha) {
    beta1_power_ *= beta1;
    beta2_power_ *= beta2;
    scale_ = alpha * std::sqrt(1 - beta2_power_) / (1 - beta1_power_);
    epsilon_ = epsilon * std::sqrt(1 - beta2_power_);
  }

  /// Updates point i's moments with its gradient g (a d-vector) and moves y, its position.
  void move(index_t i, const double* g, double* y) {
    for (index_t k = 0; k < first_.cols(); ++k) {
      double& m = first_(i, k);
      double& v = second_(i, k);
      m += (1 - beta1) * (g[k] - m);
      v += (1 - beta2) * (g[k] * g[k] - v);
      y[k] += scale_ * m / (std::sqrt(v) + epsilon_);
    }
  }

 private:
  Matrix<double> first_, second_;
  double beta1_power_ = 1, beta2_power_ = 1, scale_ = 0, epsilon_ = 0;
};

/// umap-learn's rate in epoch n: the initial rate in epochs 0 and 1, then falling by 1 / n_epochs per epoch.
inline double rate(const UmapLayoutSettings& settings, int epoch) {
  return settings.learning_rate * (1 - double(std::max(0, epoch - 1)) / double(settings.n_epochs));
}

}  // namespace detail_umap

/// Optimizes the N x d layout Y on the symmetric graph `graph` (see the file comment), calling the
/// observer after every epoch (phase "optimization"); returns early when it asks to stop.
inline void optimize_umap_layout(Matrix<double>& Y, const WeightedGraph& graph, const UmapLayoutSettings& settings,
                                 IterationObserver& observer) {
  const index_t n = index_t(Y.rows()), dim = index_t(Y.cols());
  detail_umap::EdgeClock clock(graph, settings.negative_sample_rate);
  Matrix<float> start(n, dim);
  std::vector<detail_umap::PointSamples> scratch(static_cast<std::size_t>(max_threads()));
  const bool adam = settings.optimizer == UmapOptimizer::adam;
  std::optional<detail_umap::AdamSteps> steps;
  if (adam) steps.emplace(n, dim);
  for (int epoch = 0; epoch < settings.n_epochs; ++epoch) {
    start = Y.cast<float>();
    const double alpha = detail_umap::rate(settings, epoch);
    if (adam) steps->next_epoch(alpha);
    parallel_for(0, n, [&](std::int64_t i) {
      Random random(detail_umap::stream_seed(settings.seed, std::uint64_t(epoch), std::uint64_t(i)));
      detail_umap::PointSamples& samples = scratch[std::size_t(thread_index())];
      detail_umap::draw_samples(samples, graph, graph.row_offsets[i], graph.row_offsets[i + 1], start, index_t(i),
                                epoch, clock, random);
      double* y = Y.row(i).data();
      if (!adam) return detail_umap::move_point(y, dim, graph, samples, start, 2, alpha, settings);
      samples.gradient.assign(std::size_t(dim), 0.0);
      detail_umap::for_each_term<false>(y, dim, graph, samples, start, 2, settings,
                                        [&](index_t k, double term) { samples.gradient[std::size_t(k)] += term; });
      steps->move(index_t(i), samples.gradient.data(), y);
    });
    if (!observer.after(epoch + 1, "optimization", Y)) return;
  }
}

/// Optimizes new points' layout Y_new (P x d) against the fixed training layout `fixed` (N x d), row p
/// of the bipartite graph `to_training` listing point p's training neighbors (transform: the training
/// points do not move, each new point is pulled once per sample, by umap-learn's steps whatever the
/// fit's optimizer: a new point alone has no batch to sum). Seeded per (seed, epoch, new point).
inline void optimize_umap_placement(Matrix<double>& Y_new, const WeightedGraph& to_training,
                                    const Matrix<double>& fixed, const UmapLayoutSettings& settings) {
  const index_t p_count = index_t(Y_new.rows()), dim = index_t(Y_new.cols());
  detail_umap::EdgeClock clock(to_training, settings.negative_sample_rate);
  std::vector<detail_umap::PointSamples> scratch(static_cast<std::size_t>(max_threads()));
  parallel_for(0, p_count, [&](std::int64_t p) {
    detail_umap::PointSamples& samples = scratch[std::size_t(thread_index())];
    for (int epoch = 0; epoch < settings.n_epochs; ++epoch) {
      Random random(detail_umap::stream_seed(settings.seed, std::uint64_t(epoch), std::uint64_t(p)));
      detail_umap::draw_samples(samples, to_training, to_training.row_offsets[p], to_training.row_offsets[p + 1],
                                fixed, -1, epoch, clock, random);
      detail_umap::move_point(Y_new.row(p).data(), dim, to_training, samples, fixed, 1,
                              detail_umap::rate(settings, epoch), settings);
    }
  });
}

}  // namespace nldr::routines
