#!/usr/bin/python3
"""scikit-learn side of the Fashion-MNIST end-to-end benchmark (docs/fashion-mnist.md).

    /usr/bin/python3 benchmarks/fashion_mnist_spectral_sklearn.py [--train 60000] [--k 15] [--jobs 2]

SpectralEmbedding(n_components=2, affinity='nearest_neighbors', n_neighbors=k, eigen_solver='arpack',
random_state=0, n_jobs=jobs) on the first N training images (pixels / 255, float32, as
bench_fashion_mnist_embed reads them). Prints one JSON line: wall seconds of fit_transform, the
process's peak resident memory (VmHWM), and the leave-one-out 10-NN accuracy of the embedding (each
image gets the majority class of its 10 nearest other images in the embedding, ties to the smallest
class: bench_fashion_mnist_embed's training_accuracy_10nn). SpectralEmbedding has no transform.
"""
import argparse
import gzip
import json
import time

import numpy as np
from sklearn.manifold import SpectralEmbedding
from sklearn.neighbors import NearestNeighbors

DIR = "/usr/share/datasets/fashion-mnist"


def read_idx(path, limit, images):
    with gzip.open(path, "rb") as f:
        header = np.frombuffer(f.read(16 if images else 8), dtype=">u4")
        if header[0] != (0x803 if images else 0x801):
            raise ValueError(f"{path} is not an IDX{3 if images else 1} file of unsigned bytes")
        n = min(int(header[1]), limit)
        size = int(header[2]) * int(header[3]) if images else 1
        data = np.frombuffer(f.read(n * size), dtype=np.uint8)
    return (data.reshape(n, size).astype(np.float32) / np.float32(255)) if images else data.astype(int)


def peak_rss_mib():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=int, default=60000)
    parser.add_argument("--k", type=int, default=15)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    X = read_idx(f"{DIR}/train-images-idx3-ubyte.gz", args.train, True)
    labels = read_idx(f"{DIR}/train-labels-idx1-ubyte.gz", args.train, False)
    start = time.perf_counter()
    Y = SpectralEmbedding(n_components=2, affinity="nearest_neighbors", n_neighbors=args.k, eigen_solver="arpack",
                          random_state=0, n_jobs=args.jobs).fit_transform(X)
    seconds = time.perf_counter() - start
    neighbors = NearestNeighbors(n_neighbors=11).fit(Y).kneighbors(Y, return_distance=False)[:, 1:]
    votes = np.apply_along_axis(lambda row: np.bincount(labels[row], minlength=10).argmax(), 1, neighbors)
    print(json.dumps({"side": "scikit-learn SpectralEmbedding", "train": len(X), "k": args.k, "seconds": round(seconds, 3),
                      "peak_rss_mib": round(peak_rss_mib()), "training_accuracy_10nn": round(float(np.mean(votes == labels)), 4)}))


if __name__ == "__main__":
    main()
