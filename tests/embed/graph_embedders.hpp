// Every embedder of the registry that takes a neighbor graph, as (points, graph) -> coordinates:
// for the tests that run them all alike (hostile input, float end to end). A method added to the
// registry joins these tests without an edit here.
#pragma once

#include <nldr/registry/embedders.hpp>

#include <functional>
#include <string>
#include <vector>

namespace embed_test {

template <nldr::Real T>
struct NamedEmbedder {
  std::string name;
  std::function<nldr::Matrix<T>(const nldr::Matrix<T>&, const nldr::NeighborGraph<T>&)> fit;
};

/// Parameters the tests give a method besides dim: Landmark Isomap gets 10 landmarks and t-SNE
/// perplexity 2 (its graph needs more neighbors than the perplexity; these tests use 3 to 12), so that
/// small inputs and small graphs work too.
inline nldr::ParameterValues small_input_parameters(const nldr::EmbedderInfo& entry, nldr::index_t dim) {
  nldr::ParameterValues values{{"dim", std::to_string(dim)}};
  for (const auto& spec : entry.parameters)
    if (spec.name == "landmarks") values["landmarks"] = "10";
    else if (spec.name == "perplexity") values["perplexity"] = "2";
  return values;
}

/// As small_input_parameters, and t-SNE 400 iterations (the 250 exaggerated ones included) and UMAP
/// 100 epochs instead of 1000 and 500: for the sweeps over every method and selector whose property
/// holds exactly whatever the layout (bit-identical runs, the transform of the training points) or
/// compares two fits of the same length (float against double), where the defaults took three
/// quarters of the time (of 2 s per pass over the registry at N = 600). Not for properties of one
/// layout: with them t-SNE leaves two far-apart halves of 36 points mixed (hostile.cpp).
inline nldr::ParameterValues quick_fit_parameters(const nldr::EmbedderInfo& entry, nldr::index_t dim) {
  nldr::ParameterValues values = small_input_parameters(entry, dim);
  for (const auto& spec : entry.parameters)
    if (spec.name == "max_iterations" && entry.name == "tsne") values["max_iterations"] = "400";
    else if (spec.name == "n_epochs") values["n_epochs"] = "100";
  return values;
}

/// The graph embedders with target dimension `dim` and otherwise the `parameters` above.
template <nldr::Real T>
std::vector<NamedEmbedder<T>> graph_embedders(nldr::index_t dim,
                                              decltype(small_input_parameters)* parameters = small_input_parameters) {
  std::vector<NamedEmbedder<T>> all;
  for (const auto& entry : nldr::embedders()) {
    if (!entry.accepts(nldr::needs_graph)) continue;
    const nldr::ParameterValues values = parameters(entry, dim);
    all.push_back({std::string(entry.name), [&entry, values](const nldr::Matrix<T>& X, const nldr::NeighborGraph<T>& g) {
                     return nldr::Matrix<T>(entry.fit(nldr::FitInput<T>{.points = &X, .graph = &g}, values).coordinates());
                   }});
  }
  return all;
}

}  // namespace embed_test
