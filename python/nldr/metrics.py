"""Quality measures of an embedding (docs/metrics.md), on nldr's rank engine.

X is the N x D input (or, with ``metric="precomputed"``, its N x N distance matrix, as in
scikit-learn's ``trustworthiness``), Y the N x d embedding. Every measure is deterministic and
independent of the thread count. The pair measures (Spearman's rho, Kruskal stress, residual
variance) use every pair up to a budget ``max_pairs`` and a seeded sample above it;
``max_pairs="all"`` always uses every pair (the exact value).
"""
import numbers

from . import _nldr
from ._validation import as_float_array

# The C++ library's all_pairs (metrics/pairs.hpp): a budget no N reaches.
_ALL_PAIRS = 2**64 - 1


def _pair_budget(max_pairs, name="max_pairs"):
    """max_pairs as the C++ budget: a positive integer, or "all"."""
    if isinstance(max_pairs, str) and max_pairs == "all":
        return _ALL_PAIRS
    if isinstance(max_pairs, bool) or not isinstance(max_pairs, numbers.Integral) or not 1 <= max_pairs <= _ALL_PAIRS:
        raise ValueError(f"{name} = {max_pairs!r} must be a positive integer (pairs, above which a seeded sample "
                         "is used) or 'all' (every pair)")
    return int(max_pairs)


def _inputs(X, Y, metric):
    if metric not in ("euclidean", "precomputed"):
        raise ValueError(f"metric = {metric!r} must be 'euclidean' or 'precomputed'")
    return as_float_array(X, "X"), as_float_array(Y, "Y"), metric == "precomputed"


def trustworthiness(X, Y, n_neighbors=5, *, metric="euclidean", n_jobs=None):
    """T(k) in [0, 1] (Venna & Kaski 2001): 1 = no false neighbors in Y. Same value as
    sklearn.manifold.trustworthiness(X, Y, n_neighbors=k)."""
    X, Y, pre = _inputs(X, Y, metric)
    return _nldr.trustworthiness(X, Y, n_neighbors, pre, n_jobs or 0)


def continuity(X, Y, n_neighbors=5, *, metric="euclidean", n_jobs=None):
    """C(k) in [0, 1]: trustworthiness with X and Y swapped (no missing neighbors)."""
    X, Y, pre = _inputs(X, Y, metric)
    return _nldr.continuity(X, Y, n_neighbors, pre, n_jobs or 0)


def rnx_curve(X, Y, *, metric="euclidean", n_jobs=None):
    """R_NX(K) for K = 1..N-2 (element K-1; Lee et al. 2013). O(N^2 log N) time."""
    X, Y, pre = _inputs(X, Y, metric)
    return _nldr.rnx_curve(X, Y, pre, n_jobs or 0)


def mrre(X, Y, n_neighbors=5, *, metric="euclidean", n_jobs=None):
    """The mean relative rank errors (MRRE_X, MRRE_Y) at k (Lee & Verleysen 2009); 0 is ideal."""
    X, Y, pre = _inputs(X, Y, metric)
    return _nldr.mrre(X, Y, n_neighbors, pre, n_jobs or 0)


def konig(X, Y, k1=5, k2=None, *, metric="euclidean", n_jobs=None):
    """Konig's measure KM(k1, k2) in [0, 1] (Konig 2000); k2 defaults to min(2 k1, N - 1)."""
    X, Y, pre = _inputs(X, Y, metric)
    if k2 is None:
        k2 = min(2 * k1, X.shape[0] - 1)
    return _nldr.konig(X, Y, k1, k2, pre, n_jobs or 0)


def spearman_rho(X, Y, *, max_pairs=1_000_000, random_state=0, metric="euclidean", n_jobs=None):
    """Spearman's rank correlation of the pairwise distances (a seeded sample above max_pairs, an
    integer or "all"; about 40 bytes per pair)."""
    X, Y, pre = _inputs(X, Y, metric)
    return _nldr.spearman_rho(X, Y, _pair_budget(max_pairs), random_state, pre, n_jobs or 0)


def kruskal_stress(X, Y, *, max_pairs=50_000_000, random_state=0, metric="euclidean", n_jobs=None):
    """Kruskal's stress-1 as (plain, scaled): plain as in David 2015, scaled after the optimal scaling."""
    X, Y, pre = _inputs(X, Y, metric)
    return _nldr.kruskal_stress(X, Y, _pair_budget(max_pairs), random_state, pre, n_jobs or 0)


def residual_variance(X, Y, *, max_pairs=50_000_000, random_state=0, metric="euclidean", n_jobs=None):
    """1 - r^2 of the pairwise distances of X (e.g. geodesics with metric="precomputed") and Y."""
    X, Y, pre = _inputs(X, Y, metric)
    return _nldr.residual_variance(X, Y, _pair_budget(max_pairs), random_state, pre, n_jobs or 0)


def quality_report(X, Y, n_neighbors=10, *, labels=None, curve=False, k_max=0, max_pairs=None, geodesic_k=None,
                   random_state=0, metric="euclidean", n_jobs=None):
    """Every measure at k in one pass (a dict: trustworthiness, continuity, q_nx, b_nx, r_nx, lcmc,
    auc_rnx, mrre_x, mrre_y, konig, spearman_rho, kruskal_stress(_scaled), residual_variance, the
    pairs used (spearman_pairs, distance_pairs, pairs_sampled), knn_error with labels, r_nx_curve
    with curve=True). k_max bounds the curve for large N.

    max_pairs: the pair budget of Spearman's rho, Kruskal stress and the residual variances, an
    integer or "all" (every pair: the exact values); None keeps the defaults (1e6 pairs for
    Spearman's rho, 5e7 for the others).

    geodesic_k: also residual_variance_geodesic, against geodesics along the geodesic_k-NN graph of
    X. When that graph is disconnected (or its N x N geodesics do not fit in memory) it is None and
    geodesic_unavailable says why; every other measure is computed as usual (docs/metrics.md)."""
    X, Y, pre = _inputs(X, Y, metric)
    budgets = {}
    if max_pairs is not None:
        budgets["spearman_max_pairs"] = budgets["distance_max_pairs"] = _pair_budget(max_pairs)
    return _nldr.quality_report(X, Y, n_neighbors, pre, curve, k_max, labels, random_state, n_jobs or 0,
                                geodesic_k=geodesic_k or 0, **budgets)


__all__ = ["trustworthiness", "continuity", "rnx_curve", "mrre", "konig", "spearman_rho", "kruskal_stress",
           "residual_variance", "quality_report"]
