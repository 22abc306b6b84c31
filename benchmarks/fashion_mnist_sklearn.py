#!/usr/bin/python3
"""scikit-learn side of the Fashion-MNIST kNN benchmark (docs/benchmarks.md, "High-dimensional kNN:
Fashion-MNIST").

    /usr/bin/python3 fashion_mnist_sklearn.py --n N [--k 15] [--dtype float32|float64] [--jobs 2]

Reads the first N of the 70,000 images (60,000 training then 10,000 test, pixels / 255, the same
values bench_fashion_mnist_knn reads), runs the exact search
NearestNeighbors(n_neighbors=k + 1, algorithm='brute', n_jobs=jobs).fit(X).kneighbors(X) (k + 1:
scikit-learn lists every point as its own first neighbor) and prints one line in the format of
bench_fashion_mnist_knn: seconds, cpu_seconds, peak_rss_mib, checksum (sum of every k-th distance,
self excluded).
"""
import argparse
import gzip
import resource
import time

import numpy as np
from sklearn.neighbors import NearestNeighbors


def read_images(path, limit):
    """IDX3 of unsigned bytes (big-endian header: magic 0x803, count, rows, cols)."""
    with gzip.open(path, "rb") as f:
        header = np.frombuffer(f.read(16), dtype=">u4")
        if header[0] != 0x803:
            raise ValueError(f"{path} is not an IDX3 file of unsigned bytes")
        n = min(int(header[1]), limit)
        dim = int(header[2]) * int(header[3])
        return np.frombuffer(f.read(n * dim), dtype=np.uint8).reshape(n, dim)


def load(directory, n, dtype):
    train = read_images(f"{directory}/train-images-idx3-ubyte.gz", n)
    parts = [train]
    if len(train) < n:
        parts.append(read_images(f"{directory}/t10k-images-idx3-ubyte.gz", n - len(train)))
    return np.ascontiguousarray(np.concatenate(parts).astype(dtype) / dtype(255))


def peak_rss_mib():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return float(line.split()[1]) / 1024.0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--k", type=int, default=15)
    parser.add_argument("--dtype", choices=["float32", "float64"], default="float32")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--dir", default="/usr/share/datasets/fashion-mnist")
    args = parser.parse_args()
    X = load(args.dir, args.n, np.dtype(args.dtype).type)
    cpu_start = cpu_seconds()
    start = time.perf_counter()
    distances, _ = NearestNeighbors(n_neighbors=args.k + 1, algorithm="brute", n_jobs=args.jobs).fit(X).kneighbors(X)
    seconds = time.perf_counter() - start
    cpu = cpu_seconds() - cpu_start
    print(f"seconds={seconds:.6f} cpu_seconds={cpu:.6f} peak_rss_mib={peak_rss_mib():.1f} "
          f"checksum={distances[:, args.k].sum():.12g}")


if __name__ == "__main__":
    main()
