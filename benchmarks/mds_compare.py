#!/usr/bin/python3
"""nldr's SMACOF and Sammon vs scikit-learn 1.2's MDS and R's MASS (sammon, isoMDS) on the same points.

Usage:  /usr/bin/python3 benchmarks/mds_compare.py [--skip-metric] BUILD_DIR [N ...]
        (BUILD_DIR configured with -DNLDR_BUILD_BENCHMARKS=ON; default N: 1000 2000;
        --skip-metric: only the non-metric and Sammon comparisons)

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

Two rows per non-metric and Sammon comparison: "own rule", each side stopping by its own rule (the
settings above), and "to other's stress", the time nldr needs to reach a stress no higher than the other
side's final one (same measure, same formula): the driver runs nldr again, each run its own process, with
max_iter = 1, 2, 4, ... until the stress is low enough, then bisects to the smallest such max_iter
(everything else as in the "own rule" run, tolerance included), and reports that run's time.
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


def reach(ours_at, target, max_iter):
    """Smallest max_iter (doubling, then bisection) whose nldr run has stress <= target: (k, (out, stress))."""
    tried = {}

    def ok(k):
        tried[k] = ours_at(k)
        return tried[k][1] <= target

    hi = 1
    while hi < max_iter and not ok(hi):
        hi *= 2
    hi = min(hi, max_iter)
    if hi not in tried:
        ok(hi)
    if tried[hi][1] > target:
        return None
    lo = max((k for k in tried if tried[k][1] > target), default=0)  # the largest max_iter that fails
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi, tried[hi]


def row(name, n, label, rule, ours_s, theirs_s, measure, ours_stress, theirs_stress, notes):
    print(f"{name:>12} {n:>5} {label:>24} {rule:>9} {ours_s:>8.2f} {theirs_s:>8.2f} {theirs_s / ours_s:>6.1f}x "
          f"{measure:>8} {ours_stress:>12.6g} {theirs_stress:>12.6g} {ours_stress / theirs_stress:>10.4f}  {notes}",
          flush=True)


def main():
    args = sys.argv[1:]
    skip_metric = "--skip-metric" in args
    args = [a for a in args if a != "--skip-metric"]
    if not args:
        print(__doc__)
        return 2
    bench = os.path.join(args[0], "benchmarks", "bench_mds_methods")
    sizes = [int(a) for a in args[1:]] or [1000, 2000]
    digits = load_digits().data
    print(f"{'data':>12} {'N':>5} {'method':>24} {'stop':>9} {'nldr s':>8} {'other s':>8} {'speedup':>7} "
          f"{'measure':>8} {'nldr':>12} {'other':>12} {'nldr/other':>10}  notes")
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("swiss_roll", "digits"):
            for n in sizes:
                X = make_swiss_roll(n, random_state=0)[0] if name == "swiss_roll" else digits[:n]
                X = np.unique(X, axis=0)  # Sammon's stress needs distinct points
                csv = os.path.join(tmp, "X.csv")
                np.savetxt(csv, X, delimiter=",", fmt="%.17g")
                ours_y, theirs_y = os.path.join(tmp, "ours.csv"), os.path.join(tmp, "theirs.csv")
                # (label, measure, nldr command for a given max_iter, its max_iter, other command, search)
                cases = [
                    ("metric smacof/sklearn", "raw",
                     lambda k: [bench, "smacof", csv, "metric", "4", str(k), "1e-6", ours_y], 300,
                     [PY, "-c", SKLEARN, csv, "metric", theirs_y], False),
                    ("nonmetric smacof/sklearn", "kruskal",
                     lambda k: [bench, "smacof", csv, "nonmetric", "4", str(k), "1e-6", ours_y], 300,
                     [PY, "-c", SKLEARN, csv, "nonmetric", theirs_y], True),
                    ("nonmetric smacof/isoMDS", "kruskal",
                     lambda k: [bench, "smacof", csv, "nonmetric", "1", str(k), "1e-4", ours_y], 300,
                     ["Rscript", "-e", R_SCRIPT, csv, "isoMDS", theirs_y], True),
                    ("sammon/MASS::sammon", "sammon",
                     lambda k: [bench, "sammon", csv, str(k), "1e-5", ours_y], 500,
                     ["Rscript", "-e", R_SCRIPT, csv, "sammon", theirs_y], True),
                ]
                for label, measure, ours_cmd, max_iter, theirs_cmd, search in cases:
                    if skip_metric and label.startswith("metric"):
                        continue
                    if shutil.which(theirs_cmd[0]) is None:  # e.g. R (r-cran-mass) not installed
                        print(f"{name:>12} {len(X):>5} {label:>22}  not run: {theirs_cmd[0]} not found", flush=True)
                        continue

                    def ours_at(k):
                        out = run(ours_cmd(k))
                        return out, stresses(X, np.loadtxt(ours_y, delimiter=","))[measure]

                    ours, ours_stress = ours_at(max_iter)
                    theirs = run(theirs_cmd)
                    theirs_stress = stresses(X, np.loadtxt(theirs_y, delimiter=","))[measure]
                    notes = f"nldr it {ours['iterations']}" + (f", other it {theirs['iterations']}"
                                                               if "iterations" in theirs else "")
                    row(name, len(X), label, "own rule", ours["seconds"], theirs["seconds"], measure, ours_stress,
                        theirs_stress, notes)
                    if not search:
                        continue
                    found = reach(ours_at, theirs_stress, max_iter)
                    if found is None:
                        print(f"{name:>12} {len(X):>5} {label:>22} {'to other':>9}  nldr does not reach "
                              f"{theirs_stress:.6g} within max_iter {max_iter}", flush=True)
                        continue
                    k, (out, stress) = found
                    row(name, len(X), label, "to other", out["seconds"], theirs["seconds"], measure, stress,
                        theirs_stress, f"nldr max_iter {k} (it {out['iterations']}), found by the driver")
    return 0


if __name__ == "__main__":
    sys.exit(main())
