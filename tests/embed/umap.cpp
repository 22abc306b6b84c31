// Tests of UMAP (McInnes, Healy & Melville 2018) against independent references: the fuzzy
// memberships and their union written out from the formulas (sigma by a separate bisection), the
// supervised intersection likewise, umap-learn's a and b, the spectral start against Laplacian
// Eigenmaps of the fuzzy graph, bit-identical results on 1 and 2 threads, known geometry (separated
// clusters), umap-learn's recorded 10-NN accuracy on scikit-learn's digits, and hostile input.
#include "catch.hpp"

#include "mds_references.hpp"

#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/embed/laplacian_eigenmaps.hpp>
#include <nldr/embed/umap.hpp>
#include <nldr/neighbors/knn.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace umap_test {

/// sigma with sum_j exp(-max(0, d_j - rho) / sigma) = log2(m + 1), by 200 bisections on [1e-12, 1e6].
double reference_sigma(const std::vector<double>& d, double rho) {
  const double target = std::log2(double(d.size()) + 1);
  double lo = 1e-12, hi = 1e6;
  for (int it = 0; it < 200; ++it) {
    const double mid = std::sqrt(lo * hi);
    double sum = 0;
    for (double x : d) sum += std::exp(-std::max(0.0, x - rho) / mid);
    (sum > target ? hi : lo) = mid;
  }
  return std::sqrt(lo * hi);
}

/// Dense N x N matrix of a weighted graph.
Eigen::MatrixXd dense(const nldr::routines::WeightedGraph& g) {
  Eigen::MatrixXd W = Eigen::MatrixXd::Zero(g.size(), g.size());
  for (nldr::index_t i = 0; i < g.size(); ++i)
    for (std::size_t a = 0; a < g.neighbors(i).size(); ++a) W(i, g.neighbors(i)[a]) = g.weights(i)[a];
  return W;
}

/// Points in `k` Gaussian clusters of `per` points each in D dimensions, centres `gap` apart.
nldr::Matrix<double> gaussian_clusters(int k, int per, int D, double gap, std::uint64_t seed, std::vector<int>& labels) {
  nldr::Random random(seed);
  nldr::Matrix<double> X(k * per, D);
  labels.assign(std::size_t(k * per), 0);
  for (int c = 0; c < k; ++c)
    for (int p = 0; p < per; ++p) {
      for (int j = 0; j < D; ++j) X(c * per + p, j) = random.normal() + (j == c ? gap : 0.0);
      labels[std::size_t(c * per + p)] = c;
    }
  return X;
}

/// Fraction of points whose nearest other point in Y (brute force) has their label.
double nearest_same_label(const Eigen::MatrixXd& Y, const std::vector<int>& labels) {
  int same = 0;
  for (Eigen::Index i = 0; i < Y.rows(); ++i) {
    double best = 1e300;
    Eigen::Index arg = -1;
    for (Eigen::Index j = 0; j < Y.rows(); ++j)
      if (j != i && (Y.row(i) - Y.row(j)).squaredNorm() < best) best = (Y.row(i) - Y.row(arg = j)).squaredNorm();
    same += labels[std::size_t(arg)] == labels[std::size_t(i)];
  }
  return double(same) / double(Y.rows());
}

/// 10-NN majority vote accuracy, point i in fold i mod 5, ties to the smallest label, distances
/// ordered stably by index (the protocol of tests/data/make_digits.py).
double knn_accuracy(const Eigen::MatrixXd& Y, const std::vector<int>& labels) {
  const Eigen::Index n = Y.rows();
  int correct = 0;
  for (Eigen::Index t = 0; t < n; ++t) {
    std::vector<std::pair<double, Eigen::Index>> d;
    for (Eigen::Index j = 0; j < n; ++j)
      if (j % 5 != t % 5) d.emplace_back((Y.row(t) - Y.row(j)).squaredNorm(), j);
    std::stable_sort(d.begin(), d.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::map<int, int> votes;
    for (int r = 0; r < 10; ++r) ++votes[labels[std::size_t(d[std::size_t(r)].second)]];
    int best = -1, count = -1;
    for (const auto& [label, v] : votes)
      if (v > count) best = label, count = v;
    correct += best == labels[std::size_t(t)];
  }
  return double(correct) / double(n);
}

}  // namespace umap_test

using namespace umap_test;

TEST_CASE("UMAP's fuzzy memberships and their union follow the formulas, at every degree", "[umap]") {
  // Point lists of different lengths (a pruned graph's), one duplicate (distance 0).
  const auto graph = nldr::NeighborGraph<double>::from_lists({
      {{1, 1.0}, {2, 2.0}, {3, 4.0}},
      {{0, 1.0}, {2, 1.5}},
      {{1, 1.5}, {0, 2.0}, {3, 2.5}, {4, 3.0}},
      {{4, 0.0}, {2, 2.5}},
      {{3, 0.0}},
  });
  for (const double connectivity : {1.0, 1.5, 0.5}) {
    const auto directed = nldr::routines::directed_memberships(graph, connectivity);
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(5, 5);
    for (nldr::index_t i = 0; i < 5; ++i) {
      std::vector<double> d(graph.distances(i).begin(), graph.distances(i).end()), positive;
      for (double x : d)
        if (x > 0) positive.push_back(x);
      // rho: the local_connectivity-th non-zero distance, interpolated; all of them if fewer.
      double rho = 0;
      if (double(positive.size()) >= connectivity) {
        const auto whole = std::size_t(connectivity);
        const double fraction = connectivity - double(whole);
        rho = whole == 0 ? fraction * positive[0]
                         : positive[whole - 1] + (fraction > 0 ? fraction * (positive[whole] - positive[whole - 1]) : 0);
      } else if (!positive.empty()) {
        rho = positive.back();
      }
      CHECK(directed.scales[i].rho == Approx(rho).margin(1e-12));
      // Where no distance exceeds rho every membership is 1 and no sigma solves the equation.
      const bool solvable = std::any_of(d.begin(), d.end(), [&](double x) { return x > rho; });
      const double sigma = solvable ? reference_sigma(d, rho) : 1.0;
      if (solvable) CHECK(directed.scales[i].sigma == Approx(sigma).epsilon(1e-4));
      for (std::size_t a = 0; a < d.size(); ++a)
        A(i, graph.neighbors(i)[a]) = std::exp(-std::max(0.0, d[a] - rho) / sigma);
    }
    CHECK((dense(directed.graph) - A).cwiseAbs().maxCoeff() < 1e-4);
    for (const double mix : {1.0, 0.3, 0.0}) {
      const Eigen::MatrixXd P = A.cwiseProduct(A.transpose());
      const Eigen::MatrixXd expected = mix * (A + A.transpose() - P) + (1 - mix) * P;
      const auto fuzzy = nldr::routines::fuzzy_simplicial_set(graph, connectivity, mix);
      CHECK((dense(fuzzy) - expected).cwiseAbs().maxCoeff() < 1e-4);
      CHECK((dense(fuzzy) - dense(fuzzy).transpose()).cwiseAbs().maxCoeff() == 0);
    }
  }
}

TEST_CASE("supervised UMAP intersects with the labels' set as umap-learn does", "[umap]") {
  const auto graph = nldr::NeighborGraph<double>::from_lists(
      {{{1, 1.0}, {2, 2.0}}, {{0, 1.0}, {3, 1.2}}, {{0, 2.0}, {3, 0.7}}, {{2, 0.7}, {1, 1.2}}});
  const auto fuzzy = nldr::routines::fuzzy_simplicial_set(graph, 1.0, 1.0);
  const std::vector<nldr::index_t> labels{0, 0, 1, -1};
  for (const double weight : {0.5, 0.9}) {
    Eigen::MatrixXd S = dense(fuzzy);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        if (labels[i] == -1 || labels[j] == -1)
          S(i, j) *= std::exp(-1.0);
        else if (labels[i] != labels[j])
          S(i, j) *= std::exp(-2.5 / (1 - weight));
      }
    for (int i = 0; i < 4; ++i) S.row(i) /= S.row(i).maxCoeff();
    const Eigen::MatrixXd expected = S + S.transpose() - S.cwiseProduct(S.transpose());
    CHECK((dense(nldr::routines::intersect_with_labels(fuzzy, labels, weight)) - expected).cwiseAbs().maxCoeff() < 1e-12);
  }
  // target_weight 1 cuts every edge between different labels.
  const Eigen::MatrixXd cut = dense(nldr::routines::intersect_with_labels(fuzzy, labels, 1.0));
  CHECK(cut(0, 2) == 0);
  CHECK(cut(1, 3) > 0);
}

TEST_CASE("UMAP's a and b are umap-learn's find_ab_params", "[umap]") {
  // umap-learn 0.5.3: find_ab_params(1.0, 0.1) = (1.57694, 0.89506); (1.0, 0.01) = (1.89561, 0.80064);
  // (1.0, 0.5) = (0.58303, 1.33417).
  const auto defaults = nldr::routines::fit_umap_curve(0.1, 1.0);
  CHECK(defaults.a == Approx(1.5769).margin(1e-3));
  CHECK(defaults.b == Approx(0.8951).margin(1e-3));
  const auto uwot = nldr::routines::fit_umap_curve(0.01, 1.0);
  CHECK(uwot.a == Approx(1.8956).margin(1e-3));
  CHECK(uwot.b == Approx(0.8006).margin(1e-3));
  const auto wide = nldr::routines::fit_umap_curve(0.5, 1.0);
  CHECK(wide.a == Approx(0.58303).margin(1e-3));
  CHECK(wide.b == Approx(1.33417).margin(1e-3));
}

TEST_CASE("UMAP's spectral start is Laplacian Eigenmaps of the fuzzy graph, times D^1/2", "[umap]") {
  // Laplacian Eigenmaps with t = 1 on edge lengths sqrt(-log w) has weights w: its coordinates are
  // f = D^-1/2 u, the start is u (umap-learn's), so D^1/2 f must equal it up to each column's sign.
  const auto roll = nldr::datasets::swiss_roll<double>({.n = 400, .seed = 3});
  const auto graph = nldr::KNearest{10}(roll.points);
  const auto fuzzy = nldr::routines::fuzzy_simplicial_set(graph, 1.0, 1.0);
  const Eigen::MatrixXd start = nldr::routines::spectral_layout(fuzzy, 2, &roll.points, 0, {}, "umap");

  std::vector<nldr::offset_t> offsets(fuzzy.row_offsets.begin(), fuzzy.row_offsets.end());
  std::vector<nldr::index_t> indices(fuzzy.columns.begin(), fuzzy.columns.end());
  std::vector<double> lengths;
  for (double w : fuzzy.values) lengths.push_back(std::sqrt(-std::log(w)));
  const auto weighted = nldr::NeighborGraph<double>::from_csr(400, offsets, indices, lengths);
  const auto le = nldr::LaplacianEigenmaps{{.dim = 2, .t = 1.0}}.fit(roll.points, weighted);
  Eigen::VectorXd degree = Eigen::VectorXd::Zero(400);
  for (nldr::index_t i = 0; i < 400; ++i)
    for (double w : fuzzy.weights(i)) degree[i] += w;
  for (int c = 0; c < 2; ++c) {
    Eigen::VectorXd expected = degree.cwiseSqrt().cwiseProduct(le.coordinates.col(c));
    expected.normalize();
    const Eigen::VectorXd got = start.col(c).normalized();
    CHECK(std::min((got - expected).cwiseAbs().maxCoeff(), (got + expected).cwiseAbs().maxCoeff()) < 1e-6);
  }
}

TEST_CASE("UMAP lays out a disconnected graph component by component", "[umap]") {
  std::vector<int> labels;
  const auto X = gaussian_clusters(3, 60, 5, 1000.0, 4, labels);
  const auto graph = nldr::KNearest{8}(X);
  const auto fuzzy = nldr::routines::fuzzy_simplicial_set(graph, 1.0, 1.0);
  REQUIRE(nldr::connected_components(fuzzy).count() == 3);
  const Eigen::MatrixXd start = nldr::routines::spectral_layout(fuzzy, 2, &X, 0, {}, "umap");
  CHECK(nearest_same_label(start, labels) == 1.0);
  const auto model = nldr::Umap{{.n_epochs = 60}}.fit(X, graph);
  CHECK(model.coordinates.allFinite());
  CHECK(nearest_same_label(model.coordinates, labels) == 1.0);
}

TEMPLATE_TEST_CASE("UMAP separates Gaussian clusters: every point's embedded nearest neighbor is from its cluster",
                   "[umap]", float, double) {
  std::vector<int> labels;
  const nldr::Matrix<TestType> X = gaussian_clusters(4, 100, 10, 12.0, 7, labels).cast<TestType>();
  const auto graph = nldr::KNearest{15}(X);
  for (const auto optimizer : {nldr::UmapOptimizer::adam, nldr::UmapOptimizer::sgd}) {
    const auto model = nldr::Umap{{.n_epochs = 200, .optimizer = optimizer, .seed = 1}}.fit(X, graph);
    REQUIRE(model.coordinates.rows() == 400);
    CHECK(nearest_same_label(model.coordinates.template cast<double>(), labels) == 1.0);
    CHECK(model.optimizer.iterations == 200);
    CHECK(model.optimizer.status == nldr::OptimizerStatus::completed);
    CHECK(model.a == Approx(1.5769).margin(1e-3));
  }
}

TEST_CASE("UMAP's Adam steps are Kingma & Ba's bias-corrected steps, scaled by the falling rate", "[umap]") {
  // The layout of each epoch, through the iteration callback. No entry is due in epoch 0 (each is
  // first sampled at epoch w_max / w >= 1), so Adam's first gradient is 0 and nothing moves; in epoch
  // 1 a point with samples has m = (1 - b1) g, v = (1 - b2) g^2, so each coordinate moves by
  // alpha sqrt(1 - b2^2) / (1 - b1^2) (1 - b1) / sqrt(1 - b2) (up to epsilon) whatever g is. Later,
  // by Cauchy-Schwarz on the moments' sums, |step| <= rate (1 - b1) / sqrt((1 - b2)(1 - b1^2 / b2)).
  const auto roll = nldr::datasets::swiss_roll<double>({.n = 300, .seed = 4});
  const auto graph = nldr::KNearest{10}(roll.points);
  const double learning_rate = 0.7, b1 = 0.5, b2 = 0.9;  // uwot's batch-mode moments
  const int epochs = 40;
  nldr::Matrix<double> initial(300, 2);
  for (Eigen::Index i = 0; i < 300; ++i) initial.row(i) << roll.points(i, 0), roll.points(i, 2);
  std::vector<Eigen::MatrixXd> layouts;
  nldr::UmapOptions options{.n_epochs = epochs, .learning_rate = learning_rate, .init = nldr::UmapInit::given};
  options.initial = initial;
  options.on_iteration = [&](const nldr::IterationReport& report) {
    layouts.push_back(report.coordinates());
    return true;
  };
  nldr::Umap{options}.fit(roll.points, graph);
  REQUIRE(layouts.size() == std::size_t(epochs));
  // The start: the given layout scaled to [0, 10] per axis.
  Eigen::MatrixXd start(300, 2);
  for (Eigen::Index c = 0; c < 2; ++c) {
    const double lo = initial.col(c).minCoeff(), hi = initial.col(c).maxCoeff();
    start.col(c) = 10 * (initial.col(c).array() - lo) / (hi - lo);
  }
  CHECK((layouts[0] - start).cwiseAbs().maxCoeff() < 1e-12);

  const double first_step = learning_rate * std::sqrt(1 - b2 * b2) / (1 - b1 * b1) * (1 - b1) / std::sqrt(1 - b2);
  int moved = 0;
  for (Eigen::Index i = 0; i < 300; ++i)
    for (Eigen::Index c = 0; c < 2; ++c) {
      const double step = std::abs(layouts[1](i, c) - layouts[0](i, c));
      if (step == 0) continue;
      ++moved;
      // Epsilon takes step |g| / (|g| + 1.38 epsilon) of the full one: at most 2.5e-4 here (observed).
      CHECK(step <= first_step * (1 + 1e-12));
      CHECK(step >= first_step * (1 - 1e-3));
    }
  CHECK(moved > 300);  // most points have an entry of the greatest weight

  const double bound = (1 - b1) / std::sqrt((1 - b2) * (1 - b1 * b1 / b2));
  for (int e = 2; e < epochs; ++e) {
    const double rate = learning_rate * (1 - double(e - 1) / epochs);  // umap-learn's linear decay
    CHECK((layouts[std::size_t(e)] - layouts[std::size_t(e - 1)]).cwiseAbs().maxCoeff() <= rate * bound * (1 + 1e-12));
  }
}

TEST_CASE("UMAP is bit-identical on 1 and 2 threads, fit and transform", "[umap][determinism]") {
  const auto roll = nldr::datasets::swiss_roll<double>({.n = 600, .seed = 9});
  const auto graph = nldr::KNearest{12}(roll.points);
  const nldr::Matrix<double> X_new = roll.points.topRows(50).array() + 0.05;
  const int threads = nldr::max_threads();
  auto run = [&](int t, nldr::UmapInit init, nldr::UmapOptimizer optimizer) {
    nldr::set_threads(t);
    const nldr::UmapOptions options{.n_epochs = 100, .init = init, .optimizer = optimizer, .seed = 5};
    const auto model = nldr::Umap{options}.fit(roll.points, graph);
    return std::make_pair(model.coordinates, model.transform(X_new));
  };
  for (const auto optimizer : {nldr::UmapOptimizer::adam, nldr::UmapOptimizer::sgd})
    for (const auto init : {nldr::UmapInit::spectral, nldr::UmapInit::random, nldr::UmapInit::pca}) {
      const auto one = run(1, init, optimizer), two = run(2, init, optimizer);
      CHECK((one.first.array() == two.first.array()).all());
      CHECK((one.second.array() == two.second.array()).all());
    }
  nldr::set_threads(threads);
  // Another seed, or the other optimizer, gives another result.
  const auto mine = run(threads, nldr::UmapInit::spectral, nldr::UmapOptimizer::adam).first;
  const auto other = nldr::Umap{{.n_epochs = 100, .seed = 6}}.fit(roll.points, graph);
  CHECK(!(other.coordinates.array() == mine.array()).all());
  CHECK(!(run(threads, nldr::UmapInit::spectral, nldr::UmapOptimizer::sgd).first.array() == mine.array()).all());
}

TEST_CASE("UMAP on the digits reaches umap-learn's 10-NN accuracy", "[umap][slow]") {
  // Recorded with `/usr/bin/python3 tests/data/make_digits.py` (umap-learn 0.5.3, n_neighbors = 15,
  // which counts the point itself: nldr's k = 14): 0.9844 0.9855 0.9850 0.9855 0.9839 for
  // random_state 0..4, mean 0.9849. Measured here, seed 0: 0.9855 (adam), 0.9866 (sgd).
  const auto table = mds_references::matrix<double>("digits.csv");
  const nldr::Matrix<double> X = table.rightCols(64);
  std::vector<int> labels(std::size_t(X.rows()));
  for (Eigen::Index i = 0; i < X.rows(); ++i) labels[std::size_t(i)] = int(table(i, 0));
  const auto graph = nldr::KNearest{14}(X);
  for (const auto optimizer : {nldr::UmapOptimizer::adam, nldr::UmapOptimizer::sgd}) {
    const auto model = nldr::Umap{{.optimizer = optimizer, .seed = 0}}.fit(X, graph);
    CHECK(model.n_epochs == 500);
    CHECK(std::abs(knn_accuracy(model.coordinates, labels) - 0.9849) < 0.02);
    // transform: points moved by a small offset land near their fitted place.
    const nldr::Matrix<double> shifted = X.array() + 0.01;
    const Eigen::MatrixXd moved = model.transform(shifted) - model.coordinates;
    std::vector<double> displacement(std::size_t(X.rows()));
    for (Eigen::Index i = 0; i < X.rows(); ++i) displacement[std::size_t(i)] = moved.row(i).norm();
    std::nth_element(displacement.begin(), displacement.begin() + X.rows() / 2, displacement.end());
    const double extent = (model.coordinates.colwise().maxCoeff() - model.coordinates.colwise().minCoeff()).maxCoeff();
    CHECK(displacement[std::size_t(X.rows() / 2)] < 0.02 * extent);
  }
}

TEST_CASE("supervised UMAP separates labelled classes the data cannot", "[umap]") {
  // Two classes drawn from one Gaussian: without labels the nearest embedded neighbor agrees by chance
  // (~0.5); with them (target_weight 0.5) the edges between classes are cut by exp(-5).
  std::vector<int> ignored;
  const auto X = gaussian_clusters(1, 300, 5, 0.0, 11, ignored);
  std::vector<int> labels(300);
  std::vector<nldr::index_t> given(300);
  for (int i = 0; i < 300; ++i) labels[std::size_t(i)] = int(given[std::size_t(i)] = i % 2);
  const auto graph = nldr::KNearest{15}(X);
  const auto plain = nldr::Umap{{.n_epochs = 200}}.fit(X, graph);
  nldr::UmapOptions options{.n_epochs = 200};
  options.labels = given;
  const auto supervised = nldr::Umap{options}.fit(X, graph);
  CHECK(nearest_same_label(plain.coordinates, labels) < 0.7);
  CHECK(nearest_same_label(supervised.coordinates, labels) > 0.95);
  // Unknown labels are allowed.
  options.labels.assign(300, -1);
  CHECK(nldr::Umap{options}.fit(X, graph).coordinates.allFinite());
}

TEST_CASE("UMAP's iteration callback sees every epoch and can stop the fit", "[umap]") {
  const auto roll = nldr::datasets::swiss_roll<double>({.n = 200, .seed = 2});
  const auto graph = nldr::KNearest{10}(roll.points);
  int calls = 0;
  nldr::UmapOptions options{.n_epochs = 50};
  options.on_iteration = [&](const nldr::IterationReport& report) {
    ++calls;
    CHECK(report.phase == "optimization");
    CHECK(report.total_iterations == 50);
    CHECK(!report.objective);
    return report.iteration < 10;
  };
  const auto model = nldr::Umap{options}.fit(roll.points, graph);
  CHECK(calls == 10);
  CHECK(model.optimizer.iterations == 10);
  CHECK(model.optimizer.status == nldr::OptimizerStatus::stopped);
}

TEST_CASE("UMAP refuses hostile input naming the parameter", "[umap][hostile]") {
  const auto roll = nldr::datasets::swiss_roll<double>({.n = 100, .seed = 1});
  const auto graph = nldr::KNearest{10}(roll.points);
  auto refuses = [&](nldr::UmapOptions options, const std::string& name) {
    std::string named = "(nothing thrown)";
    try {
      nldr::Umap{options}.fit(roll.points, graph);
    } catch (const nldr::invalid_argument& e) {
      named = e.parameter();
    }
    CHECK(named == name);
  };
  refuses({.min_dist = 2.0}, "min_dist");
  refuses({.min_dist = -0.1}, "min_dist");
  refuses({.spread = 0.0}, "spread");
  refuses({.n_epochs = -1}, "n_epochs");
  refuses({.learning_rate = std::nan("")}, "learning_rate");
  refuses({.negative_sample_rate = 0}, "negative_sample_rate");
  refuses({.repulsion_strength = -1}, "repulsion_strength");
  refuses({.local_connectivity = -1}, "local_connectivity");
  refuses({.set_op_mix_ratio = 1.5}, "set_op_mix_ratio");
  refuses({.target_weight = 2}, "target_weight");
  refuses({.init = nldr::UmapInit::given}, "init");
  nldr::UmapOptions wrong_shape{.init = nldr::UmapInit::given};
  wrong_shape.initial = Eigen::MatrixXd::Zero(99, 2);
  refuses(wrong_shape, "init");
  nldr::UmapOptions short_labels;
  short_labels.labels.assign(99, 0);
  refuses(short_labels, "labels");
  nldr::UmapOptions bad_label;
  bad_label.labels.assign(100, 0);
  bad_label.labels[3] = -2;
  refuses(bad_label, "labels");
  refuses({.dim = 0}, "dim");
  // NaN in the points.
  nldr::Matrix<double> X = roll.points;
  X(5, 1) = std::nan("");
  CHECK_THROWS_AS(nldr::Umap{}.fit(X, graph), nldr::invalid_argument);
  // A given start is used (rescaled to [0, 10] per axis): one epoch barely moves it.
  nldr::UmapOptions given{.n_epochs = 1, .init = nldr::UmapInit::given};
  given.initial = roll.points.leftCols(2);
  const auto model = nldr::Umap{given}.fit(roll.points, graph);
  for (int c = 0; c < 2; ++c) {
    const Eigen::VectorXd col = given.initial.col(c);
    const Eigen::VectorXd scaled = (col.array() - col.minCoeff()) * (10 / (col.maxCoeff() - col.minCoeff()));
    CHECK((model.coordinates.col(c) - scaled).cwiseAbs().maxCoeff() < 1e-12);
  }
}
