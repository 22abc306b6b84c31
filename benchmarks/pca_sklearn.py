#!/usr/bin/python3
"""scikit-learn side of the PCA benchmark (docs/methods/pca.md, "Speed").

    /usr/bin/python3 pca_sklearn.py [--n 60000] [--dim 50] [--dtype float32|float64] [--dir DIR]

Reads the first N Fashion-MNIST training images (pixels / 255, the values bench_pca_fashion_mnist
reads), times PCA(dim, svd_solver="randomized", random_state=0).fit_transform(X) and prints one line in
the format of bench_pca_fashion_mnist: seconds, explained (the ratio of the dim components),
last_variance (the last component's variance), rss_mib.
"""
import argparse
import gzip
import resource
import time

import numpy as np
from sklearn.decomposition import PCA


def read_images(path, limit):
    """IDX3 of unsigned bytes (big-endian header: magic 0x803, count, rows, cols)."""
    with gzip.open(path, "rb") as f:
        header = np.frombuffer(f.read(16), dtype=">u4")
        if header[0] != 0x803:
            raise ValueError(f"{path} is not an IDX3 file of unsigned bytes")
        n = min(int(header[1]), limit)
        dim = int(header[2]) * int(header[3])
        return np.frombuffer(f.read(n * dim), dtype=np.uint8).reshape(n, dim)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=60000)
    parser.add_argument("--dim", type=int, default=50)
    parser.add_argument("--dtype", default="float32", choices=["float32", "float64"])
    parser.add_argument("--dir", default="/usr/share/datasets/fashion-mnist")
    args = parser.parse_args()
    dtype = np.dtype(args.dtype).type
    X = np.ascontiguousarray(read_images(f"{args.dir}/train-images-idx3-ubyte.gz", args.n).astype(dtype) / dtype(255))
    start = time.perf_counter()
    pca = PCA(args.dim, svd_solver="randomized", random_state=0)
    pca.fit_transform(X)
    seconds = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"seconds={seconds:.3f} explained={pca.explained_variance_ratio_.sum():.6f} "
          f"last_variance={pca.explained_variance_[-1]:.6g} rss_mib={rss:.0f}")


if __name__ == "__main__":
    main()
