// The FFT-accelerated t-SNE repulsion (nldr/embed/routines/fft_repulsion.hpp) against the O(N^2) sum
// (docs/algorithms.md, "FFT-accelerated repulsion"): for N = 10^3 .. 10^5 points in 2-D (or 1-D),
// five clusters centered on a circle of diameter 8 N^(1/4) (extents about those t-SNE reaches), the time of one call with
// FFTW, with Eigen's FFT module, and of the brute-force sum, each side in its own process (this program
// runs itself with --side). A call is timed as t-SNE makes it, after a first one that plans the FFTs,
// with a kept workspace; the brute force beyond 10^4 points is timed on 2,000 rows and scaled to N.
// Prints the grid, the wall times, their ratios, the CPU time of the FFTW side (all threads; on a loaded
// machine closer to the work than the wall time), Z's relative difference and the load average.
//
//   bench_fft_repulsion [DIM] [REPEATS]          the table (default 2 5)
//   bench_fft_repulsion --side fft|eigen|brute N DIM REPEATS
#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/embed/routines/fft_repulsion.hpp>

#include "load_average.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

namespace {

nldr::Matrix<double> clusters(Eigen::Index n, int dim) {
  nldr::Random random(42);
  const double extent = 8 * std::pow(double(n), 0.25);
  nldr::Matrix<double> Y(n, dim);
  for (Eigen::Index i = 0; i < n; ++i)
    for (int c = 0; c < dim; ++c)
      Y(i, c) = extent / 2 * std::cos(1.7 * double(i % 5) + 2.1 * c) + random.normal(0, extent / 12);
  return Y;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// One side: prints "wall-seconds cpu-seconds Z intervals" of one call.
int run_side(const std::string& side, Eigen::Index n, int dim, int repeats) {
  const nldr::Matrix<double> Y = clusters(n, dim);
  nldr::Matrix<double> forces;
  double z = 0;
  std::vector<double> seconds, cpu_seconds;
  if (side == "brute") {
    // Rows [0, rows) against all points; Z scaled to all rows when rows < n.
    const Eigen::Index rows = n <= 10000 ? n : 2000;
    for (int r = 0; r < std::max(1, repeats / 2); ++r) {
      nldr::Stopwatch clock;
      const std::clock_t cpu = std::clock();
      std::vector<double> row_z(rows);
      forces.setZero(rows, dim);
      nldr::parallel_for(0, rows, [&](Eigen::Index i) {
        double sum = 0, force[2] = {0, 0};
        for (Eigen::Index j = 0; j < n; ++j) {
          if (j == i) continue;
          double diff[2] = {0, 0}, r2 = 0;
          for (int c = 0; c < dim; ++c) diff[c] = Y(i, c) - Y(j, c), r2 += diff[c] * diff[c];
          const double w = 1 / (1 + r2);
          sum += w;
          for (int c = 0; c < dim; ++c) force[c] += w * w * diff[c];
        }
        row_z[i] = sum;
        for (int c = 0; c < dim; ++c) forces(i, c) = force[c];
      });
      z = 0;
      for (double value : row_z) z += value;
      seconds.push_back(clock.seconds() * double(n) / double(rows));
      cpu_seconds.push_back(double(std::clock() - cpu) / CLOCKS_PER_SEC * double(n) / double(rows));
    }
    std::printf("%.6g %.6g %.17g 0\n", median(seconds), median(cpu_seconds), rows == n ? z : 0.0);
    return 0;
  }
  const nldr::detail::FftRepulsionSettings settings{
      .backend = side == "eigen" ? nldr::detail::FftBackend::eigen : nldr::detail::FftBackend::fftw};
  nldr::detail::FftRepulsionWorkspace work;
  z = nldr::detail::fft_repulsion(Y, 1, settings, forces, work);  // plans the FFTs, sizes the workspace
  for (int r = 0; r < repeats; ++r) {
    nldr::Stopwatch clock;
    const std::clock_t cpu = std::clock();
    z = nldr::detail::fft_repulsion(Y, 1, settings, forces, work);
    seconds.push_back(clock.seconds());
    cpu_seconds.push_back(double(std::clock() - cpu) / CLOCKS_PER_SEC);
  }
  std::printf("%.6g %.6g %.17g %d\n", median(seconds), median(cpu_seconds), z, nldr::detail::fft_repulsion_grid(Y, settings).intervals);
  return 0;
}

struct SideResult {
  double seconds = NAN, cpu_seconds = NAN, z = NAN;
  int intervals = 0;
};

SideResult run_in_own_process(const char* self, const std::string& side, Eigen::Index n, int dim, int repeats) {
  const std::string command = std::string(self) + " --side " + side + " " + std::to_string(n) + " " +
                              std::to_string(dim) + " " + std::to_string(repeats);
  SideResult result;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    if (std::fscanf(pipe, "%lf %lf %lf %d", &result.seconds, &result.cpu_seconds, &result.z, &result.intervals) != 4)
      result.seconds = NAN;
    pclose(pipe);
  }
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 6 && std::string(argv[1]) == "--side")
    return run_side(argv[2], std::atol(argv[3]), std::atoi(argv[4]), std::atoi(argv[5]));
  const int dim = argc > 1 ? std::atoi(argv[1]) : 2;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 5;
  if (!nldr::detail::fftw_available()) std::printf("nldr was built without FFTW: the fftw column is Eigen's FFT too\n");
  std::printf("FFT repulsion, %d-D, a = 1, p = 3, %d threads, median of %d calls; load average %s\n", dim,
              nldr::max_threads(), repeats, load_average().c_str());
  std::printf("%8s %9s %9s %9s %9s %10s %10s %12s %12s\n", "N", "intervals", "fftw s", "eigen s", "brute s",
              "brute/fftw", "eigen/fftw", "fftw cpu s", "Z rel. diff");
  for (const Eigen::Index n : {1000, 3000, 10000, 30000, 100000}) {
    const SideResult fftw = run_in_own_process(argv[0], "fft", n, dim, repeats);
    const SideResult eigen = run_in_own_process(argv[0], "eigen", n, dim, repeats);
    const SideResult brute = run_in_own_process(argv[0], "brute", n, dim, repeats);
    std::printf("%8ld %9d %9.4f %9.4f %9.3f %10.1f %10.2f %12.4f", long(n), fftw.intervals, fftw.seconds, eigen.seconds,
                brute.seconds, brute.seconds / fftw.seconds, eigen.seconds / fftw.seconds, fftw.cpu_seconds);
    if (brute.z > 0)
      std::printf(" %12.2e\n", std::abs(fftw.z - brute.z) / brute.z);
    else
      std::printf(" %12s\n", "(scaled)");
  }
  return 0;
}
