#!/usr/bin/python3
"""nldr's Python package vs scikit-learn, from Python; and the binding's overhead against the C++ tool.

Usage:  PYTHONPATH=build/python /usr/bin/python3 benchmarks/python_compare.py [--tool NLDR_TOOL]
                                 [--sizes 10000,50000] [--skip-digits]

compare:  scikit-learn's Swiss roll (make_swiss_roll, random_state=0) at each N of --sizes, and its
          digits (1797 x 64): Isomap, LLE and Laplacian Eigenmaps / SpectralEmbedding, k = 10
          neighbors, d = 2. Each fit runs in its own fresh process (one per side, method and data);
          the figures are the wall time of fit_transform, the process's peak resident memory
          (ru_maxrss) and that peak minus the peak after the imports and the data load, and the
          trustworthiness T(10) of the embedding (nldr.metrics, which equals
          sklearn.manifold.trustworthiness, python/tests). Ratio = scikit-learn / nldr.
          Isomap is left out above N = 10^4: both keep the N x N geodesic distances (20 GB at
          N = 5 x 10^4 in scikit-learn's float64).
overhead: with --tool (build with -DNLDR_BUILD_EXAMPLES=ON, target nldr_tool), the same fits at the
          first N of --sizes (--overhead-only: nothing else) through `nldr embed` (its in-library time: every stage of its JSON report but
          reading and writing CSV) against the Python fit's wall time (validation, the copy-free
          array hand-over, the GIL release and the conversion of the results included).
Method settings, both sides: Isomap (Dijkstra geodesics, top eigenpairs); LLE (reg = 1e-3; scikit-
learn with eigen_solver="arpack"); Laplacian Eigenmaps with 0/1 weights on the kNN graph (nldr
heat_t = inf; scikit-learn SpectralEmbedding's affinity="nearest_neighbors", eigen_solver="arpack").
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

PY = "/usr/bin/python3"
K = 10

# One fit in a fresh process: prints wall seconds and memory figures as JSON, saves the embedding.
CHILD = r"""
import json, resource, sys, time
import numpy as np
side, method, data, out = sys.argv[1:5]
k = int(sys.argv[5])
if side == "nldr":
    import nldr
    estimator = {"isomap": lambda: nldr.Isomap(n_neighbors=k, n_components=2),
                 "lle": lambda: nldr.LocallyLinearEmbedding(n_neighbors=k, n_components=2),
                 "laplacian": lambda: nldr.SpectralEmbedding(n_neighbors=k, n_components=2, heat_t=float("inf"))}
else:
    from sklearn import manifold
    estimator = {"isomap": lambda: manifold.Isomap(n_neighbors=k, n_components=2),
                 "lle": lambda: manifold.LocallyLinearEmbedding(n_neighbors=k, n_components=2,
                                                                eigen_solver="arpack", random_state=0),
                 "laplacian": lambda: manifold.SpectralEmbedding(n_neighbors=k, n_components=2,
                                                                 affinity="nearest_neighbors",
                                                                 eigen_solver="arpack", random_state=0)}
X = np.load(data)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
Y = estimator[method]().fit_transform(X)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
np.save(out, np.asarray(Y, dtype=np.float64))
print(json.dumps({"seconds": seconds, "peak_mb": peak / 1024, "fit_mb": (peak - before) / 1024}))
"""

TOOL_METHOD = {"isomap": ["-m", "isomap"], "lle": ["-m", "lle"],
               "laplacian": ["-m", "laplacian-eigenmaps", "--heat-t", "inf"]}


def run_child(side, method, data, workdir):
    out = os.path.join(workdir, f"{side}-{method}.npy")
    result = subprocess.run([PY, "-c", CHILD, side, method, data, out, str(K)], capture_output=True, text=True)
    if result.returncode != 0:
        return {"error": result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "failed"}
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    figures["Y"] = np.load(out)
    return figures


def trustworthiness(X, Y):
    import nldr
    return nldr.metrics.trustworthiness(X, Y, K)


def compare(label, X, methods, workdir):
    data = os.path.join(workdir, "data.npy")
    np.save(data, X)
    print(f"\n{label}: N = {X.shape[0]}, D = {X.shape[1]}, k = {K}, d = 2")
    print(f"{'method':<10} {'side':<13} {'seconds':>9} {'peak MB':>9} {'fit MB':>8} {'T(10)':>7}")
    rows = {}
    for method in methods:
        for side in ("nldr", "scikit-learn"):
            r = run_child("nldr" if side == "nldr" else "sklearn", method, data, workdir)
            rows[method, side] = r
            if "error" in r:
                print(f"{method:<10} {side:<13} failed: {r['error']}")
                continue
            r["T"] = trustworthiness(X, r["Y"])
            print(f"{method:<10} {side:<13} {r['seconds']:9.2f} {r['peak_mb']:9.0f} {r['fit_mb']:8.0f} {r['T']:7.4f}")
        a, b = rows[method, "nldr"], rows[method, "scikit-learn"]
        if "error" not in a and "error" not in b:
            print(f"{method:<10} {'ratio':<13} {b['seconds'] / a['seconds']:8.1f}x {b['peak_mb'] / a['peak_mb']:8.1f}x "
                  f"{b['fit_mb'] / max(a['fit_mb'], 1):7.1f}x {b['T'] - a['T']:+7.4f}  (scikit-learn / nldr; T: difference)")
    return rows


def tool_seconds(tool, method, X, workdir):
    """In-library seconds of `nldr embed` (every stage but CSV read and write) and the whole process's."""
    import time
    csv = os.path.join(workdir, "data.csv")
    np.savetxt(csv, X, delimiter=",", fmt="%.17g")
    start = time.perf_counter()
    out = subprocess.run([tool, "embed", "--in", csv, "--out", os.path.join(workdir, "tool.csv"), "--k", str(K),
                          "--quiet", "--json", *TOOL_METHOD[method]], check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    times = json.loads(out)["times"]
    return sum(v for stage, v in times.items() if stage not in ("read", "write", "total")), wall


def overhead(tool, X, workdir, repeats=3, methods=tuple(TOOL_METHOD)):
    print(f"\nbinding overhead at N = {X.shape[0]}: the same fit through `nldr embed` (in-library time) "
          f"and through Python (fit_transform wall time); best of {repeats} runs each, fresh processes")
    print(f"{'method':<10} {'tool s':>8} {'python s':>9} {'overhead':>9}")
    data = os.path.join(workdir, "data.npy")
    np.save(data, X)
    for method in methods:
        tool_best = min(tool_seconds(tool, method, X, workdir)[0] for _ in range(repeats))
        python_best = min(run_child("nldr", method, data, workdir)["seconds"] for _ in range(repeats))
        print(f"{method:<10} {tool_best:8.2f} {python_best:9.2f} {100 * (python_best / tool_best - 1):+8.1f}%")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tool", help="the nldr tool (build/tools/nldr) for the overhead figures")
    parser.add_argument("--sizes", default="10000,50000", help="Swiss-roll sizes, comma-separated")
    parser.add_argument("--skip-digits", action="store_true")
    parser.add_argument("--repeats", type=int, default=3, help="runs per side of the overhead figures (best kept)")
    parser.add_argument("--overhead-only", action="store_true", help="with --tool: only the overhead figures")
    parser.add_argument("--overhead-methods", default=",".join(TOOL_METHOD),
                        help="the methods of the overhead figures, comma-separated (Isomap does not fit at N = 10^5)")
    args = parser.parse_args()
    from sklearn.datasets import load_digits, make_swiss_roll
    print(f"threads: nldr uses all {os.cpu_count()} cores; scikit-learn its defaults (BLAS threads)")
    with tempfile.TemporaryDirectory() as workdir:
        sizes = [int(n) for n in args.sizes.split(",")]
        if not args.overhead_only:
            for n in sizes:
                X, _ = make_swiss_roll(n_samples=n, random_state=0)
                compare("Swiss roll", X, ["isomap", "lle", "laplacian"] if n <= 10_000 else ["lle", "laplacian"],
                        workdir)
            if not args.skip_digits:
                compare("digits", load_digits().data, ["isomap", "lle", "laplacian"], workdir)
        if args.tool:
            overhead(args.tool, make_swiss_roll(n_samples=sizes[0], random_state=0)[0], workdir, args.repeats,
                     args.overhead_methods.split(","))

if __name__ == "__main__":
    sys.exit(main())
