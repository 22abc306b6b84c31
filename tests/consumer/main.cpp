// A downstream program built against the installed package: the README's example, checked, with
// UMFPACK's LU of I - W when the package offers nldr::suitesparse.
#include <nldr/nldr.hpp>

#include <cstdio>

int main() {
  const auto data = nldr::datasets::generate<double>("s-curve", {.n = 800, .seed = 1});
  const auto graph = nldr::KNearest{.k = 10}(data.points);
  const nldr::BottomEigenOptions solver{.factorization = nldr::have_suitesparse() ? nldr::Factorization::lu
                                                                                     : nldr::Factorization::simplicial};
  const auto embedding = nldr::LocallyLinearEmbedding{{.dim = 2, .eigen = solver}}.fit(data.points, graph);
  const double t = nldr::metrics::trustworthiness(data.points, embedding.coordinates, 10);
  std::printf("consumer: LLE of an S-curve (%s), trustworthiness(10) = %.3f\n", embedding.diagnostics.solver.c_str(), t);
  return t > 0.8 ? 0 : 1;  // an unrolled S-curve keeps neighborhoods; a broken install would not
}
