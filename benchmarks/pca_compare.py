#!/usr/bin/python3
"""PCA of Fashion-MNIST, nldr against scikit-learn's randomized PCA (docs/methods/pca.md, "Speed").

    /usr/bin/python3 benchmarks/pca_compare.py --bench build/benchmarks/bench_pca_fashion_mnist
        [--n 60000] [--dim 50] [--dtypes float32,float64] [--algorithms automatic,covariance,randomized]
        [--repeats 3]

For each dtype, runs pca_sklearn.py (PCA(dim, svd_solver="randomized").fit_transform) and
bench_pca_fashion_mnist with each algorithm, every run in its own process, alternating the two
sides, and prints a markdown table of the best of `repeats` wall times, the ratio (scikit-learn /
nldr), the explained-variance ratio of the dim components and the last component's variance (the
covariance path is exact: the others' distance from it is their accuracy), and the load average,
after the calibration line of spectral_compare.py (scikit-learn's LLE fit of 10^4 Swiss-roll points).
"""
import argparse
import os
import subprocess

from spectral_compare import calibration_line

HERE = os.path.dirname(os.path.abspath(__file__))


def run(command):
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return dict(item.split("=", 1) for item in out.split())


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bench", required=True)
    parser.add_argument("--n", type=int, default=60000)
    parser.add_argument("--dim", type=int, default=50)
    parser.add_argument("--dtypes", default="float32,float64")
    parser.add_argument("--algorithms", default="automatic,covariance,randomized")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(calibration_line(), flush=True)
    print(f"| dtype | nldr path | nldr (s) | sklearn (s) | ratio | explained nldr / sklearn | "
          f"last variance nldr / sklearn | load (1, 5 min) |")
    print("|---|---|---|---|---|---|---|---|")
    common = ["--n", str(args.n), "--dim", str(args.dim)]
    for dtype in args.dtypes.split(","):
        for algorithm in args.algorithms.split(","):
            ours, theirs = [], []
            for _ in range(args.repeats):
                theirs.append(run(["/usr/bin/python3", os.path.join(HERE, "pca_sklearn.py"), "--dtype", dtype] + common))
                ours.append(run([args.bench, "--dtype", "double" if dtype == "float64" else "float",
                                 "--algorithm", algorithm] + common))
            best_ours = min(ours, key=lambda r: float(r["seconds"]))
            best_theirs = min(theirs, key=lambda r: float(r["seconds"]))
            ratio = float(best_theirs["seconds"]) / float(best_ours["seconds"])
            print(f"| {dtype} | {algorithm} ({best_ours['solver']}) | {best_ours['seconds']} | {best_theirs['seconds']} | "
                  f"{ratio:.2f}x | {best_ours['explained']} / {best_theirs['explained']} | "
                  f"{best_ours['last_variance']} / {best_theirs['last_variance']} | {best_ours['load']} |", flush=True)


if __name__ == "__main__":
    main()
