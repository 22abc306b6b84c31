"""Neighbor selection: every selector of nldr's registry, returning scipy.sparse.csr_matrix graphs.

``select(X, "knn", k=10)`` or the generated per-selector functions (``knn(X, k=10)``,
``shared(X, k=10, ratio=0.4)``, ``short_circuit(X, ...)``: '-' becomes '_') return an N x N
csr_matrix whose entry (i, j) is the distance from point i to its neighbor j (rows sorted by
distance). The estimators take such a matrix as a precomputed graph: ``fit(X, graph=G)``.
"""
import inspect
import warnings

import numpy as np

from . import _nldr
from ._validation import as_float_array

try:
    import scipy.sparse as _sparse
except ImportError:  # pragma: no cover
    _sparse = None


def selectors():
    """Every registered selector: a list of dicts (name, summary, prunes, parameters with defaults)."""
    return _nldr.selectors()


def intrinsic_dimension(X, *, k_min=10, k_max=20, discard_fraction=0.1, confidence=0.95, bootstrap=500,
                        random_state=0, n_jobs=None):
    """The intrinsic dimension of the points X (N x D) by both estimators (docs/tuning.md, "Intrinsic dimension").

    Returns a dict: ``mle`` (Levina & Bickel 2005 with MacKay & Ghahramani's correction, averaged over
    k = k_min..k_max), ``mle_per_k`` ({k: estimate}), ``twonn`` (Facco et al. 2017, the largest
    `discard_fraction` of the ratios left out), ``twonn_interval`` (a percentile bootstrap of `bootstrap`
    resamples seeded by `random_state`, at `confidence`), ``twonn_confidence`` and ``duplicates_removed``
    (exact repeated rows are dropped first). The same numbers as ``nldr intrinsic-dim --json``.
    """
    X = as_float_array(X)
    return _nldr.intrinsic_dimension(X, k_min, k_max, discard_fraction, confidence, bootstrap, random_state,
                                     0 if n_jobs is None else n_jobs)


def select(X, selector="knn", n_jobs=None, **options):
    """The neighbor graph of X (N x D) from the registry selector `selector` with its options.

    Returns a scipy.sparse.csr_matrix (N x N) of distances. Raises ValueError for an unknown
    selector or option (the message lists the valid ones).
    """
    X = as_float_array(X)
    n, indptr, indices, distances, _, search = _nldr.select(selector, X, options, 0 if n_jobs is None else n_jobs)
    _warn_if_approximate(search, options, stacklevel=3)
    if _sparse is None:
        raise ImportError("nldr.neighbors returns scipy.sparse matrices: install scipy (python3-scipy)")
    # Entries stay in nldr's order (by distance); scipy's own routines accept unsorted indices.
    return _sparse.csr_matrix((distances, indices, indptr), shape=(n, n))


def _warn_if_approximate(search, options, stacklevel):
    """A UserWarning when the graph came from the approximate search without the caller asking for
    it (the knn selector's search='auto' picks HNSW for large high-dimensional data,
    docs/selectors.md): an approximate answer is never silent."""
    if search.get("search") == "hnsw" and options.get("search") != "approximate":
        recall = search.get("estimated_recall")
        estimate = f", estimated recall {recall:.3f}" if recall is not None else ""
        warnings.warn(f"approximate neighbor search (HNSW{estimate}): pass search='exact' to the knn selector "
                      "(estimators: neighbors_params={'search': 'exact'}) for the exact graph, or "
                      "search='approximate' to choose it and silence this warning", UserWarning, stacklevel=stacklevel)


def _graph_arrays(graph, n, dtype):
    """(n, indptr, indices, data) of a sparse N x N graph of edge lengths (explicit zeros and the
    diagonal dropped), for nldr._nldr.fit."""
    if not hasattr(graph, "tocsr"):
        raise TypeError("graph must be a scipy.sparse matrix of edge lengths (N x N), "
                        f"got {type(graph).__name__}")
    if graph.shape != (n, n):
        raise ValueError(f"graph has shape {graph.shape}, but X has {n} points: it must be {n} x {n}")
    graph = graph.tocoo()
    keep = (graph.row != graph.col) & (graph.data != 0)
    graph = _sparse.csr_matrix((graph.data[keep], (graph.row[keep], graph.col[keep])), shape=(n, n))
    graph.sort_indices()
    return (n, graph.indptr.astype(np.int64), graph.indices.astype(np.int32), graph.data.astype(dtype))


def _make_selector_function(entry):
    name = entry["name"]
    kinds = {"integer": int, "real": float, "flag": lambda text: text == "true", "choice": str}
    params = [inspect.Parameter("X", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for spec in entry["parameters"]:
        default = kinds[spec["kind"]](float(spec["default"]) if spec["kind"] == "integer" else spec["default"])
        params.append(inspect.Parameter(spec["name"], inspect.Parameter.KEYWORD_ONLY, default=default))
    params.append(inspect.Parameter("n_jobs", inspect.Parameter.KEYWORD_ONLY, default=None))

    def function(X, n_jobs=None, **options):
        return select(X, name, n_jobs=n_jobs, **options)

    function.__name__ = function.__qualname__ = name.replace("-", "_")
    function.__signature__ = inspect.Signature(params)
    function.__doc__ = (f"{entry['summary'][0].upper()}{entry['summary'][1:]}: a csr_matrix of distances.\n\n"
                        + "".join(f"{spec['name']} (default {spec['default']}): {spec['help']}\n"
                                  for spec in entry["parameters"]))
    return function


__all__ = ["intrinsic_dimension", "select", "selectors"]
for _entry in _nldr.selectors():
    _function = _make_selector_function(_entry)
    globals()[_function.__name__] = _function
    __all__.append(_function.__name__)
