"""Placing new points: the 10,000 Fashion-MNIST test images into a model of the 60,000 training images,
nldr's UMAP and t-SNE against umap-learn's UMAP, each side in its own process (docs/methods/umap.md,
docs/methods/tsne.md, "Transform").

    /usr/bin/python3 benchmarks/transform_fashion_mnist.py [--python build/python] [--threads 2]
        [--sides nldr-umap,umap-learn,nldr-umap-supervised,umap-learn-supervised,nldr-tsne]
        [--dir /usr/share/datasets/fashion-mnist]

The images (pixels / 255) are reduced to 50 principal components fitted on the training images
(scikit-learn's PCA, seeded). Every side fits its defaults (15 neighbors, min_dist 0.1 for UMAP;
perplexity 30 for t-SNE) to the training matrix, with the training labels for a "-supervised" side,
then places the test images, each step timed inside the process. umap-learn compiles its transform
with numba on the first call: it is timed twice, the second call warm. Then, for every side alike:
the training embedding's 10-NN accuracy (5-fold cross-validation, as the other drivers) and the test
images' 10-NN accuracy, classified by the training images' embedded labels.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fashion_mnist import read_fashion  # noqa: E402 (the first n of the 70,000 images)
from spectral_compare import calibration_line  # noqa: E402 (the machine's speed, printed first)

# argv: train.npy test.npy labels.npy|"" out_prefix threads [python path]
NLDR = """
import json, sys, time, numpy as np
sys.path.insert(0, sys.argv[6])
import nldr
method, threads = sys.argv[7], int(sys.argv[5])
Xtr, Xte = np.load(sys.argv[1]), np.load(sys.argv[2])
y = np.load(sys.argv[3]) if sys.argv[3] else None
# HNSW for the training graph, as umap-learn searches approximately too (said, not warned).
estimator = getattr(nldr, method)(n_jobs=threads, neighbors_params={"search": "approximate"})
start = time.perf_counter()
estimator.fit(Xtr, y)
fit = time.perf_counter() - start
start = time.perf_counter()
Yte = estimator.transform(Xte)
transform = time.perf_counter() - start
np.save(sys.argv[4] + "train.npy", estimator.embedding_)
np.save(sys.argv[4] + "test.npy", Yte)
print(json.dumps({"fit": fit, "transform": transform}))
"""

UMAP_LEARN = """
import json, os, sys, time, numpy as np
threads = int(sys.argv[5])
Xtr, Xte = np.load(sys.argv[1]), np.load(sys.argv[2])
y = np.load(sys.argv[3]) if sys.argv[3] else None
start = time.perf_counter()
import umap
estimator = umap.UMAP(n_neighbors=15, min_dist=0.1, n_jobs=threads).fit(Xtr, y)
fit = time.perf_counter() - start
start = time.perf_counter()
Yte = estimator.transform(Xte)
transform = time.perf_counter() - start
start = time.perf_counter()
estimator.transform(Xte)
warm = time.perf_counter() - start
np.save(sys.argv[4] + "train.npy", estimator.embedding_)
np.save(sys.argv[4] + "test.npy", Yte)
print(json.dumps({"fit": fit, "transform": transform, "transform_warm": warm}))
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--python", default="build/python", help="the folder of the built nldr package")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--sides", default="nldr-umap,umap-learn,nldr-umap-supervised,umap-learn-supervised,nldr-tsne")
    parser.add_argument("--dir", default="/usr/share/datasets/fashion-mnist")
    args = parser.parse_args()
    print(calibration_line(), flush=True)

    from sklearn.decomposition import PCA
    from sklearn.model_selection import cross_val_score
    from sklearn.neighbors import KNeighborsClassifier
    pixels, labels = read_fashion(args.dir, 70000)
    pca = PCA(50, random_state=0).fit(pixels[:60000])
    Xtr, Xte = pca.transform(pixels[:60000]), pca.transform(pixels[60000:])
    ytr, yte = labels[:60000], labels[60000:]
    print(f"Fashion-MNIST: fit on the 60,000 training images, place the 10,000 test images; PCA-50; "
          f"{args.threads} threads; load average {os.getloadavg()[0]:.1f}", flush=True)

    env = dict(os.environ, NUMBA_NUM_THREADS=str(args.threads), OMP_NUM_THREADS=str(args.threads))
    with tempfile.TemporaryDirectory() as tmp:
        paths = [os.path.join(tmp, name) for name in ("train.npy", "test.npy", "labels.npy")]
        for path, values in zip(paths, (Xtr, Xte, ytr)):
            np.save(path, values)
        times = {}
        for side in args.sides.split(","):
            supervised = side.endswith("-supervised")
            base = side.removesuffix("-supervised")
            prefix = os.path.join(tmp, side + "_")
            argv = [paths[0], paths[1], paths[2] if supervised else "", prefix, str(args.threads)]
            if base in ("nldr-umap", "nldr-tsne"):
                command = [sys.executable, "-c", NLDR, *argv, os.path.abspath(args.python),
                           "UMAP" if base == "nldr-umap" else "TSNE"]
            elif base == "umap-learn":
                command = [sys.executable, "-c", UMAP_LEARN, *argv]
            else:
                raise SystemExit(f"unknown side {side}")
            out = subprocess.run(command, check=True, capture_output=True, text=True, env=env).stdout
            seconds = json.loads(out.strip().splitlines()[-1])
            Ytr, Yte = np.load(prefix + "train.npy"), np.load(prefix + "test.npy")
            train_accuracy = cross_val_score(KNeighborsClassifier(10), Ytr, ytr, cv=5).mean()
            test_accuracy = KNeighborsClassifier(10).fit(Ytr, ytr).score(Yte, yte)
            times[side] = seconds["transform"]
            warm = f" (warm {seconds['transform_warm']:.2f} s)" if "transform_warm" in seconds else ""
            print(f"{side:22s} fit {seconds['fit']:7.1f} s  transform {seconds['transform']:6.2f} s{warm}  "
                  f"10-NN accuracy: training 5-fold {train_accuracy:.3f}, test through transform "
                  f"{test_accuracy:.3f}", flush=True)
        for nldr_side, anchor in (("nldr-umap", "umap-learn"), ("nldr-umap-supervised", "umap-learn-supervised")):
            if nldr_side in times and anchor in times:
                print(f"transform {anchor} / {nldr_side}: {times[anchor] / times[nldr_side]:.2f}x")


if __name__ == "__main__":
    sys.exit(main())
