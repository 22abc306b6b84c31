#!/usr/bin/python3
"""nldr vs scikit-learn: Isomap (n_neighbors 12, 2 components) and PCA on the same data, same run.

Usage:  /usr/bin/python3 benchmarks/global_compare.py BUILD_DIR [N ...]
        (BUILD_DIR configured with -DNLDR_BUILD_BENCHMARKS=ON; default N: 2000 5000 10000 20000)

Every measurement is a separate process, so "peak MB" is that run's own peak resident set size
(ru_maxrss; the Python figures include the interpreter and NumPy/SciPy, about 100 MB, which
is printed as the baseline). The data is the nldr Swiss roll (seed 0), written to CSV by the
benchmark program and read by scikit-learn, so both embed exactly the same points.
scikit-learn's Isomap uses a k-d tree kNN, SciPy's Dijkstra (single thread) and ARPACK on the
centered N x N kernel (eigen_solver "auto" picks ARPACK for N > 200 and 2 components).
"""
import json
import os
import subprocess
import sys
import tempfile

PY = "/usr/bin/python3"

SKLEARN_ISOMAP = r"""
import json, resource, sys, time
import numpy as np
from sklearn.manifold import Isomap
X = np.loadtxt(sys.argv[1], delimiter=",")
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
t = time.perf_counter()
iso = Isomap(n_neighbors=12, n_components=2)
Y = iso.fit_transform(X)
seconds = time.perf_counter() - t
print(json.dumps({"seconds": seconds, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "baseline_mb": base, "reconstruction_error": float(iso.reconstruction_error())}))
"""

SKLEARN_PCA = r"""
import json, resource, sys, time
import numpy as np
from sklearn.decomposition import PCA
X = np.loadtxt(sys.argv[1], delimiter=",")
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
t = time.perf_counter()
pca = PCA(n_components=2, random_state=0)
Y = pca.fit_transform(X)
seconds = time.perf_counter() - t
print(json.dumps({"seconds": seconds, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "baseline_mb": base, "solver": pca._fit_svd_solver,
                  "ratio": [float(r) for r in pca.explained_variance_ratio_]}))
"""


def run(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    bench = os.path.join(sys.argv[1], "benchmarks", "bench_global_embedders")
    sizes = [int(a) for a in sys.argv[2:]] or [2000, 5000, 10000, 20000]
    with tempfile.TemporaryDirectory() as tmp:
        print("Isomap, Swiss roll, k = 12, d = 2")
        print(f"{'N':>7} {'nldr s':>8} {'sklearn s':>9} {'speedup':>7} {'nldr MB':>8} {'sklearn MB':>10}"
              f" {'(py base)':>9}  nldr stages (s)")
        for n in sizes:
            csv = os.path.join(tmp, f"swiss_{n}.csv")
            subprocess.run([bench, "data", "swiss", str(n), "0", csv], check=True)
            ours = run([bench, "isomap", str(n), "0", "12", "float"])
            theirs = run([PY, "-c", SKLEARN_ISOMAP, csv])
            stages = {"neighbors": ours["neighbors"], **ours["stages"]}
            print(f"{n:>7} {ours['seconds']:>8.2f} {theirs['seconds']:>9.2f} "
                  f"{theirs['seconds'] / ours['seconds']:>6.1f}x {ours['peak_mb']:>8.0f} {theirs['peak_mb']:>10.0f}"
                  f" {theirs['baseline_mb']:>9.0f}  " + ", ".join(f"{k} {v:.2f}" for k, v in stages.items()),
                  flush=True)
        print("\nPCA, 2 components, N x D Gaussian data with a decaying spectrum")
        print(f"{'N':>7} {'D':>4} {'nldr s':>8} {'sklearn s':>9} {'nldr path':>15} {'sklearn path':>12}"
              f" {'ratio[0] nldr/sklearn':>22}")
        for n in sizes:
            for d in (64, 784):
                csv = os.path.join(tmp, f"gauss_{n}_{d}.csv")
                subprocess.run([bench, "data", "gauss", str(n), str(d), "0", csv], check=True)
                ours = run([bench, "pca", str(n), str(d), "0"])
                theirs = run([PY, "-c", SKLEARN_PCA, csv])
                print(f"{n:>7} {d:>4} {ours['seconds']:>8.3f} {theirs['seconds']:>9.3f} {ours['solver']:>15}"
                      f" {theirs['solver']:>12} {ours['ratio'][0]:>10.5f}/{theirs['ratio'][0]:.5f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
