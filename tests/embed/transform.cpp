// Out-of-sample transform of every method against independent references: closed forms (points on
// a line, a plane), the training points under every selector, the neighbors each selector's rule
// gives a new point (found by a full sort), literal recomputations of the published extension
// (barycenter weights by a direct KKT solve, the Nystrom sum), scikit-learn's noisy re-embedding,
// and held-out points of a Swiss roll against their ground truth. Tolerances: 1e-9 (double) / 2e-3
// (float) relative to the embedding's spread where the method's arithmetic is exact up to rounding
// of O(N) sums.
#include "catch.hpp"

#include "compare_embeddings.hpp"
#include "graph_embedders.hpp"

#include <nldr/core/random.hpp>
#include <nldr/datasets/s_curve.hpp>
#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/embed/isomap.hpp>
#include <nldr/neighbors/epsilon_ball.hpp>
#include <nldr/neighbors/join_components.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/registry/embedders.hpp>
#include <nldr/registry/selectors.hpp>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

namespace {

template <class T>
double transform_tolerance() {
  return std::is_same_v<T, float> ? 2e-3 : 1e-9;
}

double spread(const Eigen::MatrixXd& Y) { return (Y.rowwise() - Y.colwise().mean()).cwiseAbs().maxCoeff(); }

/// Rows `rows` of X.
template <class T>
nldr::Matrix<T> rows_of(const nldr::Matrix<T>& X, const std::vector<nldr::index_t>& rows) {
  nldr::Matrix<T> out(Eigen::Index(rows.size()), X.cols());
  for (std::size_t r = 0; r < rows.size(); ++r) out.row(Eigen::Index(r)) = X.row(rows[r]);
  return out;
}

/// Fits the registry method on X with its kNN graph (k = 10).
template <class T>
nldr::AnyModel<T> fit_knn(const nldr::EmbedderInfo& entry, const nldr::Matrix<T>& X, nldr::index_t dim = 2) {
  const auto graph = nldr::KNearest{10}(X);
  return entry.fit(nldr::FitInput<T>{.points = &X, .graph = &graph}, embed_test::small_input_parameters(entry, dim));
}

/// Parameters of `selector` on a 500-point Swiss roll (datasets::swiss_roll, points ~2 apart):
/// k = 10 (also the pruning selectors' candidates), radius 6 (below the 6.3 between turns of the
/// roll; every point gets the 6 neighbors Hessian LLE needs), min_neighbors = what `entry` needs.
nldr::ParameterValues selector_values(const nldr::SelectorInfo& selector, const nldr::EmbedderInfo& entry) {
  nldr::ParameterValues values;
  for (const auto& spec : selector.parameters) {
    if (spec.name == "k") values["k"] = "10";
    if (spec.name == "radius") values["radius"] = "6";
    if (spec.name == "min_neighbors") values["min_neighbors"] = std::to_string(entry.min_neighbors(2));
  }
  return values;
}

}  // namespace

TEMPLATE_TEST_CASE("transform of the training points gives their fitted coordinates, every method and selector",
                   "[transform]", float, double) {
  // A training point is joined to the training points as its selector joined it (docs/models.md,
  // "What a new point gets"), so its geodesics are its own row of G and the triangulation gives its
  // fitted coordinates back up to the rounding of sums over N terms; before the rule, Isomap joined
  // it to its k nearest points whatever the selector, and pruned edges came back as shortcuts
  // (deviations of 5-20% of the spread here). The local methods place a point equal to a training
  // point at its coordinates. Measured: <= 8.1e-14 (double), 6.4e-7 (float) of the spread (Isomap
  // with epsilon, Landmark Isomap with curvature); the tolerances leave a factor 12-15.
  using T = TestType;
  const auto roll = nldr::datasets::swiss_roll<T>({.n = 500, .seed = 2});
  for (const auto& entry : nldr::embedders()) {
    for (const auto& selector : nldr::selectors()) {
      if (selector.name != "knn" && !entry.accepts(nldr::needs_graph)) continue;
      CAPTURE(entry.name, selector.name);
      const auto graph = selector.select(roll.points, selector_values(selector, entry));
      const auto model = entry.fit(nldr::FitInput<T>{.points = &roll.points, .graph = &graph},
                                   embed_test::quick_fit_parameters(entry, 2));
      const Eigen::MatrixXd Y = model.coordinates().template cast<double>();
      const Eigen::MatrixXd again = model.transform(roll.points).template cast<double>();
      CHECK((again - Y).cwiseAbs().maxCoeff() <= (std::is_same_v<T, float> ? 1e-5 : 1e-12) * spread(Y));
    }
  }
}

TEST_CASE("a new point gets the training neighbors its model's selector gives it", "[transform]") {
  // Isomap places a new point by the geodesics through its training neighbors; the neighbors are
  // found here by a full sort of the distances: the k nearest (knn), the points within the radius,
  // or the nearest one when none is (epsilon), the nearest point and its list in the pruned graph
  // (shared). The last new point lies 100 above the roll, far outside every ball.
  const auto roll = nldr::datasets::swiss_roll<double>({.n = 400, .seed = 3});
  const nldr::Matrix<double>& X = roll.points;
  nldr::Matrix<double> X_new(6, 3);
  X_new.topRows(5) = X.topRows(5).array() + 0.4;
  X_new.row(5) = X.colwise().mean();
  X_new(5, 1) += 100;
  const auto& isomap = nldr::find_embedder("isomap");
  for (const std::string name : {"knn", "epsilon", "shared"}) {
    CAPTURE(name);
    const auto& selector = nldr::find_selector(name);
    const auto graph = selector.select(X, selector_values(selector, isomap));
    const auto model = nldr::Isomap{{.dim = 2}}.fit(X, graph);
    const Eigen::MatrixXd Y = model.transform(X_new);
    for (Eigen::Index p = 0; p < X_new.rows(); ++p) {
      CAPTURE(p);
      std::vector<std::pair<double, nldr::index_t>> order;
      for (nldr::index_t j = 0; j < X.rows(); ++j) order.emplace_back((X.row(j) - X_new.row(p)).norm(), j);
      std::sort(order.begin(), order.end());
      std::vector<nldr::index_t> neighbors;
      if (name == "knn") {
        for (int a = 0; a < 10; ++a) neighbors.push_back(order[a].second);
      } else if (name == "epsilon") {
        for (const auto& [distance, j] : order)
          if (distance <= 6) neighbors.push_back(j);
        if (neighbors.empty()) neighbors.push_back(order[0].second);
      } else {
        neighbors.push_back(order[0].second);
        for (const auto j : graph.neighbors(order[0].second)) neighbors.push_back(j);
      }
      CHECK(neighbors.size() >= (p < 5 ? 2u : 1u));  // the far point tells the rules apart by its count
      // g_j = min over the neighbors q of |x - x_q| + G(q, j); y = -1/2 L# (g^2 - mean_squared).
      Eigen::VectorXd g = Eigen::VectorXd::Constant(X.rows(), std::numeric_limits<double>::infinity());
      for (const auto q : neighbors)
        g = g.cwiseMin(
            (model.geodesics_double.row(q).array() + (X.row(q) - X_new.row(p)).norm()).matrix().transpose());
      const Eigen::RowVectorXd expected =
          (-0.5 * model.pseudo_inverse * (g.cwiseAbs2() - model.mean_squared)).transpose();
      CHECK((Y.row(p) - expected).cwiseAbs().maxCoeff() < 1e-9 * spread(model.coordinates));
    }
  }
}

TEST_CASE("noisy training points land near their fitted coordinates with an epsilon graph (scikit-learn's "
          "test_transform)", "[transform]") {
  // scikit-learn's Isomap test test_transform with a radius: Isomap d = 10 of a 200-point S-curve
  // on the epsilon graph of radius 0.5 (its few small components joined by their shortest edges, as
  // scikit-learn's Isomap does); the points plus noise of standard deviation 0.01 must land within
  // root mean square 0.02 of their fitted coordinates. One sample decides little at d = 10 (the
  // tenth eigenvalue is ~1/500 of the first, and a noisy point near the radius gains or loses a
  // neighbor), so ten samples: measured RMS 0.0076-0.038, median 0.011, with the radius rule;
  // 0.09-0.22 joined to the mean-degree nearest points, as transform did before the rule.
  std::vector<double> rms;
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    CAPTURE(seed);
    const auto curve = nldr::datasets::s_curve<double>({.n = 200, .seed = seed});
    const auto ball = nldr::EpsilonBall{.radius = 0.5}(curve.points);
    const auto model = nldr::Isomap{{.dim = 10}}.fit(curve.points, nldr::join_components(curve.points, ball).graph);
    nldr::Random random(0);
    nldr::Matrix<double> noisy = curve.points;
    for (Eigen::Index i = 0; i < noisy.rows(); ++i)
      for (Eigen::Index c = 0; c < noisy.cols(); ++c) noisy(i, c) += 0.01 * random.normal();
    const auto error = [&](const nldr::Matrix<double>& placed) {
      return std::sqrt((placed - model.coordinates).squaredNorm() / double(placed.size()));
    };
    rms.push_back(error(model.transform(noisy)));
    CAPTURE(rms.back());
    CHECK(rms.back() < 0.05);
    CHECK(rms.back() < 0.5 * error(model.transform(noisy, nldr::routines::typical_degree(ball, 1))));
  }
  std::nth_element(rms.begin(), rms.begin() + 5, rms.end());
  CHECK(rms[5] < 0.02);
}

TEMPLATE_TEST_CASE("Isomap and Landmark Isomap place new points of a line at their arc length", "[transform]", float,
                   double) {
  using T = TestType;
  // Training points at t = 0, 1, ..., 39 on a straight line in 3-D; new points in between.
  const auto line = [](const std::vector<double>& t) {
    nldr::Matrix<T> X(Eigen::Index(t.size()), 3);
    for (std::size_t i = 0; i < t.size(); ++i) X.row(Eigen::Index(i)) << T(0.6 * t[i]), T(0.8 * t[i]), T(1);
    return X;
  };
  std::vector<double> t(40), t_new{0.5, 7.25, 19.9, 38.5};
  std::iota(t.begin(), t.end(), 0.0);
  const nldr::Matrix<T> X = line(t), X_new = line(t_new);
  const auto graph = nldr::KNearest{4}(X);
  for (const std::string name : {"isomap", "landmark-isomap"}) {
    CAPTURE(name);
    const auto& entry = nldr::find_embedder(name);
    nldr::ParameterValues values{{"dim", "1"}};
    if (name == "landmark-isomap") values["landmarks"] = "5";
    const auto model = entry.fit(nldr::FitInput<T>{.points = &X, .graph = &graph}, values);
    // The 1-D embedding is t up to sign and shift: y(t) = s (t - c).
    const double s = double(model.coordinates()(1, 0) - model.coordinates()(0, 0));
    const double c = -double(model.coordinates()(0, 0)) / s;
    REQUIRE(std::abs(std::abs(s) - 1) < 1e-4);
    const nldr::Matrix<T> y = model.transform(X_new);
    for (std::size_t p = 0; p < t_new.size(); ++p)
      CHECK_THAT(double(y(Eigen::Index(p), 0)), WithinAbs(s * (t_new[p] - c), std::is_same_v<T, float> ? 2e-3 : 1e-8));
  }
}

TEMPLATE_TEST_CASE("LTSA places new points of a plane by the plane's affine map", "[transform]", float, double) {
  using T = TestType;
  // A 12 x 12 grid on a tilted plane in 3-D: LTSA's coordinates are an affine function of (u, v),
  // and so must the transform of new points of the plane be (its local maps are exact there).
  const auto plane = [](double u, double v) { return Eigen::RowVector3d(u + 0.3 * v, 0.5 * u - v, 0.2 * u + 0.4 * v); };
  nldr::Matrix<T> X(144, 3);
  Eigen::MatrixXd uv(144, 3);
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j) {
      X.row(12 * i + j) = plane(i, j).template cast<T>();
      uv.row(12 * i + j) << 1.0, i, j;
    }
  const auto model = fit_knn<T>(nldr::find_embedder("ltsa"), X);
  const Eigen::MatrixXd affine = uv.colPivHouseholderQr().solve(model.coordinates().template cast<double>());
  REQUIRE((uv * affine - model.coordinates().template cast<double>()).cwiseAbs().maxCoeff() < 1e-3);
  nldr::Matrix<T> X_new(3, 3);
  Eigen::MatrixXd uv_new(3, 3);
  const double points[3][2] = {{2.5, 3.5}, {7.2, 9.9}, {5.05, 0.4}};
  for (int p = 0; p < 3; ++p) {
    X_new.row(p) = plane(points[p][0], points[p][1]).template cast<T>();
    uv_new.row(p) << 1.0, points[p][0], points[p][1];
  }
  const Eigen::MatrixXd expected = uv_new * affine;
  CHECK((model.transform(X_new).template cast<double>() - expected).cwiseAbs().maxCoeff() <
        (std::is_same_v<T, float> ? 2e-3 : 1e-6) * spread(model.coordinates().template cast<double>()) + 1e-3);
}

TEST_CASE("LLE transform applies the barycenter weights of a direct constrained solve", "[transform]") {
  const auto roll = nldr::datasets::swiss_roll<double>({.n = 400, .seed = 5});
  const auto& entry = nldr::find_embedder("lle");
  const auto model = fit_knn<double>(entry, roll.points);
  const nldr::Matrix<double> X_new = roll.points.topRows(5).array() + 0.05;
  const nldr::Matrix<double> Y_new = model.transform(X_new);
  for (Eigen::Index p = 0; p < X_new.rows(); ++p) {
    // The 10 nearest training points by a full sort, then the KKT system of
    // min ||x - sum w_j x_j||^2 + r ||w||^2 subject to sum w_j = 1, r = 1e-3 trace(C).
    std::vector<std::pair<double, int>> order;
    for (int j = 0; j < roll.points.rows(); ++j) order.emplace_back((roll.points.row(j) - X_new.row(p)).norm(), j);
    std::sort(order.begin(), order.end());
    Eigen::MatrixXd Z(10, 3);
    for (int a = 0; a < 10; ++a) Z.row(a) = roll.points.row(order[a].second) - X_new.row(p);
    Eigen::MatrixXd C = Z * Z.transpose();
    C.diagonal().array() += 1e-3 * C.trace();
    Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(11, 11);
    kkt.topLeftCorner(10, 10) = 2 * C;
    kkt.block(0, 10, 10, 1).setOnes();
    kkt.block(10, 0, 1, 10).setOnes();
    Eigen::VectorXd rhs = Eigen::VectorXd::Zero(11);
    rhs[10] = 1;
    const Eigen::VectorXd w = kkt.fullPivLu().solve(rhs).head(10);
    Eigen::RowVectorXd expected = Eigen::RowVectorXd::Zero(2);
    for (int a = 0; a < 10; ++a) expected += w[a] * model.coordinates().row(order[a].second);
    CHECK((Y_new.row(p) - expected).cwiseAbs().maxCoeff() < 1e-10);
  }
}

TEMPLATE_TEST_CASE("Isomap transform equals the published extension computed literally, in any order of the points",
                   "[transform]", float, double) {
  using T = TestType;
  // Reference (Tenenbaum et al. 2000; de Silva & Tenenbaum 2004): geodesics by Floyd-Warshall on the
  // union of the kNN lists, B = -1/2 J G^2 J, its top two eigenpairs by a dense solver, and a new
  // point at -1/2 L# (g^2 - column means of G^2) with g_j = min_q |x - x_q| + G(q, j) over its 10
  // nearest training points (a full sort). Up to each coordinate's sign.
  const auto roll = nldr::datasets::swiss_roll<double>({.n = 300, .seed = 7});
  const nldr::Matrix<T> X = roll.points.template cast<T>();
  const Eigen::Index n = X.rows();
  const auto graph = nldr::KNearest{10}(X);
  Eigen::MatrixXd G = Eigen::MatrixXd::Constant(n, n, std::numeric_limits<double>::infinity());
  for (Eigen::Index i = 0; i < n; ++i) {
    G(i, i) = 0;
    for (const auto j : graph.neighbors(nldr::index_t(i))) {
      const double length = (X.row(i) - X.row(j)).template cast<double>().norm();
      G(i, j) = std::min(G(i, j), length), G(j, i) = std::min(G(j, i), length);
    }
  }
  for (Eigen::Index m = 0; m < n; ++m)
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j < n; ++j) G(i, j) = std::min(G(i, j), G(i, m) + G(m, j));
  const Eigen::MatrixXd squared = G.cwiseAbs2();
  const Eigen::MatrixXd J = Eigen::MatrixXd::Identity(n, n) - Eigen::MatrixXd::Constant(n, n, 1.0 / double(n));
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(-0.5 * J * squared * J);
  const Eigen::MatrixXd V = eigen.eigenvectors().rightCols(2).rowwise().reverse();
  const Eigen::VectorXd lambda = eigen.eigenvalues().tail(2).reverse();
  const Eigen::MatrixXd pseudo_inverse = lambda.cwiseSqrt().cwiseInverse().asDiagonal() * V.transpose();
  const Eigen::VectorXd column_means = squared.colwise().mean().transpose();

  const nldr::Matrix<T> X_new = (roll.points.topRows(40).array() + 0.07).template cast<T>();
  Eigen::MatrixXd expected(X_new.rows(), 2);
  for (Eigen::Index p = 0; p < X_new.rows(); ++p) {
    std::vector<std::pair<double, Eigen::Index>> order;
    for (Eigen::Index q = 0; q < n; ++q) order.emplace_back((X.row(q) - X_new.row(p)).template cast<double>().norm(), q);
    std::sort(order.begin(), order.end());
    Eigen::VectorXd g = Eigen::VectorXd::Constant(n, std::numeric_limits<double>::infinity());
    for (int a = 0; a < 10; ++a) g = g.cwiseMin((G.row(order[a].second).array() + order[a].first).matrix().transpose());
    expected.row(p) = (-0.5 * pseudo_inverse * (g.cwiseAbs2() - column_means)).transpose();
  }
  const double tolerance = (std::is_same_v<T, float> ? 2e-3 : 1e-8) * spread(expected);
  for (const auto storage : {nldr::GeodesicStorage::input, nldr::GeodesicStorage::single}) {
    CAPTURE(int(storage));
    const auto model = nldr::Isomap{{.dim = 2, .storage = storage}}.fit(X, graph);
    const Eigen::MatrixXd Y = model.transform(X_new).template cast<double>();
    const double single = storage == nldr::GeodesicStorage::single ? 1e-4 * spread(expected) : 0.0;
    for (Eigen::Index c = 0; c < 2; ++c) {
      const double sign = Y.col(c).dot(expected.col(c)) < 0 ? -1.0 : 1.0;
      CHECK((sign * Y.col(c) - expected.col(c)).cwiseAbs().maxCoeff() <= tolerance + single);
    }
    // The points are visited in an order of their own (routines/geodesic_placement.hpp): reversed
    // input, reversed rows, bit for bit.
    const nldr::Matrix<T> reversed = X_new.colwise().reverse();
    CHECK((model.transform(reversed).colwise().reverse().array() == model.transform(X_new).array()).all());
  }
}

TEST_CASE("Laplacian Eigenmaps transform is the Nystrom sum over the heat-kernel weights", "[transform]") {
  const auto roll = nldr::datasets::swiss_roll<double>({.n = 400, .seed = 6});
  const auto& entry = nldr::find_embedder("laplacian-eigenmaps");
  const auto model = fit_knn<double>(entry, roll.points);
  const auto* typed = model.get<nldr::LaplacianEigenmapsModel<double>>();
  REQUIRE(typed != nullptr);
  const nldr::Matrix<double> X_new = roll.points.bottomRows(4).array() - 0.07;
  const nldr::Matrix<double> Y_new = model.transform(X_new);
  for (Eigen::Index p = 0; p < X_new.rows(); ++p) {
    std::vector<std::pair<double, int>> order;
    for (int j = 0; j < roll.points.rows(); ++j) order.emplace_back((roll.points.row(j) - X_new.row(p)).norm(), j);
    std::sort(order.begin(), order.end());
    Eigen::RowVectorXd sum = Eigen::RowVectorXd::Zero(2);
    double degree = 0;
    for (int a = 0; a < 10; ++a) {
      const double w = std::exp(-order[a].first * order[a].first / typed->t);
      sum += w * model.coordinates().row(order[a].second);
      degree += w;
    }
    for (int c = 0; c < 2; ++c)
      CHECK_THAT(Y_new(p, c), WithinAbs(sum[c] / degree / (1 - typed->eigenvalues[c]), 1e-10));
  }
}

TEST_CASE("classical MDS transforms new points from coordinates or from distances alike", "[transform]") {
  const auto roll = nldr::datasets::swiss_roll<double>({.n = 300, .seed = 7});
  const nldr::Matrix<double> X = roll.points.topRows(250), X_new = roll.points.bottomRows(50);
  nldr::Matrix<double> D(250, 250), D_new(50, 250);
  for (int i = 0; i < 250; ++i) {
    for (int j = 0; j < 250; ++j) D(i, j) = (X.row(i) - X.row(j)).norm();
    for (int p = 0; p < 50; ++p) D_new(p, i) = (X_new.row(p) - X.row(i)).norm();
  }
  const auto& mds = nldr::find_embedder("mds");
  const auto from_points = mds.fit(nldr::FitInput<double>{.points = &X}, {{"dim", "3"}});
  const auto from_distances = mds.fit(nldr::FitInput<double>{.distances = &D}, {{"dim", "3"}});
  REQUIRE(from_distances.transform_takes_distances());
  // Both equal the projection of the centered points on the principal axes (up to column signs).
  const Eigen::MatrixXd centered = X_new.rowwise() - X.colwise().mean();
  const Eigen::MatrixXd Xc = X.rowwise() - X.colwise().mean();
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> pca(Xc.transpose() * Xc);
  const Eigen::MatrixXd expected = centered * pca.eigenvectors().rowwise().reverse();
  CHECK(embed_test::max_difference_up_to_sign(expected, from_points.transform(X_new)) < 1e-9);
  CHECK(embed_test::max_difference_up_to_sign(expected, from_distances.transform(D_new)) < 1e-8);
  CHECK_THROWS_CONTAINING(from_distances.transform(X_new), nldr::invalid_argument, "training points");
}

TEST_CASE("held-out points of a Swiss roll land as well as the fitted ones, every graph method", "[transform]") {
  // Fit on 80% of 2000 points, transform the other 20%. The true coordinates are regressed on the
  // fitted embedding ([1, Y], least squares, training points only); the same map must predict the
  // held-out points' truth from their transformed coordinates about as well (1 - R^2 within 0.03:
  // UMAP's is the largest gap, 0.190 fitted and 0.216 held out with its default adam, 0.431 and 0.443
  // with sgd; a transform that placed points at random would be near 1).
  // (An affine fit, not residual variance: the spectral methods scale each coordinate to unit
  // norm, which distorts distances but not this.)
  const auto roll = nldr::datasets::swiss_roll<double>({.n = 2000, .seed = 8});
  std::vector<nldr::index_t> train, test;
  for (nldr::index_t i = 0; i < 2000; ++i) (i % 5 == 0 ? test : train).push_back(i);
  const nldr::Matrix<double> X = rows_of(roll.points, train), X_new = rows_of(roll.points, test);
  const Eigen::MatrixXd truth = rows_of(roll.intrinsic, train), truth_new = rows_of(roll.intrinsic, test);
  const auto design = [](const Eigen::MatrixXd& Y) {
    Eigen::MatrixXd D(Y.rows(), Y.cols() + 1);
    D << Eigen::VectorXd::Ones(Y.rows()), Y;
    return D;
  };
  const auto unexplained = [](const Eigen::MatrixXd& predicted, const Eigen::MatrixXd& actual) {
    return (predicted - actual).squaredNorm() / (actual.rowwise() - actual.colwise().mean()).squaredNorm();
  };
  for (const auto& entry : nldr::embedders()) {
    if (!entry.accepts(nldr::needs_graph)) continue;
    CAPTURE(entry.name);
    const auto graph = nldr::KNearest{10}(X);
    nldr::ParameterValues values{{"dim", "2"}};
    if (nldr::takes_parameter(entry.parameters, "perplexity")) values["perplexity"] = "3";  // t-SNE: below k
    const auto model = entry.fit(nldr::FitInput<double>{.points = &X, .graph = &graph}, values);
    const Eigen::MatrixXd fitted = design(model.coordinates());
    const Eigen::MatrixXd map = fitted.colPivHouseholderQr().solve(truth);
    const double fitted_error = unexplained(fitted * map, truth);
    const double held_out_error = unexplained(design(model.transform(X_new)) * map, truth_new);
    CAPTURE(fitted_error, held_out_error);
    if (fitted_error < 0.7) {  // UMAP: 0.19; the eigen methods far less
      CHECK(held_out_error <= fitted_error + 0.03);
      continue;
    }
    // t-SNE keeps neighborhoods, not an affine image of the truth (1 - R^2 ~ 0.84 above): there a
    // held-out point's nearest embedded training point must be one of its 10 nearest in the input as
    // often as a training point's own (leave one out), within 0.05.
    const auto agreement = [&](const Eigen::MatrixXd& points, const Eigen::MatrixXd& embedded, bool training) {
      const Eigen::MatrixXd Y = model.coordinates();
      double agreeing = 0;
      for (Eigen::Index p = 0; p < points.rows(); ++p) {
        Eigen::VectorXd input = (X.rowwise() - points.row(p)).rowwise().squaredNorm();
        Eigen::VectorXd output = (Y.rowwise() - embedded.row(p)).rowwise().squaredNorm();
        if (training) input(p) = output(p) = std::numeric_limits<double>::infinity();
        Eigen::Index nearest = 0;
        output.minCoeff(&nearest);
        std::vector<double> sorted(input.data(), input.data() + input.size());
        std::nth_element(sorted.begin(), sorted.begin() + 9, sorted.end());
        agreeing += input(nearest) <= sorted[9];
      }
      return agreeing / double(points.rows());
    };
    const double fitted_agreement = agreement(X, model.coordinates(), true);
    const double held_out_agreement = agreement(X_new, model.transform(X_new), false);
    CAPTURE(fitted_agreement, held_out_agreement);
    CHECK(fitted_agreement > 0.8);
    CHECK(held_out_agreement >= fitted_agreement - 0.05);
  }
}

TEST_CASE("transform refuses points it cannot place", "[transform][hostile]") {
  const auto roll = nldr::datasets::swiss_roll<double>({.n = 200, .seed = 9});
  for (const auto& entry : nldr::embedders()) {
    CAPTURE(entry.name);
    const auto model = fit_knn<double>(entry, roll.points);
    CHECK_THROWS_CONTAINING(model.transform(nldr::Matrix<double>::Zero(3, 4)), nldr::invalid_argument, "X_new");
    nldr::Matrix<double> bad = roll.points.topRows(2);
    bad(1, 2) = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_CONTAINING(model.transform(bad), nldr::invalid_argument, "X_new");
    CHECK(model.transform(nldr::Matrix<double>(0, 3)).rows() == 0);
  }
  const auto graph = nldr::KNearest{10}(roll.points);
  const auto lle = nldr::LocallyLinearEmbedding{{.dim = 2}}.fit(roll.points, graph);
  CHECK_THROWS_CONTAINING(lle.transform(roll.points, 2), nldr::invalid_argument, "k = 2");
  CHECK_THROWS_CONTAINING(lle.transform(roll.points, 201), nldr::invalid_argument, "k = 201");
}
