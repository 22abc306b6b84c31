"""scikit-learn style estimators, generated from nldr's method registry.

Every registry method (``nldr.methods()``) becomes a class here; no estimator is written by hand.
A class's ``__init__`` is generated source with one explicit keyword per parameter, so that
scikit-learn's ``get_params`` (which reads the signature) works. Parameter mapping
(docs/python.md):

* the registry's ``dim`` is ``n_components``, ``seed`` is ``random_state``;
* graph methods add ``n_neighbors`` (the selector's ``k``), ``neighbors`` (a selector name from
  ``nldr.neighbors.selectors()``), ``neighbors_params`` (the selector's other options as a dict) and
  ``disconnected`` ('join': a graph of several components is joined by its shortest connecting
  edges, with a warning, as scikit-learn's Isomap does; 'error': DisconnectedGraphError);
* every class adds ``n_jobs`` (threads; None keeps nldr's current setting);
* every other registry parameter keeps its registry name (``reg``, ``heat_t``, ``landmarks``, ...).

Output features are named as scikit-learn's manifold estimators name them, the lowercased class
name and the component index (``isomap0``, ``isomap1``; ``get_feature_names_out``), so that
``set_output(transform="pandas")`` and ``ColumnTransformer`` work.

A precomputed neighbor graph is given to ``fit(X, graph=G)``: G a scipy.sparse matrix of edge
lengths (N x N, e.g. ``nldr.neighbors.knn(X, k=10)`` or ``sklearn.neighbors.kneighbors_graph(X, 10,
mode="distance")``); its lengths are used as given.
"""
import keyword
import re
import warnings

import numpy as np

from . import _nldr
from ._validation import HAVE_SKLEARN, _Base, _Mixin, as_float_array, check_is_fitted
from .neighbors import _graph_arrays, _warn_if_approximate

# Registry parameter -> keyword of the estimators (scikit-learn's spelling).
_RENAMED = {"dim": "n_components", "seed": "random_state"}
# Per method: registry parameter -> (keyword, {keyword value: registry value}), where scikit-learn's
# class of the same method spells a parameter or its values otherwise (TSNE: max_iter, angle,
# method="barnes_hut", learning_rate="auto"). The default shown is the registry's, mapped back.
_METHOD_KEYWORDS = {
    "tsne": {"max_iterations": ("max_iter", {}), "theta": ("angle", {}),
             "repulsion": ("method", {"barnes_hut": "barnes-hut"}), "learning_rate": ("learning_rate", {"auto": 0.0})},
}
# Registry result -> an extra fitted attribute of scikit-learn's name (besides the generated one).
_RESULT_ALIASES = {"optimizer.iterations": "n_iter_"}
# Registry method -> class name, where the CamelCase of the name is not the established one.
_CLASS_NAMES = {"pca": "PCA", "mds": "ClassicalMDS", "ltsa": "LTSA", "tsne": "TSNE", "umap": "UMAP"}
# The LLE family is one scikit-learn class with a method keyword.
_LLE_FAMILY = {"standard": "lle", "modified": "modified-lle", "hessian": "hessian-lle", "ltsa": "ltsa"}
_NEIGHBOR_DEFAULT = 10

try:  # scikit-learn >= 1.2: also gives set_output (through TransformerMixin)
    from sklearn.base import ClassNamePrefixFeaturesOutMixin as _FeatureNamesOut
except ImportError:
    class _FeatureNamesOut:
        """get_feature_names_out without scikit-learn's mixin: its names, without its checks."""

        def get_feature_names_out(self, input_features=None):
            """Output feature names: the lowercased class name and the component index (isomap0, ...)."""
            check_is_fitted(self)
            prefix = type(self).__name__.lower()
            return np.asarray([f"{prefix}{i}" for i in range(self._n_features_out)], dtype=object)


def _labels(y, n):
    """y as one int64 label per point: integers as they are (-1: unknown), anything else numbered."""
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != n:
        raise ValueError(f"y has shape {y.shape}: give one label per point ({n})")
    if np.issubdtype(y.dtype, np.integer):
        return y.astype(np.int64)
    return np.unique(y, return_inverse=True)[1].astype(np.int64)


def _keyword(entry, name):
    """The estimator keyword of registry parameter `name` of method `entry`, and its value map."""
    renamed = _METHOD_KEYWORDS.get(entry["name"], {}).get(name)
    return renamed if renamed else (_RENAMED.get(name, name), {})


def _python_value(spec, text):
    kind = spec["kind"]
    if kind == "integer":
        return int(float(text))
    if kind == "real":
        return float(text)
    if kind == "flag":
        return text == "true"
    return text


def _random_seed(random_state):
    """random_state as nldr's seed: None -> 0 (nldr is deterministic), an int, or a draw from a RandomState."""
    if random_state is None:
        return 0
    if isinstance(random_state, (int, np.integer)):
        return int(random_state)
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(np.iinfo(np.int32).max))
    raise ValueError(f"random_state = {random_state!r} must be None, an int or a numpy RandomState")


class _NldrEstimator(_FeatureNamesOut, _Base, _Mixin):
    """Shared behavior of the generated estimators (fit, transform, fitted attributes)."""

    # Filled in by the class factory.
    _methods = {}          # value of the "method" keyword (or None) -> registry entry
    _keywords = {}         # estimator keyword -> registry parameter name (per registry method)
    _graph = False

    def _registry_method(self):
        # A `method` keyword chooses the registry entry only in a family class (LocallyLinearEmbedding).
        method = None if None in self._methods else getattr(self, "method", None)
        if method not in self._methods:
            raise ValueError(f"method = {method!r} must be one of {', '.join(map(repr, self._methods))}")
        return self._methods[method]

    def _registry_parameters(self, entry):
        values = {}
        for spec in entry["parameters"]:
            keyword_name, value_map = _keyword(entry, spec["name"])
            value = getattr(self, keyword_name)
            if isinstance(value, str) and value in value_map:
                value = value_map[value]
            if spec["name"] == "seed":
                value = _random_seed(value)
            if spec["name"] == "init" and not isinstance(value, str):
                value = "given"  # init=array: the coordinates go to fit as `initial`
            values[spec["name"]] = value
        return values

    def _threads(self):
        n_jobs = getattr(self, "n_jobs", None)
        if n_jobs is None:
            return 0
        return n_jobs if n_jobs > 0 else max(1, _nldr.max_threads() + 1 + n_jobs)

    def _check_input(self, X, reset):
        if HAVE_SKLEARN:
            return self._validate_data(X, reset=reset, dtype=[np.float64, np.float32], order=None,
                                       ensure_min_samples=2 if reset else 1)
        X = as_float_array(X)
        if reset:
            self.n_features_in_ = X.shape[1]
        elif X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {X.shape[1]} features, but {type(self).__name__} is expecting "
                             f"{self.n_features_in_} features as input")
        return X

    def _graph_arguments(self, X, graph):
        """The keywords of _nldr.fit that give the method its neighbor graph: the user's graph (lengths
        as given) or the selector and its options, and whether to join a disconnected graph."""
        if self.disconnected not in ("join", "error"):
            raise ValueError(f"disconnected = {self.disconnected!r} must be 'join' or 'error'")
        arguments = {"join": self.disconnected == "join"}
        if graph is not None:
            arguments["graph"] = _graph_arrays(graph, X.shape[0], X.dtype)
            return arguments
        selector = _nldr_selectors().get(self.neighbors)
        if selector is None:  # nldr's own message: "unknown selector ... (did you mean ...)"
            _nldr.select(str(self.neighbors), X[:0])
        options = dict(self.neighbors_params or {})
        names = {spec["name"] for spec in selector["parameters"]}
        if "k" in names:
            if "k" in options:
                raise ValueError("give the number of neighbors as n_neighbors, not neighbors_params['k']")
            if self.n_neighbors is not None:  # None: the method's own choice (t-SNE's 3 x perplexity)
                options["k"] = self.n_neighbors
        # What the method needs from a pruning selector (min_neighbors, intrinsic_dim) the pipeline
        # adds, as it does for `nldr embed` (docs/pipeline.md).
        arguments.update(selector=selector["name"], selector_parameters=options)
        return arguments

    def fit(self, X, y=None, graph=None):
        """Fits the method to X (N x D; for dissimilarity="precomputed", N x N distances).

        graph: optional precomputed neighbor graph of X (scipy.sparse N x N of edge lengths) used
        instead of the ``neighbors`` selector, for the methods that need a graph. y: ignored, except by
        the supervised methods (UMAP's target_weight): one categorical label per point, -1 for unknown
        (integers are used as they are; other values are numbered in sorted order).
        """
        X = self._check_input(X, reset=True)
        entry = self._registry_method()
        parameters = self._registry_parameters(entry)
        arguments = {"X": X}
        if getattr(self, "dissimilarity", "euclidean") == "precomputed":
            arguments = {"distances": X}
        elif getattr(self, "dissimilarity", "euclidean") != "euclidean":
            raise ValueError(f"dissimilarity = {self.dissimilarity!r} must be 'euclidean' or 'precomputed'")
        if "graph" in entry["inputs"]:
            arguments.update(self._graph_arguments(X, graph))
        if entry["iterative"]:
            arguments["on_iteration"] = self._iteration_callback()
        init = getattr(self, "init", None)
        if init is not None and not isinstance(init, str):
            arguments["initial"] = as_float_array(init)
        if y is not None and any(spec["name"] == "target_weight" for spec in entry["parameters"]):
            arguments["labels"] = _labels(y, X.shape[0])
        if graph is not None and "graph" not in entry["inputs"]:
            raise ValueError(f"{type(self).__name__} does not use a neighbor graph: fit(X) without graph=")
        self.model_, graph_info = _nldr.fit(entry["name"], parameters=parameters, threads=self._threads(), **arguments)
        if "graph" in entry["inputs"]:
            components, added, longest = (graph_info[key] for key in ("components", "joined_edges", "longest_joined_edge"))
            self.n_graph_components_ = components
            self.graph_search_ = graph_info.get("search", "given")
            self.graph_estimated_recall_ = graph_info.get("estimated_recall")
            self.graph_selector_parameters_ = graph_info["selector_parameters"]
            _warn_if_approximate(graph_info, arguments.get("selector_parameters", {}), stacklevel=2)
            if components > 1 and arguments["join"]:
                warnings.warn(f"the neighbor graph has {components} connected components: joined them by {added} "
                              f"shortest connecting edge{'' if added == 1 else 's'} (longest {longest:.4g}); raise "
                              "n_neighbors to connect it, or disconnected='error' to refuse", UserWarning, stacklevel=2)
        self.embedding_ = self.model_.coordinates
        self._n_features_out = self.embedding_.shape[1]  # get_feature_names_out's count
        self.results_ = self.model_.results
        for name, value in self.results_.items():
            setattr(self, _attribute_name(name), value)
            if name in _RESULT_ALIASES:
                setattr(self, _RESULT_ALIASES[name], value)
        return self

    def _iteration_callback(self):
        """The fit's observer: every `callbacks_every_iters` iterations each of `callbacks` is called
        as f(iteration, objective, embedding) (objective None where the method did not compute it),
        openTSNE's form; one returning True stops the fit there (docs/iterative.md)."""
        callbacks = self.callbacks
        if callbacks is None:
            return None
        if callable(callbacks):
            callbacks = [callbacks]
        every = int(self.callbacks_every_iters)
        if every < 1:
            raise ValueError(f"callbacks_every_iters = {self.callbacks_every_iters!r} must be >= 1")

        def observe(iteration, phase, objective, embedding):
            if iteration % every:
                return False
            return any([bool(f(iteration, objective, embedding)) for f in callbacks])
        return observe

    def transform(self, X):
        """Places new points in the fitted embedding (P x D; P x N distances after a fit on distances)."""
        check_is_fitted(self)
        X = self._check_input(X, reset=False)
        return self.model_.transform(X, self._threads())

    def fit_transform(self, X, y=None, graph=None):
        """Fits and returns the embedding of the training points (``embedding_``)."""
        return self.fit(X, y, graph=graph).embedding_

    def _more_tags(self):
        return {"preserves_dtype": [np.float64, np.float32],
                "pairwise": getattr(self, "dissimilarity", "euclidean") == "precomputed"}

    if not HAVE_SKLEARN:
        def get_params(self, deep=True):
            """The constructor's keywords and their current values."""
            return {name: getattr(self, name) for name in self._parameter_names}

        def set_params(self, **params):
            """Sets constructor keywords; an unknown one is a ValueError."""
            for name, value in params.items():
                if name not in self._parameter_names:
                    raise ValueError(f"invalid parameter {name!r} for {type(self).__name__}: "
                                     f"valid ones are {', '.join(self._parameter_names)}")
                setattr(self, name, value)
            return self

        def __repr__(self):
            arguments = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
            return f"{type(self).__name__}({arguments})"


def _attribute_name(result):
    """'diagnostics.relative_gap' -> 'diagnostics_relative_gap_' (a fitted attribute)."""
    return re.sub(r"\W", "_", result) + "_"


_selector_table = None


def _nldr_selectors():
    global _selector_table
    if _selector_table is None:
        _selector_table = {s["name"]: s for s in _nldr.selectors()}
    return _selector_table


def _class_name(method):
    return _CLASS_NAMES.get(method, "".join(part.capitalize() for part in method.split("-")))


def _make_estimator(class_name, methods, doc, extra=()):
    """An estimator class whose __init__ takes every parameter of `methods` (dict: value of the
    method keyword, or None, -> registry entry) plus `extra` ((name, default, help) triples)."""
    parameters = []  # (keyword, default, help)
    seen = set()
    graph = any("graph" in entry["inputs"] for entry in methods.values())
    for entry in methods.values():
        for spec in entry["parameters"]:
            name, value_map = _keyword(entry, spec["name"])
            if name in seen:
                continue
            if not name.isidentifier() or keyword.iskeyword(name):
                raise RuntimeError(f"registry parameter {spec['name']!r} is not a Python identifier")
            seen.add(name)
            default = _python_value(spec, spec["default"])
            default = next((shown for shown, value in value_map.items() if value == default), default)
            if spec["name"] == "seed":
                default = None
            parameters.append((name, default, spec["help"]))
    common = [("n_jobs", None, "threads (None: nldr's current setting, -1: all)")]
    if any(entry["iterative"] for entry in methods.values()):
        common = [("callbacks", None, "a callable or list of callables f(iteration, objective, embedding) "
                   "called during the fit; one returning True stops it (docs/iterative.md)"),
                  ("callbacks_every_iters", 50, "iterations between calls of the callbacks")] + common
    if graph:
        own_k = all(entry["default_neighbors"] for entry in methods.values())
        common = [("n_neighbors", None if own_k else _NEIGHBOR_DEFAULT,
                   "neighbors per point (the selector's k)" + ("; None: the method's choice" if own_k else "")),
                  ("neighbors", "knn", "neighbor selector: " + ", ".join(_nldr_selectors())),
                  ("neighbors_params", None, "the selector's other options, e.g. {'ratio': 0.4}"),
                  ("disconnected", "join", "a disconnected neighbor graph: 'join' its components by their "
                   "shortest connecting edges (with a warning, as scikit-learn's Isomap), or 'error'")] + common
    everything = list(extra) + parameters + common
    # n_components first, as in scikit-learn.
    everything.sort(key=lambda item: item[0] != "n_components")
    names = [name for name, _, _ in everything]
    source = "def __init__(self, *, {}):\n{}".format(
        ", ".join(f"{name}={default!r}" for name, default, _ in everything),
        "".join(f"    self.{name} = {name}\n" for name in names))
    namespace = {"inf": float("inf")}
    exec(source, namespace)  # noqa: S102 - source built above from the registry's identifiers
    init = namespace["__init__"]
    init.__doc__ = "Parameters\n----------\n" + "".join(
        f"{name} : default={default!r}\n    {help_text}\n" for name, default, help_text in everything)
    attributes = {"__init__": init, "__doc__": doc + "\n\n" + init.__doc__, "_methods": methods,
                  "_graph": graph, "_parameter_names": names, "__module__": __name__}
    cls = type(class_name, (_NldrEstimator,), attributes)
    init.__qualname__ = f"{class_name}.__init__"
    return cls


def _docstring(entry, sklearn_name=None):
    text = f"{entry['summary'][0].upper()}{entry['summary'][1:]} (nldr method \"{entry['name']}\")."
    if "graph" in entry["inputs"]:
        text += ("\n\nThe neighbor graph comes from the selector `neighbors` with `n_neighbors` "
                 "(or fit(X, graph=G)).")
    if sklearn_name:
        text += f"\n\nCounterpart of scikit-learn's {sklearn_name} (docs/python.md)."
    return text


def _build():
    entries = {entry["name"]: entry for entry in _nldr.embedders()}
    classes = {}
    lle = {value: entries[name] for value, name in _LLE_FAMILY.items() if name in entries}
    if lle:
        doc = ("Locally linear embedding and its variants: method='standard' (Roweis & Saul 2000), "
               "'modified' (Zhang & Wang 2007), 'hessian' (Donoho & Grimes 2003), 'ltsa' (Zhang & Zha "
               "2004); parameters of the other variants are ignored.\n\nCounterpart of scikit-learn's "
               "LocallyLinearEmbedding (docs/python.md).")
        classes["LocallyLinearEmbedding"] = _make_estimator(
            "LocallyLinearEmbedding", lle, doc,
            extra=[("method", "standard", "standard | modified | hessian | ltsa")])
    sklearn_names = {"isomap": "Isomap", "pca": "PCA", "laplacian-eigenmaps": "SpectralEmbedding", "tsne": "TSNE",
                     "mds": "MDS (metric SMACOF there, classical here)"}
    for name, entry in entries.items():
        extra = ()
        if "distances" in entry["inputs"]:
            extra = [("dissimilarity", "euclidean", "'euclidean': X are points; 'precomputed': X is N x N distances")]
        cls_name = _class_name(name)
        classes[cls_name] = _make_estimator(cls_name, {None: entry}, _docstring(entry, sklearn_names.get(name)), extra)
    return classes


globals().update(_build())
__all__ = sorted(name for name, value in list(globals().items())
                 if isinstance(value, type) and issubclass(value, _NldrEstimator) and value is not _NldrEstimator)

# scikit-learn's names for the same classes.
if "LaplacianEigenmaps" in globals():
    SpectralEmbedding = LaplacianEigenmaps  # noqa: F821
    __all__.append("SpectralEmbedding")
if "ClassicalMDS" in globals():
    MDS = ClassicalMDS  # noqa: F821
    __all__.append("MDS")
