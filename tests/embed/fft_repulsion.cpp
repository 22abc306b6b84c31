// The FFT-accelerated t-SNE repulsion (nldr/embed/routines/fft_repulsion.hpp) against the O(N^2)
// sums written out here, for d = 1 and 2 and the kernels of a = 1 (Cauchy), 0.5 (heavier tails) and
// 100 (nearly Gaussian); its invariances, determinism, degenerate inputs and errors. The tolerances
// are those of docs/algorithms.md, "FFT-accelerated repulsion".
#include "catch.hpp"

#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/embed/routines/fft_repulsion.hpp>

#include <cmath>
#include <vector>

namespace {

using nldr::Matrix;
using nldr::detail::FftBackend;
using nldr::detail::FftRepulsionSettings;

struct RepulsionSums {
  double z = 0;
  Matrix<double> forces;
};

/// Z = sum_{i != j} (1 + r^2/a)^-a and F_i = sum_{j != i} (1 + r^2/a)^-(a+1) (y_i - y_j), pair by pair.
RepulsionSums brute_force_repulsion(const Matrix<double>& Y, double a) {
  RepulsionSums sums;
  sums.forces.setZero(Y.rows(), Y.cols());
  for (Eigen::Index i = 0; i < Y.rows(); ++i)
    for (Eigen::Index j = 0; j < Y.rows(); ++j) {
      if (i == j) continue;
      const double r2 = (Y.row(i) - Y.row(j)).squaredNorm();
      sums.z += std::pow(1 + r2 / a, -a);
      sums.forces.row(i) += std::pow(1 + r2 / a, -(a + 1)) * (Y.row(i) - Y.row(j));
    }
  return sums;
}

RepulsionSums fft_sums(const Matrix<double>& Y, double a, const FftRepulsionSettings& settings) {
  RepulsionSums sums;
  sums.z = nldr::detail::fft_repulsion(Y, a, settings, sums.forces);
  return sums;
}

/// Five Gaussian clusters of unequal size and spread, an extent of about `extent`: the shape of a
/// t-SNE embedding after early exaggeration.
Matrix<double> clustered_layout(Eigen::Index n, int dim, double extent, std::uint64_t seed) {
  nldr::Random random(seed);
  Matrix<double> Y(n, dim);
  for (Eigen::Index i = 0; i < n; ++i) {
    const int cluster = int(i % 7) % 5;  // clusters 0 and 1 get twice the points
    for (int c = 0; c < dim; ++c)
      Y(i, c) = extent / 2 * std::cos(1.7 * cluster + 2.1 * c) + random.normal(0, extent / 20 * (1 + cluster % 3));
  }
  return Y;
}

std::vector<FftBackend> backends() {
  if (nldr::detail::fftw_available()) return {FftBackend::fftw, FftBackend::eigen};
  return {FftBackend::eigen};
}

}  // namespace

TEST_CASE("FFT repulsion matches the brute-force sums, more closely with more interpolation points", "[fft_repulsion]") {
  // Relative errors of Z and of the forces (Frobenius norm) at p = 3 (FIt-SNE's default) and p = 5.
  struct Tolerance {
    int points;
    double z, forces;
  };
  const std::vector<Tolerance> tolerances = {{3, 1e-3, 6e-2}, {5, 1e-4, 1.2e-2}};
  for (const int dim : {1, 2}) {
    // An extent of 80: more than min_intervals = 50, so intervals_per_unit sets the grid.
    const Matrix<double> Y = clustered_layout(900, dim, 80, 11 + dim);
    for (const double a : {1.0, 0.5, 100.0}) {
      const RepulsionSums exact = brute_force_repulsion(Y, a);
      for (const FftBackend backend : backends()) {
        std::vector<double> force_errors;
        for (const Tolerance& tolerance : tolerances) {
          CAPTURE(dim, a, int(backend), tolerance.points);
          const RepulsionSums fft = fft_sums(Y, a, {.interpolation_points = tolerance.points, .backend = backend});
          const double z_error = std::abs(fft.z - exact.z) / exact.z;
          const double force_error = (fft.forces - exact.forces).norm() / exact.forces.norm();
          CAPTURE(z_error, force_error);
          CHECK(z_error < tolerance.z);
          CHECK(force_error < tolerance.forces);
          force_errors.push_back(force_error);
        }
        CHECK(force_errors[1] < force_errors[0] / 3);
      }
    }
  }
}

TEST_CASE("FFT repulsion: FFTW and Eigen's FFT give the same sums to rounding", "[fft_repulsion]") {
  if (!nldr::detail::fftw_available()) {
    WARN("nldr was built without FFTW: only Eigen's FFT is tested");
    return;
  }
  for (const int dim : {1, 2}) {
    CAPTURE(dim);
    const Matrix<double> Y = clustered_layout(2000, dim, 120, 5);
    const RepulsionSums fftw = fft_sums(Y, 1, {.backend = FftBackend::fftw});
    const RepulsionSums eigen = fft_sums(Y, 1, {.backend = FftBackend::eigen});
    CHECK_THAT(eigen.z, WithinRel(fftw.z, 1e-10));
    CHECK((eigen.forces - fftw.forces).norm() < 1e-10 * fftw.forces.norm());
  }
}

TEST_CASE("Grid FFT: an even grid's spectrum from its first quadrant equals the DFT written out", "[fft_repulsion]") {
  // S = 12 (a 2-D DFT of 144 terms per coefficient): x(m) = x(S - m) per axis, offset S/2 included.
  const int S = 12, half = S / 2 + 1;
  for (const int dim : {1, 2})
    for (const FftBackend backend : backends()) {
      CAPTURE(dim, int(backend));
      const nldr::detail::GridFft fft(dim, S, backend);
      const int rows = dim == 1 ? 1 : half;
      std::vector<double> quadrant(std::size_t(rows) * half);
      nldr::Random random(3);
      for (double& x : quadrant) x = random.uniform(-1, 1);
      auto value = [&](int mx, int my) {  // the even grid at (mx, my), from the quadrant
        const int qx = dim == 1 ? 0 : std::min(mx, S - mx), qy = std::min(my, S - my);
        return quadrant[std::size_t(qx) * half + qy];
      };
      std::vector<double> expected(std::size_t(fft.spectrum_size()));
      const double pi = std::acos(-1.0);
      for (int kx = 0; kx < (dim == 1 ? 1 : S); ++kx)
        for (int ky = 0; ky < half; ++ky) {
          double sum = 0;  // the imaginary part cancels: the grid is even
          for (int mx = 0; mx < (dim == 1 ? 1 : S); ++mx)
            for (int my = 0; my < S; ++my) sum += value(mx, my) * std::cos(2 * pi * (double(kx) * mx + double(ky) * my) / S);
          expected[std::size_t(kx) * half + ky] = sum;
        }
      nldr::detail::AlignedBuffer<double> in(fft.quadrant_size()), spectrum(fft.spectrum_size());
      std::copy(quadrant.begin(), quadrant.end(), in.data());
      fft.forward_even(in.data(), spectrum.data());
      for (Eigen::Index k = 0; k < fft.spectrum_size(); ++k) CHECK(spectrum[k] == Approx(expected[std::size_t(k)]).margin(1e-12));
    }
}

TEST_CASE("FFT repulsion grid: intervals grow with the extent, FFT-friendly, capped by max_nodes", "[fft_repulsion]") {
  const auto grid_of = [](double extent, int dim, const FftRepulsionSettings& settings = {}) {
    return nldr::detail::fft_repulsion_grid(clustered_layout(200, dim, extent, 3), settings);
  };
  auto smooth = [](int n) {
    for (const int f : {2, 3, 5})
      while (n % f == 0) n /= f;
    return n == 1;
  };
  CHECK(grid_of(10, 2).intervals == 50);  // min_intervals
  for (const double extent : {130.0, 333.0}) {
    const auto grid = grid_of(extent, 2);
    CAPTURE(extent, grid.intervals);
    CHECK(grid.interval_width <= 1.0);  // intervals_per_unit = 1
    CHECK(grid.interval_width > 0.8);
    CHECK(smooth(grid.intervals));
  }
  // A huge extent: the grid stops at max_nodes = 2^21 nodes, 482 intervals of 3 nodes per axis in
  // 2-D (rounded down to 480), and in 1-D at 2^21 / 3 = 699050 (rounded down to 691200).
  CHECK(grid_of(1e6, 2).intervals == 480);
  CHECK(grid_of(1e9, 1).intervals == 691200);
  CHECK(grid_of(1e6, 2, {.max_nodes = 300 * 300}).intervals == 100);
}

TEST_CASE("FFT repulsion is translation invariant", "[fft_repulsion]") {
  for (const int dim : {1, 2}) {
    const Matrix<double> Y = clustered_layout(1500, dim, 60, 7);
    Matrix<double> shifted = Y;
    shifted.col(0).array() += 1234.5;
    if (dim == 2) shifted.col(1).array() -= 777.25;
    const RepulsionSums here = fft_sums(Y, 1, {}), there = fft_sums(shifted, 1, {});
    CAPTURE(dim);
    CHECK_THAT(there.z, WithinRel(here.z, 1e-10));
    CHECK((there.forces - here.forces).norm() < 1e-9 * here.forces.norm());
  }
}

TEST_CASE("FFT repulsion is bit-identical for 1, 2 and 3 threads and with a reused workspace", "[fft_repulsion][determinism]") {
  const int threads_before = nldr::max_threads();
  for (const int dim : {1, 2})
    for (const FftBackend backend : backends()) {
      CAPTURE(dim, int(backend));
      // Six blocks of 1024 points for the point loops, and an extent of about 60 (some 60 intervals
      // per axis) for the grid's: 20,000 points at 150 took 27 s under the sanitizers.
      const Matrix<double> Y = clustered_layout(6000, dim, 60, 9);
      nldr::set_threads(1);
      const RepulsionSums reference = fft_sums(Y, 1, {.backend = backend});
      for (const int threads : {2, 3}) {
        CAPTURE(threads);
        nldr::set_threads(threads);
        const RepulsionSums again = fft_sums(Y, 1, {.backend = backend});
        CHECK(again.z == reference.z);
        CHECK((again.forces.array() == reference.forces.array()).all());
      }
      // A workspace that served a larger and a smaller grid first changes nothing either.
      nldr::detail::FftRepulsionWorkspace work;
      Matrix<double> forces;
      nldr::detail::fft_repulsion(clustered_layout(300, dim, 400, 1), 1, {.backend = backend}, forces, work);
      nldr::detail::fft_repulsion(clustered_layout(300, dim, 3, 1), 0.5, {.backend = backend}, forces, work);
      CHECK(nldr::detail::fft_repulsion(Y, 1, {.backend = backend}, forces, work) == reference.z);
      CHECK((forces.array() == reference.forces.array()).all());
    }
  nldr::set_threads(threads_before);
}

TEST_CASE("FFT repulsion on degenerate embeddings", "[fft_repulsion]") {
  for (const int dim : {1, 2}) {
    CAPTURE(dim);
    Matrix<double> forces;
    SECTION("no point and one point: Z = 0, no force") {
      CHECK(nldr::detail::fft_repulsion(Matrix<double>(0, dim), 1, {}, forces) == 0);
      CHECK(forces.rows() == 0);
      CHECK(nldr::detail::fft_repulsion(Matrix<double>::Constant(1, dim, 4.0), 1, {}, forces) == 0);
      CHECK(forces.isZero(0));
    }
    SECTION("all points equal: every kernel value is 1, every force 0") {
      // The box is then of side 1: the interpolation error at node spacing 1/150 is about 1e-7.
      const Matrix<double> Y = Matrix<double>::Constant(10, dim, -3.25);
      for (const double a : {1.0, 0.5}) {
        CHECK_THAT(nldr::detail::fft_repulsion(Y, a, {}, forces), WithinRel(90.0, 1e-6));
        CHECK(forces.cwiseAbs().maxCoeff() < 1e-9);
      }
    }
    SECTION("two points: the closed form") {
      Matrix<double> Y = Matrix<double>::Zero(2, dim);
      Y(1, 0) = 1.5;
      if (dim == 2) Y(1, 1) = -2;
      const double r2 = Y.row(1).squaredNorm();
      for (const double a : {1.0, 0.5, 100.0}) {
        CAPTURE(a);
        const double z = nldr::detail::fft_repulsion(Y, a, {}, forces);
        CHECK_THAT(z, WithinRel(2 * std::pow(1 + r2 / a, -a), 1e-4));
        const Matrix<double> expected_force = std::pow(1 + r2 / a, -(a + 1)) * (Y.row(0) - Y.row(1));
        CHECK((forces.row(0) - expected_force).norm() < 1e-3 * expected_force.norm());
        CHECK((forces.row(1) + expected_force).norm() < 1e-3 * expected_force.norm());
      }
    }
    SECTION("a huge extent: the grid is capped, and far pairs are still summed accurately") {
      // Two points 10^6 apart: each alone in its interval, w = 1e-12; the interpolated self-term is
      // what is subtracted, so Z is accurate to the rounding of the near terms (about 1e-16 each). A
      // force is y_i sum_j v_ij - sum_j v_ij y_j: its error is rounding times the extent (~1e-10).
      Matrix<double> Y = Matrix<double>::Zero(2, dim);
      Y(1, 0) = 1e6;
      const double z = nldr::detail::fft_repulsion(Y, 1, {}, forces);
      CHECK(std::abs(z - 2 / (1 + 1e12)) < 1e-14);
      CHECK(forces.allFinite());
      CHECK(forces.cwiseAbs().maxCoeff() < 1e-8);
      // Clusters 10^6 apart: intervals far wider than the kernel, so the near field is coarse, but the
      // grid stays within max_nodes and the sums finite and of the right sign.
      const Matrix<double> clusters = clustered_layout(500, dim, 1e6, 2);
      CHECK(nldr::detail::fft_repulsion(clusters, 1, {}, forces) > 0);
      CHECK(forces.allFinite());
    }
  }
}

TEST_CASE("FFT repulsion rejects bad input, naming the parameter", "[fft_repulsion]") {
  Matrix<double> forces;
  const Matrix<double> Y = clustered_layout(50, 2, 10, 1);
  CHECK_THROWS_CONTAINING(nldr::detail::fft_repulsion(Matrix<double>::Zero(5, 3), 1, {}, forces),
                          nldr::invalid_argument, "Barnes-Hut");
  CHECK_THROWS_CONTAINING(nldr::detail::fft_repulsion(Y, 0, {}, forces), nldr::invalid_argument, "dof");
  CHECK_THROWS_CONTAINING(nldr::detail::fft_repulsion(Y, NAN, {}, forces), nldr::invalid_argument, "dof");
  Matrix<double> broken = Y;
  broken(3, 1) = INFINITY;
  CHECK_THROWS_CONTAINING(nldr::detail::fft_repulsion(broken, 1, {}, forces), nldr::invalid_argument, "NaN or Inf");
  CHECK_THROWS_CONTAINING(nldr::detail::fft_repulsion(Y, 1, {.interpolation_points = 0}, forces),
                          nldr::invalid_argument, "interpolation_points");
  CHECK_THROWS_CONTAINING(nldr::detail::fft_repulsion(Y, 1, {.min_intervals = 0}, forces), nldr::invalid_argument,
                          "min_intervals");
  CHECK_THROWS_CONTAINING(nldr::detail::fft_repulsion(Y, 1, {.intervals_per_unit = -1}, forces),
                          nldr::invalid_argument, "intervals_per_unit");
  CHECK_THROWS_CONTAINING(nldr::detail::fft_repulsion(Y, 1, {.max_nodes = 1000}, forces), nldr::invalid_argument,
                          "raise max_nodes to at least 22500");
  if (!nldr::detail::fftw_available())
    CHECK_THROWS_CONTAINING(nldr::detail::fft_repulsion(Y, 1, {.backend = FftBackend::fftw}, forces),
                            nldr::invalid_argument, "without FFTW");
}
