"""UMAP on Fashion-MNIST: nldr against umap-learn and uwot, each in its own process (docs/methods/umap.md).

    /usr/bin/python3 benchmarks/umap_fashion_mnist.py --bench build/benchmarks/bench_umap_fashion_mnist
        [--n 20000] [--threads 2] [--sides nldr,umap-learn,uwot] [--dir /usr/share/datasets/fashion-mnist]
        [--epochs E] [--pixels]

Sides: nldr, umap-learn, and uwot in three modes: `uwot` (n_sgd_threads = threads: the fastest, results
change from run to run), `uwot-batch` (batch = TRUE, n_sgd_threads = threads: reproducible in parallel,
uwot's counterpart of nldr's guarantee) and `uwot-serial` (n_sgd_threads = 0, uwot's default: reproducible,
one SGD thread). --epochs sets nldr's n_epochs (0: its default, umap-learn's).

The first n of the 70,000 images (training, then test; pixels / 255) are reduced to 50 principal
components here (scikit-learn's PCA, seeded), or with --pixels kept as the 784 pixels; the sides read
that matrix and embed it with
their defaults (15 neighbors, min_dist 0.1 for umap-learn and nldr; uwot's own defaults otherwise
but min_dist 0.1 too, so that the three draw the same picture), timed inside each process from the matrix in memory to the
embedding (umap-learn's numba compilation included: it is paid by every new process). Each
embedding is then judged here alike: the 10-NN accuracy (scikit-learn's KNeighborsClassifier(10),
5-fold cross-validation, unshuffled StratifiedKFold) and trustworthiness T(10) of a seeded
5,000-point sample against the 784 pixels.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fashion_mnist import read_fashion  # noqa: E402 (the first n of the 70,000 images)
from spectral_compare import calibration_line  # noqa: E402 (the machine's speed, printed first)

UMAP_LEARN = """
import sys, time, numpy as np
X = np.load(sys.argv[1]); threads = int(sys.argv[3])
import os; os.environ["NUMBA_NUM_THREADS"] = str(threads)
start = time.perf_counter()
import umap
Y = umap.UMAP(n_neighbors=15, min_dist=0.1, random_state=None, n_jobs=threads).fit_transform(X)
print(time.perf_counter() - start)
np.save(sys.argv[2], Y)
"""

UWOT = """
args <- commandArgs(trailingOnly = TRUE)
con <- file(args[1], "rb"); n <- readBin(con, "integer", 2); X <- matrix(readBin(con, "double", n[1] * n[2]), nrow = n[1], byrow = TRUE); close(con)
suppressMessages(library(uwot))
start <- Sys.time()
threads <- as.integer(args[3]); mode <- args[4]
sgd_threads <- if (mode == "uwot-serial") 0L else threads
Y <- umap(X, n_neighbors = 15, min_dist = 0.1, n_threads = threads, n_sgd_threads = sgd_threads,
          batch = mode == "uwot-batch")
cat(as.numeric(difftime(Sys.time(), start, units = "secs")), "\\n")
con <- file(args[2], "wb"); writeBin(as.vector(t(Y)), con); close(con)
"""


def judge(Y, labels, pixels, sample):
    from sklearn.manifold import trustworthiness
    from sklearn.model_selection import cross_val_score
    from sklearn.neighbors import KNeighborsClassifier
    accuracy = cross_val_score(KNeighborsClassifier(10), Y, labels, cv=5).mean()
    trust = trustworthiness(pixels[sample], Y[sample], n_neighbors=10)
    return accuracy, trust


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bench", default="build/benchmarks/bench_umap_fashion_mnist")
    parser.add_argument("--n", type=int, default=20000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--sides", default="nldr,umap-learn,uwot")
    parser.add_argument("--dir", default="/usr/share/datasets/fashion-mnist")
    parser.add_argument("--epochs", type=int, default=0)
    parser.add_argument("--pixels", action="store_true", help="embed the 784 pixels instead of their PCA-50")
    args = parser.parse_args()
    print(calibration_line(), flush=True)

    pixels, labels = read_fashion(args.dir, args.n)
    if args.pixels:
        X = pixels
    else:
        from sklearn.decomposition import PCA
        X = PCA(50, random_state=0).fit_transform(pixels)
    sample = np.random.default_rng(0).choice(len(X), size=min(5000, len(X)), replace=False)
    load = os.getloadavg()[0]
    print(f"Fashion-MNIST, first {args.n} images, {'784 pixels' if args.pixels else 'PCA-50'}, {args.threads} threads, "
          f"load average {load:.1f} "
          f"(shared machine: absolute times vary)")

    with tempfile.TemporaryDirectory() as tmp:
        x_npy, x_bin = os.path.join(tmp, "X.npy"), os.path.join(tmp, "X.bin")
        np.save(x_npy, X)
        with open(x_bin, "wb") as f:
            np.array(X.shape, dtype=np.int32).tofile(f)
            X.astype(np.float64).tofile(f)
        results = {}
        for side in args.sides.split(","):
            y_path = os.path.join(tmp, side + ".out")
            wall = time.perf_counter()
            if side == "nldr":
                command = [args.bench, "--input", x_npy, "--output", y_path + ".npy", "--threads", str(args.threads),
                           "--epochs", str(args.epochs)]
                out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
                seconds = json.loads(out.strip().splitlines()[-1])["seconds"]
                Y = np.load(y_path + ".npy")
            elif side == "umap-learn":
                out = subprocess.run(["/usr/bin/python3", "-c", UMAP_LEARN, x_npy, y_path + ".npy", str(args.threads)],
                                     check=True, capture_output=True, text=True,
                                     env=dict(os.environ, NUMBA_NUM_THREADS=str(args.threads))).stdout
                seconds = float(out.strip().splitlines()[-1])
                Y = np.load(y_path + ".npy")
            elif side in ("uwot", "uwot-batch", "uwot-serial"):
                script = os.path.join(tmp, "uwot.R")
                with open(script, "w") as f:
                    f.write(UWOT)
                out = subprocess.run(["Rscript", script, x_bin, y_path, str(args.threads), side], check=True,
                                     capture_output=True, text=True).stdout
                seconds = float(out.strip().splitlines()[-1])
                Y = np.fromfile(y_path, dtype=np.float64).reshape(len(X), 2)
            else:
                raise SystemExit(f"unknown side {side}")
            accuracy, trust = judge(Y, labels, pixels, sample)
            results[side] = seconds
            print(f"{side:10s} {seconds:7.1f} s (process {time.perf_counter() - wall:6.1f} s)  "
                  f"10-NN accuracy {accuracy:.3f}  trustworthiness {trust:.3f}", flush=True)
        if "nldr" in results:
            for side, seconds in results.items():
                if side != "nldr":
                    print(f"{side} / nldr: {seconds / results['nldr']:.2f}x")


if __name__ == "__main__":
    sys.exit(main())
