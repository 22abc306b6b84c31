// t-SNE's repulsive term with the heavy-tailed kernel w_ij = (1 + |y_i - y_j|^2 / a)^-a (a = dof:
// a = 1 is the Cauchy kernel of van der Maaten & Hinton 2008, smaller a heavier tails, Kobak et al.
// 2020). Every repulsion here has one contract:
//     double xxx_repulsion(const Matrix<double>& Y, double dof, settings, Matrix<double>& forces)
// fills forces (N x d) with F_i = sum_{j != i} w_ij^{(a+1)/a} (y_i - y_j) and returns
// Z = sum_{i != j} w_ij; the gradient of the KL divergence is then
// 4 (sum_j p_ij w_ij^{1/a} (y_i - y_j) - F_i / Z) (docs/methods/tsne.md).
// exact_repulsion is the O(N^2) reference; barnes_hut_repulsion approximates far cells by their
// centre of mass (van der Maaten 2014), O(N log N). Each point's sums run over a fixed order and Z is
// reduced in index order, so the results do not depend on the thread count.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/types.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

namespace nldr::detail {

/// The kernel w = (1 + r2 / a)^-a and the force weight w^{(a+1)/a} = (1 + r2 / a)^-(a+1) at squared
/// distance r2; a = 1 without pow.
struct TsneKernel {
  double dof = 1;

  double weight(double r2) const { return dof == 1 ? 1.0 / (1.0 + r2) : std::pow(1.0 + r2 / dof, -dof); }
  /// w^{(a+1)/a} given w and r2.
  double force(double w, double r2) const { return dof == 1 ? w * w : w / (1.0 + r2 / dof); }
  /// w^{1/a} (the attraction's weight) at r2; for a = 1 without the division by a (the same number).
  double attraction(double r2) const { return dof == 1 ? 1.0 / (1.0 + r2) : 1.0 / (1.0 + r2 / dof); }
};

/// Sum of per-point partial sums in index order (the same total for any thread count).
inline double ordered_sum(const std::vector<double>& parts) { return std::accumulate(parts.begin(), parts.end(), 0.0); }

/// The exact repulsion, O(N^2 d): the reference of the approximations, for any d.
inline double exact_repulsion(const Matrix<double>& Y, double dof, Matrix<double>& forces) {
  const index_t n = index_t(Y.rows()), d = index_t(Y.cols());
  const TsneKernel kernel{dof};
  forces.setZero(n, d);
  std::vector<double> partial(std::size_t(n), 0.0);
  parallel_for(0, n, [&](std::int64_t i) {
    double z = 0;
    for (index_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const double r2 = (Y.row(i) - Y.row(j)).squaredNorm();
      const double w = kernel.weight(r2);
      z += w;
      forces.row(i) += kernel.force(w, r2) * (Y.row(i) - Y.row(j));
    }
    partial[std::size_t(i)] = z;
  });
  return ordered_sum(partial);
}

/// A 2^d-ary space-partitioning tree (d = 1: binary, 2: quadtree, 3: octree) over fixed points, for
/// the Barnes-Hut sums (van der Maaten 2014). Built serially: the same tree on any thread count.
/// A cell is split until it holds one point or its side reaches 1e-12 of the root's (then it is a
/// leaf holding several, e.g. duplicate points, summed exactly).
class SpaceTree {
 public:
  static constexpr index_t max_dim = 3;

  explicit SpaceTree(const Matrix<double>& Y) : dim_(index_t(Y.cols())) {
    if (dim_ < 1 || dim_ > max_dim)
      throw_invalid("repulsion", "Barnes-Hut works in 1, 2 or 3 dimensions, not ", dim_,
                    ": use repulsion = exact for d > 3");
    const auto n = index_t(Y.rows());
    order_.resize(std::size_t(n));
    std::iota(order_.begin(), order_.end(), 0);
    if (n == 0) return;
    const Eigen::RowVectorXd low = Y.colwise().minCoeff(), high = Y.colwise().maxCoeff();
    const double side = std::max((high - low).maxCoeff(), 1e-300);
    build(Y, 0.5 * (low + high), side, side * 1e-12);
    // The points in tree order, so that a leaf's points lie together in memory.
    points_.resize(std::size_t(n) * std::size_t(dim_));
    for (index_t e = 0; e < n; ++e)
      for (index_t a = 0; a < dim_; ++a) points_[std::size_t(e) * dim_ + a] = Y(order_[std::size_t(e)], a);
  }

  /// Adds to `force` the repulsion on a point at y from every tree point but `self` (-1: none) and
  /// returns their sum of w. A cell whose side is below theta times its centre of mass's distance
  /// counts as one point of its total mass (the criterion of bhtsne and scikit-learn).
  double repulsion(const double* y, index_t self, const TsneKernel& kernel, double theta, double* force) const {
    switch (dim_) {
      case 1: return sum<1>(y, self, kernel, theta, force);
      case 2: return sum<2>(y, self, kernel, theta, force);
      default: return sum<3>(y, self, kernel, theta, force);
    }
  }

 private:
  struct Cell {
    index_t begin = 0, end = 0;  // points order_[begin, end)
    index_t first_child = -1;    // 2^d consecutive children, or -1 for a leaf
    double side2 = 0;            // squared side of the cell
    std::array<double, max_dim> center_of_mass{};
  };

  template <int D>
  double sum(const double* y, index_t self, const TsneKernel& kernel, double theta, double* force) const {
    double z = 0;
    std::array<double, D> f{};
    const double theta2 = theta * theta;
    // Depth <= 42 (the side halves from the root's to 1e-12 of it), at most 2^d - 1 cells waiting per level.
    std::array<index_t, 512> stack;
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const Cell& cell = cells_[std::size_t(stack[--top])];
      if (cell.first_child < 0) {  // a leaf: its points one by one
        for (index_t e = cell.begin; e < cell.end; ++e) {
          if (order_[std::size_t(e)] == self) continue;
          const double* q = points_.data() + std::size_t(e) * D;
          std::array<double, D> diff;
          double r2 = 0;
          for (int a = 0; a < D; ++a) {
            diff[a] = y[a] - q[a];
            r2 += diff[a] * diff[a];
          }
          const double w = kernel.weight(r2), g = kernel.force(w, r2);
          z += w;
          for (int a = 0; a < D; ++a) f[a] += g * diff[a];
        }
        continue;
      }
      std::array<double, D> diff;
      double r2 = 0;
      for (int a = 0; a < D; ++a) {
        diff[a] = y[a] - cell.center_of_mass[a];
        r2 += diff[a] * diff[a];
      }
      if (cell.side2 < theta2 * r2) {
        const double mass = double(cell.end - cell.begin);
        const double w = kernel.weight(r2), g = mass * kernel.force(w, r2);
        z += mass * w;
        for (int a = 0; a < D; ++a) f[a] += g * diff[a];
      } else {
        // Children pushed in reverse, so they are visited in their fixed order.
        for (index_t child = (index_t(1) << D) - 1; child >= 0; --child) {
          const Cell& sub = cells_[std::size_t(cell.first_child + child)];
          if (sub.end > sub.begin) stack[top++] = cell.first_child + child;
        }
      }
    }
    for (int a = 0; a < D; ++a) force[a] += f[a];
    return z;
  }

  void build(const Matrix<double>& Y, Eigen::RowVectorXd center, double side, double smallest) {
    struct Pending {
      index_t cell, begin, end;
      Eigen::RowVectorXd center;
      double side;
    };
    const index_t n = index_t(Y.rows()), children = index_t(1) << dim_;
    cells_.push_back({});
    std::vector<Pending> work{{0, 0, n, std::move(center), side}};
    std::vector<index_t> child_of(static_cast<std::size_t>(n)), scratch;
    while (!work.empty()) {
      Pending job = std::move(work.back());
      work.pop_back();
      {
        Cell& cell = cells_[std::size_t(job.cell)];
        cell.begin = job.begin;
        cell.end = job.end;
        cell.side2 = job.side * job.side;
        for (index_t a = 0; a < dim_; ++a) {
          double total = 0;
          for (index_t e = job.begin; e < job.end; ++e) total += Y(order_[std::size_t(e)], a);
          cell.center_of_mass[std::size_t(a)] = total / double(job.end - job.begin);
        }
      }
      if (job.end - job.begin <= 1 || job.side <= smallest) continue;
      // Counting sort by child (bit a set: above the centre in coordinate a), stable.
      std::vector<index_t> counts(std::size_t(children) + 1, 0);
      for (index_t e = job.begin; e < job.end; ++e) {
        const index_t j = order_[std::size_t(e)];
        index_t c = 0;
        for (index_t a = 0; a < dim_; ++a) c |= index_t(Y(j, a) > job.center[a]) << a;
        child_of[std::size_t(j)] = c;
        ++counts[std::size_t(c) + 1];
      }
      for (index_t c = 0; c < children; ++c) counts[std::size_t(c) + 1] += counts[std::size_t(c)];
      scratch.assign(order_.begin() + job.begin, order_.begin() + job.end);
      std::vector<index_t> fill(counts.begin(), counts.end() - 1);
      for (index_t j : scratch) order_[std::size_t(job.begin + fill[std::size_t(child_of[std::size_t(j)])]++)] = j;
      const auto first = index_t(cells_.size());
      cells_[std::size_t(job.cell)].first_child = first;
      cells_.resize(cells_.size() + std::size_t(children));
      for (index_t c = 0; c < children; ++c) {
        const index_t at = job.begin + counts[std::size_t(c)], stop = job.begin + counts[std::size_t(c) + 1];
        Eigen::RowVectorXd child_center = job.center;
        for (index_t a = 0; a < dim_; ++a) child_center[a] += ((c >> a) & 1 ? 0.25 : -0.25) * job.side;
        if (stop > at)
          work.push_back({first + c, at, stop, std::move(child_center), job.side / 2});
        else
          cells_[std::size_t(first + c)] = Cell{at, at, -1, 0, {}};
      }
    }
  }

  index_t dim_;
  std::vector<index_t> order_;
  std::vector<double> points_;
  std::vector<Cell> cells_;
};

/// The Barnes-Hut repulsion (van der Maaten 2014) with opening angle theta in [0, 1] (0: exact,
/// the tree only reorders the sums; 0.5 the usual trade-off), d = 1, 2 or 3. O(N log N) per call.
/// For theta > 1 / sqrt(d) a cell holding the point itself may be summarized (bhtsne alike).
inline double barnes_hut_repulsion(const Matrix<double>& Y, double dof, double theta, Matrix<double>& forces) {
  const index_t n = index_t(Y.rows()), d = index_t(Y.cols());
  const SpaceTree tree(Y);
  const TsneKernel kernel{dof};
  forces.setZero(n, d);
  std::vector<double> partial(std::size_t(n), 0.0);
  parallel_for(0, n, [&](std::int64_t i) {
    partial[std::size_t(i)] = tree.repulsion(Y.row(i).data(), index_t(i), kernel, theta, forces.row(i).data());
  });
  return ordered_sum(partial);
}

}  // namespace nldr::detail
