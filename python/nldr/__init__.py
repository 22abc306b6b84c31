"""nldr: nonlinear dimensionality reduction (manifold learning) on nldr's header-only C++ core.

Estimators with scikit-learn's conventions (``nldr.Isomap``, ``nldr.LocallyLinearEmbedding``,
``nldr.LaplacianEigenmaps``/``SpectralEmbedding``, ``nldr.PCA``, ...), generated from the C++
method registry; ``nldr.neighbors`` (neighbor selectors -> scipy.sparse graphs); ``nldr.metrics``
(trustworthiness, R_NX, quality_report, ...). See docs/python.md.
"""
from ._nldr import (ConvergenceError, DisconnectedGraphError, InvalidModelError, MemoryLimitExceeded, Model,
                    NldrIOError, __version__, max_threads, set_threads)
from ._nldr import fit as fit_model
from . import metrics, neighbors
from .estimators import *  # noqa: F401,F403  (one class per registry method)
from .estimators import __all__ as _estimators


def methods():
    """Every registered method: a list of dicts (name, aliases, summary, inputs, parameters)."""
    from ._nldr import embedders
    return embedders()


__all__ = ["ConvergenceError", "DisconnectedGraphError", "InvalidModelError", "MemoryLimitExceeded", "Model",
           "NldrIOError", "fit_model", "max_threads", "methods", "metrics", "neighbors", "set_threads",
           *_estimators]
