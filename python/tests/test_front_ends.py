"""The tool and the Python estimators are two front ends of one pipeline (docs/pipeline.md): the same
input and parameters give the same embedding, for every registry method and every selector.

The tool is the one this build made: run-tests.sh sets NLDR_TOOL to it (docs/python.md, "Tests").
"""
import json
import os
import subprocess

import numpy as np
import pytest

import nldr
from nldr import _nldr
from nldr.estimators import _class_name

TOOL = os.environ.get("NLDR_TOOL")
pytestmark = pytest.mark.skipif(not TOOL, reason="NLDR_TOOL (the nldr executable) is not set: run scripts/run-tests.sh")

K = 12
DIM = 3  # the curvature selector's intrinsic_dim is the method's d: 3, not its own default 2
SELECTOR_OPTIONS = {"epsilon": {"radius": 2.5}}


@pytest.fixture(scope="module")
def points(tmp_path_factory):
    """A noisy Swiss roll in 5-D (N = 160), and its CSV for the tool."""
    rng = np.random.default_rng(3)
    t = 1.5 * np.pi * (1 + 2 * rng.random(160))
    X = np.column_stack([t * np.cos(t), 10 * rng.random(160), t * np.sin(t), rng.normal(0, 0.3, (160, 2))])
    path = tmp_path_factory.mktemp("front_ends") / "x.csv"
    np.savetxt(path, X, delimiter=",", fmt="%.17g")
    return X, path


def _combinations():
    selectors = [s["name"] for s in _nldr.selectors()]
    for entry in _nldr.embedders():
        if "graph" in entry["inputs"]:
            for selector in selectors:
                yield entry["name"], selector
        else:
            yield entry["name"], None


def _tool(path, tmp_path, method, selector):
    out = tmp_path / "y.csv"
    command = [TOOL, "embed", "--in", str(path), "--out", str(out), "--method", method, "--dim", str(DIM),
               "--json", "--quiet"]
    if selector is not None:
        command += ["--selector", selector]
        names = {spec["name"] for s in _nldr.selectors() if s["name"] == selector for spec in s["parameters"]}
        if "k" in names:
            command += ["--k", str(K)]
        for name, value in SELECTOR_OPTIONS.get(selector, {}).items():
            command += ["--" + name.replace("_", "-"), str(value)]
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        return None, run.stderr
    return np.loadtxt(out, delimiter=",", ndmin=2), json.loads(run.stdout)


def _python(X, method, selector):
    cls = getattr(nldr, _class_name(method))
    keywords = {"n_components": DIM}
    if selector is not None:
        keywords.update(n_neighbors=K, neighbors=selector, neighbors_params=SELECTOR_OPTIONS.get(selector))
    try:
        estimator = cls(**keywords)
        return estimator.fit_transform(X), estimator
    except (ValueError, RuntimeError, MemoryError) as error:  # nldr's errors derive from these
        return None, str(error)


@pytest.mark.parametrize("method,selector", list(_combinations()))
def test_tool_and_python_give_the_same_embedding(points, tmp_path, method, selector):
    X, path = points
    Y_tool, report = _tool(path, tmp_path, method, selector)
    Y_python, estimator = _python(X, method, selector)
    # Both refuse, or both embed.
    assert (Y_tool is None) == (Y_python is None), f"tool: {report if Y_tool is None else 'ok'}; python: {estimator}"
    if Y_tool is None:
        return
    # The CSV holds the shortest text that round-trips each double, so the two must agree to the last
    # bit; 1e-12 of the embedding's extent allows for nothing but that.
    scale = np.abs(Y_python).max()
    np.testing.assert_allclose(Y_tool, Y_python, rtol=0, atol=1e-12 * scale)
    if selector is not None:
        assert report["selector_parameters"] == estimator.graph_selector_parameters_


def test_tool_and_python_give_the_same_supervised_embedding(points, tmp_path):
    """UMAP with labels (target_weight): nldr embed --labels and nldr.UMAP().fit(X, y) agree to the last bit,
    and the labels change the layout."""
    X, path = points
    y = (X[:, 1] > 5).astype(int)
    y[::7] = -1  # unknown
    np.savetxt(tmp_path / "labels.csv", y, fmt="%d")
    out = tmp_path / "y.csv"
    subprocess.run([TOOL, "embed", "--in", str(path), "--out", str(out), "--method", "umap", "--k", str(K),
                    "--n-epochs", "60", "--labels", str(tmp_path / "labels.csv"), "--quiet"], check=True)
    Y_tool = np.loadtxt(out, delimiter=",", ndmin=2)
    Y_python = nldr.UMAP(n_neighbors=K, n_epochs=60).fit_transform(X, y)
    scale = np.abs(Y_python).max()
    np.testing.assert_allclose(Y_tool, Y_python, rtol=0, atol=1e-12 * scale)
    Y_unsupervised = nldr.UMAP(n_neighbors=K, n_epochs=60).fit_transform(X)
    assert np.abs(Y_unsupervised - Y_python).max() > 1e-3 * scale


def test_tool_and_python_take_the_same_umap_optimizer(points, tmp_path):
    """UMAP's `optimizer` choice reaches the fit from both front ends: sgd agrees to the last bit between
    nldr embed --optimizer sgd and nldr.UMAP(optimizer="sgd"), and differs from the default, adam."""
    X, path = points
    out = tmp_path / "y.csv"
    subprocess.run([TOOL, "embed", "--in", str(path), "--out", str(out), "--method", "umap", "--k", str(K),
                    "--n-epochs", "60", "--optimizer", "sgd", "--quiet"], check=True)
    Y_tool = np.loadtxt(out, delimiter=",", ndmin=2)
    Y_python = nldr.UMAP(n_neighbors=K, n_epochs=60, optimizer="sgd").fit_transform(X)
    scale = np.abs(Y_python).max()
    np.testing.assert_allclose(Y_tool, Y_python, rtol=0, atol=1e-12 * scale)
    Y_adam = nldr.UMAP(n_neighbors=K, n_epochs=60).fit_transform(X)
    assert np.abs(Y_adam - Y_python).max() > 1e-3 * scale
    with pytest.raises(ValueError, match="optimizer"):
        nldr.UMAP(optimizer="momentum").fit(X)


@pytest.mark.parametrize("geodesic_k", [None, 5, 40])
def test_tool_and_python_report_the_same_quality(points, tmp_path, geodesic_k):
    """nldr evaluate --json and nldr.metrics.quality_report: the same measures under the same names,
    with the same values (three separate blobs make the 5-NN graph disconnected: no geodesic value)."""
    X, path = points
    X = X.copy()
    X[:50, 0] += 1000
    X[50:100, 1] += 1000
    np.savetxt(tmp_path / "x.csv", X, delimiter=",", fmt="%.17g")
    Y = X[:, :2]
    np.savetxt(tmp_path / "y.csv", Y, delimiter=",", fmt="%.17g")
    command = [TOOL, "evaluate", "--in", str(tmp_path / "x.csv"), "--embedding", str(tmp_path / "y.csv"), "--json",
               "--quiet"]
    if geodesic_k:
        command += ["--geodesic-k", str(geodesic_k)]
    run = subprocess.run(command, capture_output=True, text=True, check=True)
    tool = json.loads(run.stdout)
    python = nldr.metrics.quality_report(X, Y, 10, geodesic_k=geodesic_k)
    tool_only = {"command", "input", "embedding", "residual_variance_reference", "times",
                 "peak_memory_bytes", "threads"}
    assert set(python) == set(tool) - tool_only
    for key, value in python.items():
        if isinstance(value, float):
            assert tool[key] == pytest.approx(value, rel=1e-12, abs=1e-15), key
        else:
            assert tool[key] == value, key
    if geodesic_k == 5:
        assert python["residual_variance_geodesic"] is None and "connected components" in python["geodesic_unavailable"]
