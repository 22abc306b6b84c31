// t-SNE: the exact gradient against central differences of the KL divergence written out densely,
// Barnes-Hut against the exact repulsion, the perplexity calibration against the entropy formula, P
// against its definition, the KL falling after early exaggeration, separated clusters kept apart,
// thread-count independence, hostile input and transform (docs/methods/tsne.md).
#include "catch.hpp"

#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/embed/tsne.hpp>
#include <nldr/neighbors/knn.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace tsne_test {

/// `clusters` Gaussian blobs of n points in D dimensions (unit spread), centres 30 apart on the axes;
/// point i belongs to cluster i % clusters.
template <class T>
nldr::Matrix<T> blobs(int n, int D, int clusters, std::uint64_t seed) {
  nldr::Random random(seed);
  nldr::Matrix<T> X(n, D);
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < D; ++c) X(i, c) = T(random.normal() + (c == i % clusters ? 30.0 : 0.0));
  return X;
}

nldr::Matrix<double> gaussian(int n, int d, double spread, std::uint64_t seed) {
  nldr::Random random(seed);
  nldr::Matrix<double> Y(n, d);
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < d; ++c) Y(i, c) = random.normal(0, spread);
  return Y;
}

nldr::Matrix<double> all_distances(const nldr::Matrix<double>& X) {
  nldr::Matrix<double> D(X.rows(), X.rows());
  for (Eigen::Index i = 0; i < X.rows(); ++i)
    for (Eigen::Index j = 0; j < X.rows(); ++j) D(i, j) = (X.row(i) - X.row(j)).norm();
  return D;
}

/// KL(P || Q) with Q_ij = w_ij / sum_{k != l} w_kl, w = (1 + r^2 / a)^-a, summed densely.
double dense_kl(const Eigen::MatrixXd& P, const nldr::Matrix<double>& Y, double a) {
  const Eigen::Index n = Y.rows();
  Eigen::MatrixXd W = Eigen::MatrixXd::Zero(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j)
      if (i != j) W(i, j) = std::pow(1 + (Y.row(i) - Y.row(j)).squaredNorm() / a, -a);
  const double Z = W.sum();
  double kl = 0;
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j)
      if (P(i, j) > 0) kl += P(i, j) * std::log(P(i, j) / (W(i, j) / Z));
  return kl;
}

/// The fraction of points whose nearest embedded neighbor is from another cluster.
double foreign_nearest(const nldr::Matrix<double>& Y, int clusters) {
  int foreign = 0;
  for (Eigen::Index i = 0; i < Y.rows(); ++i) {
    Eigen::Index best = -1;
    double nearest = std::numeric_limits<double>::infinity();
    for (Eigen::Index j = 0; j < Y.rows(); ++j)
      if (j != i && (Y.row(i) - Y.row(j)).squaredNorm() < nearest) {
        nearest = (Y.row(i) - Y.row(j)).squaredNorm();
        best = j;
      }
    foreign += best % clusters != i % clusters;
  }
  return double(foreign) / double(Y.rows());
}

}  // namespace tsne_test

TEST_CASE("t-SNE: the exact gradient is the derivative of the KL divergence", "[tsne]") {
  const nldr::Matrix<double> X = tsne_test::gaussian(25, 4, 1.0, 3);
  const auto P = nldr::detail::distance_affinities(tsne_test::all_distances(X), 5.0);
  const Eigen::MatrixXd dense = Eigen::MatrixXd(P);
  // d = 1, 2, 3 run the attraction's fixed-size loops, d = 4 its general one.
  const std::pair<double, int> cases[] = {{1.0, 2}, {0.5, 2}, {3.0, 2}, {1.0, 1}, {1.0, 3}, {0.5, 4}};
  for (const auto& [dof, d] : cases) {
    CAPTURE(dof, d);
    nldr::Matrix<double> Y = tsne_test::gaussian(25, d, 2.0, 7);
    nldr::Matrix<double> attraction, forces;
    const nldr::detail::TsneKernel kernel{dof};
    nldr::detail::tsne_attraction(P, Y, kernel, attraction);
    const double Z = nldr::detail::exact_repulsion(Y, dof, forces);
    const nldr::Matrix<double> gradient = 4.0 * (attraction - forces / Z);
    // The optimizer's KL (from Z) against the dense formula.
    CHECK(nldr::detail::tsne_kl_divergence(P, Y, kernel, Z) == Approx(tsne_test::dense_kl(dense, Y, dof)).epsilon(1e-12));
    const double h = 1e-5;
    double worst = 0;
    for (Eigen::Index i = 0; i < Y.rows(); ++i)
      for (Eigen::Index c = 0; c < Y.cols(); ++c) {
        nldr::Matrix<double> plus = Y, minus = Y;
        plus(i, c) += h;
        minus(i, c) -= h;
        const double numeric = (tsne_test::dense_kl(dense, plus, dof) - tsne_test::dense_kl(dense, minus, dof)) / (2 * h);
        worst = std::max(worst, std::abs(numeric - gradient(i, c)));
      }
    CHECK(worst < 1e-7 * gradient.cwiseAbs().maxCoeff());
  }
}

TEST_CASE("t-SNE: Barnes-Hut against the exact repulsion", "[tsne]") {
  // Documented tolerance (docs/methods/tsne.md): theta = 0.5 within 2% in Z and 5% in the forces (norm
  // over all points); theta = 0 is the exact sum in another order.
  for (const int d : {1, 2, 3})
    for (const double dof : {1.0, 0.6}) {
      CAPTURE(d, dof);
      const nldr::Matrix<double> Y = tsne_test::gaussian(700, d, 10.0, 11 + d);
      nldr::Matrix<double> exact, approximate;
      const double Z = nldr::detail::exact_repulsion(Y, dof, exact);
      const double Z_half = nldr::detail::barnes_hut_repulsion(Y, dof, 0.5, approximate);
      CHECK(std::abs(Z_half - Z) < 0.02 * Z);
      CHECK((approximate - exact).norm() < 0.05 * exact.norm());
      const double Z_zero = nldr::detail::barnes_hut_repulsion(Y, dof, 0.0, approximate);
      CHECK(std::abs(Z_zero - Z) < 1e-12 * Z);
      CHECK((approximate - exact).norm() < 1e-12 * exact.norm());
    }
  // Duplicate points (a leaf of several) are summed exactly.
  nldr::Matrix<double> Y = tsne_test::gaussian(50, 2, 1.0, 5);
  Y.bottomRows(10) = Y.topRows(10);
  nldr::Matrix<double> exact, approximate;
  const double Z = nldr::detail::exact_repulsion(Y, 1, exact);
  CHECK(std::abs(nldr::detail::barnes_hut_repulsion(Y, 1, 0.0, approximate) - Z) < 1e-12 * Z);
  CHECK_THROWS_AS(nldr::detail::barnes_hut_repulsion(tsne_test::gaussian(10, 4, 1, 1), 1, 0.5, approximate),
                  nldr::invalid_argument);
}

TEST_CASE("t-SNE: perplexity calibration and the joint P", "[tsne]") {
  nldr::Random random(17);
  for (const double perplexity : {2.0, 5.0, 30.0, 80.0}) {
    CAPTURE(perplexity);
    std::vector<double> squared(std::size_t(3 * perplexity) + 1), p(squared.size());
    for (double& s : squared) s = std::pow(random.uniform(0.1, 50.0), 2);
    const double beta = nldr::detail::calibrate_conditional(squared, perplexity, p);
    // 2^H with H = -sum p log2 p, and p_j proportional to exp(-beta d_j^2).
    double entropy = 0, total = 0;
    for (double q : p) {
      entropy -= q * std::log2(q);
      total += q;
    }
    CHECK(total == Approx(1).epsilon(1e-12));
    CHECK(std::abs(entropy - std::log2(perplexity)) < 1e-5);
    for (std::size_t j = 1; j < p.size(); ++j)
      if (p[j] > 1e-200 && p[0] > 1e-200)
        CHECK(p[j] / p[0] == Approx(std::exp(-beta * (squared[j] - squared[0]))).epsilon(1e-9));
  }
  // P = (p_{j|i} + p_{i|j}) / 2N from a graph, against the conditionals computed row by row; the
  // complete graph gives the affinities of the distance matrix.
  const nldr::Matrix<double> X = tsne_test::gaussian(40, 3, 1.0, 23);
  const auto graph = nldr::KNearest{12}(X);
  const auto P = nldr::detail::graph_affinities(graph, 4.0);
  Eigen::MatrixXd conditional = Eigen::MatrixXd::Zero(40, 40);
  for (nldr::index_t i = 0; i < 40; ++i) {
    std::vector<double> squared, p(12);
    for (const auto dist : graph.distances(i)) squared.push_back(dist * dist);
    nldr::detail::calibrate_conditional(squared, 4.0, p);
    for (std::size_t a = 0; a < 12; ++a) conditional(i, graph.neighbors(i)[a]) = p[a];
  }
  const Eigen::MatrixXd expected = (conditional + conditional.transpose()) / 80.0;
  CHECK((Eigen::MatrixXd(P) - expected).cwiseAbs().maxCoeff() < 1e-15);
  CHECK(Eigen::MatrixXd(P).sum() == Approx(1).epsilon(1e-12));

  // Numbered by an order (the fit numbers P along the graph): entry (r, c) is the pair (order[r],
  // order[c]), each row's columns strictly ascending (the compressed rows the optimizer reads).
  std::vector<nldr::index_t> order(40);
  for (nldr::index_t i = 0; i < 40; ++i) order[i] = (7 * i + 3) % 40;
  const auto P_ordered = nldr::detail::graph_affinities(graph, 4.0, order);
  const Eigen::MatrixXd dense_ordered(P_ordered);
  double worst = 0;
  for (nldr::index_t r = 0; r < 40; ++r)
    for (nldr::index_t c = 0; c < 40; ++c)
      worst = std::max(worst, std::abs(dense_ordered(r, c) - expected(order[r], order[c])));
  CHECK(worst < 1e-15);
  for (nldr::index_t r = 0; r < 40; ++r)
    for (auto k = P_ordered.outerIndexPtr()[r] + 1; k < P_ordered.outerIndexPtr()[r + 1]; ++k)
      CHECK(P_ordered.innerIndexPtr()[k - 1] < P_ordered.innerIndexPtr()[k]);

  const auto complete = nldr::detail::graph_affinities(nldr::KNearest{39}(X), 4.0);
  const auto pairs = nldr::detail::distance_affinities(tsne_test::all_distances(X), 4.0);
  CHECK((Eigen::MatrixXd(complete) - Eigen::MatrixXd(pairs)).cwiseAbs().maxCoeff() < 1e-15);
}

TEST_CASE("t-SNE: separated clusters stay apart, the KL falls after early exaggeration", "[tsne]") {
  const auto check = [](const auto& X, nldr::TsneRepulsion repulsion) {
    const auto graph = nldr::KNearest{45}(X);
    const auto model = nldr::Tsne{{.perplexity = 15, .max_iterations = 600, .repulsion = repulsion}}.fit(X, graph);
    CHECK(model.coordinates.allFinite());
    CHECK(tsne_test::foreign_nearest(model.coordinates.template cast<double>(), 3) == 0);
    CHECK(model.optimizer.iterations == 600);
    CHECK(model.optimizer.status == nldr::OptimizerStatus::completed);
    CHECK(model.learning_rate == 50);  // max(300 / 12 / 4, 50)
    // KL every 50 iterations, the 250th the last with exaggeration: afterwards it falls.
    const auto& kl = model.optimizer.objective;
    REQUIRE(kl.size() == 12);
    CHECK(model.optimizer.objective_iterations[4] == 250);
    CHECK(kl[5] < kl[4]);
    for (std::size_t a = 6; a < kl.size(); ++a) CHECK(kl[a] <= kl[a - 1] * (1 + 1e-6));
    CHECK(model.kl_divergence == kl.back());
  };
  check(tsne_test::blobs<double>(300, 10, 3, 2), nldr::TsneRepulsion::exact);
  check(tsne_test::blobs<double>(300, 10, 3, 2), nldr::TsneRepulsion::barnes_hut);
  check(tsne_test::blobs<float>(300, 10, 3, 2), nldr::TsneRepulsion::barnes_hut);
}

TEST_CASE("t-SNE: bit-identical on 1 and 2 threads, fit and transform", "[tsne][determinism]") {
  // 200 points: every loop splits per point, so any size takes the parallel paths; the exact
  // repulsion's N^2 pairs made 400 points 36 s under the sanitizers.
  const auto X = tsne_test::blobs<double>(200, 6, 4, 9);
  const auto graph = nldr::KNearest{30}(X);
  const int before = nldr::max_threads();
  for (const auto repulsion : {nldr::TsneRepulsion::exact, nldr::TsneRepulsion::barnes_hut}) {
    const nldr::Tsne tsne{{.perplexity = 10, .max_iterations = 300, .repulsion = repulsion}};
    const nldr::Matrix<double> moved = X.array() + 0.05;
    nldr::set_threads(1);
    const auto one = tsne.fit(X, graph);
    const nldr::Matrix<double> placed_one = one.transform(moved);
    nldr::set_threads(2);
    const auto two = tsne.fit(X, graph);
    CHECK(one.coordinates == two.coordinates);
    CHECK(one.optimizer.objective == two.optimizer.objective);
    CHECK(placed_one == two.transform(moved));
  }
  nldr::set_threads(before);
}

TEST_CASE("t-SNE: transform places training points near their fitted coordinates", "[tsne][transform]") {
  const auto X = tsne_test::blobs<double>(300, 10, 3, 4);
  const auto graph = nldr::KNearest{45}(X);
  const auto model = nldr::Tsne{{.perplexity = 15, .max_iterations = 500}}.fit(X, graph);
  CHECK(model.transform(X) == model.coordinates);  // equal to a training point: its coordinates
  // Moved by 1% of the clusters' spread: each lands next to its own fitted point, inside its cluster.
  nldr::Random random(8);
  nldr::Matrix<double> moved = X;
  for (Eigen::Index i = 0; i < X.rows(); ++i)
    for (Eigen::Index c = 0; c < X.cols(); ++c) moved(i, c) += random.normal(0, 0.01);
  const nldr::Matrix<double> placed = model.transform(moved);
  const double extent = (model.coordinates.colwise().maxCoeff() - model.coordinates.colwise().minCoeff()).norm();
  Eigen::VectorXd shift = (placed - model.coordinates).rowwise().norm();
  std::sort(shift.data(), shift.data() + shift.size());
  CHECK(shift[shift.size() / 2] < 0.02 * extent);
  int wrong = 0;
  for (Eigen::Index p = 0; p < 300; ++p) {
    Eigen::Index nearest = 0;
    (model.coordinates.rowwise() - placed.row(p)).rowwise().squaredNorm().minCoeff(&nearest);
    wrong += nearest % 3 != p % 3;
  }
  CHECK(wrong == 0);
  CHECK_THROWS_AS(model.transform(nldr::Matrix<double>::Zero(3, 4)), nldr::invalid_argument);
}

TEST_CASE("t-SNE: hostile input and options", "[tsne][hostile]") {
  const auto X = tsne_test::blobs<double>(120, 5, 2, 6);
  SECTION("too few neighbors for the perplexity: an error naming both flags") {
    const auto graph = nldr::KNearest{10}(X);
    CHECK_THROWS_CONTAINING(nldr::Tsne{{.perplexity = 30}}.fit(X, graph), nldr::invalid_argument, "--k and --perplexity");
    CHECK_THROWS_CONTAINING(nldr::Tsne{{.perplexity = 10}}.fit(X, graph), nldr::invalid_argument, "n_neighbors");
    CHECK_NOTHROW((nldr::Tsne{{.perplexity = 9.5, .max_iterations = 10}}.fit(X, graph)));
  }
  SECTION("N < 3 x perplexity + 1: the perplexity is clamped to (N - 1) / 3") {
    const nldr::Matrix<double> few = X.topRows(31);
    const auto model = nldr::Tsne{{.max_iterations = 50}}.fit(few, nldr::KNearest{30}(few));
    CHECK(model.perplexity == 10);
    CHECK(model.coordinates.allFinite());
  }
  SECTION("duplicates: finite, duplicates embedded together") {
    nldr::Matrix<double> duplicated = X;
    duplicated.bottomRows(20) = duplicated.topRows(20);
    const auto model = nldr::Tsne{{.perplexity = 10, .max_iterations = 300}}.fit(duplicated, nldr::KNearest{30}(duplicated));
    CHECK(model.coordinates.allFinite());
    CHECK(tsne_test::foreign_nearest(model.coordinates, 2) < 0.05);
  }
  SECTION("NaN, bad options") {
    const auto graph = nldr::KNearest{30}(X);
    nldr::Matrix<double> bad = X;
    bad(3, 1) = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_CONTAINING(nldr::Tsne{}.fit(bad, graph), nldr::invalid_argument, "X");
    CHECK_THROWS_CONTAINING((nldr::Tsne{{.perplexity = 5, .dof = 0}}.fit(X, graph)), nldr::invalid_argument, "dof");
    CHECK_THROWS_CONTAINING((nldr::Tsne{{.perplexity = 5, .theta = 2}}.fit(X, graph)), nldr::invalid_argument, "theta");
    CHECK_THROWS_CONTAINING((nldr::Tsne{{.dim = 4, .perplexity = 5, .repulsion = nldr::TsneRepulsion::barnes_hut}}.fit(X, graph)),
                            nldr::invalid_argument, "repulsion = exact");
    CHECK_THROWS_CONTAINING((nldr::Tsne{{.perplexity = 5, .init = nldr::TsneInit::given}}.fit(X, graph)),
                            nldr::invalid_argument, "init");
  }
}

TEST_CASE("t-SNE: iteration callback, given start, spectral start, distances", "[tsne]") {
  const auto X = tsne_test::blobs<double>(150, 6, 3, 12);
  const auto graph = nldr::KNearest{30}(X);
  int calls = 0;
  nldr::TsneOptions options{.perplexity = 10, .max_iterations = 400};
  options.on_iteration = [&](const nldr::IterationReport& report) {
    ++calls;
    CHECK(report.phase == (report.iteration <= 250 ? "early exaggeration" : "optimization"));
    CHECK(report.objective.has_value() == (report.iteration % 50 == 0));
    return report.iteration < 120;
  };
  const auto stopped = nldr::Tsne{options}.fit(X, graph);
  CHECK(calls == 120);
  CHECK(stopped.optimizer.iterations == 120);
  CHECK(stopped.optimizer.status == nldr::OptimizerStatus::stopped);

  // Zero iterations of change: a given start with learning rate tiny stays where it was given.
  const nldr::Matrix<double> start = tsne_test::gaussian(150, 2, 1.0, 2);
  const auto kept = nldr::Tsne{{.perplexity = 10, .learning_rate = 1e-12, .max_iterations = 1, .init = nldr::TsneInit::given,
                                .initial = start}}
                        .fit(X, graph);
  CHECK((kept.coordinates - (start.rowwise() - start.colwise().mean())).cwiseAbs().maxCoeff() < 1e-9);

  // Laplacian Eigenmaps needs a connected graph: the separated clusters' is not.
  CHECK_THROWS_AS((nldr::Tsne{{.perplexity = 10, .init = nldr::TsneInit::spectral}}.fit(X, graph)),
                  nldr::disconnected_graph);
  const nldr::Matrix<double> cloud = tsne_test::gaussian(150, 5, 1.0, 4);
  const auto cloud_graph = nldr::KNearest{30}(cloud);
  const auto spectral = nldr::Tsne{{.perplexity = 10, .max_iterations = 400, .init = nldr::TsneInit::spectral}}.fit(cloud, cloud_graph);
  const auto from_pca = nldr::Tsne{{.perplexity = 10, .max_iterations = 400}}.fit(cloud, cloud_graph);
  CHECK(spectral.kl_divergence < 1.1 * from_pca.kl_divergence);

  const auto on_distances =
      nldr::Tsne{{.perplexity = 10, .max_iterations = 400}}.fit(nldr::precomputed(tsne_test::all_distances(X)));
  CHECK(tsne_test::foreign_nearest(on_distances.coordinates, 3) == 0);
  CHECK_THROWS_CONTAINING(on_distances.transform(X), nldr::invalid_argument, "distances");
}
