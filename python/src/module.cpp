// nldr._nldr: the Python binding (docs/python.md). Generic over the registries
// (include/nldr/registry/): one fit for every method, one select for every selector, their
// metadata, the models with transform and pickling through the model bytes, the metrics, and
// nldr's exceptions as Python exceptions. The estimators are generated from the metadata in
// python/nldr/estimators.py; nothing here names a method.
#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/precomputed.hpp>
#include <nldr/metrics/metrics.hpp>
#include <nldr/neighbors/intrinsic_dimension.hpp>
#include <nldr/registry/embedders.hpp>
#include <nldr/pipeline.hpp>
#include <nldr/registry/model_file.hpp>
#include <nldr/registry/selectors.hpp>
#include <nldr/version.hpp>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>

namespace py = pybind11;

namespace {

// ----- exceptions ---------------------------------------------------------------------------------

struct PythonErrors {
  py::handle memory_limit, convergence, disconnected, io, invalid_model;
};
PythonErrors& python_errors() {
  static PythonErrors errors;
  return errors;
}

/// nldr::io_error from model bytes means the bytes are bad: a ValueError subclass, not an OSError.
struct invalid_model_bytes : nldr::error {
  using nldr::error::error;
};

void translate_exceptions() {
  try {
    throw;
  } catch (const invalid_model_bytes& e) {
    PyErr_SetString(python_errors().invalid_model.ptr(), e.what());
  } catch (const nldr::invalid_argument& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const nldr::memory_limit_exceeded& e) {
    PyErr_SetString(python_errors().memory_limit.ptr(), e.what());
  } catch (const nldr::convergence_error& e) {
    PyErr_SetString(python_errors().convergence.ptr(), e.what());
  } catch (const nldr::disconnected_graph& e) {
    PyErr_SetString(python_errors().disconnected.ptr(), e.what());
  } catch (const nldr::io_error& e) {
    PyErr_SetString(python_errors().io.ptr(), e.what());
  } catch (const nldr::error& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
}

py::handle new_exception(py::module_& m, const char* name, PyObject* base, const char* doc) {
  const std::string qualified = std::string("nldr.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
  if (type == nullptr) throw py::error_already_set();
  m.add_object(name, py::handle(type));
  return type;
}

/// Ctrl-C during a call is seen at the library's next progress report (interruptible below) or,
/// for a computation that reports none, when the call returns.
void raise_pending_signals() {
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}

/// Runs f with `threads` OpenMP threads (<= 0: the current setting), the GIL released.
template <class F>
auto without_gil(int threads, F&& f) {
  struct Restore {
    int previous = nldr::max_threads();
    ~Restore() { nldr::set_threads(previous); }
  };
  decltype(f()) result;
  {
    py::gil_scoped_release release;
    Restore restore;
    nldr::set_threads(threads);
    result = f();
  }
  raise_pending_signals();
  return result;
}

/// A progress callback that takes the GIL to ask Python for pending signals: after a Ctrl-C the
/// library stops at its next progress report (docs/tool.md, "Progress and logging") with nldr::cancelled.
/// It asks at most every 20 ms: the Lanczos solvers report after every product, and taking the GIL
/// that often is needless work in a short fit; a Ctrl-C waits at most 20 ms longer.
const nldr::ProgressCallback& python_signals() {
  static const nldr::ProgressCallback check = [](double) {
    using clock = std::chrono::steady_clock;
    static std::atomic<clock::rep> next_check{0};
    const clock::rep now = clock::now().time_since_epoch().count();
    if (now < next_check.load(std::memory_order_relaxed)) return true;
    next_check.store(now + std::chrono::duration_cast<clock::duration>(std::chrono::milliseconds(20)).count(),
                     std::memory_order_relaxed);
    py::gil_scoped_acquire gil;
    return PyErr_CheckSignals() == 0;
  };
  return check;
}

/// without_gil for a call given python_signals(): its nldr::cancelled raises the KeyboardInterrupt
/// PyErr_CheckSignals set.
template <class F>
auto interruptible(int threads, F&& f) {
  try {
    return without_gil(threads, std::forward<F>(f));
  } catch (const nldr::cancelled&) {
    throw py::error_already_set();
  }
}

// ----- arrays -------------------------------------------------------------------------------------

/// A 2-D numpy array of T as an nldr::Matrix<T> (row-major): one pass over any strided layout
/// (C or Fortran order, slices); other dtypes are converted once by numpy first.
template <nldr::Real T>
nldr::Matrix<T> to_matrix(const py::handle& object, const char* name) {
  auto array = py::array_t<T, py::array::forcecast>::ensure(object);
  if (!array) throw py::error_already_set();
  if (array.ndim() != 2)
    nldr::throw_invalid(name, name, " must be a 2-D array (samples x features), got ", array.ndim(), " dimension(s)");
  const auto rows = array.shape(0), cols = array.shape(1);
  bool positive = true;
  for (int axis = 0; axis < 2; ++axis)
    positive = positive && array.strides(axis) >= 0 && array.strides(axis) % py::ssize_t(sizeof(T)) == 0;
  if (!positive) array = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(object);
  using Strided = Eigen::Map<const nldr::Matrix<T>, 0, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>>;
  const Eigen::Index outer = positive ? array.strides(0) / py::ssize_t(sizeof(T)) : cols;
  const Eigen::Index inner = positive ? array.strides(1) / py::ssize_t(sizeof(T)) : 1;
  return Strided(array.data(), rows, cols, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(outer, inner));
}

/// Moves a matrix into a numpy array without a copy (the array owns it through a capsule).
template <nldr::Real T>
py::array_t<T> to_numpy(nldr::Matrix<T>&& matrix) {
  auto* owned = new nldr::Matrix<T>(std::move(matrix));
  py::capsule owner(owned, [](void* p) { delete static_cast<nldr::Matrix<T>*>(p); });
  return py::array_t<T>({owned->rows(), owned->cols()},
                        {py::ssize_t(sizeof(T)) * owned->cols(), py::ssize_t(sizeof(T))}, owned->data(), owner);
}

template <class V>
py::array_t<typename V::value_type> vector_to_numpy(V&& vector) {
  using E = typename V::value_type;
  auto* owned = new V(std::move(vector));
  py::capsule owner(owned, [](void* p) { delete static_cast<V*>(p); });
  return py::array_t<E>({py::ssize_t(owned->size())}, {py::ssize_t(sizeof(E))}, owned->data(), owner);
}

bool wants_float(const py::handle& X) {
  return py::isinstance<py::array>(X) && py::reinterpret_borrow<py::array>(X).dtype().is(py::dtype::of<float>());
}

// ----- models -------------------------------------------------------------------------------------

/// A fitted model of scalar float or double (the dtype of the data it was fit on).
class Model {
 public:
  Model() = default;
  template <nldr::Real T>
  explicit Model(nldr::AnyModel<T> model) : model_(std::move(model)) {}

  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit(std::forward<F>(f), model_);
  }

  std::string method() const {
    return visit([](const auto& m) { return m.method(); });
  }
  py::dtype dtype() const {
    return std::holds_alternative<nldr::AnyModel<float>>(model_) ? py::dtype::of<float>() : py::dtype::of<double>();
  }
  py::array coordinates() const {
    return visit([](const auto& m) -> py::array { return to_numpy(nldr::Matrix<typename std::decay_t<decltype(
                                                                      m.coordinates())>::Scalar>(m.coordinates())); });
  }
  py::array transform(const py::handle& X_new, int threads) const {
    return visit([&](const auto& m) -> py::array {
      using T = typename std::decay_t<decltype(m.coordinates())>::Scalar;
      const nldr::Matrix<T> X = to_matrix<T>(X_new, "X_new");
      return to_numpy(without_gil(threads, [&] { return m.transform(X); }));
    });
  }
  bool transform_takes_distances() const {
    return visit([](const auto& m) { return m.transform_takes_distances(); });
  }
  py::dict parameters() const {
    py::dict out;
    visit([&](const auto& m) {
      for (const auto& [name, value] : m.parameters()) out[py::str(name)] = value;
    });
    return out;
  }
  py::dict results() const {
    py::dict out;
    visit([&](const auto& m) {
      for (const auto& [name, value] : m.results())
        out[py::str(name)] = std::visit(
            [](const auto& v) -> py::object {
              if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::vector<double>>)
                return vector_to_numpy(std::vector<double>(v));
              else
                return py::cast(v);
            },
            value);
    });
    return out;
  }
  py::bytes to_bytes() const {
    return visit([](const auto& m) { return py::bytes(nldr::model_bytes(m)); });
  }
  static Model from_bytes(const py::bytes& bytes) {
    const std::string_view view(bytes);
    try {
      // Byte 12 of a model file is sizeof(T) (registry/model_file.hpp): try the type it names.
      if (view.size() > 12 && std::uint8_t(view[12]) == sizeof(float)) return Model(nldr::model_from_bytes<float>(view));
      return Model(nldr::model_from_bytes<double>(view));
    } catch (const nldr::io_error& e) {
      throw invalid_model_bytes(e.what());
    }
  }

 private:
  std::variant<nldr::AnyModel<double>, nldr::AnyModel<float>> model_;
};

nldr::ParameterValues parameter_values(const py::dict& given) {
  nldr::ParameterValues values;
  for (const auto& [name, value] : given) {
    std::string text;
    if (py::isinstance<py::bool_>(value))
      text = value.cast<bool>() ? "true" : "false";
    else if (py::isinstance<py::float_>(value))
      text = py::repr(value).cast<std::string>();  // shortest text that round-trips
    else
      text = py::str(value).cast<std::string>();
    values[py::str(name).cast<std::string>()] = text;
  }
  return values;
}

/// A graph from CSR arrays (scipy.sparse.csr_matrix's indptr, indices, data) for n points.
template <nldr::Real T>
nldr::NeighborGraph<T> graph_from_csr(nldr::index_t n, const py::handle& indptr, const py::handle& indices,
                                      const py::handle& data) {
  const auto offsets = py::array_t<nldr::offset_t, py::array::c_style | py::array::forcecast>::ensure(indptr);
  const auto columns = py::array_t<nldr::index_t, py::array::c_style | py::array::forcecast>::ensure(indices);
  const auto lengths = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(data);
  if (!offsets || !columns || !lengths) throw py::error_already_set();
  return nldr::NeighborGraph<T>::from_csr(
      n, std::vector<nldr::offset_t>(offsets.data(), offsets.data() + offsets.size()),
      std::vector<nldr::index_t>(columns.data(), columns.data() + columns.size()),
      std::vector<T>(lengths.data(), lengths.data() + lengths.size()));
}

/// What a fit was given besides the method and its parameters (the keywords of _nldr.fit).
struct FitArguments {
  py::object X, graph, distances;
  nldr::ParameterValues values;
  int threads = 0;
  std::string selector;                   ///< selects the graph of X when no graph is given ("": knn)
  nldr::ParameterValues selector_values;
  bool join = false;                      ///< join a disconnected graph's components, else refuse it
  py::object initial;                     ///< N x d starting coordinates (init "given"), or None
  py::object on_iteration;                ///< callable(iteration, phase, objective, embedding) -> stop?, or None
  py::object labels;                      ///< one integer label per point (-1: unknown) for a supervised fit, or None
};

/// The library's iteration observer calling a Python callable with the GIL taken: it is told
/// (iteration, phase, objective or None, embedding as a float64 array) and returns True to stop
/// the fit (openTSNE's convention; the library's callback returns false to stop).
nldr::IterationCallback python_iteration_callback(const py::object& callable) {
  if (callable.is_none()) return {};
  return [callable](const nldr::IterationReport& report) {
    py::gil_scoped_acquire gil;
    const py::object stop = callable(report.iteration, std::string(report.phase),
                                     report.objective ? py::cast(*report.objective) : py::none(),
                                     to_numpy(report.coordinates()));
    return !stop.cast<bool>();
  };
}

/// How a graph was searched (SelectionReport::search, estimated_recall) as a dict for Python.
py::dict search_summary(const nldr::SelectionReport& report) {
  py::dict summary;
  summary["search"] = report.search;
  summary["estimated_recall"] = report.estimated_recall ? py::cast(*report.estimated_recall) : py::none();
  return summary;
}

/// nldr::fit_pipeline with the GIL released, as `nldr embed` runs it: the graph never crosses into
/// Python and back.
template <nldr::Real T>
py::tuple fit_typed(const nldr::EmbedderInfo& method, const FitArguments& a) {
  std::optional<nldr::Matrix<T>> points, dissimilarities;
  std::optional<nldr::NeighborGraph<T>> given_graph;
  nldr::PipelineInput<T> input;
  if (!a.X.is_none()) input.points = &points.emplace(to_matrix<T>(a.X, "X"));
  if (!a.distances.is_none()) input.distances = &dissimilarities.emplace(to_matrix<T>(a.distances, "distances"));
  if (!a.graph.is_none()) {
    const auto csr = a.graph.cast<py::tuple>();
    input.graph = &given_graph.emplace(graph_from_csr<T>(csr[0].cast<nldr::index_t>(), csr[1], csr[2], csr[3]));
  }
  nldr::PipelineOptions options;
  options.method = std::string(method.name);
  options.method_parameters = a.values;
  options.selector = a.selector;
  options.selector_parameters = a.selector_values;
  options.disconnected = a.join ? nldr::Disconnected::join : nldr::Disconnected::error;
  options.progress = [](const std::string&) { return python_signals(); };
  options.on_iteration = python_iteration_callback(a.on_iteration);
  std::optional<nldr::Matrix<T>> initial;
  if (!a.initial.is_none()) input.initial = &initial.emplace(to_matrix<T>(a.initial, "init"));
  std::optional<std::vector<nldr::index_t>> labels;
  if (!a.labels.is_none()) input.labels = &labels.emplace(a.labels.cast<std::vector<nldr::index_t>>());
  auto run = interruptible(a.threads, [&] { return nldr::fit_pipeline(input, options); });
  py::dict graph = run.graph && input.graph == nullptr ? search_summary(run.graph->selection()) : py::dict();
  const auto* connectivity = run.connectivity ? &*run.connectivity : nullptr;
  graph["components"] = connectivity ? connectivity->components.count() : 0;
  graph["joined_edges"] = connectivity ? connectivity->joining_edges.size() : 0;
  graph["longest_joined_edge"] =
      connectivity && !connectivity->joining_edges.empty() ? double(connectivity->joining_edges.back().distance) : 0.0;
  py::dict selector_parameters;
  for (const auto& [name, value] : run.selector_parameters) selector_parameters[py::str(name)] = value;
  graph["selector"] = run.selector;
  graph["selector_parameters"] = selector_parameters;
  return py::make_tuple(Model(std::move(run.model)), graph);
}

py::tuple fit(const std::string& method_name, const py::object& X, const py::object& graph, const py::object& distances,
              const py::dict& parameters, int threads, const std::string& selector,
              const py::dict& selector_parameters, bool join, const py::object& initial,
              const py::object& on_iteration, const py::object& labels) {
  const auto& method = nldr::find_embedder(method_name);
  const FitArguments arguments{X, graph, distances, parameter_values(parameters), threads, selector,
                               parameter_values(selector_parameters), join, initial, on_iteration, labels};
  return wants_float(X.is_none() ? distances : X) ? fit_typed<float>(method, arguments)
                                                  : fit_typed<double>(method, arguments);
}

template <nldr::Real T>
py::tuple csr_tuple(nldr::NeighborGraph<T>&& graph) {
  const auto o = graph.offsets();
  const auto i = graph.indices();
  const auto d = graph.distances();
  return py::make_tuple(graph.size(), vector_to_numpy(std::vector<nldr::offset_t>(o.begin(), o.end())),
                        vector_to_numpy(std::vector<nldr::index_t>(i.begin(), i.end())),
                        vector_to_numpy(std::vector<T>(d.begin(), d.end())), graph.is_symmetric(),
                        search_summary(graph.selection()));
}

/// Both intrinsic-dimension estimators (docs/tuning.md, "Intrinsic dimension"), as the tool's JSON names them.
py::dict intrinsic_dimension(const py::handle& X, nldr::index_t k_min, nldr::index_t k_max, double discard_fraction,
                             double confidence, nldr::index_t bootstrap, std::uint64_t seed, int threads) {
  const nldr::Matrix<double> points = to_matrix<double>(X, "X");
  const auto [mle, twonn] = interruptible(threads, [&] {
    return std::pair{nldr::mle_intrinsic_dimension(points, {.k_min = k_min, .k_max = k_max}),
                     nldr::twonn_intrinsic_dimension(points, {.discard_fraction = discard_fraction,
                                                              .confidence = confidence,
                                                              .bootstrap = bootstrap,
                                                              .seed = seed})};
  });
  py::dict per_k;
  for (std::size_t i = 0; i < mle.k.size(); ++i) per_k[py::int_(mle.k[i])] = mle.per_k[i];
  py::dict result;
  result["mle"] = mle.estimate;
  result["mle_per_k"] = per_k;
  result["twonn"] = twonn.estimate;
  result["twonn_interval"] = py::make_tuple(twonn.lower, twonn.upper);
  result["twonn_confidence"] = twonn.confidence;
  result["duplicates_removed"] = mle.duplicates_removed;
  return result;
}

py::tuple select_graph(const std::string& selector_name, const py::object& X, const py::dict& parameters, int threads) {
  const auto& selector = nldr::find_selector(selector_name);
  const auto values = parameter_values(parameters);
  auto run = [&]<nldr::Real T>(T) {
    const nldr::Matrix<T> points = to_matrix<T>(X, "X");
    return csr_tuple(interruptible(threads, [&] { return selector.select<T>(points, values, python_signals()); }));
  };
  return wants_float(X) ? run(float{}) : run(double{});
}

// ----- metadata -----------------------------------------------------------------------------------

const char* kind_name(nldr::ParameterKind kind) {
  switch (kind) {
    case nldr::ParameterKind::integer: return "integer";
    case nldr::ParameterKind::real: return "real";
    case nldr::ParameterKind::choice: return "choice";
    case nldr::ParameterKind::flag: return "flag";
  }
  return "real";
}

py::list parameter_specs(std::span<const nldr::ParameterSpec> specs) {
  py::list out;
  for (const auto& spec : specs) {
    py::dict entry;
    entry["name"] = std::string(spec.name);
    entry["kind"] = kind_name(spec.kind);
    entry["default"] = std::string(spec.default_value);
    entry["min"] = spec.min;
    entry["max"] = spec.max;
    py::list choices;
    for (std::size_t start = 0; !spec.choices.empty() && start <= spec.choices.size();) {
      const std::size_t bar = std::min(spec.choices.find('|', start), spec.choices.size());
      choices.append(std::string(spec.choices.substr(start, bar - start)));
      start = bar + 1;
    }
    entry["choices"] = choices;
    entry["help"] = std::string(spec.help);
    out.append(entry);
  }
  return out;
}

py::list embedder_metadata() {
  py::list out;
  for (const auto& method : nldr::embedders()) {
    py::dict entry;
    entry["name"] = std::string(method.name);
    py::list aliases, inputs;
    for (const auto alias : method.aliases) aliases.append(std::string(alias));
    if (method.accepts(nldr::needs_graph)) inputs.append("graph");
    if (method.accepts(nldr::from_points)) inputs.append("points");
    if (method.accepts(nldr::from_distances)) inputs.append("distances");
    entry["aliases"] = aliases;
    entry["inputs"] = inputs;
    entry["summary"] = std::string(method.summary);
    entry["parameters"] = parameter_specs(method.parameters);
    entry["iterative"] = method.iterative;
    entry["default_neighbors"] = method.default_neighbors != nullptr;
    out.append(entry);
  }
  return out;
}

py::list selector_metadata() {
  py::list out;
  for (const auto& selector : nldr::selectors()) {
    py::dict entry;
    entry["name"] = std::string(selector.name);
    entry["summary"] = std::string(selector.summary);
    entry["prunes"] = selector.prunes;
    entry["parameters"] = parameter_specs(selector.parameters);
    out.append(entry);
  }
  return out;
}

// ----- metrics ------------------------------------------------------------------------------------
// Metrics run in double (the embedding is converted once): one instantiation per measure, and
// X either points or, with precomputed = True, an N x N distance matrix (as scikit-learn's
// trustworthiness(metric="precomputed")).

template <class F>
auto with_metric_inputs(const py::handle& X, const py::handle& Y, bool precomputed, int threads, F&& f) {
  const nldr::Matrix<double> x = to_matrix<double>(X, "X");
  const nldr::Matrix<double> y = to_matrix<double>(Y, "Y");
  return interruptible(threads, [&] { return precomputed ? f(nldr::precomputed(x), y) : f(x, y); });
}

py::dict quality_report(const py::handle& X, const py::handle& Y, nldr::index_t k, bool precomputed,
                        bool curve, nldr::index_t k_max, const py::object& labels, std::uint64_t seed, int threads,
                        std::uint64_t spearman_max_pairs, std::uint64_t distance_max_pairs, nldr::index_t geodesic_k) {
  const nldr::metrics::QualityOptions options{.k = k,
                                              .curve = curve,
                                              .k_max = k_max,
                                              .spearman_max_pairs = spearman_max_pairs,
                                              .distance_max_pairs = distance_max_pairs,
                                              .geodesic_k = geodesic_k,
                                              .seed = seed,
                                              .progress = python_signals()};
  std::vector<int> label_values;
  if (!labels.is_none()) label_values = labels.cast<std::vector<int>>();
  const bool with_labels = !labels.is_none();
  const auto report = with_metric_inputs(X, Y, precomputed, threads, [&](const auto& x, const auto& y) {
    return with_labels ? nldr::metrics::quality_report(x, y, options, nullptr, std::span<const int>(label_values))
                       : nldr::metrics::quality_report(x, y, options);
  });
  py::dict out;  // the tool's --json keys (QualityReport::visit)
  report.visit([&out]<class Value>(const char* name, const Value& value) {
    if constexpr (std::is_same_v<Value, std::optional<double>>)
      out[name] = value ? py::object(py::float_(*value)) : py::none();
    else if constexpr (std::is_same_v<Value, std::vector<double>>)
      out[name] = vector_to_numpy(std::vector<double>(value));
    else
      out[name] = value;
  });
  return out;
}

}  // namespace

PYBIND11_MODULE(_nldr, m) {
  m.doc() = "nldr's C++ core: the method and selector registries, models, metrics (see the nldr package)";
  m.attr("__version__") = NLDR_VERSION_STRING;

  auto& errors = python_errors();
  errors.memory_limit = new_exception(m, "MemoryLimitExceeded", PyExc_MemoryError,
                                      "A request would need more memory than nldr's configured limit.");
  errors.convergence = new_exception(m, "ConvergenceError", PyExc_RuntimeError,
                                     "An iterative solver (an eigensolver) did not converge; the message says what to try.");
  errors.disconnected = new_exception(m, "DisconnectedGraphError", PyExc_RuntimeError,
                                      "The neighbor graph is not connected where the method needs it to be.");
  errors.io = new_exception(m, "NldrIOError", PyExc_OSError, "Reading or writing a file failed.");
  errors.invalid_model = new_exception(m, "InvalidModelError", PyExc_ValueError,
                                       "Bytes that are not a valid nldr model (pickle or model file).");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const nldr::error&) {
      translate_exceptions();
    }
  });

  py::class_<Model>(m, "Model", "A fitted model of any registered method (float32 or float64).")
      .def_property_readonly("method", &Model::method, "the registry name of the method")
      .def_property_readonly("dtype", &Model::dtype, "float32 or float64: the dtype of the data it was fit on")
      .def_property_readonly("coordinates", &Model::coordinates, "the N x d embedding of the training points")
      .def_property_readonly("parameters", &Model::parameters, "every parameter as text, defaults included")
      .def_property_readonly("results", &Model::results, "the method's results by name (numbers, texts, arrays)")
      .def_property_readonly("transform_takes_distances", &Model::transform_takes_distances,
                             "True when transform takes distances to the training points (fit on distances)")
      .def("transform", &Model::transform, py::arg("X_new"), py::arg("threads") = 0,
           "Places new points (P x D, or P x N distances for a model fit on distances).")
      .def("to_bytes", &Model::to_bytes, "the model file's bytes (docs/models.md)")
      .def_static("from_bytes", &Model::from_bytes, py::arg("data"), "a model from model-file bytes")
      .def(py::pickle([](const Model& model) { return model.to_bytes(); },
                      [](const py::bytes& bytes) { return Model::from_bytes(bytes); }));

  m.def("fit", &fit, py::arg("method"), py::arg("X") = py::none(), py::arg("graph") = py::none(),
        py::arg("distances") = py::none(), py::arg("parameters") = py::dict(), py::arg("threads") = 0,
        py::arg("selector") = "", py::arg("selector_parameters") = py::dict(), py::arg("join") = false,
        py::arg("initial") = py::none(), py::arg("on_iteration") = py::none(), py::arg("labels") = py::none(),
        "Fits a registry method through nldr::fit_pipeline (docs/pipeline.md): (model, graph) with graph a dict: "
        "search and estimated_recall (a selected graph), components (before joining; 0 without a graph), "
        "joined_edges, longest_joined_edge, selector and selector_parameters (as resolved). X: N x D points; "
        "graph: (n, indptr, indices, distances) CSR (its distances used as given), else the graph of X by "
        "`selector` (default knn) with `selector_parameters`; join: join a disconnected graph's components by "
        "their shortest connecting edges, else refuse it; distances: N x N. float32 data fits in float, "
        "anything else in double; labels: one integer per point (-1: unknown) for a supervised fit (umap).");
  m.def("select", &select_graph, py::arg("selector"), py::arg("X"), py::arg("parameters") = py::dict(),
        py::arg("threads") = 0,
        "A neighbor graph as (n, indptr, indices, distances, symmetric, {search, estimated_recall}).");
  m.def("intrinsic_dimension", &intrinsic_dimension, py::arg("X"), py::arg("k_min"), py::arg("k_max"),
        py::arg("discard_fraction"), py::arg("confidence"), py::arg("bootstrap"), py::arg("seed"), py::arg("threads"));
  m.def("embedders", &embedder_metadata, "every registered method with its parameters");
  m.def("selectors", &selector_metadata, "every registered selector with its parameters");
  m.def("canonical_method", [](const std::string& name) { return std::string(nldr::find_embedder(name).name); },
        py::arg("name"));
  m.def("set_threads", &nldr::set_threads, py::arg("threads"), "threads of later calls (<= 0: unchanged)");
  m.def("max_threads", &nldr::max_threads);

  namespace nm = nldr::metrics;
  m.def("trustworthiness", [](const py::handle& X, const py::handle& Y, nldr::index_t k, bool pre, int threads) {
    return with_metric_inputs(X, Y, pre, threads, [&](const auto& x, const auto& y) { return nm::trustworthiness(x, y, k); });
  }, py::arg("X"), py::arg("Y"), py::arg("k"), py::arg("precomputed") = false, py::arg("threads") = 0);
  m.def("continuity", [](const py::handle& X, const py::handle& Y, nldr::index_t k, bool pre, int threads) {
    return with_metric_inputs(X, Y, pre, threads, [&](const auto& x, const auto& y) { return nm::continuity(x, y, k); });
  }, py::arg("X"), py::arg("Y"), py::arg("k"), py::arg("precomputed") = false, py::arg("threads") = 0);
  m.def("rnx_curve", [](const py::handle& X, const py::handle& Y, bool pre, int threads) {
    return vector_to_numpy(
        with_metric_inputs(X, Y, pre, threads, [&](const auto& x, const auto& y) { return nm::rnx_curve(x, y); }));
  }, py::arg("X"), py::arg("Y"), py::arg("precomputed") = false, py::arg("threads") = 0);
  m.def("mrre", [](const py::handle& X, const py::handle& Y, nldr::index_t k, bool pre, int threads) {
    const auto e = with_metric_inputs(X, Y, pre, threads, [&](const auto& x, const auto& y) { return nm::mrre(x, y, k); });
    return py::make_tuple(e.x, e.y);
  }, py::arg("X"), py::arg("Y"), py::arg("k"), py::arg("precomputed") = false, py::arg("threads") = 0);
  m.def("konig", [](const py::handle& X, const py::handle& Y, nldr::index_t k1, nldr::index_t k2, bool pre, int threads) {
    return with_metric_inputs(X, Y, pre, threads, [&](const auto& x, const auto& y) { return nm::konig(x, y, k1, k2); });
  }, py::arg("X"), py::arg("Y"), py::arg("k1"), py::arg("k2"), py::arg("precomputed") = false, py::arg("threads") = 0);
  m.def("spearman_rho", [](const py::handle& X, const py::handle& Y, std::uint64_t max_pairs, std::uint64_t seed,
                           bool pre, int threads) {
    return with_metric_inputs(X, Y, pre, threads, [&](const auto& x, const auto& y) {
      return nm::spearman_rho(x, y, {.max_pairs = max_pairs, .seed = seed}).rho;
    });
  }, py::arg("X"), py::arg("Y"), py::arg("max_pairs"), py::arg("seed"), py::arg("precomputed") = false,
        py::arg("threads") = 0);
  m.def("kruskal_stress", [](const py::handle& X, const py::handle& Y, std::uint64_t max_pairs, std::uint64_t seed,
                             bool pre, int threads) {
    const auto s = with_metric_inputs(X, Y, pre, threads, [&](const auto& x, const auto& y) {
      return nm::kruskal_stress(x, y, {.max_pairs = max_pairs, .seed = seed});
    });
    return py::make_tuple(s.plain, s.scaled);
  }, py::arg("X"), py::arg("Y"), py::arg("max_pairs"), py::arg("seed"), py::arg("precomputed") = false,
        py::arg("threads") = 0);
  m.def("residual_variance", [](const py::handle& X, const py::handle& Y, std::uint64_t max_pairs, std::uint64_t seed,
                                bool pre, int threads) {
    return with_metric_inputs(X, Y, pre, threads, [&](const auto& x, const auto& y) {
      return nm::residual_variance(x, y, {.max_pairs = max_pairs, .seed = seed}).value;
    });
  }, py::arg("X"), py::arg("Y"), py::arg("max_pairs"), py::arg("seed"), py::arg("precomputed") = false,
        py::arg("threads") = 0);
  m.def("quality_report", &quality_report, py::arg("X"), py::arg("Y"), py::arg("k"), py::arg("precomputed") = false,
        py::arg("curve") = false, py::arg("k_max") = 0, py::arg("labels") = py::none(), py::arg("seed") = 0,
        py::arg("threads") = 0, py::arg("spearman_max_pairs") = nldr::metrics::QualityOptions{}.spearman_max_pairs,
        py::arg("distance_max_pairs") = nldr::metrics::QualityOptions{}.distance_max_pairs,
        py::arg("geodesic_k") = 0);
}
