#!/usr/bin/python3
"""scikit-learn side of the kNN graph benchmark (docs/benchmarks.md, "kNN graph construction").

    /usr/bin/python3 knn_sklearn.py --data X.f64 --n N --d D [--k 10] [--jobs 2]

Reads N x D float64 values (row-major, numpy tofile), runs
NearestNeighbors(n_neighbors=k + 1, n_jobs=jobs).fit(X).kneighbors(X) once (k + 1 because
scikit-learn returns every point as its own first neighbor; nldr excludes it) and prints one line
in the format of bench_knn: seconds=<fit + kneighbors wall time> cpu_seconds=<user + system CPU
time of it, all threads> peak_rss_mib=<peak RSS of this process (VmHWM)> checksum=<sum of every k-th distance, self excluded>. algorithm='auto' picks a k-d tree
for D <= 15 and brute force above (scikit-learn 1.2).
"""
import argparse
import resource
import time

import numpy as np
from sklearn.neighbors import NearestNeighbors


def peak_rss_mib():
    """VmHWM of this process: unlike ru_maxrss it starts afresh at exec, so the driver's own
    memory does not leak into the figure."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return float(line.split()[1]) / 1024.0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # KiB on Linux


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", required=True)
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--d", type=int, required=True)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    X = np.fromfile(args.data, dtype="<f8", count=args.n * args.d).reshape(args.n, args.d)
    cpu_start = cpu_seconds()
    start = time.perf_counter()
    distances, _ = NearestNeighbors(n_neighbors=args.k + 1, n_jobs=args.jobs).fit(X).kneighbors(X)
    seconds = time.perf_counter() - start
    cpu = cpu_seconds() - cpu_start
    peak_mib = peak_rss_mib()
    print(f"seconds={seconds:.6f} cpu_seconds={cpu:.6f} peak_rss_mib={peak_mib:.1f} checksum={distances[:, args.k].sum():.12g}")


if __name__ == "__main__":
    main()
