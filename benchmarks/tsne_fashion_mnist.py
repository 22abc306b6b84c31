"""t-SNE on Fashion-MNIST: nldr against scikit-learn's TSNE and Rtsne (docs/methods/tsne.md).

    /usr/bin/python3 benchmarks/tsne_fashion_mnist.py [--n 20000] [--threads 2] [--sides nldr,sklearn,Rtsne]
        [--bench build/benchmarks/bench_tsne_fashion_mnist] [--dir /usr/share/datasets/fashion-mnist]

The first N of the 70,000 images (training, then test; pixels / 255) are reduced to 50 dimensions by
scikit-learn's PCA (random_state 0) once; every side reads that same matrix and times only its own
t-SNE (neighbors, affinities, optimization), each in its own process with `--threads` threads: nldr
(benchmarks/tsne_fashion_mnist.cpp), scikit-learn's TSNE (method barnes_hut, n_jobs) run by this
script with --side sklearn, Rtsne (benchmarks/tsne_fashion_mnist.R). The embeddings are then
evaluated here alike: 10-NN accuracy (5-fold cross-validation, scikit-learn's KNeighborsClassifier)
and trustworthiness k = 10 of a seeded 5,000-point sample against the 50-D input (scikit-learn's
trustworthiness). Prints a table, the ratios of the times to nldr's, and the load average.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np


def sklearn_side(x_path, y_path, threads):
    from sklearn.manifold import TSNE
    X = np.load(x_path)
    start = time.perf_counter()
    tsne = TSNE(n_components=2, perplexity=30, init="pca", learning_rate="auto", method="barnes_hut",
                angle=0.5, n_jobs=threads, random_state=0)
    Y = tsne.fit_transform(X)
    seconds = time.perf_counter() - start
    np.save(y_path, Y)
    print(json.dumps({"side": "sklearn", "n": X.shape[0], "seconds": round(seconds, 3),
                      "kl": float(tsne.kl_divergence_), "threads": threads,
                      "load": " ".join(open("/proc/loadavg").read().split()[:2])}))


def evaluate(X, Y, labels):
    from sklearn.manifold import trustworthiness
    from sklearn.model_selection import cross_val_score, StratifiedKFold
    from sklearn.neighbors import KNeighborsClassifier
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    accuracy = cross_val_score(KNeighborsClassifier(n_neighbors=10), Y, labels, cv=folds).mean()
    sample = np.random.RandomState(7).choice(X.shape[0], min(5000, X.shape[0]), replace=False)
    return accuracy, trustworthiness(X[sample], Y[sample], n_neighbors=10)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=20000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--sides", default="nldr,sklearn,Rtsne")
    parser.add_argument("--bench", default="build/benchmarks/bench_tsne_fashion_mnist")
    parser.add_argument("--dir", default="/usr/share/datasets/fashion-mnist")
    parser.add_argument("--side")
    parser.add_argument("--x")
    parser.add_argument("--y")
    args = parser.parse_args()
    if args.side == "sklearn":
        return sklearn_side(args.x, args.y, args.threads)

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from fashion_mnist import read_fashion
    from spectral_compare import calibration_line
    print(calibration_line(), flush=True)
    from sklearn.decomposition import PCA
    images, labels = read_fashion(args.dir, args.n)
    X = PCA(n_components=50, random_state=0).fit_transform(images)
    here = os.path.dirname(os.path.abspath(__file__))
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        x_npy, x_csv = os.path.join(tmp, "X50.npy"), os.path.join(tmp, "X50.csv")
        np.save(x_npy, X)
        np.savetxt(x_csv, X, delimiter=",", fmt="%.17g")
        env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
        for side in args.sides.split(","):
            y_path = os.path.join(tmp, f"Y_{side}" + (".csv" if side == "Rtsne" else ".npy"))
            if side == "nldr":
                command = [args.bench, x_npy, y_path]
            elif side == "sklearn":
                command = [sys.executable, os.path.abspath(__file__), "--side", "sklearn", "--x", x_npy, "--y", y_path,
                           "--threads", str(args.threads)]
            else:
                command = ["Rscript", os.path.join(here, "tsne_fashion_mnist.R"), x_csv, y_path, str(args.threads)]
            output = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
            result = json.loads(output.strip().splitlines()[-1])
            Y = np.loadtxt(y_path, delimiter=",") if y_path.endswith(".csv") else np.load(y_path)
            result["accuracy"], result["trustworthiness"] = evaluate(X, Y, labels)
            results.append(result)
            print(json.dumps(result), flush=True)
    reference = next((r for r in results if r["side"] == "nldr"), None)
    print(f"\nFashion-MNIST, first {args.n} training images, PCA 50, {args.threads} threads")
    print(f"{'side':<8} {'seconds':>9} {'x nldr':>7} {'KL':>7} {'10-NN acc':>9} {'T(10)':>7}  load (1, 5 min)")
    for r in results:
        ratio = r["seconds"] / reference["seconds"] if reference else float("nan")
        print(f"{r['side']:<8} {r['seconds']:>9.1f} {ratio:>7.2f} {r['kl']:>7.3f} {r['accuracy']:>9.3f} "
              f"{r['trustworthiness']:>7.4f}  {r['load']}")


if __name__ == "__main__":
    main()
