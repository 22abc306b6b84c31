#!/usr/bin/python3
"""Runs the kNN graph benchmark (nldr vs scikit-learn) and prints the markdown table of
docs/benchmarks.md, section "kNN graph construction".

    /usr/bin/python3 benchmarks/run_knn.py --bench build/benchmarks/bench_knn [--repeats 3] [--k 10]

Data: uniform in [0, 1)^D from numpy's default_rng(seed = N + D), written once per case to a
temporary float64 file that both programs read. Every run is a fresh process (so each peak RSS
belongs to one case; VmHWM, which unlike ru_maxrss does not inherit this driver's peak), both sides get 2 threads (OMP_NUM_THREADS=2, n_jobs=2). Reported: the best
wall time of `repeats` runs, the best CPU time (user + system, all threads: less sensitive to other
load on the machine), the largest peak RSS, and whether the sums of k-th distances agree.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = [(10_000, 3), (100_000, 3), (1_000_000, 3), (10_000, 64), (10_000, 784)]


def measure(command, env):
    out = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
    fields = dict(item.split("=") for item in out.split())
    return (float(fields["seconds"]), float(fields["peak_rss_mib"]), float(fields["checksum"]),
            float(fields["cpu_seconds"]))


def best(command, env, repeats):
    runs = [measure(command, env) for _ in range(repeats)]
    return min(r[0] for r in runs), max(r[1] for r in runs), runs[0][2], min(r[3] for r in runs)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bench", required=True, help="path of the bench_knn program")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--k", type=int, default=10)
    args = parser.parse_args()
    env = dict(os.environ, OMP_NUM_THREADS="2")
    print(f"k = {args.k}, uniform [0,1)^D, float64, 2 threads each, best of {args.repeats} runs\n")
    print("| N | D | nldr wall (s) | scikit-learn wall (s) | speed-up | nldr CPU (s) | scikit-learn CPU (s) | CPU ratio "
          "| nldr peak RSS (MiB) | scikit-learn peak RSS (MiB) | memory ratio | k-th distances agree |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for n, d in CASES:
            path = os.path.join(tmp, f"x_{n}_{d}.f64")
            np.random.default_rng(n + d).random((n, d)).astype("<f8").tofile(path)
            common = ["--data", path, "--n", str(n), "--d", str(d), "--k", str(args.k)]
            ours = best([args.bench, "run"] + common, env, args.repeats)
            theirs = best([sys.executable, os.path.join(HERE, "knn_sklearn.py")] + common, env, args.repeats)
            agree = abs(ours[2] - theirs[2]) <= 1e-9 * abs(theirs[2])
            print(f"| {n:,} | {d} | {ours[0]:.3f} | {theirs[0]:.3f} | {theirs[0] / ours[0]:.1f}x | "
                  f"{ours[3]:.3f} | {theirs[3]:.3f} | {theirs[3] / ours[3]:.1f}x | {ours[1]:.0f} | {theirs[1]:.0f} | {ours[1] / theirs[1]:.2f} | {'yes' if agree else 'NO'} |",
                  flush=True)
            os.remove(path)


if __name__ == "__main__":
    main()
