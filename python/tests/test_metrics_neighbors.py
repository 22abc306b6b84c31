"""nldr.metrics and nldr.neighbors against independent references (scikit-learn, brute force)."""
import numpy as np
import pytest

import nldr

sklearn = pytest.importorskip("sklearn")


def test_trustworthiness_equals_sklearns(swiss_roll):
    from sklearn.manifold import trustworthiness
    X = swiss_roll[:300]
    Y = X[:, :2] + 0.3 * np.random.RandomState(0).normal(size=(300, 2))
    for k in (1, 5, 12):
        assert nldr.metrics.trustworthiness(X, Y, k) == pytest.approx(trustworthiness(X, Y, n_neighbors=k), abs=1e-12)
    from scipy.spatial.distance import cdist
    assert nldr.metrics.trustworthiness(cdist(X, X), Y, 5, metric="precomputed") == pytest.approx(
        trustworthiness(X, Y, n_neighbors=5), abs=1e-12)


def test_identity_embedding_is_perfect(swiss_roll):
    X = swiss_roll[:200]
    report = nldr.metrics.quality_report(X, X, 10, curve=True)
    assert report["trustworthiness"] == pytest.approx(1)
    assert report["continuity"] == pytest.approx(1)
    assert report["residual_variance"] == pytest.approx(0, abs=1e-12)
    assert report["kruskal_stress"] == pytest.approx(0, abs=1e-12)
    np.testing.assert_allclose(report["r_nx_curve"], 1)
    np.testing.assert_allclose(nldr.metrics.rnx_curve(X, X), 1)
    assert nldr.metrics.mrre(X, X, 5) == (0.0, 0.0)
    assert nldr.metrics.konig(X, X, 5) == pytest.approx(1)
    assert nldr.metrics.spearman_rho(X, 2 * X) == pytest.approx(1)


def test_knn_graph_equals_brute_force(swiss_roll):
    from sklearn.neighbors import NearestNeighbors
    X = swiss_roll[:300]
    G = nldr.neighbors.knn(X, k=7)
    distances, indices = NearestNeighbors(n_neighbors=8).fit(X).kneighbors(X)
    for i in range(X.shape[0]):
        row = G.getrow(i)
        assert set(row.indices) == set(indices[i, 1:])
        np.testing.assert_allclose(np.sort(row.data), distances[i, 1:], rtol=1e-12)


def test_every_selector_returns_a_distance_graph(swiss_roll):
    X = swiss_roll[:300]
    for entry in nldr.neighbors.selectors():
        options = {"radius": 3.0} if entry["name"] == "epsilon" else {}
        G = nldr.neighbors.select(X, entry["name"], **options)
        assert G.shape == (300, 300) and G.nnz > 0
        rows, cols = G.nonzero()
        np.testing.assert_allclose(G.data, np.linalg.norm(X[rows] - X[cols], axis=1), rtol=1e-12)


def test_selector_errors():
    with pytest.raises(ValueError, match="did you mean"):
        nldr.neighbors.select(np.zeros((10, 2)), "knnn")
    with pytest.raises(ValueError, match="ratio"):
        nldr.neighbors.shared(np.random.RandomState(0).normal(size=(30, 2)), ratio=2.0)


def test_selectors_return_csr_matrices(swiss_roll):
    import scipy.sparse
    for name in ("knn", "shared"):
        assert isinstance(nldr.neighbors.select(swiss_roll[:100], name, k=5), scipy.sparse.csr_matrix)
    assert isinstance(nldr.neighbors.knn(swiss_roll[:100].astype(np.float32), k=5), scipy.sparse.csr_matrix)


def test_continuity_is_trustworthiness_with_the_roles_swapped(swiss_roll):
    from sklearn.manifold import trustworthiness
    X = swiss_roll[:200]
    Y = X[:, :2]
    assert nldr.metrics.continuity(X, Y, 7) == pytest.approx(trustworthiness(Y, X, n_neighbors=7), abs=1e-12)


def test_distance_measures_equal_their_formulas(swiss_roll):
    from scipy.spatial.distance import pdist
    from scipy.stats import spearmanr
    X = swiss_roll[:150]
    Y = X[:, :2] + 0.5 * np.random.RandomState(1).normal(size=(150, 2))
    dx, dy = pdist(X), pdist(Y)
    assert nldr.metrics.residual_variance(X, Y) == pytest.approx(1 - np.corrcoef(dx, dy)[0, 1] ** 2, abs=1e-10)
    assert nldr.metrics.spearman_rho(X, Y) == pytest.approx(spearmanr(dx, dy).correlation, abs=1e-10)
    plain, _ = nldr.metrics.kruskal_stress(X, Y)
    assert plain == pytest.approx(np.sqrt(np.sum((dx - dy) ** 2) / np.sum(dx ** 2)), rel=1e-10)


def test_the_search_behind_a_graph_is_reported_and_an_approximate_one_never_silently(swiss_roll):
    import warnings
    wide = np.hstack([swiss_roll, np.random.RandomState(0).normal(size=(len(swiss_roll), 27))])  # D = 30
    for X, search in ((swiss_roll, "kdtree"), (wide, "brute-force")):  # exact, and small: no HNSW
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            model = nldr.Isomap(n_neighbors=10).fit(X)
        assert model.graph_search_ == search
        assert model.graph_estimated_recall_ is None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # asked for: no warning
            approximate = nldr.Isomap(n_neighbors=10, neighbors_params={"search": "approximate"}).fit(wide)
    except ValueError as error:  # a build without hnswlib says so
        assert "hnswlib" in str(error)
        pytest.skip("built without hnswlib")
    assert approximate.graph_search_ == "hnsw"
    assert 0.9 <= approximate.graph_estimated_recall_ <= 1.0
    # Chosen without being asked for (what search='auto' does for large high-D data): a warning
    # that names the fix.
    with pytest.warns(UserWarning, match="search='exact'"):
        nldr.neighbors._warn_if_approximate({"search": "hnsw", "estimated_recall": 0.97}, {}, stacklevel=2)


def test_intrinsic_dimension_of_the_digits_equals_the_formulas():
    """Real data: scikit-learn's 8 x 8 digits (1797 x 64). The estimators' formulas (docs/tuning.md) written
    out on all pairwise distances; the only difference is the order of the sums (tolerance 1e-9)."""
    from sklearn.datasets import load_digits
    X = load_digits().data.astype(float)
    result = nldr.neighbors.intrinsic_dimension(X, bootstrap=100)
    distinct = np.unique(X, axis=0)
    assert result["duplicates_removed"] == len(X) - len(distinct)
    D = np.sqrt(np.maximum(((distinct[:, None, :] - distinct[None, :, :]) ** 2).sum(-1), 0))
    np.fill_diagonal(D, np.inf)
    T = np.sort(D, axis=1)[:, :20]
    per_k = {k: 1 / (np.log(T[:, k - 1:k] / T[:, :k - 1]).sum(1) / (k - 1)).mean() for k in range(10, 21)}
    assert result["mle_per_k"] == pytest.approx(per_k, rel=1e-9)
    assert result["mle"] == pytest.approx(np.mean(list(per_k.values())), rel=1e-9)
    mu = np.sort(T[:, 1] / T[:, 0])
    kept = int(0.9 * len(mu))  # the largest 10% of the ratios left out
    x, y = np.log(mu[:kept]), -np.log(1 - np.arange(1, kept + 1) / len(mu))
    assert result["twonn"] == pytest.approx(x @ y / (x @ x), rel=1e-9)
    low, high = result["twonn_interval"]
    assert low < result["twonn"] < high and result["twonn_confidence"] == 0.95
    # What the digits are: far below their 64 pixels and below PCA's 21 components for 90% of the variance.
    assert 5 < result["mle"] < 10 and 5 < result["twonn"] < 12


def test_intrinsic_dimension_errors_name_the_option():
    X = np.random.RandomState(0).normal(size=(15, 3))
    with pytest.raises(ValueError, match="k_max"):
        nldr.neighbors.intrinsic_dimension(X)  # k_max = 20 >= 15 points
    with pytest.raises(ValueError, match="discard_fraction"):
        nldr.neighbors.intrinsic_dimension(X, k_max=10, discard_fraction=1.5)
