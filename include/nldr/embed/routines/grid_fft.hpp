// Real-to-complex FFTs of a regular 1-D or 2-D grid and back, the convolution engine of the
// FFT-accelerated t-SNE repulsion (embed/routines/fft_repulsion.hpp, docs/algorithms.md,
// "FFT-accelerated repulsion"). Two backends: FFTW 3 when nldr was built with it (NLDR_HAVE_FFTW,
// the target nldr::fftw), else Eigen's unsupported FFT module (kissfft, header-only), so that the
// FFT repulsion always works. Both transforms are unnormalized: inverse(forward(x)) = S^d x.
//
// FFTW plans are created once per (d, S), under one process-wide lock (FFTW's planner is not
// thread-safe), with FFTW_ESTIMATE: FFTW_MEASURE times candidate algorithms and may pick a
// different one in the next run, which changes the last bits of the result. The cache lives until
// the end of the process; executing a plan on new arrays is thread-safe.
#pragma once

#include <nldr/core/error.hpp>

#include <Eigen/Core>

#if defined(NLDR_HAVE_FFTW)
#include <fftw3.h>
#endif
#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <complex>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace nldr::detail {

/// Which FFT library the grid transforms use.
enum class FftBackend {
  automatic,  ///< FFTW when nldr was built with it, else Eigen's FFT
  fftw,       ///< FFTW 3 (an error when nldr was built without it)
  eigen,      ///< Eigen's unsupported FFT module (kissfft), always available
};

/// True when nldr was built with FFTW (NLDR_HAVE_FFTW).
constexpr bool fftw_available() {
#if defined(NLDR_HAVE_FFTW)
  return true;
#else
  return false;
#endif
}

/// A heap array aligned to 64 bytes: every buffer a plan executes on has the alignment of the
/// arrays it was planned with, as FFTW's new-array execution requires.
template <class T>
class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  explicit AlignedBuffer(Eigen::Index size) { resize(size); }
  /// Makes room for `size` values (contents undefined), reallocating only to grow.
  void resize(Eigen::Index size) {
    if (size > capacity_) {
      const std::size_t bytes = (std::size_t(size) * sizeof(T) + 63) / 64 * 64;
      data_.reset(static_cast<T*>(std::aligned_alloc(64, bytes)));
      if (!data_) throw std::bad_alloc();
      capacity_ = size;
    }
    size_ = size;
  }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  Eigen::Index size() const { return size_; }
  T& operator[](Eigen::Index i) { return data_.get()[i]; }
  const T& operator[](Eigen::Index i) const { return data_.get()[i]; }

 private:
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T, Free> data_;
  Eigen::Index size_ = 0, capacity_ = 0;
};

#if defined(NLDR_HAVE_FFTW)
/// The plans of one grid shape: the full 2-D forward transform, the pruned ones of a grid whose
/// lower half is zero (forward) or not needed (inverse): rows, then columns in place, and the
/// transform of an even grid (a DCT-I of its first quadrant, in place). In 1-D `forward`, `inverse`
/// (full) and `even` exist.
struct FftwPlans {
  fftw_plan forward = nullptr, inverse = nullptr, even = nullptr;
  fftw_plan top_rows_forward = nullptr, columns_forward = nullptr, columns_inverse = nullptr, top_rows_inverse = nullptr;
  std::vector<fftw_plan> all() const {
    return {forward, inverse, even, top_rows_forward, columns_forward, columns_inverse, top_rows_inverse};
  }
};

/// The plans of the S^d grid (d = 1, 2), created on first use and kept for the process.
inline const FftwPlans& fftw_plans(int dim, int size) {
  struct Cache {
    std::mutex mutex;
    std::map<std::pair<int, int>, FftwPlans> plans;
    ~Cache() {
      for (auto& entry : plans)
        for (fftw_plan plan : entry.second.all())
          if (plan != nullptr) fftw_destroy_plan(plan);
    }
  };
  static Cache cache;
  std::lock_guard<std::mutex> lock(cache.mutex);
  auto [it, inserted] = cache.plans.try_emplace({dim, size});
  if (inserted) {
    // Planned on scratch arrays with our alignment: FFTW_ESTIMATE reads and writes neither.
    const int half = size / 2 + 1, rows = dim == 1 ? 1 : size;
    AlignedBuffer<double> in(Eigen::Index(rows) * size);
    AlignedBuffer<std::complex<double>> out(Eigen::Index(rows) * half);
    auto* spectrum = reinterpret_cast<fftw_complex*>(out.data());
    const unsigned flags = FFTW_ESTIMATE | FFTW_DESTROY_INPUT;
    FftwPlans& plans = it->second;
    bool planned = true;
    const int quadrant = size / 2 + 1;  // DCT-I length of the even grid's first quadrant
    if (dim == 1) {
      plans.forward = fftw_plan_dft_r2c_1d(size, in.data(), spectrum, flags);
      plans.inverse = fftw_plan_dft_c2r_1d(size, spectrum, in.data(), flags);
      plans.even = fftw_plan_r2r_1d(quadrant, in.data(), in.data(), FFTW_REDFT00, flags);
      planned = plans.forward != nullptr && plans.inverse != nullptr && plans.even != nullptr;
    } else {
      const int n[1] = {size}, top = size / 2;
      plans.forward = fftw_plan_dft_r2c_2d(size, size, in.data(), spectrum, flags);
      plans.top_rows_forward = fftw_plan_many_dft_r2c(1, n, top, in.data(), nullptr, 1, size, spectrum, nullptr, 1, half, flags);
      plans.columns_forward = fftw_plan_many_dft(1, n, half, spectrum, nullptr, half, 1, spectrum, nullptr, half, 1,
                                                 FFTW_FORWARD, flags);
      plans.columns_inverse = fftw_plan_many_dft(1, n, half, spectrum, nullptr, half, 1, spectrum, nullptr, half, 1,
                                                 FFTW_BACKWARD, flags);
      plans.top_rows_inverse = fftw_plan_many_dft_c2r(1, n, top, spectrum, nullptr, 1, half, in.data(), nullptr, 1, size, flags);
      plans.even = fftw_plan_r2r_2d(quadrant, quadrant, in.data(), in.data(), FFTW_REDFT00, FFTW_REDFT00, flags);
      planned = plans.even != nullptr && plans.forward != nullptr && plans.top_rows_forward != nullptr && plans.columns_forward != nullptr &&
                plans.columns_inverse != nullptr && plans.top_rows_inverse != nullptr;
    }
    if (!planned) {
      for (fftw_plan plan : plans.all())
        if (plan != nullptr) fftw_destroy_plan(plan);
      cache.plans.erase(it);
      throw error(concat("FFTW could not plan a ", dim, "-D transform of size ", size));
    }
  }
  return it->second;
}
#endif

/// Real-to-complex transforms of an S^d grid (d = 1, 2, S even) stored row-major, the spectrum as
/// FFTW lays it out: S^(d-1) rows of S/2 + 1 coefficients, unnormalized. The convolution of a grid
/// with S/2 nodes per axis needs no more than four of them: the full forward transform; that of an
/// even grid (a kernel: x(m) = x(-m) per axis, so its spectrum is real), from its first quadrant; the
/// forward transform of a grid that is zero beyond its first S/2 rows, given as those rows only; and
/// the inverse transform of which only the first S/2 rows are kept. (In 1-D, "rows" are the single
/// row of S values, and nothing is pruned.) Every method may run concurrently with any other on
/// different arrays; the transforms overwrite their input.
class GridFft {
 public:
  GridFft(int dim, int size, FftBackend backend) : dim_(dim), size_(size) {
    if (backend == FftBackend::fftw && !fftw_available())
      throw_invalid("backend", "backend = fftw, but nldr was built without FFTW: install libfftw3-dev and "
                               "link nldr::fftw, or use backend = automatic or eigen");
    use_fftw_ = fftw_available() && backend != FftBackend::eigen;
#if defined(NLDR_HAVE_FFTW)
    if (use_fftw_) plans_ = &fftw_plans(dim, size);
#endif
  }

  /// Values of the full real grid, S^d.
  Eigen::Index real_size() const { return rows() * size_; }
  /// Values of the grid's first S/2 rows (S in 1-D).
  Eigen::Index top_size() const { return top_rows() * size_; }
  /// Coefficients of the half spectrum, S^(d-1) (S/2 + 1).
  Eigen::Index spectrum_size() const { return rows() * half(); }
  /// Values of an even grid's first quadrant, offsets 0 .. S/2 per axis: (S/2 + 1)^d.
  Eigen::Index quadrant_size() const { return dim_ == 1 ? half() : half() * half(); }
  bool uses_fftw() const { return use_fftw_; }

  /// spectrum = FFT(grid), grid of real_size() values.
  void forward(double* grid, std::complex<double>* spectrum) const {
#if defined(NLDR_HAVE_FFTW)
    if (use_fftw_) return fftw_execute_dft_r2c(plans_->forward, grid, fftw(spectrum));
#endif
    eigen_forward(grid, spectrum, rows());
  }

  /// spectrum = FFT of the even grid whose first quadrant (quadrant_size() values, row-major, offsets
  /// 0 .. S/2 per axis) is `quadrant`: real, spectrum_size() values in the half spectrum's layout. The
  /// spectrum of an even sequence of length S is the DCT-I of its first S/2 + 1 values (FFTW's
  /// REDFT00: Frigo & Johnson 2005), a quarter of the full transform's work in 2-D; coefficient
  /// (k_x, k_y) is that of (S - k_x, k_y), so the quadrant's spectrum fills every row.
  void forward_even(double* quadrant, double* spectrum) const {
    const Eigen::Index q = half();
    // Row r of the full grid (or spectrum) mirrors the quadrant's row min(r, S - r).
    auto mirrored_row = [&](Eigen::Index r) { return quadrant + (dim_ == 1 ? 0 : std::min(r, size_ - r) * q); };
#if defined(NLDR_HAVE_FFTW)
    if (use_fftw_) {
      fftw_execute_r2r(plans_->even, quadrant, quadrant);
      for (Eigen::Index r = 0; r < rows(); ++r) std::copy(mirrored_row(r), mirrored_row(r) + q, spectrum + r * q);
      return;
    }
#endif
    // Eigen's FFT has no DCT: the full grid, mirrored from the quadrant, and its real spectrum.
    AlignedBuffer<double> grid(real_size());
    AlignedBuffer<std::complex<double>> full(spectrum_size());
    for (Eigen::Index r = 0; r < rows(); ++r)
      for (Eigen::Index c = 0; c < size_; ++c) grid[r * size_ + c] = mirrored_row(r)[std::min(c, size_ - c)];
    forward(grid.data(), full.data());
    for (Eigen::Index k = 0; k < spectrum_size(); ++k) spectrum[k] = full[k].real();
  }

  /// spectrum = FFT of the grid whose first top_size() values are `top` and the rest zero.
  void forward_top(double* top, std::complex<double>* spectrum) const {
#if defined(NLDR_HAVE_FFTW)
    if (use_fftw_ && dim_ == 1) return fftw_execute_dft_r2c(plans_->forward, top, fftw(spectrum));
    if (use_fftw_) {
      std::fill(spectrum + top_rows() * half(), spectrum + spectrum_size(), std::complex<double>(0));
      fftw_execute_dft_r2c(plans_->top_rows_forward, top, fftw(spectrum));
      return fftw_execute_dft(plans_->columns_forward, fftw(spectrum), fftw(spectrum));
    }
#endif
    eigen_forward(top, spectrum, top_rows());
  }

  /// top = the first top_size() values of the inverse FFT of `spectrum` (unnormalized).
  void inverse_top(std::complex<double>* spectrum, double* top) const {
#if defined(NLDR_HAVE_FFTW)
    if (use_fftw_ && dim_ == 1) return fftw_execute_dft_c2r(plans_->inverse, fftw(spectrum), top);
    if (use_fftw_) {
      fftw_execute_dft(plans_->columns_inverse, fftw(spectrum), fftw(spectrum));
      return fftw_execute_dft_c2r(plans_->top_rows_inverse, fftw(spectrum), top);
    }
#endif
    Eigen::FFT<double> fft;
    fft.SetFlag(Eigen::FFT<double>::HalfSpectrum);
    fft.SetFlag(Eigen::FFT<double>::Unscaled);
    if (dim_ == 2) transform_columns(fft, spectrum, true);
    for (Eigen::Index r = 0; r < top_rows(); ++r) fft.inv(top + r * size_, spectrum + r * half(), size_);
  }

 private:
  Eigen::Index rows() const { return dim_ == 1 ? 1 : size_; }
  Eigen::Index top_rows() const { return dim_ == 1 ? 1 : size_ / 2; }
  Eigen::Index half() const { return size_ / 2 + 1; }
#if defined(NLDR_HAVE_FFTW)
  static fftw_complex* fftw(std::complex<double>* z) { return reinterpret_cast<fftw_complex*>(z); }
#endif

  // Eigen's FFT: the real transforms of the first `nonzero_rows` rows, zero rows below, then the columns.
  void eigen_forward(const double* grid, std::complex<double>* spectrum, Eigen::Index nonzero_rows) const {
    Eigen::FFT<double> fft;
    fft.SetFlag(Eigen::FFT<double>::HalfSpectrum);
    for (Eigen::Index r = 0; r < nonzero_rows; ++r) fft.fwd(spectrum + r * half(), grid + r * size_, size_);
    std::fill(spectrum + nonzero_rows * half(), spectrum + spectrum_size(), std::complex<double>(0));
    if (dim_ == 2) transform_columns(fft, spectrum, false);
  }

  // The complex transforms along the first axis of a 2-D half spectrum, one column at a time.
  void transform_columns(Eigen::FFT<double>& fft, std::complex<double>* spectrum, bool inverse) const {
    std::vector<std::complex<double>> column(size_), transformed(size_);
    for (Eigen::Index c = 0; c < half(); ++c) {
      for (Eigen::Index r = 0; r < size_; ++r) column[r] = spectrum[r * half() + c];
      if (inverse)
        fft.inv(transformed.data(), column.data(), size_);
      else
        fft.fwd(transformed.data(), column.data(), size_);
      for (Eigen::Index r = 0; r < size_; ++r) spectrum[r * half() + c] = transformed[r];
    }
  }

  int dim_;
  int size_;
  bool use_fftw_ = false;
#if defined(NLDR_HAVE_FFTW)
  const FftwPlans* plans_ = nullptr;
#endif
};

}  // namespace nldr::detail
