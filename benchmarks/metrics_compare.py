#!/usr/bin/python3
"""Runs the metrics benchmark grid and prints the markdown table of docs/benchmarks.md.

usage: /usr/bin/python3 metrics_compare.py BUILD_DIR [--sizes 2000,5000,10000,20000]
       [--sklearn-max 10000] [--kmax-n 100000]
Each measurement is its own process (bench_metrics or metrics_sklearn.py), so peak memory is per
measurement. scikit-learn's trustworthiness holds several N x N arrays (about 4 x 8 N^2 bytes:
12.8 GB at N = 2e4), so it is skipped above --sklearn-max on a shared machine.
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(command):
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout.split()
    return {"wall": float(out[3]), "cpu": float(out[4]), "peak": float(out[5]), "working": float(out[6]),
            "value": float(out[7])}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build_dir")
    parser.add_argument("--sizes", default="2000,5000,10000,20000")
    parser.add_argument("--sklearn-max", type=int, default=10000)
    parser.add_argument("--kmax-n", type=int, default=100000)
    args = parser.parse_args()
    bench = os.path.join(args.build_dir, "benchmarks", "bench_metrics")
    rows = []
    with tempfile.TemporaryDirectory() as data:
        for n in [int(s) for s in args.sizes.split(",")]:
            subprocess.run([bench, "curve", str(n), "--data", data], check=True)
            curve = run([bench, "curve", str(n)])
            trust = run([bench, "trust", str(n), "10"])
            sk = None
            if n <= args.sklearn_max:
                sk = run([sys.executable, os.path.join(HERE, "metrics_sklearn.py"), data, str(n), "10"])
            rows.append((n, curve, trust, sk))
            print(f"done N = {n}", file=sys.stderr)
        kmax = run([bench, "kmax", str(args.kmax_n), "100"]) if args.kmax_n else None
    def cell(r):
        return f"{r['wall']:.2f} / {r['cpu']:.2f} / {r['peak']:.0f}"

    print("Cells: wall s / CPU s (all threads) / peak RSS MiB of the whole process.\n")
    print("| N | nldr full R_NX curve | nldr T(10) | sklearn T(10) | sklearn / nldr T(10), CPU | T(10) nldr - sklearn |")
    print("|---|---|---|---|---|---|")
    for n, curve, trust, sk in rows:
        skcell, ratio, diff = "skipped (~4 x 8 N^2 bytes)", "-", "-"
        if sk:
            skcell = cell(sk)
            ratio = f"{sk['cpu'] / trust['cpu']:.1f}x"
            diff = f"{trust['value'] - sk['value']:.1e}"
        print(f"| {n} | {cell(curve)} | {cell(trust)} | {skcell} | {ratio} | {diff} |")
    if kmax:
        print(f"\nK_max = 100 co-ranking summary (R_NX, T, C, B_NX, AUC for K <= 100) at N = {args.kmax_n}: "
              f"{cell(kmax)}.")

if __name__ == "__main__":
    main()
