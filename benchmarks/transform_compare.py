#!/usr/bin/python3
"""Out-of-sample transform: nldr (the tool, `embed --save-model` then `transform`) vs scikit-learn.

Usage:  /usr/bin/python3 benchmarks/transform_compare.py NLDR_TOOL [speed|heldout|digits|all]

speed:   10,000 new Swiss-roll points placed by a model fit on N training points (LLE N = 50,000,
         Isomap N = 10,000 with double and with float geodesics, Laplacian Eigenmaps N = 50,000;
         k = 10, d = 2). nldr's figures: the tool's own "transform" stage (in-library) and the whole
         `nldr transform` process (model load, CSV read and write included), the median of three
         runs by process time; scikit-learn's: its transform() call, in its own process, on the
         same points. Ratio = scikit-learn / nldr.
heldout: fit on 80% of a 10,000-point Swiss roll, transform the other 20%: residual variance of the
         transformed points against their true coordinates vs that of the fitted points, every
         method of the registry (read from the Python package built beside the tool).
digits:  scikit-learn's digits (1797 x 64), 5-fold cross-validation: each fold's test images are
         placed by transform of a model fit on the other four; the 7-NN classification error of the
         test embedding against the training embedding, nldr vs scikit-learn's Isomap and LLE
         (n_neighbors 10, 2 and 10 components).
Each side runs in its own process; data go through CSV files in a temporary directory.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

PY = "/usr/bin/python3"

SKLEARN_TRANSFORM = r"""
import json, sys, time
import numpy as np
from sklearn.manifold import Isomap, LocallyLinearEmbedding, SpectralEmbedding
method, train, new, k = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
X = np.loadtxt(train, delimiter=","); X_new = np.loadtxt(new, delimiter=",")
if method == "lle":
    est = LocallyLinearEmbedding(n_neighbors=k, n_components=2, eigen_solver="arpack", random_state=0)
else:
    est = Isomap(n_neighbors=k, n_components=2)
t = time.perf_counter(); est.fit(X); fit = time.perf_counter() - t
t = time.perf_counter(); est.transform(X_new); seconds = time.perf_counter() - t
print(json.dumps({"fit": fit, "transform": seconds}))
"""


def tool(nldr, *args):
    out = subprocess.run([nldr, *args], check=True, capture_output=True, text=True).stdout
    return json.loads(out) if out.strip().startswith("{") else None


def write(path, a):
    np.savetxt(path, a, delimiter=",", fmt="%.17g")


def residual_variance(truth, Y):
    """1 - r^2 between all pairwise distances of the truth and of Y (the metric's definition)."""
    from scipy.spatial.distance import pdist
    r = np.corrcoef(pdist(truth), pdist(Y))[0, 1]
    return 1 - r * r


def unexplained(Y, truth, Yn, truth_n):
    """1 - R^2 of the truth regressed on [1, Y] (fit on the training points), for them and for the
    held-out points through the same map: insensitive to the per-coordinate scaling of spectral methods."""
    design = lambda A: np.column_stack([np.ones(len(A)), A])
    coef, *_ = np.linalg.lstsq(design(Y), truth, rcond=None)
    err = lambda A, T: ((design(A) @ coef - T) ** 2).sum() / ((T - T.mean(0)) ** 2).sum()
    return err(Y, truth), err(Yn, truth_n)


def generate(nldr, tmp, n, seed):
    X, T = os.path.join(tmp, f"roll{n}.csv"), os.path.join(tmp, f"truth{n}.csv")
    subprocess.run([nldr, "generate", "swiss-roll", "--n", str(n), "--seed", str(seed), "--out", X, "--truth", T],
                   check=True)
    return np.loadtxt(X, delimiter=","), np.loadtxt(T, delimiter=",")


def speed(nldr, tmp):
    print("| method | N train | new points | nldr transform (in-library) | nldr transform (process) "
          "| scikit-learn transform | ratio (library) | ratio (process) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    # Isomap twice: double geodesics (an 800 MB model file) and storage = float (400 MB).
    for method, n, extra in (("lle", 50000, []), ("isomap", 10000, []), ("isomap", 10000, ["--storage", "float"]),
                             ("laplacian-eigenmaps", 50000, [])):
        X, _ = generate(nldr, tmp, n + 10000, 11)
        train, new = os.path.join(tmp, "train.csv"), os.path.join(tmp, "new.csv")
        write(train, X[:n]), write(new, X[n:])
        model = os.path.join(tmp, "m.nldr")
        tool(nldr, "embed", "--in", train, "--out", os.path.join(tmp, "Y.csv"), "--method", method, "--k", "10",
             "--save-model", model, *extra)
        label = f"{method} ({os.path.getsize(model) / 1e6:.0f} MB model{', float' if extra else ''})"
        runs = []  # (process, in-library) of three runs, the median by process time
        for _ in range(3):
            t = time.perf_counter()
            report = tool(nldr, "transform", "--model", model, "--in", new, "--out", os.path.join(tmp, "Yn.csv"),
                          "--json")
            runs.append((time.perf_counter() - t, report["times"]["transform"]))
        process, library = sorted(runs)[1]
        if method == "laplacian-eigenmaps":  # scikit-learn's SpectralEmbedding has no transform
            sk = "n/a (no transform)"
            print(f"| {label} | {n} | 10000 | {library:.3f} s | {process:.3f} s | {sk} | | |")
            continue
        out = subprocess.run([PY, "-c", SKLEARN_TRANSFORM, "lle" if method == "lle" else "isomap", train, new, "10"],
                             check=True, capture_output=True, text=True).stdout
        sk = json.loads(out)["transform"]
        print(f"| {label} | {n} | 10000 | {library:.3f} s | {process:.3f} s | {sk:.3f} s | {sk / library:.1f}x "
              f"| {sk / process:.1f}x |")


def registry_methods(nldr):
    """Every method of the registry and its inputs, from the Python package built beside the tool
    (BUILD/tools/nldr -> BUILD/python), so that this script lists no method by hand."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(nldr))), "python"))
    import nldr as package
    return {m["name"]: m["inputs"] for m in package.methods()}


def heldout(nldr, tmp):
    X, T = generate(nldr, tmp, 10000, 12)
    test = np.arange(10000) % 5 == 0
    train_csv, new_csv = os.path.join(tmp, "train.csv"), os.path.join(tmp, "new.csv")
    write(train_csv, X[~test]), write(new_csv, X[test])
    methods = registry_methods(nldr)
    print("| method | residual variance vs truth, fitted (sample of 2000) | transformed (2000) | "
          "1 - R^2 of the truth, affine on fitted | same map, transformed | "
          "max deviation, transform of the training points |")
    print("|---|---:|---:|---:|---:|---:|")
    for method in methods:
        model, Y_csv = os.path.join(tmp, "m.nldr"), os.path.join(tmp, "Y.csv")
        args = ["embed", "--in", train_csv, "--out", Y_csv, "--method", method, "--save-model", model]
        if "graph" in methods[method]:
            args += ["--k", "10"]
        tool(nldr, *args)
        tool(nldr, "transform", "--model", model, "--in", new_csv, "--out", os.path.join(tmp, "Yn.csv"))
        tool(nldr, "transform", "--model", model, "--in", train_csv, "--out", os.path.join(tmp, "Yt.csv"))
        Y, Yn, Yt = (np.loadtxt(os.path.join(tmp, f), delimiter=",") for f in ("Y.csv", "Yn.csv", "Yt.csv"))
        sample = np.arange(len(Y)) % 4 == 0  # 2000 of the fitted points, like the transformed ones
        fit_err, new_err = unexplained(Y, T[~test], Yn, T[test])
        print(f"| {method} | {residual_variance(T[~test][sample], Y[sample]):.4f} | "
              f"{residual_variance(T[test], Yn):.4f} | {fit_err:.4f} | {new_err:.4f} | {np.abs(Yt - Y).max():.2e} |")


SKLEARN_DIGITS = r"""
import json, sys
import numpy as np
from sklearn.manifold import Isomap, LocallyLinearEmbedding
from sklearn.neighbors import KNeighborsClassifier
method, dim = sys.argv[1], int(sys.argv[2])
X = np.loadtxt(sys.argv[3], delimiter=","); y = np.loadtxt(sys.argv[4], delimiter=",").astype(int)
folds = np.arange(len(X)) % 5
errors = []
for f in range(5):
    tr, te = folds != f, folds == f
    est = Isomap(n_neighbors=10, n_components=dim) if method == "isomap" else \
        LocallyLinearEmbedding(n_neighbors=10, n_components=dim, eigen_solver="dense", random_state=0)
    Ytr = est.fit_transform(X[tr]); Yte = est.transform(X[te])
    knn = KNeighborsClassifier(7).fit(Ytr, y[tr])
    errors.append(float(np.mean(knn.predict(Yte) != y[te])))
print(json.dumps({"error": float(np.mean(errors))}))
"""


def digits(nldr, tmp):
    from sklearn.datasets import load_digits
    from sklearn.neighbors import KNeighborsClassifier
    data = load_digits()
    X, y = data.data, data.target
    X_csv, y_csv = os.path.join(tmp, "digits.csv"), os.path.join(tmp, "labels.csv")
    write(X_csv, X), np.savetxt(y_csv, y, fmt="%d")
    folds = np.arange(len(X)) % 5
    print("| method | d | nldr 7-NN error (transform) | scikit-learn 7-NN error (transform) |")
    print("|---|---:|---:|---:|")
    for method in ("isomap", "lle", "ltsa", "laplacian-eigenmaps", "landmark-isomap", "pca"):
        for dim in (2, 10):
            errors = []
            for f in range(5):
                tr, te = folds != f, folds == f
                train_csv, test_csv = os.path.join(tmp, "tr.csv"), os.path.join(tmp, "te.csv")
                write(train_csv, X[tr]), write(test_csv, X[te])
                model = os.path.join(tmp, "m.nldr")
                args = ["embed", "--in", train_csv, "--out", os.path.join(tmp, "Y.csv"), "--method", method,
                        "--dim", str(dim), "--save-model", model]
                if method != "pca":
                    args += ["--k", "10"]
                try:
                    tool(nldr, *args)
                except subprocess.CalledProcessError as e:
                    errors = None
                    reason = e.stderr.strip()
                    break
                tool(nldr, "transform", "--model", model, "--in", test_csv, "--out", os.path.join(tmp, "Yt.csv"))
                Ytr = np.loadtxt(os.path.join(tmp, "Y.csv"), delimiter=",", ndmin=2)
                Yte = np.loadtxt(os.path.join(tmp, "Yt.csv"), delimiter=",", ndmin=2)
                knn = KNeighborsClassifier(7).fit(Ytr, y[tr])
                errors.append(float(np.mean(knn.predict(Yte) != y[te])))
            nl = f"{np.mean(errors):.3f}" if errors else f"fails: {reason}"
            sk = ""
            if method in ("isomap", "lle"):
                out = subprocess.run([PY, "-c", SKLEARN_DIGITS, method, str(dim), X_csv, y_csv], check=True,
                                     capture_output=True, text=True).stdout
                sk = f"{json.loads(out)['error']:.3f}"
            print(f"| {method} | {dim} | {nl} | {sk} |")


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    nldr, what = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "all"
    with tempfile.TemporaryDirectory() as tmp:
        if what in ("speed", "all"):
            speed(nldr, tmp)
        if what in ("heldout", "all"):
            heldout(nldr, tmp)
        if what in ("digits", "all"):
            digits(nldr, tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
