// AnyModel<T>: a fitted model of any registered method behind one type, as the tool, the model
// files and the Python package need it (docs/models.md). It keeps the method's name and the
// parameters it was fit with; typed access to the model itself is get<M>().
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>
#include <nldr/embed/embedding.hpp>
#include <nldr/embed/model_fields.hpp>
#include <nldr/registry/model_format.hpp>
#include <nldr/registry/parameters.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace nldr {

/// A method-specific result as reported: a number, a count or flag, a text, or a short list.
using ResultValue = std::variant<double, std::int64_t, bool, std::string, std::vector<double>>;

namespace detail {

/// Collects a model's results (FieldRole::result) as (name, value) pairs; diagnostics expand into
/// "diagnostics.solver", ...; stage times and matrices are left to the caller (they are large or
/// reported elsewhere).
class ResultCollector {
 public:
  std::vector<std::pair<std::string, ResultValue>> results;

  template <class Field>
  void operator()(const char* name, Field& value, FieldRole role) {
    if (role != FieldRole::result) return;
    if constexpr (std::is_same_v<Field, double> || std::is_same_v<Field, bool> || std::is_same_v<Field, std::string>)
      results.emplace_back(name, value);
    else if constexpr (std::is_integral_v<Field>)
      results.emplace_back(name, std::int64_t(value));
    else if constexpr (requires { status_name(value); })  // SolverStatus, OptimizerStatus
      results.emplace_back(name, std::string(status_name(value)));
    else if constexpr (std::is_same_v<Field, std::vector<index_t>> || std::is_same_v<Field, std::vector<double>>)
      results.emplace_back(name, std::vector<double>(value.begin(), value.end()));
    else if constexpr (std::is_enum_v<Field>)
      results.emplace_back(name, std::int64_t(value));
    else if constexpr (std::is_same_v<Field, EigenDiagnostics>) {
      const std::string prefix = std::string(name) + ".";
      results.emplace_back(prefix + "solver", value.solver);
      results.emplace_back(prefix + "status", std::string(status_name(value.status)));
      results.emplace_back(prefix + "iterations", std::int64_t(value.iterations));
      results.emplace_back(prefix + "operations", std::int64_t(value.operations));
      if (value.relative_gap) results.emplace_back(prefix + "relative_gap", *value.relative_gap);
    } else if constexpr (requires { value.cols(); value.data(); }) {
      if (value.cols() == 1 || value.rows() == 1)  // vectors: eigenvalues, explained variance, ...
        results.emplace_back(name, std::vector<double>(value.data(), value.data() + value.size()));
    }
  }
};

}  // namespace detail

/// A linear map applied to the points before the method, e.g. the tool's --pca: x becomes
/// (x - mean) components^T. A model keeps it so that transform() maps new points the same way
/// (docs/models.md, "PCA before the method").
template <Real T>
struct InputProjection {
  Vector<T> mean;        ///< D: subtracted first
  Matrix<T> components;  ///< P x D: one axis per row

  /// P x D points of the original D as the method saw them. \throws nldr::invalid_argument naming
  /// "X_new" for another D.
  Matrix<T> apply(const Matrix<T>& X_new) const {
    if (X_new.cols() != components.cols())
      throw_invalid("X_new", "X_new has D = ", X_new.cols(), " columns but the model was fit on D = ", components.cols(),
                    " (projected to ", components.rows(), " by PCA before the method): supply points with the "
                    "training data's columns");
    return (X_new.rowwise() - mean.transpose()) * components.transpose();
  }

  template <class Visitor>
  void visit(Visitor& v) {
    v("input_projection.mean", mean, FieldRole::state);
    v("input_projection.components", components, FieldRole::state);
  }
};

template <Real T>
class AnyModel {
 public:
  AnyModel() = default;

  /// Wraps a fitted model M (an Embedding<T> with visit() and transform()) of registry method `method`.
  template <class M>
  AnyModel(std::string method, ParameterValues parameters, M model)
      : method_(std::move(method)),
        parameters_(std::move(parameters)),
        impl_(std::make_shared<Holder<M>>(std::move(model))) {}

  bool empty() const { return !impl_; }
  const std::string& method() const { return method_; }
  /// The parameters the model was fit with, defaults included.
  const ParameterValues& parameters() const { return parameters_; }
  const Embedding<T>& embedding() const { return impl().embedding(); }
  const Matrix<T>& coordinates() const { return embedding().coordinates; }

  /// Places new points: P x D points, or, for a model fit on precomputed distances, the P x N
  /// distances of the new points to the training points (transform_takes_distances()).
  /// With an input projection, new points have the original D and are projected first.
  Matrix<T> transform(const Matrix<T>& X_new) const {
    return projection_ ? impl().transform(projection_->apply(X_new)) : impl().transform(X_new);
  }
  bool transform_takes_distances() const { return impl().takes_distances(); }

  /// Records that the method was fit on projection.apply(X) rather than X (the tool's --pca).
  void set_input_projection(InputProjection<T> projection) { projection_ = std::move(projection); }
  const std::optional<InputProjection<T>>& input_projection() const { return projection_; }

  /// The method-specific results by name (residual_variance, explained_variance_ratio, ...).
  std::vector<std::pair<std::string, ResultValue>> results() const {
    detail::ResultCollector collector;
    impl().visit(collector);
    return collector.results;
  }

  /// The typed model, or nullptr when it is of another type.
  template <class M>
  const M* get() const {
    const auto* holder = dynamic_cast<const Holder<M>*>(impl_.get());
    return holder ? &holder->model : nullptr;
  }

  /// Appends every field to `writer` (model files).
  void write_fields(detail::ModelWriter& writer) const {
    impl().visit(writer);
    if (projection_) InputProjection<T>(*projection_).visit(writer);
  }

 private:
  struct Concept {
    virtual ~Concept() = default;
    virtual const Embedding<T>& embedding() const = 0;
    virtual Matrix<T> transform(const Matrix<T>& X_new) const = 0;
    virtual bool takes_distances() const = 0;
    // Visitors that only read (results, writer) get a copy's fields: visit() is non-const because
    // the same list also fills a model from a file.
    virtual void visit(detail::ResultCollector& collector) const = 0;
    virtual void visit(detail::ModelWriter& writer) const = 0;
  };
  template <class M>
  struct Holder final : Concept {
    explicit Holder(M m) : model(std::move(m)) {}
    const Embedding<T>& embedding() const override { return model; }
    Matrix<T> transform(const Matrix<T>& X_new) const override { return model.transform(X_new); }
    bool takes_distances() const override {
      if constexpr (requires { model.from_distances; })
        return model.from_distances;
      else
        return false;
    }
    void visit(detail::ResultCollector& collector) const override { visit_model(collector, const_cast<M&>(model)); }
    void visit(detail::ModelWriter& writer) const override { visit_model(writer, const_cast<M&>(model)); }
    M model;
  };

  const Concept& impl() const {
    if (!impl_) throw_invalid("model", "this model is empty: fit or load one first");
    return *impl_;
  }

  std::string method_;
  ParameterValues parameters_;
  std::shared_ptr<const Concept> impl_;
  std::optional<InputProjection<T>> projection_;
};

}  // namespace nldr
