// What UMAP's thread-independent update order costs in quality (docs/methods/umap.md, "Determinism"):
// on scikit-learn's digits (tests/data/digits.csv), the same fuzzy graph, start, a and b optimized
// (1) by nldr's per-point epochs (routines/umap_optimizer.hpp) with each optimizer, Adam and SGD, and
// (2) in umap-learn's sequential order (every directed entry in turn, both ends moved, one random
// stream), then the 10-NN accuracy of each (point i in fold i mod 5, as tests/data/make_digits.py).
//
//   bench_umap_update_order [--seeds 5] [--data tests/data/digits.csv]
#include <nldr/core/parallel.hpp>
#include <nldr/embed/umap.hpp>
#include <nldr/io/csv.hpp>
#include <nldr/neighbors/knn.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace {

double knn_accuracy(const nldr::Matrix<double>& Y, const std::vector<int>& labels) {
  const Eigen::Index n = Y.rows();
  int correct = 0;
  for (Eigen::Index t = 0; t < n; ++t) {
    std::vector<std::pair<double, Eigen::Index>> d;
    for (Eigen::Index j = 0; j < n; ++j)
      if (j % 5 != t % 5) d.emplace_back((Y.row(t) - Y.row(j)).squaredNorm(), j);
    std::stable_sort(d.begin(), d.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::array<int, 10> votes{};
    for (std::size_t r = 0; r < 10; ++r) ++votes[std::size_t(labels[std::size_t(d[r].second)])];
    const auto best = std::max_element(votes.begin(), votes.end()) - votes.begin();
    correct += best == labels[std::size_t(t)];
  }
  return double(correct) / double(n);
}

/// umap-learn's single-threaded order: each due entry moves both of its ends at once.
void sequential_order(nldr::Matrix<double>& Y, const nldr::routines::WeightedGraph& graph,
                      const nldr::routines::UmapLayoutSettings& settings) {
  using namespace nldr::routines::detail_umap;
  EdgeClock clock(graph, settings.negative_sample_rate);
  nldr::Random random(settings.seed);
  const Eigen::Index dim = Y.cols();
  const double a = settings.a, b = settings.b;
  auto squared = [&](const double* x, const double* y) {
    double r = 0;
    for (Eigen::Index k = 0; k < dim; ++k) r += (x[k] - y[k]) * (x[k] - y[k]);
    return r;
  };
  for (int epoch = 0; epoch < settings.n_epochs; ++epoch) {
    const double alpha = rate(settings, epoch);
    for (nldr::index_t i = 0; i < graph.size(); ++i)
      for (nldr::offset_t e = graph.row_offsets[std::size_t(i)]; e < graph.row_offsets[std::size_t(i) + 1]; ++e) {
        if (clock.next_sample[std::size_t(e)] > epoch) continue;
        double* y = Y.row(i).data();
        double* other = Y.row(graph.columns[std::size_t(e)]).data();
        const double r = squared(y, other);
        const double coefficient = r > 0 ? -2 * a * b * power(r, b) / r / (a * power(r, b) + 1) : 0.0;
        for (Eigen::Index k = 0; k < dim; ++k) {
          const double gradient = clip(coefficient * (y[k] - other[k]));
          y[k] += gradient * alpha;
          other[k] -= gradient * alpha;
        }
        clock.next_sample[std::size_t(e)] += clock.per_sample[std::size_t(e)];
        const int negatives = int((epoch - clock.next_negative[std::size_t(e)]) / clock.per_negative[std::size_t(e)]);
        for (int s = 0; s < negatives; ++s) {
          const nldr::index_t k = uniform_index(random, std::uint64_t(Y.rows()));
          if (k == i) continue;
          const double* sample = Y.row(k).data();
          const double r2 = squared(y, sample);
          const double c = r2 > 0 ? 2 * settings.repulsion_strength * b / ((0.001 + r2) * (a * power(r2, b) + 1)) : 0.0;
          for (Eigen::Index d = 0; d < dim; ++d) y[d] += (c > 0 ? clip(c * (y[d] - sample[d])) : 4.0) * alpha;
        }
        clock.next_negative[std::size_t(e)] += negatives * clock.per_negative[std::size_t(e)];
      }
  }
}

}  // namespace

int main(int argc, char** argv) {
  int seeds = 5;
  std::string data = "tests/data/digits.csv";
  for (int a = 1; a + 1 < argc; a += 2) {
    const std::string name = argv[a];
    if (name == "--seeds") seeds = std::stoi(argv[a + 1]);
    if (name == "--data") data = argv[a + 1];
  }
  const auto table = nldr::io::read_csv<double>(data, {.header = nldr::io::CsvHeader::absent}).values;
  const nldr::Matrix<double> X = table.rightCols(64);
  std::vector<int> labels(std::size_t(X.rows()));
  for (Eigen::Index i = 0; i < X.rows(); ++i) labels[std::size_t(i)] = int(table(i, 0));
  const auto graph = nldr::KNearest{14}(X);
  const auto fuzzy = nldr::routines::without_weak_edges(nldr::routines::fuzzy_simplicial_set(graph, 1.0, 1.0), 500, 500);
  const auto curve = nldr::routines::fit_umap_curve(0.1, 1.0);
  double sum_adam = 0, sum_sgd = 0, sum_sequential = 0;
  for (int seed = 0; seed < seeds; ++seed) {
    nldr::Random random(nldr::routines::detail_umap::mix(std::uint64_t(seed)));
    nldr::Matrix<double> start = nldr::routines::spectral_layout(fuzzy, 2, &X, std::uint64_t(seed), {}, "umap");
    nldr::detail::expand_with_noise(start, random);
    nldr::detail::scale_to_box(start);
    nldr::routines::UmapLayoutSettings settings{
        .a = curve.a, .b = curve.b, .n_epochs = 500, .seed = std::uint64_t(seed)};
    auto per_point = [&](nldr::routines::UmapOptimizer optimizer) {
      nldr::Matrix<double> Y = start;
      settings.optimizer = optimizer;
      nldr::OptimizerDiagnostics diagnostics;
      nldr::IterationObserver observer(diagnostics, {}, {}, settings.n_epochs, "umap");
      nldr::routines::optimize_umap_layout(Y, fuzzy, settings, observer);
      return knn_accuracy(Y, labels);
    };
    const double adam = per_point(nldr::routines::UmapOptimizer::adam);
    const double sgd = per_point(nldr::routines::UmapOptimizer::sgd);
    nldr::Matrix<double> sequential = start;
    sequential_order(sequential, fuzzy, settings);
    const double s = knn_accuracy(sequential, labels);
    sum_adam += adam;
    sum_sgd += sgd;
    sum_sequential += s;
    std::printf("seed %d: 10-NN accuracy per-point epochs adam %.4f, sgd %.4f; sequential (umap-learn's order) %.4f\n",
                seed, adam, sgd, s);
  }
  std::printf("mean: adam %.4f, sgd %.4f, sequential %.4f\n", sum_adam / seeds, sum_sgd / seeds,
              sum_sequential / seeds);
  return 0;
}
