"""The generated estimators against scikit-learn on the same data, and their Python behavior."""
import pickle

import numpy as np
import pytest

import nldr

sklearn = pytest.importorskip("sklearn")
from sklearn import manifold, decomposition  # noqa: E402

# trustworthiness(k = 10) of nldr's embedding must be within this of scikit-learn's on the same
# graph size: both solve the same eigenproblem, up to solver tolerances and tie order.
TOLERANCE = 0.01


def test_every_registry_method_has_a_class():
    names = {entry["name"] for entry in nldr.methods()}
    classes = [getattr(nldr, name) for name in nldr.estimators.__all__]
    covered = set()
    for cls in classes:
        covered.update(entry["name"] for entry in cls._methods.values())
    assert names <= covered


@pytest.mark.parametrize("ours, theirs", [
    (lambda: nldr.Isomap(n_neighbors=10, n_components=2), lambda: manifold.Isomap(n_neighbors=10, n_components=2)),
    (lambda: nldr.LocallyLinearEmbedding(n_neighbors=12, n_components=2),
     lambda: manifold.LocallyLinearEmbedding(n_neighbors=12, n_components=2, eigen_solver="dense")),
    (lambda: nldr.LocallyLinearEmbedding(method="ltsa", n_neighbors=12, n_components=2),
     lambda: manifold.LocallyLinearEmbedding(method="ltsa", n_neighbors=12, n_components=2, eigen_solver="dense")),
    (lambda: nldr.SpectralEmbedding(n_neighbors=10, n_components=2, heat_t=float("inf")),
     lambda: manifold.SpectralEmbedding(n_neighbors=10, n_components=2, random_state=0)),
])
def test_trustworthiness_matches_sklearn(swiss_roll, ours, theirs):
    X = swiss_roll
    t_ours = manifold.trustworthiness(X, ours().fit_transform(X), n_neighbors=10)
    t_theirs = manifold.trustworthiness(X, theirs().fit_transform(X), n_neighbors=10)
    assert t_ours >= t_theirs - TOLERANCE


def test_pca_equals_sklearn_up_to_sign(swiss_roll):
    ours = nldr.PCA(n_components=2).fit(swiss_roll)
    theirs = decomposition.PCA(n_components=2, svd_solver="full").fit(swiss_roll)
    Y, Z = ours.embedding_, theirs.transform(swiss_roll)
    signs = np.sign(np.sum(Y * Z, axis=0))
    np.testing.assert_allclose(Y * signs, Z, atol=1e-8)
    np.testing.assert_allclose(ours.explained_variance_ratio_, theirs.explained_variance_ratio_, rtol=1e-8)


def test_transform_of_training_points_gives_their_coordinates(swiss_roll):
    model = nldr.Isomap(n_neighbors=10).fit(swiss_roll)
    np.testing.assert_allclose(model.transform(swiss_roll[:50]), model.embedding_[:50], atol=1e-8)


def test_pickle_round_trip(swiss_roll):
    model = nldr.LocallyLinearEmbedding(n_neighbors=12).fit(swiss_roll)
    copy = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(copy.embedding_, model.embedding_)
    np.testing.assert_array_equal(copy.transform(swiss_roll[:20]), model.transform(swiss_roll[:20]))
    assert copy.get_params() == model.get_params()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_dtype_is_preserved(swiss_roll, dtype):
    X = swiss_roll.astype(dtype)
    model = nldr.Isomap(n_neighbors=10).fit(X)
    assert model.embedding_.dtype == dtype
    assert model.transform(X[:5]).dtype == dtype
    reference = nldr.Isomap(n_neighbors=10).fit(swiss_roll).embedding_
    assert manifold.trustworthiness(swiss_roll, model.embedding_, n_neighbors=10) == pytest.approx(
        manifold.trustworthiness(swiss_roll, reference, n_neighbors=10), abs=1e-3)


def test_fortran_order_and_strided_input(swiss_roll):
    C = np.ascontiguousarray(swiss_roll)
    F = np.asfortranarray(swiss_roll)
    wide = np.zeros((C.shape[0], 6))
    wide[:, ::2] = C
    expected = nldr.PCA().fit_transform(C)
    np.testing.assert_array_equal(nldr.PCA().fit_transform(F), expected)
    np.testing.assert_array_equal(nldr.PCA().fit_transform(wide[:, ::2]), expected)


def test_precomputed_graph(swiss_roll):
    G = nldr.neighbors.knn(swiss_roll, k=10)
    from sklearn.neighbors import kneighbors_graph
    H = kneighbors_graph(swiss_roll, 10, mode="distance")
    a = nldr.Isomap().fit(swiss_roll, graph=G).embedding_
    b = nldr.Isomap().fit(swiss_roll, graph=H).embedding_
    c = nldr.Isomap(n_neighbors=10).fit(swiss_roll).embedding_
    np.testing.assert_allclose(np.abs(a), np.abs(b), atol=1e-6)
    np.testing.assert_allclose(np.abs(a), np.abs(c), atol=1e-6)


def test_classical_mds_on_distances_equals_on_points(swiss_roll):
    from scipy.spatial.distance import cdist
    X = swiss_roll[:200]
    D = cdist(X, X)
    a = nldr.ClassicalMDS(dissimilarity="precomputed").fit_transform(D)
    b = nldr.ClassicalMDS().fit_transform(X)
    np.testing.assert_allclose(np.abs(a), np.abs(b), atol=1e-6)


def test_errors_are_python_exceptions(swiss_roll):
    with pytest.raises(ValueError, match="k"):
        nldr.Isomap(n_neighbors=5000).fit(swiss_roll)
    with pytest.raises(ValueError, match="reg"):
        nldr.LocallyLinearEmbedding(reg=-1.0).fit(swiss_roll)
    with pytest.raises(ValueError, match="unknown selector"):
        nldr.Isomap(neighbors="nope").fit(swiss_roll)
    with pytest.raises(ValueError):
        nldr.LocallyLinearEmbedding(method="nope").fit(swiss_roll)
    with pytest.raises(ValueError, match="(?i)nan"):
        bad = swiss_roll.copy()
        bad[3, 1] = np.nan
        nldr.Isomap().fit(bad)
    with pytest.raises(nldr.InvalidModelError):
        pickle.loads(pickle.dumps(nldr.PCA().fit(swiss_roll)).replace(b"NLDRMODL", b"XXXXXXXX"))
    assert issubclass(nldr.MemoryLimitExceeded, MemoryError)
    assert issubclass(nldr.ConvergenceError, RuntimeError)
    assert issubclass(nldr.DisconnectedGraphError, RuntimeError)


def test_disconnected_graph_raises(swiss_roll):
    X = np.vstack([swiss_roll[:100], swiss_roll[:100] + 1000.0])
    with pytest.raises(nldr.DisconnectedGraphError):
        nldr.Isomap(n_neighbors=5).fit(X)


def test_results_become_fitted_attributes(swiss_roll):
    model = nldr.LocallyLinearEmbedding(n_neighbors=12).fit(swiss_roll)
    assert model.reconstruction_error_ >= 0
    assert model.n_features_in_ == 3
    assert nldr.Isomap(n_neighbors=10).fit(swiss_roll).residual_variance_ < 0.2


# Ports of scikit-learn's own manifold tests (sklearn/manifold/tests/scikit-learn's test_isomap and
# scikit-learn's test_locally_linear: the grid, the pipeline).
def test_isomap_on_a_grid_keeps_the_grid_distances():
    # scikit-learn's manifold tests (test_isomap) test_isomap_simple_grid: on a regular 2-D grid with 4-neighbors, Isomap's
    # embedding reproduces the grid's pairwise distances.
    from sklearn.metrics import pairwise_distances
    n_per_side = 5
    grid = np.array([[i, j] for i in range(n_per_side) for j in range(n_per_side)], dtype=float)
    G = pairwise_distances(grid)
    Y = nldr.Isomap(n_neighbors=4, n_components=2).fit_transform(grid)
    np.testing.assert_allclose(pairwise_distances(Y), G, atol=1e-8)


def test_lle_on_a_grid_reconstructs_well():
    # scikit-learn's manifold tests (test_locally_linear) test_lle_simple_grid: LLE's reconstruction error on a grid is small.
    rng = np.random.RandomState(0)
    X = np.array([[i, j] for i in range(5) for j in range(5)], dtype=float) + 1e-10 * rng.uniform(size=(25, 2))
    model = nldr.LocallyLinearEmbedding(n_neighbors=5, n_components=2).fit(X)
    weights_error = np.linalg.norm(model.embedding_ - model.embedding_.mean(axis=0))
    assert weights_error > 0
    assert model.reconstruction_error_ < 0.01


@pytest.mark.parametrize("cls", ["Isomap", "LocallyLinearEmbedding", "SpectralEmbedding"])
def test_pipeline(cls):
    # scikit-learn's manifold tests (test_isomap) test_pipeline / scikit-learn's manifold tests (test_locally_linear) test_pipeline: the embedding as a
    # preprocessing step of a classifier on scikit-learn's blobs scores well.
    from sklearn import datasets, neighbors, pipeline
    X, y = datasets.make_blobs(random_state=0)
    clf = pipeline.Pipeline([("embed", getattr(nldr, cls)(n_neighbors=10)),
                             ("clf", neighbors.KNeighborsClassifier())])
    clf.fit(X, y)
    assert clf.score(X, y) > 0.9


def test_grid_search_clones_the_estimators(swiss_roll):
    from sklearn.base import clone
    model = nldr.Isomap(n_neighbors=7, neighbors="shared", neighbors_params={"ratio": 0.3})
    copy = clone(model)
    assert copy.get_params() == model.get_params()
    model.set_params(n_neighbors=9)
    assert model.n_neighbors == 9
