// The graph methods' fit(X, graph) takes X as any dense matrix of the graph's scalar (core/types.hpp,
// PointsArg): row-major as nldr stores points, column-major as Eigen does by default, a map of the
// caller's memory, a strided block or an expression. Each must give the coordinates of the row-major
// fit bit for bit (the same values reach the same code), and a matrix of the other scalar must not
// be accepted (no silent conversion of the points).
#include "catch.hpp"

#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/embed/diffusion_maps.hpp>
#include <nldr/embed/isomap.hpp>
#include <nldr/embed/landmark_isomap.hpp>
#include <nldr/embed/laplacian_eigenmaps.hpp>
#include <nldr/embed/lle.hpp>
#include <nldr/embed/ltsa.hpp>
#include <nldr/embed/tsne.hpp>
#include <nldr/embed/umap.hpp>
#include <nldr/neighbors/knn.hpp>

#include <Eigen/Core>

namespace {

template <class Method, class Points, class T>
concept FitsWith = requires(const Method& method, const Points& X, const nldr::NeighborGraph<T>& graph) {
  method.fit(X, graph);
};

// Every graph method's fit, with small settings where the defaults would need more points or time.
template <class Method>
void check_fit_arguments(const Method& method) {
  static_assert(FitsWith<Method, Eigen::MatrixXd, double> && FitsWith<Method, Eigen::MatrixXf, float>);
  static_assert(!FitsWith<Method, Eigen::MatrixXf, double> && !FitsWith<Method, Eigen::MatrixXd, float>);
  const auto data = nldr::datasets::swiss_roll<double>({.n = 300, .seed = 4});
  const nldr::Matrix<double>& X = data.points;
  const auto graph = nldr::KNearest{10}(X);
  const nldr::Matrix<double> reference = method.fit(X, graph).coordinates;

  const Eigen::MatrixXd column_major = X;
  CHECK(method.fit(column_major, graph).coordinates == reference);
  const Eigen::Map<const nldr::Matrix<double>> mapped(X.data(), X.rows(), X.cols());
  CHECK(method.fit(mapped, graph).coordinates == reference);
  nldr::Matrix<double> wider = nldr::Matrix<double>::Zero(X.rows(), X.cols() + 2);
  wider.rightCols(X.cols()) = X;
  CHECK(method.fit(wider.rightCols(X.cols()), graph).coordinates == reference);
  CHECK(method.fit(X.array().matrix(), graph).coordinates == reference);
}

}  // namespace

TEST_CASE("A graph method's fit takes the points in any dense layout of the graph's scalar, with the same result",
          "[embedder][fit_arguments]") {
  SECTION("isomap") { check_fit_arguments(nldr::Isomap{}); }
  SECTION("landmark-isomap") { check_fit_arguments(nldr::LandmarkIsomap{{.landmarks = 20}}); }
  SECTION("lle") { check_fit_arguments(nldr::LocallyLinearEmbedding{}); }
  SECTION("ltsa") { check_fit_arguments(nldr::Ltsa{}); }
  SECTION("laplacian-eigenmaps") { check_fit_arguments(nldr::LaplacianEigenmaps{}); }
  SECTION("diffusion-maps") { check_fit_arguments(nldr::DiffusionMaps{}); }
  SECTION("umap") { check_fit_arguments(nldr::Umap{{.n_epochs = 50}}); }
  SECTION("tsne") { check_fit_arguments(nldr::Tsne{{.perplexity = 3, .max_iterations = 300}}); }
}
