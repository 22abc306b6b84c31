#!/usr/bin/python3
"""Reference stresses for tests/embed/smacof.cpp and sammon.cpp, from scikit-learn 1.2 and R's MASS.

Run from the repository root with Debian's Python (numpy, scikit-learn) and Rscript with MASS
(Debian: python3-sklearn, r-base-core, r-cran-mass):
    /usr/bin/python3 tests/data/make_mds_references.py
Writes
  tests/data/mds_swiss_roll.csv   60 x 3 points of a Swiss roll (numpy seed 7), %.17g
  tests/data/mds_eurodist.csv     21 x 21 road distances between European cities (R's datasets::eurodist)
  tests/data/mds_references.csv   one header line of names data.method.measure and one line of values:
                                  the stress each library reaches
Every stress is recomputed here from the library's returned configuration by the formulas of
docs/methods/smacof.md (pairs i < j, d = configuration distances, delta = dissimilarities):
  raw        sum (delta - d)^2                                    (scikit-learn 1.2 MDS.stress_, metric)
  kruskal    sqrt(sum (d - f)^2 / sum d^2), f = isotonic regression of d on delta  (MASS::isoMDS / 100)
  sammon     sum (delta - d)^2 / delta / sum delta                (MASS::sammon's stress)
so the C++ tests compare like with like, whatever each library's stopping rule reported.
"""
import csv
import subprocess
import sys
import tempfile

import numpy as np
import sklearn
from sklearn.isotonic import IsotonicRegression
from sklearn.manifold import MDS

assert sklearn.__version__.startswith("1.2"), sklearn.__version__


def pair_distances(Y):
    i, j = np.triu_indices(len(Y), 1)
    return np.linalg.norm(Y[i] - Y[j], axis=1)


def upper(D):
    return D[np.triu_indices(len(D), 1)]


def raw_stress(delta, Y):
    return float(((upper(delta) - pair_distances(Y)) ** 2).sum())


def kruskal_stress(delta, Y):
    d = pair_distances(Y)
    # Primary approach to ties: within equal delta, order by d (what the C++ primary fit allows).
    order = np.lexsort((d, upper(delta)))
    f = IsotonicRegression().fit_transform(np.arange(len(d)), d[order])
    return float(np.sqrt(((d[order] - f) ** 2).sum() / (d**2).sum()))


def sammon_stress(delta, Y):
    dl = upper(delta)
    return float((((dl - pair_distances(Y)) ** 2) / dl).sum() / dl.sum())


def swiss_roll(n, seed):
    rng = np.random.default_rng(seed)
    t = 1.5 * np.pi * (1 + 2 * rng.random(n))
    h = 21 * rng.random(n)
    return np.column_stack([t * np.cos(t), h, t * np.sin(t)])


def run_r(delta):
    """MASS::isoMDS and MASS::sammon (defaults: cmdscale start) on delta; returns both configurations."""
    with tempfile.TemporaryDirectory() as tmp:
        np.savetxt(f"{tmp}/d.csv", delta, delimiter=",", fmt="%.17g")
        script = f"""
            suppressMessages(library(MASS))
            d <- as.dist(as.matrix(read.csv("{tmp}/d.csv", header = FALSE)))
            iso <- isoMDS(d, k = 2, maxit = 1000, tol = 1e-7, trace = FALSE)
            sam <- sammon(d, k = 2, niter = 10000, tol = 1e-9, trace = FALSE)
            write.table(iso$points, "{tmp}/iso.csv", sep = ",", row.names = FALSE, col.names = FALSE)
            write.table(sam$points, "{tmp}/sam.csv", sep = ",", row.names = FALSE, col.names = FALSE)
        """
        subprocess.run(["Rscript", "-e", script], check=True)
        return np.loadtxt(f"{tmp}/iso.csv", delimiter=","), np.loadtxt(f"{tmp}/sam.csv", delimiter=",")


def eurodist():
    out = subprocess.run(["Rscript", "-e", "write.table(as.matrix(eurodist), sep = ',', row.names = FALSE, "
                          "col.names = FALSE)"], check=True, capture_output=True, text=True).stdout
    return np.array([[float(v) for v in line.split(",")] for line in out.strip().splitlines()])


def main():
    X = swiss_roll(60, 7)
    np.savetxt("tests/data/mds_swiss_roll.csv", X, delimiter=",", fmt="%.17g")
    E = eurodist()
    np.savetxt("tests/data/mds_eurodist.csv", E, delimiter=",", fmt="%.17g")
    rows = []
    for name, delta in [("swiss_roll", np.linalg.norm(X[:, None] - X[None], axis=2)), ("eurodist", E)]:
        for metric in (True, False):
            mds = MDS(n_components=2, metric=metric, n_init=4, max_iter=3000, eps=1e-9, random_state=0,
                      dissimilarity="precomputed", normalized_stress=False)
            Y = mds.fit_transform(delta)
            if metric:
                rows.append((name, "sklearn_mds_metric", "raw", raw_stress(delta, Y)))
            else:
                rows.append((name, "sklearn_mds_nonmetric", "kruskal", kruskal_stress(delta, Y)))
        iso, sam = run_r(delta)
        rows.append((name, "mass_isomds", "kruskal", kruskal_stress(delta, iso)))
        rows.append((name, "mass_sammon", "sammon", sammon_stress(delta, sam)))
    with open("tests/data/mds_references.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow([".".join(row[:3]) for row in rows])
        writer.writerow([repr(row[3]) for row in rows])
    for row in rows:
        print(*row, file=sys.stderr)


if __name__ == "__main__":
    main()
