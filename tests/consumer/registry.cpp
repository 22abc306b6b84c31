// A downstream program that calls the registries by name and links the installed, precompiled
// nldr::registry (docs/building.md, "Compile time of the registries") instead of instantiating every
// method itself.
#include <nldr/datasets/registry.hpp>
#include <nldr/metrics/trustworthiness.hpp>
#include <nldr/pipeline.hpp>

#include <cstdio>

int main() {
  const auto data = nldr::datasets::generate<double>("swiss-roll", {.n = 1000, .seed = 2});
  const nldr::PipelineOptions options{.method = "isomap", .selector = "knn", .selector_parameters = {{"k", "10"}}};
  const auto run = nldr::fit_pipeline(nldr::PipelineInput<double>{.points = &data.points}, options);
  const double t = nldr::metrics::trustworthiness(data.points, run.model.coordinates(), 10);
  std::printf("consumer_registry: %zu methods, %zu selectors; Isomap of a Swiss roll, trustworthiness(10) = %.3f\n",
              nldr::embedders().size(), nldr::selectors().size(), t);
  return t > 0.9 ? 0 : 1;  // an unrolled Swiss roll keeps neighborhoods; a broken library would not
}
