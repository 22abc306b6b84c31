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


def test_disconnected_graph_raises_when_asked(swiss_roll):
    X = np.vstack([swiss_roll[:100], swiss_roll[:100] + 1000.0])
    with pytest.raises(nldr.DisconnectedGraphError):
        nldr.Isomap(n_neighbors=5, disconnected="error").fit(X)
    with pytest.raises(ValueError, match="disconnected"):
        nldr.Isomap(disconnected="maybe").fit(X)


def test_disconnected_graph_is_joined_as_sklearn_joins_it(swiss_roll):
    # Two copies of a roll, 30 apart: scikit-learn's Isomap joins the two components by their closest
    # pair (with a warning), which is the one edge nldr's spanning tree adds, so the geodesics and the
    # embeddings agree. N = 200: both sides use a dense eigensolver, hence the tight tolerance.
    sklearn_manifold = pytest.importorskip("sklearn.manifold")
    X = np.vstack([swiss_roll[:100], swiss_roll[:100] + 30.0])
    with pytest.warns(UserWarning, match="2 connected components"):
        ours = nldr.Isomap(n_neighbors=6, n_components=2).fit(X)
    assert ours.n_graph_components_ == 2
    with pytest.warns(UserWarning):
        theirs = sklearn_manifold.Isomap(n_neighbors=6, n_components=2).fit_transform(X)
    signs = np.sign(np.sum(ours.embedding_ * theirs, axis=0))
    np.testing.assert_allclose(ours.embedding_ * signs, theirs, atol=1e-8 * np.abs(theirs).max())


def test_results_become_fitted_attributes(swiss_roll):
    model = nldr.LocallyLinearEmbedding(n_neighbors=12).fit(swiss_roll)
    assert model.reconstruction_error_ >= 0
    assert model.n_features_in_ == 3
    assert nldr.Isomap(n_neighbors=10).fit(swiss_roll).residual_variance_ < 0.2


# Ports of scikit-learn's manifold tests (its Isomap and locally linear tests: the grid, the
# pipeline), in nldr's API.
@pytest.mark.parametrize("dtype, atol", [(np.float64, 1e-8), (np.float32, 1e-4)])
@pytest.mark.parametrize("neighbors", [
    {"n_neighbors": 24},                                           # every other point of the 25
    {"neighbors": "epsilon", "neighbors_params": {"radius": 100.0}},  # a radius beyond the diameter
])
def test_isomap_on_a_grid_keeps_the_grid_distances(dtype, atol, neighbors):
    # When every pair of points is joined, the geodesic distances are the Euclidean ones, so Isomap
    # (classical scaling of them) reproduces the grid's pairwise distances exactly.
    from sklearn.metrics import pairwise_distances
    grid = np.array([[i, j] for i in range(5) for j in range(5)], dtype=dtype)
    Y = nldr.Isomap(n_components=2, **neighbors).fit_transform(grid)
    assert Y.dtype == dtype
    np.testing.assert_allclose(pairwise_distances(Y), pairwise_distances(grid), atol=atol)


def test_lle_on_a_grid_reconstructs_well():
    # A slightly perturbed grid is reconstructed almost exactly from its neighbors.
    rng = np.random.RandomState(0)
    X = np.array([[i, j] for i in range(5) for j in range(5)], dtype=float) + 1e-10 * rng.uniform(size=(25, 2))
    model = nldr.LocallyLinearEmbedding(n_neighbors=5, n_components=2).fit(X)
    weights_error = np.linalg.norm(model.embedding_ - model.embedding_.mean(axis=0))
    assert weights_error > 0
    assert model.reconstruction_error_ < 0.01


@pytest.mark.parametrize("cls", ["Isomap", "LocallyLinearEmbedding", "SpectralEmbedding"])
def test_pipeline(cls):
    # The embedding as the preprocessing step of a classifier on scikit-learn's blobs scores well.
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


def test_grid_search_over_an_embedding_in_a_pipeline():
    # GridSearchCV clones the pipeline, sets the embedding's parameters by name and refits it on
    # every fold: get_params/set_params/clone must round-trip every generated keyword.
    from sklearn import datasets, model_selection, neighbors, pipeline
    X, y = datasets.make_blobs(n_samples=120, random_state=0)
    clf = pipeline.Pipeline([("embed", nldr.Isomap()), ("clf", neighbors.KNeighborsClassifier())])
    search = model_selection.GridSearchCV(clf, {"embed__n_neighbors": [6, 12], "embed__n_components": [1, 2]}, cv=3)
    search.fit(X, y)
    assert len(search.cv_results_["params"]) == 4
    assert search.best_score_ > 0.9
    assert search.best_estimator_.named_steps["embed"].n_neighbors in (6, 12)


def test_precomputed_graph_as_a_fit_parameter_of_a_pipeline(swiss_roll):
    from sklearn import pipeline, preprocessing
    X = swiss_roll[:300]
    G = nldr.neighbors.knn(X, k=10)
    clf = pipeline.Pipeline([("embed", nldr.Isomap()), ("scale", preprocessing.StandardScaler())])
    Y = clf.fit_transform(X, embed__graph=G)
    direct = nldr.Isomap(n_neighbors=10).fit_transform(X)
    np.testing.assert_allclose(np.abs(Y), np.abs(preprocessing.StandardScaler().fit_transform(direct)), atol=1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("cls", ["Isomap", "LocallyLinearEmbedding", "SpectralEmbedding"])
def test_c_and_fortran_order_give_the_same_fit(swiss_roll, dtype, cls):
    X = swiss_roll[:300].astype(dtype)
    C = getattr(nldr, cls)(n_neighbors=10).fit(np.ascontiguousarray(X))
    F = getattr(nldr, cls)(n_neighbors=10).fit(np.asfortranarray(X))
    assert C.embedding_.dtype == dtype and F.embedding_.dtype == dtype
    np.testing.assert_array_equal(C.embedding_, F.embedding_)
    np.testing.assert_array_equal(C.transform(np.asfortranarray(X[:10])), C.transform(X[:10]))


def test_fitted_attributes_and_feature_count(swiss_roll):
    from sklearn.exceptions import NotFittedError
    with pytest.raises(NotFittedError):
        nldr.Isomap().transform(swiss_roll)
    model = nldr.Isomap(n_neighbors=10, n_components=3).fit(swiss_roll)
    assert model.n_features_in_ == 3 and model.embedding_.shape == (800, 3)
    # Classical scaling's eigenvalues: descending and non-negative, the variances of the coordinates.
    assert np.all(np.diff(model.eigenvalues_) <= 0) and np.all(model.eigenvalues_ > 0)
    np.testing.assert_allclose(model.eigenvalues_ / len(swiss_roll), np.var(model.embedding_, axis=0), rtol=1e-6)
    with pytest.raises(ValueError, match="features"):
        model.transform(swiss_roll[:, :2])


def test_errors_carry_nldrs_messages(swiss_roll):
    with pytest.raises(ValueError, match=r"k = 5000 must be < N = 800"):
        nldr.Isomap(n_neighbors=5000).fit(swiss_roll)
    with pytest.raises(ValueError, match='did you mean "knn"'):
        nldr.Isomap(neighbors="knnn").fit(swiss_roll)
    with pytest.raises(ValueError, match="graph has shape"):
        nldr.Isomap().fit(swiss_roll, graph=nldr.neighbors.knn(swiss_roll[:100], k=5))


def test_the_gil_is_released_during_a_fit():
    # Another Python thread keeps running while a fit computes in C++.
    import threading
    import time
    X = np.random.RandomState(0).normal(size=(1500, 5))
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    start = time.perf_counter()
    nldr.Isomap(n_neighbors=10, n_jobs=1).fit(X)
    elapsed = time.perf_counter() - start
    done.set()
    counter.join()
    during = [t for t in ticks if start <= t <= start + elapsed]
    assert elapsed > 0.05
    # With the GIL held the counter could not tick during the fit; released, it ticks about every ms.
    assert len(during) >= 10


def _run_in_a_new_interpreter(program, timeout):
    # A SIGINT sent to pytest's own process would interrupt the test run itself.
    import os
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ))


def test_keyboard_interrupt_during_a_fit_is_raised():
    # SIGINT arrives in the middle of a fit: Isomap stops at its next progress report and
    # KeyboardInterrupt is raised (docs/python.md, "Ctrl-C").
    program = (
        "import os, signal, threading, numpy as np, nldr\n"
        "X = np.random.RandomState(0).normal(size=(2500, 5))\n"
        "threading.Timer(0.1, os.kill, (os.getpid(), signal.SIGINT)).start()\n"
        "try:\n"
        "    nldr.Isomap(n_neighbors=10).fit(X)\n"
        "    print('finished')\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted')\n")
    result = _run_in_a_new_interpreter(program, timeout=120)
    assert result.stdout.strip() == "interrupted", result.stderr


def test_keyboard_interrupt_stops_a_spectral_fit_early():
    # Laplacian Eigenmaps reports every product of its eigensolver (docs/python.md, "Ctrl-C"); with 20
    # coordinates the products are most of the fit, so a SIGINT at a quarter of an uninterrupted fit's
    # time stops the fit well before it would end (measured: at 0.25-0.29 of it). N doubles from
    # 20,000 until a fit takes over 1.5 s, so that the timer lands inside the fit on any machine and
    # the signal's latency (a GIL check every 20 ms, one Lanczos product; 0.19 s once on a loaded CI
    # machine, which failed this test when the fit took 0.5 s) stays a small part of it.
    program = (
        "import os, signal, threading, time, numpy as np, nldr\n"
        "n = 20000\n"
        "while True:\n"
        "    u, v = np.random.RandomState(0).uniform(size=(2, n))\n"
        "    t = 1.5 * np.pi * (1 + 2 * u)\n"
        "    X = np.column_stack([t * np.cos(t), 21 * v, t * np.sin(t)])\n"
        "    fit = lambda: nldr.SpectralEmbedding(n_neighbors=10, n_components=20).fit(X)\n"
        "    start = time.perf_counter(); fit(); full = time.perf_counter() - start\n"
        "    if full > 1.5 or n >= 640000: break\n"
        "    n *= 2\n"
        "threading.Timer(full / 4, os.kill, (os.getpid(), signal.SIGINT)).start()\n"
        "start = time.perf_counter()\n"
        "try:\n"
        "    fit()\n"
        "    print('finished', full)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', full, time.perf_counter() - start)\n")
    result = _run_in_a_new_interpreter(program, timeout=300)
    words = result.stdout.split()
    assert words and words[0] == "interrupted", result.stdout + result.stderr
    full, stopped = float(words[1]), float(words[2])
    assert full > 1.5  # long enough for the timer to land inside the fit
    assert stopped < 0.6 * full, result.stdout


def test_laplacian_model_of_a_dense_graph_survives_pickling():
    # On a complete graph the normalized Laplacian's eigenvalues exceed 1 (N / (N - 1) for 0/1
    # weights); such a model must load back from its bytes like any other.
    X = np.random.RandomState(0).normal(size=(40, 3))
    model = nldr.SpectralEmbedding(neighbors="epsilon", neighbors_params={"radius": 100.0}, heat_t=float("inf")).fit(X)
    np.testing.assert_allclose(model.eigenvalues_, 40 / 39, rtol=1e-8)
    copy = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(copy.transform(X[:5] + 0.01), model.transform(X[:5] + 0.01))


def test_umap_keeps_umap_learns_names_and_takes_labels():
    # Two classes drawn from one Gaussian: only the labels can separate them (docs/methods/umap.md).
    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 5))
    y = np.arange(300) % 2
    umap = nldr.UMAP(n_components=2, min_dist=0.1, spread=1.0, n_epochs=200, learning_rate=1.0,
                     negative_sample_rate=5, repulsion_strength=1.0, local_connectivity=1.0,
                     set_op_mix_ratio=1.0, target_weight=0.5, init="spectral", random_state=0)
    assert umap.n_neighbors is None  # the method's own k: 15
    plain = umap.fit(X).embedding_
    assert umap.graph_selector_parameters_["k"] == "15"
    supervised = nldr.UMAP(n_epochs=200, random_state=0).fit(X, y).embedding_
    assert not np.array_equal(plain, supervised)

    def nearest_same(Y):
        d = ((Y[:, None, :] - Y[None, :, :]) ** 2).sum(-1)
        np.fill_diagonal(d, np.inf)
        return np.mean(y[d.argmin(1)] == y)
    assert nearest_same(plain) < 0.7
    assert nearest_same(supervised) > 0.95
    # Text labels are numbered; a method without target_weight ignores y as before.
    text = np.where(y == 0, "a", "b")
    assert np.array_equal(nldr.UMAP(n_epochs=200, random_state=0).fit(X, text).embedding_, supervised)
    nldr.Isomap(n_neighbors=10).fit(X, y)
