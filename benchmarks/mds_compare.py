#!/usr/bin/python3
"""nldr's SMACOF and Sammon vs scikit-learn 1.2's MDS and R's MASS (sammon, isoMDS) on the same points.

Usage:  /usr/bin/python3 benchmarks/mds_compare.py BUILD_DIR [N ...]
        (BUILD_DIR configured with -DNLDR_BUILD_BENCHMARKS=ON; default N: 1000 2000)

Data: scikit-learn's make_swiss_roll(N, random_state=0) and the first N rows of load_digits (64-D; it has
1797 rows, so N = 2000 uses all 1797). Every run is its own process (nldr: bench_mds_methods; Python;
Rscript), timed inside around the fit alone. Each returns its configuration and this driver computes the
stress of every configuration with the same formulas (docs/methods/smacof.md, sammon.md):
  raw      sum_{i<j} (delta - d)^2                       metric MDS
  kruskal  sqrt(sum (d - f)^2 / sum d^2), f = isotonic regression of d on delta   non-metric MDS
  sammon   sum (delta - d)^2 / delta / sum delta          Sammon's mapping
Settings: scikit-learn MDS(n_init=4, max_iter=300, eps=1e-3) (eps is an absolute bound on the change of
stress / sum_i |x_i|; on these data that is a relative change of ~1e-6 or less, so nldr runs n_init=4,
max_iterations=300, tolerance=1e-6); MASS::sammon and MASS::isoMDS with their defaults (sammon: niter 100,
tol 1e-4; isoMDS: maxit 50, tol 1e-3), nldr's Sammon and non-metric SMACOF (n_init 1) with theirs.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.datasets import load_digits, make_swiss_roll
from sklearn.isotonic import IsotonicRegression

PY = "/usr/bin/python3"

SKLEARN = r"""
import json, sys, time, warnings
import numpy as np
from sklearn.manifold import MDS
X = np.loadtxt(sys.argv[1], delimiter=",")
mds = MDS(n_components=2, metric=sys.argv[2] == "metric", n_init=4, max_iter=300, eps=1e-3, random_state=0,
          normalized_stress=False)
t = time.perf_counter()
Y = mds.fit_transform(X)
seconds = time.perf_counter() - t
np.savetxt(sys.argv[3], Y, delimiter=",")
print(json.dumps({"seconds": seconds, "iterations": int(mds.n_iter_)}))
"""

R_SCRIPT = r"""
args <- commandArgs(trailingOnly = TRUE)
suppressMessages(library(MASS))
d <- dist(as.matrix(read.csv(args[1], header = FALSE)))
if (args[2] == "sammon") {
  seconds <- system.time(fit <- sammon(d, k = 2, trace = FALSE))[["elapsed"]]
} else {
  seconds <- system.time(fit <- isoMDS(d, k = 2, trace = FALSE))[["elapsed"]]
}
write.table(fit$points, args[3], sep = ",", row.names = FALSE, col.names = FALSE)
cat(sprintf('{"seconds": %.6f}\n', seconds))
"""


def run(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def pair_distances(Y):
    i, j = np.triu_indices(len(Y), 1)
    return np.sqrt(((Y[i] - Y[j]) ** 2).sum(axis=1))


def stresses(X, Y):
    delta, d = pair_distances(X), pair_distances(Y)
    order = np.lexsort((d, delta))  # primary ties
    f = IsotonicRegression().fit_transform(np.arange(len(d)), d[order])
    return {"raw": float(((delta - d) ** 2).sum()),
            "kruskal": float(np.sqrt(((d[order] - f) ** 2).sum() / (d**2).sum())),
            "sammon": float(((delta - d) ** 2 / delta).sum() / delta.sum())}


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    bench = os.path.join(sys.argv[1], "benchmarks", "bench_mds_methods")
    sizes = [int(a) for a in sys.argv[2:]] or [1000, 2000]
    digits = load_digits().data
    print(f"{'data':>12} {'N':>5} {'method':>22} {'nldr s':>8} {'other s':>8} {'speedup':>7} "
          f"{'measure':>8} {'nldr':>12} {'other':>12} {'nldr/other':>10}  notes")
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("swiss_roll", "digits"):
            for n in sizes:
                X = make_swiss_roll(n, random_state=0)[0] if name == "swiss_roll" else digits[:n]
                X = np.unique(X, axis=0)  # Sammon's stress needs distinct points
                csv = os.path.join(tmp, "X.csv")
                np.savetxt(csv, X, delimiter=",", fmt="%.17g")
                ours_y, theirs_y = os.path.join(tmp, "ours.csv"), os.path.join(tmp, "theirs.csv")
                cases = [
                    ("metric smacof/sklearn", "raw",
                     [bench, "smacof", csv, "metric", "4", "300", "1e-6", ours_y],
                     [PY, "-c", SKLEARN, csv, "metric", theirs_y]),
                    ("nonmetric smacof/sklearn", "kruskal",
                     [bench, "smacof", csv, "nonmetric", "4", "300", "1e-6", ours_y],
                     [PY, "-c", SKLEARN, csv, "nonmetric", theirs_y]),
                    ("nonmetric smacof/isoMDS", "kruskal",
                     [bench, "smacof", csv, "nonmetric", "1", "300", "1e-4", ours_y],
                     ["Rscript", "-e", R_SCRIPT, csv, "isoMDS", theirs_y]),
                    ("sammon/MASS::sammon", "sammon",
                     [bench, "sammon", csv, "500", "1e-5", ours_y],
                     ["Rscript", "-e", R_SCRIPT, csv, "sammon", theirs_y]),
                ]
                for label, measure, ours_cmd, theirs_cmd in cases:
                    if shutil.which(theirs_cmd[0]) is None:  # e.g. R (r-cran-mass) not installed
                        print(f"{name:>12} {len(X):>5} {label:>22}  not run: {theirs_cmd[0]} not found", flush=True)
                        continue
                    ours = run(ours_cmd)
                    ours_stress = stresses(X, np.loadtxt(ours_y, delimiter=","))[measure]
                    theirs = run(theirs_cmd)
                    theirs_stress = stresses(X, np.loadtxt(theirs_y, delimiter=","))[measure]
                    notes = f"nldr it {ours['iterations']}" + (f", other it {theirs['iterations']}"
                                                               if "iterations" in theirs else "")
                    print(f"{name:>12} {len(X):>5} {label:>22} {ours['seconds']:>8.2f} {theirs['seconds']:>8.2f} "
                          f"{theirs['seconds'] / ours['seconds']:>6.1f}x {measure:>8} {ours_stress:>12.6g} "
                          f"{theirs_stress:>12.6g} {ours_stress / theirs_stress:>10.4f}  {notes}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
