// The repulsive sums of t-SNE's gradient in O(N) by interpolation onto a regular grid and FFT
// convolution (FIt-SNE: Linderman, Rachh, Hoskins, Steinerberger & Kluger 2019), for embeddings of
// dimension 1 and 2 and the heavy-tailed kernels of Kobak et al. (2020). The method, its accuracy and
// its cost: docs/algorithms.md, "FFT-accelerated repulsion".
//
// With w(r) = (1 + r^2 / a)^-a and its force kernel v(r) = w(r)^((a+1)/a) = (1 + r^2 / a)^-(a+1),
// t-SNE's repulsion needs, for every point i,
//   sum_{j != i} w_ij                      (its sum over i is Z),
//   sum_{j != i} v_ij (y_i - y_j) = y_i sum_j v_ij - sum_j v_ij y_j.
// Each sum is a kernel K in {w, v} applied to charges q_j in {1, y_j}: phi(y_i) = sum_j K(y_i - y_j) q_j,
// d + 2 sums from d + 1 charge grids. (FIt-SNE, for a = 1, gets Z from v alone through
// w = (1 + r^2 / a) v, i.e. sum_j w_ij = (1 + |y_i|^2 / a) sum_j v_ij - (2 / a) y_i . sum_j v_ij y_j
// + (1 / a) sum_j v_ij |y_j|^2, with the extra charge |y_j|^2: as many FFTs, but Z then comes from
// a difference of large sums.) The box around the points is cut into intervals (squares in 2-D)
// with p equispaced nodes per interval and axis; the kernel, as a function of y_j in j's interval,
// is replaced by its Lagrange interpolant on those nodes, and so is the result, as a function of y_i:
//   phi(y_i) ~ sum_k L_k(y_i) sum_l K(node_k - node_l) sum_{j in interval of l} L_l(y_j) q_j.
// The node-to-node sum is a Toeplitz (block-Toeplitz in 2-D) product, done as a circular convolution
// of twice the size by FFT.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/types.hpp>
#include <nldr/embed/routines/grid_fft.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

namespace nldr::detail {

/// The interpolation grid of the FFT repulsion. Defaults are FIt-SNE's (Linderman et al. 2019).
struct FftRepulsionSettings {
  /// Interpolation nodes per interval and axis, p (FIt-SNE: 3): Lagrange polynomials of degree p - 1.
  /// The error falls quickly with p; the cost of spreading and interpolating grows as p^d, that of
  /// the FFTs as p^d log p. 1 to 8.
  int interpolation_points = 3;
  /// Fewest intervals per axis (FIt-SNE: 50), what a small embedding (early in t-SNE) gets.
  int min_intervals = 50;
  /// Intervals per unit of the embedding's extent (FIt-SNE: 1): the interval is at most
  /// 1 / intervals_per_unit wide, against the kernel's length scale sqrt(a) (1 for a = 1).
  double intervals_per_unit = 1;
  /// Most interpolation nodes, (intervals * p)^d, what bounds time and memory when the extent is huge
  /// (the grid is then coarser than intervals_per_unit asks, and less accurate). 2^21: 480 intervals
  /// per axis at p = 3 in 2-D, an extent of 480, about 0.4 GB of grids plus 0.13 GB per thread.
  Eigen::Index max_nodes = Eigen::Index(1) << 21;
  /// FFT library: FFTW when nldr was built with it (nldr::fftw), else Eigen's FFT.
  FftBackend backend = FftBackend::automatic;
};

/// Where the grid lies: a box of `intervals` intervals of width `interval_width` per axis from
/// `origin`, p nodes per interval, node g (per axis) at origin + (g + 1/2) node_spacing().
struct FftRepulsionGrid {
  int dim = 0;
  int points_per_interval = 0;
  int intervals = 0;
  double interval_width = 0;
  std::array<double, 2> origin{}, center{};
  int nodes_per_axis() const { return intervals * points_per_interval; }
  double node_spacing() const { return interval_width / points_per_interval; }
  /// S, the side of the circulant grid the convolution runs on (twice the nodes per axis).
  int fft_size() const { return 2 * nodes_per_axis(); }
};

namespace fft_repulsion_detail {

// The smallest (largest) 2^i 3^j 5^k >= n (<= n): sizes that FFTW and kissfft factor well.
inline bool smooth(Eigen::Index n) {
  for (Eigen::Index f : {2, 3, 5})
    while (n % f == 0) n /= f;
  return n == 1;
}
inline Eigen::Index smooth_at_least(Eigen::Index n) {
  while (!smooth(n)) ++n;
  return n;
}
inline Eigen::Index smooth_at_most(Eigen::Index n) {
  while (n > 1 && !smooth(n)) --n;
  return n;
}

// Lagrange weights L_k(s), k < p, of the nodes (k + 1/2) / p at s, the position inside an interval
// scaled to [0, 1].
inline void lagrange_weights(double s, int p, double* weights) {
  for (int k = 0; k < p; ++k) {
    double value = 1;
    for (int m = 0; m < p; ++m)
      if (m != k) value *= (s - (m + 0.5) / p) / (double(k - m) / p);
    weights[k] = value;
  }
}

}  // namespace fft_repulsion_detail

/// The grid fft_repulsion() lays over Y (N x d, d = 1 or 2, finite): a square box around the points,
/// max(min_intervals, extent * intervals_per_unit) intervals per axis rounded up to 2^i 3^j 5^k, capped
/// by max_nodes (rounded down). All points equal: a box of side 1.
/// \throws nldr::invalid_argument naming the setting that is out of range.
inline FftRepulsionGrid fft_repulsion_grid(const Matrix<double>& Y, const FftRepulsionSettings& settings) {
  using namespace fft_repulsion_detail;
  const int dim = int(Y.cols());
  const int p = settings.interpolation_points;
  if (dim != 1 && dim != 2)
    throw_invalid("Y", "the FFT repulsion needs a 1- or 2-dimensional embedding, not ", dim,
                  "-dimensional: use the Barnes-Hut or exact repulsion");
  if (p < 1 || p > 8)
    throw_invalid("interpolation_points", "interpolation_points = ", p, " must be in 1..8 (3 is FIt-SNE's default)");
  if (settings.min_intervals < 1)
    throw_invalid("min_intervals", "min_intervals = ", settings.min_intervals, " must be >= 1 (FIt-SNE: 50)");
  if (!(settings.intervals_per_unit > 0) || !std::isfinite(settings.intervals_per_unit))
    throw_invalid("intervals_per_unit", "intervals_per_unit = ", settings.intervals_per_unit,
                  " must be positive and finite (FIt-SNE: 1)");
  // Intervals per axis that max_nodes allows (an integer root, exact).
  Eigen::Index cap = settings.max_nodes / p;
  if (dim == 2) {
    cap = Eigen::Index(std::sqrt(double(std::max<Eigen::Index>(settings.max_nodes, 0))));
    while (cap * cap > settings.max_nodes) --cap;
    while ((cap + 1) * (cap + 1) <= settings.max_nodes) ++cap;
    cap /= p;
  }
  cap = std::min<Eigen::Index>(cap, std::numeric_limits<int>::max() / (2 * p));
  if (cap < settings.min_intervals)
    throw_invalid("max_nodes", "max_nodes = ", settings.max_nodes, " leaves fewer than min_intervals = ",
                  settings.min_intervals, " intervals of ", p, " nodes per axis: raise max_nodes to at least ",
                  dim == 1 ? Eigen::Index(settings.min_intervals) * p
                           : Eigen::Index(settings.min_intervals) * p * settings.min_intervals * p);

  FftRepulsionGrid grid;
  grid.dim = dim;
  grid.points_per_interval = p;
  double extent = 0;
  for (int c = 0; c < dim; ++c) {
    const double lo = Y.rows() > 0 ? Y.col(c).minCoeff() : 0, hi = Y.rows() > 0 ? Y.col(c).maxCoeff() : 0;
    extent = std::max(extent, hi - lo);
    grid.center[c] = lo + (hi - lo) / 2;
  }
  if (!std::isfinite(extent))
    throw_invalid("Y", "the embedding holds NaN or Inf, or spans more than the largest double");
  const double side = extent > 0 ? extent : 1;
  const double wanted = std::max(double(settings.min_intervals), std::ceil(extent * settings.intervals_per_unit));
  const Eigen::Index intervals = wanted >= double(cap) ? smooth_at_most(cap)
                                                       : std::min(smooth_at_least(Eigen::Index(wanted)), smooth_at_most(cap));
  grid.intervals = int(intervals);
  grid.interval_width = side / double(intervals);
  for (int c = 0; c < dim; ++c) grid.origin[c] = grid.center[c] - side / 2;
  return grid;
}

/// The buffers of fft_repulsion(), kept by a caller that calls it many times (t-SNE: once per
/// iteration) so that the grids are not allocated and paged in anew each time. Owned by the caller;
/// one workspace per concurrent call. Its memory is that of the largest grid it has served.
struct FftRepulsionWorkspace {
  std::vector<Eigen::Index> box_of, box_start, by_box, node_offset;
  std::vector<double> weights, charge_grid, kernel_w, kernel_v, potential, self_kernel, z_terms;
  std::vector<AlignedBuffer<double>> real;                  // per thread: a grid to transform
  std::vector<AlignedBuffer<std::complex<double>>> product;  // per thread: a spectrum
  std::vector<AlignedBuffer<double>> kernel_spectrum;       // w and v, real (the kernels are even)
  std::vector<AlignedBuffer<std::complex<double>>> charge_spectrum;
};

/// Y: N x d embedding, d = 1 or 2 (double). dof = a > 0: kernel w_ij = (1 + |y_i - y_j|^2 / a)^-a
/// (a = 1: the Cauchy kernel; Kobak et al. 2020 heavy tails). Fills `forces` (N x d) with
/// sum_{j != i} w_ij^{(a+1)/a} (y_i - y_j) and returns Z = sum_{i != j} w_ij.
/// The same result for every thread count. Accuracy: docs/algorithms.md, "FFT-accelerated repulsion".
/// \throws nldr::invalid_argument naming Y, dof or the setting that is out of range.
inline double fft_repulsion(const Matrix<double>& Y, double dof, const FftRepulsionSettings& settings,
                            Matrix<double>& forces, FftRepulsionWorkspace& work) {
  using namespace fft_repulsion_detail;
  using Index = Eigen::Index;
  if (!(dof > 0) || !std::isfinite(dof))
    throw_invalid("dof", "dof = ", dof, " must be positive and finite (1: the Cauchy kernel of t-SNE)");
  if (!Y.allFinite()) throw_invalid("Y", "the embedding holds NaN or Inf");
  const FftRepulsionGrid grid = fft_repulsion_grid(Y, settings);
  const Index n = Y.rows();
  const int dim = grid.dim, p = grid.points_per_interval, intervals = grid.intervals;
  forces.setZero(n, dim);
  if (n < 2) return 0;

  const Index M = grid.nodes_per_axis(), S = grid.fft_size();
  const Index boxes = dim == 1 ? intervals : Index(intervals) * intervals;
  const Index nodes = dim == 1 ? M : M * M;
  const Index rows = dim == 1 ? 1 : M;         // rows of M nodes
  const int box_nodes = dim == 1 ? p : p * p;  // nodes of one box
  const int charges = dim + 1;                 // 1, then the coordinates relative to the center
  const int outputs = dim + 2;                 // w * 1, v * 1, v * y_c

  // A point's box and the Lagrange weights of the box's nodes (products over the axes).
  auto locate = [&](Index i, double* weights) {
    std::array<double, 2 * 8> axis{};
    Index box = 0;
    for (int c = 0; c < dim; ++c) {
      const double t = (Y(i, c) - grid.origin[c]) / grid.interval_width;
      const Index b = std::clamp<Index>(Index(std::floor(t)), 0, intervals - 1);
      if (weights != nullptr) lagrange_weights(t - double(b), p, axis.data() + c * p);
      box = box * intervals + b;
    }
    if (weights != nullptr && dim == 1)
      for (int k = 0; k < p; ++k) weights[k] = axis[k];
    else if (weights != nullptr)
      for (int kx = 0; kx < p; ++kx)
        for (int ky = 0; ky < p; ++ky) weights[kx * p + ky] = axis[kx] * axis[p + ky];
    return box;
  };
  work.box_of.resize(n);
  parallel_for(0, n, [&](Index i) { work.box_of[i] = locate(i, nullptr); }, 1024);
  // Grid index of a box's first node, and of its node k relative to that.
  auto first_node = [&](Index box) { return dim == 1 ? box * p : (box / intervals) * p * M + (box % intervals) * p; };
  work.node_offset.resize(box_nodes);
  for (int k = 0; k < box_nodes; ++k) work.node_offset[k] = dim == 1 ? k : (k / p) * M + k % p;

  // The points of each box in increasing index (a counting sort): each box's nodes are its own, so
  // the grid is filled box by box in parallel, summing in the same order on any thread count. The
  // weights are stored in this order, which is the order they are read in.
  work.box_start.assign(boxes + 1, 0);
  work.by_box.resize(n);
  for (Index i = 0; i < n; ++i) ++work.box_start[work.box_of[i] + 1];
  for (Index b = 0; b < boxes; ++b) work.box_start[b + 1] += work.box_start[b];
  // Filled from each box's end backwards, which leaves box_start[b + 1] at the start of box b.
  for (Index i = n - 1; i >= 0; --i) work.by_box[--work.box_start[work.box_of[i] + 1]] = i;
  for (Index b = 0; b < boxes; ++b) work.box_start[b] = work.box_start[b + 1];
  work.box_start[boxes] = n;
  work.weights.resize(n * box_nodes);
  parallel_for(0, n, [&](Index at) { locate(work.by_box[at], work.weights.data() + at * box_nodes); }, 1024);
  // body(i, weights of i, first node of i's box) for every point, box by box.
  auto for_each_box = [&](auto&& body) {
    parallel_for(0, boxes, [&](Index b) {
      const Index first = first_node(b);
      for (Index at = work.box_start[b]; at < work.box_start[b + 1]; ++at)
        body(work.by_box[at], work.weights.data() + at * box_nodes, first);
    }, 64);
  };
  work.charge_grid.assign(charges * nodes, 0.0);
  for_each_box([&](Index i, const double* w, Index first) {
    std::array<double, 3> q{1, 0, 0};
    for (int c = 0; c < dim; ++c) q[c + 1] = Y(i, c) - grid.center[c];
    for (int c = 0; c < charges; ++c) {
      double* grid_c = work.charge_grid.data() + c * nodes + first;
      for (int k = 0; k < box_nodes; ++k) grid_c[work.node_offset[k]] += w[k] * q[c];
    }
  });

  // The kernels w and v at every node offset (m_x, m_y) in [0, M)^d.
  const double h = grid.node_spacing();
  work.kernel_w.resize(nodes);
  work.kernel_v.resize(nodes);
  parallel_for(0, rows, [&](Index mx) {
    for (Index my = 0; my < M; ++my) {
      const double r2 = (double(dim == 1 ? 0 : mx) * double(mx) + double(my) * double(my)) * h * h;
      const double base = 1 + r2 / dof;
      const double w = dof == 1 ? 1 / base : std::pow(base, -dof);
      work.kernel_w[mx * M + my] = w;
      work.kernel_v[mx * M + my] = w / base;
    }
  }, 16);

  // Spectra of the two kernels (as circulants of side S: offset m at m mod S) and of the charges,
  // then one inverse transform per output. The kernels are even, so their spectra are real.
  const GridFft fft(dim, int(S), settings.backend);
  const Index spectrum_size = fft.spectrum_size(), top_size = fft.top_size();
  const int threads = max_threads();
  work.real.resize(threads);
  work.product.resize(threads);
  work.kernel_spectrum.resize(2);
  work.charge_spectrum.resize(charges);
  const double scale = 1 / double(fft.real_size());
  // The charges' transforms (the larger ones) are handed out first, the kernels' DCTs last: with
  // three charges on two threads the kernels then fill the gap (20,000-point fit: 5.9 -> 5.7 s of
  // forward transforms). Each task computes the same on any thread.
  parallel_for(0, 2 + charges, [&](Index order) {
    const Index task = (order + 2) % (2 + charges);
    double* buffer = nullptr;
    AlignedBuffer<double>& real = work.real[thread_index()];
    if (task < 2) {
      // The kernel at offsets 0 .. M per axis (offset M, which no pair of nodes has, zero): the
      // first quadrant of the even circulant.
      real.resize(fft.quadrant_size());
      buffer = real.data();
      std::fill(buffer, buffer + fft.quadrant_size(), 0.0);
      const std::vector<double>& kernel = task == 0 ? work.kernel_w : work.kernel_v;
      for (Index mx = 0; mx < rows; ++mx)
        std::copy(kernel.data() + mx * M, kernel.data() + mx * M + M, buffer + mx * (M + 1));
      AlignedBuffer<double>& real_spectrum = work.kernel_spectrum[task];
      real_spectrum.resize(spectrum_size);
      fft.forward_even(buffer, real_spectrum.data());
      for (Index k = 0; k < spectrum_size; ++k) real_spectrum[k] *= scale;
    } else {
      AlignedBuffer<std::complex<double>>& spectrum = work.charge_spectrum[task - 2];
      spectrum.resize(spectrum_size);
      real.resize(top_size);
      buffer = real.data();
      std::fill(buffer, buffer + top_size, 0.0);
      const double* q = work.charge_grid.data() + (task - 2) * nodes;
      for (Index row = 0; row < rows; ++row) std::copy(q + row * M, q + row * M + M, buffer + row * S);
      fft.forward_top(buffer, spectrum.data());
    }
  }, 1);
  work.potential.resize(outputs * nodes);
  parallel_for(0, outputs, [&](Index o) {
    const AlignedBuffer<double>& kernel = work.kernel_spectrum[o == 0 ? 0 : 1];
    const AlignedBuffer<std::complex<double>>& charge = work.charge_spectrum[o <= 1 ? 0 : o - 1];
    AlignedBuffer<std::complex<double>>& product = work.product[thread_index()];
    AlignedBuffer<double>& real = work.real[thread_index()];
    product.resize(spectrum_size);
    real.resize(top_size);
    for (Index k = 0; k < spectrum_size; ++k) product[k] = charge[k] * kernel[k];
    fft.inverse_top(product.data(), real.data());
    // Stored node by node, the outputs of one node together: the gather below reads them at once.
    for (Index row = 0; row < rows; ++row)
      for (Index col = 0; col < M; ++col) work.potential[(row * M + col) * outputs + o] = real[row * S + col];
  }, 1);

  // Back to the points. The interpolated sums include j = i; its term is removed with the same
  // interpolation (sum_kl L_k(y_i) w(node_k - node_l) L_l(y_i)), so that the result is the
  // interpolated sum over j != i. In the forces it cancels between y_i sum_j v_ij and sum_j v_ij y_j.
  work.self_kernel.resize(box_nodes * box_nodes);
  for (int k = 0; k < box_nodes; ++k)
    for (int l = 0; l < box_nodes; ++l) {
      const Index dx = dim == 1 ? 0 : std::abs(k / p - l / p), dy = dim == 1 ? std::abs(k - l) : std::abs(k % p - l % p);
      work.self_kernel[k * box_nodes + l] = work.kernel_w[dx * M + dy];
    }
  work.z_terms.resize(n);
  for_each_box([&](Index i, const double* w, Index first) {
    std::array<double, 4> phi{};
    double self = 0;
    for (int k = 0; k < box_nodes; ++k) {
      const Index node = first + work.node_offset[k];
      for (int o = 0; o < outputs; ++o) phi[o] += w[k] * work.potential[node * outputs + o];
      double row = 0;
      for (int l = 0; l < box_nodes; ++l) row += work.self_kernel[k * box_nodes + l] * w[l];
      self += w[k] * row;
    }
    work.z_terms[i] = phi[0] - self;
    for (int c = 0; c < dim; ++c) forces(i, c) = (Y(i, c) - grid.center[c]) * phi[1] - phi[2 + c];
  });
  double z = 0;
  for (Index i = 0; i < n; ++i) z += work.z_terms[i];
  return z;
}

/// fft_repulsion() with buffers of its own.
inline double fft_repulsion(const Matrix<double>& Y, double dof, const FftRepulsionSettings& settings,
                            Matrix<double>& forces) {
  FftRepulsionWorkspace work;
  return fft_repulsion(Y, dof, settings, forces, work);
}

}  // namespace nldr::detail
