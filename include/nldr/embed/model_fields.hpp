// The one list of a model's fields. Every model has
//   template <class Visitor> void visit(Visitor& v);
// calling v(name, field, role) for each of its own fields, in a fixed order; visit_model adds
// Embedding's before them. Model files (registry/model_file.hpp) write and read them through it, the
// tool's JSON report and the Python package list the results through it, so a field added to a
// model reaches all three.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/iteration.hpp>
#include <nldr/embed/embedding.hpp>

namespace nldr {

/// What a field is for: a result the user reads (reported in JSON), or state that transform needs.
enum class FieldRole { result, state };

/// The fields every model has (Embedding's): coordinates are state (transform maps onto them and
/// they are written as the embedding itself), the rest results.
template <class Visitor, Real T>
void visit_embedding(Visitor& v, Embedding<T>& embedding) {
  v("coordinates", embedding.coordinates, FieldRole::state);
  v("eigenvalues", embedding.eigenvalues, FieldRole::result);
  v("times", embedding.times, FieldRole::result);
  v("diagnostics", embedding.diagnostics, FieldRole::result);
}

/// Every field of `model`: Embedding's, then the model's own (its visit), the order of model files.
template <class Visitor, class Model>
void visit_model(Visitor& v, Model& model) {
  visit_embedding(v, model);
  model.visit(v);
}

/// The fields of an iterative fit's OptimizerDiagnostics (t-SNE, UMAP), after visit_embedding's.
template <class Visitor>
void visit_optimizer(Visitor& v, OptimizerDiagnostics& d) {
  v("optimizer.iterations", d.iterations, FieldRole::result);
  v("optimizer.status", d.status, FieldRole::result);
  v("optimizer.objective", d.objective, FieldRole::result);
  v("optimizer.objective_iterations", d.objective_iterations, FieldRole::result);
}

/// A model's state consistency check (shapes agree, counts in range), used where a model comes from
/// outside the fit (a model file): `holds` false is an invalid_argument naming "model" and `what`.
inline void require_state(bool holds, const char* what) {
  if (!holds) throw_invalid("model", "inconsistent model state: ", what);
}

/// The checks every model shares: N x d finite coordinates, and d eigenvalues or none (the stress
/// methods have none).
template <Real T>
void check_embedding_state(const Embedding<T>& embedding) {
  require_state(embedding.coordinates.cols() >= 1 && embedding.coordinates.rows() >= 1, "no coordinates");
  require_state(embedding.coordinates.allFinite(), "non-finite coordinates");
  require_state(embedding.eigenvalues.size() == 0 || embedding.eigenvalues.size() == embedding.coordinates.cols(),
                "one eigenvalue per coordinate, or none");
}

}  // namespace nldr
