// Shared check of a data set's exact manifold distances against 3-D chords of close pairs.
#pragma once

#include "catch.hpp"

#include <nldr/datasets/dataset.hpp>

#include <cmath>

namespace dataset_test {

/// For every pair with chord < max_chord, requires the manifold distance to exceed the chord by a
/// relative deficit in (-1e-4, 5e-3) (a short arc is barely longer than its chord). Returns the
/// number of such pairs, so the caller can require enough of them.
template <class T>
int check_close_pair_deficits(const nldr::datasets::Dataset<T>& data, double max_chord) {
  const auto dm = data.manifold_distances();
  const nldr::Matrix<double> x = data.points.template cast<double>();
  int close = 0;
  for (int i = 0; i < data.size(); ++i)
    for (int j = i + 1; j < data.size(); ++j) {
      const double chord = std::hypot(x(i, 0) - x(j, 0), x(i, 1) - x(j, 1), x(i, 2) - x(j, 2));
      if (chord >= max_chord) continue;
      ++close;
      const double deficit = (double(dm(i, j)) - chord) / chord;
      if (!(deficit < 5e-3 && deficit > -1e-4)) FAIL_CHECK("pair " << i << ", " << j << ": deficit " << deficit);
    }
  return close;
}

}  // namespace dataset_test
