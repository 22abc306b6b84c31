#!/usr/bin/python3
"""Drives the spectral embedders benchmark (docs/benchmarks.md, "Spectral embedders").

    /usr/bin/python3 benchmarks/spectral_compare.py --bench build/benchmarks/bench_spectral_embedders
        [--sizes 2000,5000,10000,20000,50000] [--methods lle,modified-lle,hessian-lle,ltsa,laplacian]
        [--quality-max 5000] [--dense-sklearn-max 10000] [--timeout 900] [--workdir /tmp/nldr-spectral]

For every N and method, on the same Swiss roll (nldr::datasets::swiss_roll, seed 0, k = 10, d = 2):
runs bench_spectral_embedders (which writes X, the true intrinsic coordinates and its embedding), then
spectral_sklearn.py on that X, each in its own process, and prints a markdown table of wall time, peak
RSS, the time ratio, our stage breakdown and, for N <= quality-max, the quality of both embeddings by
the same code: trustworthiness T(10) (sklearn.manifold.trustworthiness) and the residual variance
1 - r^2 between pairwise distances of the embedding and of the true (arc length, height) coordinates.
scikit-learn's modified, hessian and ltsa methods build a dense N x N matrix and factorize it densely
(O(N^2) memory, O(N^3) time), so they are run only up to dense-sklearn-max.
"""
import argparse
import os
import subprocess
import sys

import numpy as np
from scipy.spatial.distance import pdist
from sklearn.manifold import trustworthiness

HERE = os.path.dirname(os.path.abspath(__file__))


def parse_line(text):
    return dict(item.split("=", 1) for item in text.split())


def calibration_line():
    """scikit-learn's standard LLE fit of 10^4 Swiss-roll points in its own process: the machine's speed."""
    out = subprocess.run([sys.executable, os.path.join(HERE, "spectral_sklearn.py"), "--calibrate"], check=True,
                         capture_output=True, text=True).stdout
    with open("/proc/loadavg") as load:
        return (f"calibration: scikit-learn LLE fit of 10^4 Swiss-roll points {parse_line(out)['seconds'][:5]} s "
                f"(load average {' '.join(load.read().split()[:2])})\n")


def residual_variance(truth, Y):
    r = np.corrcoef(pdist(truth), pdist(Y))[0, 1]
    return 1 - r * r


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bench", required=True)
    parser.add_argument("--sizes", default="2000,5000,10000,20000,50000")
    parser.add_argument("--methods", default="lle,modified-lle,hessian-lle,ltsa,laplacian")
    parser.add_argument("--quality-max", type=int, default=5000)
    parser.add_argument("--dense-sklearn-max", type=int, default=10000)
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--workdir", default="/tmp/nldr-spectral")
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    print(calibration_line(), flush=True)
    print("| method | N | nldr (s) | sklearn (s) | ratio | nldr RSS (MiB) | sklearn RSS (MiB) | nldr stages: "
          "neighbors / weights / assembly / eigensolve (factorization) | T(10) nldr / sklearn | "
          "residual variance nldr / sklearn |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for n in [int(s) for s in args.sizes.split(",")]:
        for method in args.methods.split(","):
            prefix = os.path.join(args.workdir, f"{method}-{n}")
            ours = parse_line(subprocess.run([args.bench, "run", "--method", method, "--n", str(n), "--out", prefix],
                                             check=True, capture_output=True, text=True).stdout)
            theirs = None
            if method in ("lle", "laplacian") or n <= args.dense_sklearn_max:
                try:
                    out = subprocess.run([sys.executable, os.path.join(HERE, "spectral_sklearn.py"), "--data",
                                          prefix + ".X.f64", "--n", str(n), "--method", method, "--out",
                                          prefix + ".sk.f64"], check=True, capture_output=True, text=True,
                                         timeout=args.timeout).stdout
                    theirs = parse_line(out)
                except subprocess.TimeoutExpired:
                    theirs = {"seconds": f">{args.timeout:.0f}", "peak_rss_mib": "-"}
                except subprocess.CalledProcessError as error:
                    theirs = {"seconds": "failed: " + error.stderr.strip().splitlines()[-1][:60], "peak_rss_mib": "-"}
            quality = "-", "-"
            if n <= args.quality_max:
                X = np.fromfile(prefix + ".X.f64").reshape(n, 3)
                truth = np.fromfile(prefix + ".truth.f64").reshape(n, 2)
                Y = np.fromfile(prefix + ".Y.f64").reshape(n, 2)
                t_ours, rv_ours = trustworthiness(X, Y, n_neighbors=10), residual_variance(truth, Y)
                t_sk = rv_sk = float("nan")
                if theirs and os.path.exists(prefix + ".sk.f64"):
                    Ysk = np.fromfile(prefix + ".sk.f64").reshape(n, 2)
                    t_sk, rv_sk = trustworthiness(X, Ysk, n_neighbors=10), residual_variance(truth, Ysk)
                quality = f"{t_ours:.4f} / {t_sk:.4f}", f"{rv_ours:.4f} / {rv_sk:.4f}"
            sk_seconds = theirs["seconds"] if theirs else "not run"
            sk_rss = theirs["peak_rss_mib"] if theirs else "-"
            try:
                ratio = f"{float(sk_seconds) / float(ours['total']):.1f}x"
            except ValueError:
                ratio = "-"
            stages = (f"{float(ours['neighbors']):.2f} / {float(ours['weights']):.2f} / {float(ours['assembly']):.2f} / "
                      f"{float(ours['eigensolve']):.2f} ({float(ours['factorization']):.2f})")
            print(f"| {method} | {n} | {float(ours['total']):.3f} | {sk_seconds} | {ratio} | {ours['peak_rss_mib']} | "
                  f"{sk_rss} | {stages} | {quality[0]} | {quality[1]} |", flush=True)
            for suffix in (".X.f64", ".truth.f64", ".Y.f64", ".sk.f64"):
                if os.path.exists(prefix + suffix):
                    os.remove(prefix + suffix)


if __name__ == "__main__":
    main()
