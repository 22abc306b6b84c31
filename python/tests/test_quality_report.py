"""nldr.metrics.quality_report: the pair budget ("all": every pair, against scipy) and the geodesic
residual variance (against scipy's shortest paths; unavailable on a disconnected graph, with every
other measure as usual)."""
import numpy as np
import pytest

import nldr

pytest.importorskip("sklearn")
from scipy.sparse.csgraph import shortest_path  # noqa: E402
from scipy.spatial.distance import pdist, squareform  # noqa: E402
from scipy.stats import pearsonr, spearmanr  # noqa: E402
from sklearn.manifold import trustworthiness  # noqa: E402
from sklearn.neighbors import kneighbors_graph  # noqa: E402


def _pair_measures(X, Y):
    """Spearman's rho, plain and scaled Kruskal stress-1 and residual variance over every pair, written out."""
    dx, dy = pdist(X), pdist(Y)
    alpha = dx @ dy / (dy @ dy)
    return {"spearman_rho": spearmanr(dx, dy).correlation,
            "kruskal_stress": np.sqrt(np.sum((dx - dy) ** 2) / np.sum(dx ** 2)),
            "kruskal_stress_scaled": np.sqrt(np.sum((dx - alpha * dy) ** 2) / np.sum(dx ** 2)),
            "residual_variance": 1 - pearsonr(dx, dy)[0] ** 2}


def _three_blobs(per=40, seed=0):
    """Three clusters 100 apart: a kNN graph with k < per has (at least) three components."""
    random = np.random.RandomState(seed)
    X = random.uniform(size=(3 * per, 3))
    X[:, 0] += 100 * np.repeat(np.arange(3), per)
    Y = X[:, :2] + 0.05 * random.normal(size=(3 * per, 2))
    return X, Y


def test_all_pairs_equals_scipy_above_the_default_budget():
    # N = 1500: 1,124,250 pairs, more than Spearman's default budget of 1e6 pairs.
    random = np.random.RandomState(1)
    X = random.uniform(size=(1500, 3))
    Y = X[:, :2] + 0.1 * random.normal(size=(1500, 2))
    exact = nldr.metrics.quality_report(X, Y, 5, k_max=10, max_pairs="all")
    assert exact["spearman_pairs"] == exact["distance_pairs"] == 1500 * 1499 // 2
    assert not exact["pairs_sampled"]
    # Rank sums of 1.1e6 pairs reach 1e18: the two summation orders differ by ~1e-12 in rho (1.05e-12 measured).
    for name, value in _pair_measures(X, Y).items():
        assert exact[name] == pytest.approx(value, abs=1e-10), name
    assert nldr.metrics.spearman_rho(X, Y, max_pairs="all") == pytest.approx(exact["spearman_rho"], abs=1e-15)
    # The default samples 1e6 pairs for Spearman's rho: near the exact value, not equal to it.
    default = nldr.metrics.quality_report(X, Y, 5, k_max=10)
    assert default["pairs_sampled"] and default["spearman_pairs"] == 1_000_000
    assert default["spearman_rho"] != exact["spearman_rho"]
    assert default["spearman_rho"] == pytest.approx(exact["spearman_rho"], abs=2e-3)
    # A number is a budget for every pair measure: 1000 pairs, sampled.
    small = nldr.metrics.quality_report(X, Y, 5, k_max=10, max_pairs=1000)
    assert small["spearman_pairs"] == small["distance_pairs"] == 1000


@pytest.mark.parametrize("max_pairs", [0, -3, 2.5, True, "every", 2**64])
def test_a_bad_pair_budget_is_a_value_error(max_pairs):
    X = np.random.RandomState(2).uniform(size=(20, 3))
    with pytest.raises(ValueError, match="max_pairs"):
        nldr.metrics.quality_report(X, X[:, :2], 5, max_pairs=max_pairs)


def test_disconnected_geodesic_graph_leaves_the_other_measures_as_usual():
    X, Y = _three_blobs()
    labels = np.repeat(np.arange(3), 40)
    report = nldr.metrics.quality_report(X, Y, 8, labels=labels, curve=True, geodesic_k=5)
    assert report["residual_variance_geodesic"] is None
    assert report["geodesic_k"] == 5
    assert "3 connected components (sizes 40, 40, 40)" in report["geodesic_unavailable"]
    # Every other measure: present, and the value of the report without geodesics ...
    without = nldr.metrics.quality_report(X, Y, 8, labels=labels, curve=True)
    assert set(report) - set(without) == {"residual_variance_geodesic", "geodesic_unavailable", "geodesic_k"}
    for name, value in without.items():
        np.testing.assert_array_equal(report[name], value, err_msg=name)
    # ... which is the measures' formulas: scikit-learn's trustworthiness, scipy's pair measures.
    assert report["trustworthiness"] == pytest.approx(trustworthiness(X, Y, n_neighbors=8), abs=1e-12)
    for name, value in _pair_measures(X, Y).items():
        assert report[name] == pytest.approx(value, abs=1e-12), name


def test_geodesic_residual_variance_equals_scipys_shortest_paths(swiss_roll):
    X = swiss_roll[:400]
    Y = X[:, [0, 2]]
    G = shortest_path(kneighbors_graph(X, 8, mode="distance"), directed=False)
    assert np.isfinite(G).all()
    expected = 1 - pearsonr(squareform(G, checks=False), pdist(Y))[0] ** 2
    report = nldr.metrics.quality_report(X, Y, 10, geodesic_k=8)
    assert report["residual_variance_geodesic"] == pytest.approx(expected, abs=1e-12)
    assert "geodesic_unavailable" not in report
    # The Euclidean one rates this flat projection of the roll better than the geodesic one does.
    assert report["residual_variance"] < report["residual_variance_geodesic"]
    # Precomputed input distances: the same graph, the same geodesics.
    pre = nldr.metrics.quality_report(squareform(pdist(X)), Y, 10, geodesic_k=8, metric="precomputed")
    assert pre["residual_variance_geodesic"] == pytest.approx(expected, abs=1e-12)
