#!/usr/bin/python3
"""Runs the Fashion-MNIST kNN benchmark (nldr's exact search and ApproximateKNearest against
scikit-learn's exact search) and prints the markdown tables of docs/benchmarks.md, section
"High-dimensional kNN: Fashion-MNIST".

    /usr/bin/python3 benchmarks/run_fashion_mnist_knn.py --bench build/benchmarks/bench_fashion_mnist_knn
        [--n 20000] [--k 15] [--bench-eigen PATH] [--skip-crossover]

Data: the first N of Fashion-MNIST's 70,000 images (Debian's dataset-fashion-mnist), pixels / 255.
Every run is a fresh process, both sides with 2 threads (OMP_NUM_THREADS=2, n_jobs=2; scikit-learn's
GEMM is OpenBLAS's, as Debian's numpy links it). Reported: wall and CPU time (user + system, all
threads: less sensitive to other load on the machine) of the graph construction, peak RSS, the sum
of k-th distances (the exact searches must agree) and, for the approximate runs, recall@k against
nldr's exact lists and the selector's own sampled estimate.
--bench-eigen names the same program built with -DNLDR_USE_OPENBLAS=OFF (Eigen's GEMM), for the
before/after row of the exact search.
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def measure(command, threads=2):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OPENBLAS_NUM_THREADS=str(threads))
    out = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
    return {key: float(value) for key, value in (item.split("=") for item in out.split())}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bench", required=True)
    parser.add_argument("--bench-eigen")
    parser.add_argument("--n", type=int, default=20000)
    parser.add_argument("--k", type=int, default=15)
    parser.add_argument("--skip-crossover", action="store_true")
    args = parser.parse_args()
    n, k = args.n, args.k
    sklearn = [sys.executable, os.path.join(HERE, "fashion_mnist_sklearn.py"), "--n", str(n), "--k", str(k)]

    with tempfile.TemporaryDirectory() as tmp:
        truth = os.path.join(tmp, "truth.i32")
        print(f"## Exact search, N = {n:,}, D = 784, k = {k}, 2 threads\n")
        print("| search | wall (s) | CPU (s) | peak RSS (MiB) | scikit-learn wall / this | scikit-learn CPU / this | k-th distances (sum) |")
        print("|---|---|---|---|---|---|---|")
        rows = []
        for dtype, flag in (("float32", ["--float"]), ("float64", [])):
            theirs = measure(sklearn + ["--dtype", dtype])
            ours = measure([args.bench, "exact", "--n", str(n), "--k", str(k)] + flag +
                           (["--truth-out", truth] if dtype == "float32" else []))
            rows.append((f"scikit-learn NearestNeighbors(algorithm='brute'), {dtype}", theirs, theirs))
            rows.append((f"nldr KNearest brute force, OpenBLAS GEMM, {dtype}", ours, theirs))
            if args.bench_eigen:
                eigen = measure([args.bench_eigen, "exact", "--n", str(n), "--k", str(k)] + flag)
                rows.append((f"nldr KNearest brute force, Eigen GEMM (before), {dtype}", eigen, theirs))
        for name, r, ref in rows:
            print(f"| {name} | {r['seconds']:.2f} | {r['cpu_seconds']:.2f} | {r['peak_rss_mib']:.0f} | "
                  f"{ref['seconds'] / r['seconds']:.2f}x | {ref['cpu_seconds'] / r['cpu_seconds']:.2f}x | {r['checksum']:.6f} |",
                  flush=True)
        sk32 = rows[0][1]
        exact32 = rows[1][1]

        print(f"\n## ApproximateKNearest over ef, N = {n:,}, float, M = 12, ef_construction = 64, 2 threads\n")
        print("| ef | build | recall@15 | estimated recall | wall (s) | CPU (s) | vs scikit-learn exact (wall / CPU) "
              "| vs nldr exact (wall / CPU) |")
        print("|---|---|---|---|---|---|---|---|")
        for ef, parallel in ((16, False), (24, False), (32, False), (48, False), (64, False), (128, False), (32, True)):
            r = measure([args.bench, "hnsw", "--n", str(n), "--k", str(k), "--float", "--ef", str(ef), "--truth", truth] +
                        (["--parallel-build"] if parallel else []))
            print(f"| {ef} | {'parallel' if parallel else 'serial (deterministic)'} | {r['recall']:.4f} | "
                  f"{r['estimated_recall']:.4f} | {r['seconds']:.2f} | {r['cpu_seconds']:.2f} | "
                  f"{sk32['seconds'] / r['seconds']:.1f}x / {sk32['cpu_seconds'] / r['cpu_seconds']:.1f}x | "
                  f"{exact32['seconds'] / r['seconds']:.1f}x / {exact32['cpu_seconds'] / r['cpu_seconds']:.1f}x |", flush=True)

        if args.skip_crossover:
            return
        print(f"\n## Exact (brute force) against ApproximateKNearest (defaults), float, k = {k}, 2 threads\n")
        print("| N | D | exact wall (s) | exact CPU (s) | HNSW wall (s) | HNSW CPU (s) | HNSW recall | exact CPU / HNSW CPU |")
        print("|---|---|---|---|---|---|---|---|")
        cases = [(m, 0) for m in (2000, 5000, 10000, 20000) if m <= n] + [(min(n, 20000), d) for d in (16, 32, 64, 128, 256)]
        for m, d in cases:
            common = ["--n", str(m), "--k", str(k), "--float"] + (["--dims", str(d)] if d else [])
            exact = measure([args.bench, "exact"] + common + ["--truth-out", truth])
            approx = measure([args.bench, "hnsw"] + common + ["--truth", truth])
            print(f"| {m:,} | {d or 784} | {exact['seconds']:.3f} | {exact['cpu_seconds']:.3f} | {approx['seconds']:.3f} | "
                  f"{approx['cpu_seconds']:.3f} | {approx['recall']:.4f} | {exact['cpu_seconds'] / approx['cpu_seconds']:.2f} |",
                  flush=True)


if __name__ == "__main__":
    main()
