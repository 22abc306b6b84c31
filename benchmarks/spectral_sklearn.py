#!/usr/bin/python3
"""scikit-learn side of the spectral embedders benchmark (docs/benchmarks.md, "Spectral embedders").

    /usr/bin/python3 spectral_sklearn.py --data X.f64 --n N --method lle|modified-lle|hessian-lle|ltsa|laplacian
                                         [--k 10] [--out Y.f64]

Reads N x 3 float64 values (row-major, numpy tofile), runs the scikit-learn 1.2 estimator once with
eigen_solver='arpack' and the same k and dimension as bench_spectral_embedders, and prints
seconds=<wall time of fit_transform, its kNN search included> peak_rss_mib=<VmHWM of this process>.
LocallyLinearEmbedding(method=standard|modified|hessian|ltsa, n_neighbors=k, reg=1e-3);
SpectralEmbedding(affinity='nearest_neighbors', n_neighbors=k, eigen_solver='arpack') for laplacian
(its default affinity: 0/1 weights, 0.5 where only one point lists the other).
One case per process, so the peak memory is that case's.

    /usr/bin/python3 spectral_sklearn.py --calibrate

prints seconds=<the same standard LLE's fit_transform of make_swiss_roll(10000, random_state=0)>: the
machine's speed on the day (it varies 2x between machines and days), which the compare scripts print
beside their absolute figures.
"""
import argparse
import resource
import time

import numpy as np
from sklearn.manifold import LocallyLinearEmbedding, SpectralEmbedding


def peak_rss_mib():
    """VmHWM of this process image; ru_maxrss would include the driver's RSS inherited across exec."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # KiB on Linux


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calibrate", action="store_true")
    parser.add_argument("--data")
    parser.add_argument("--n", type=int)
    parser.add_argument("--method", default="lle")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--out")
    args = parser.parse_args()
    if args.calibrate:
        from sklearn.datasets import make_swiss_roll
        X = make_swiss_roll(10000, random_state=0)[0]
    elif args.data is None or args.n is None:
        parser.error("--data and --n are required unless --calibrate")
    else:
        X = np.fromfile(args.data, dtype="<f8", count=args.n * 3).reshape(args.n, 3)
    if args.method == "laplacian":
        estimator = SpectralEmbedding(n_components=2, affinity="nearest_neighbors", n_neighbors=args.k,
                                      eigen_solver="arpack", random_state=0)
    else:
        method = {"lle": "standard", "modified-lle": "modified", "hessian-lle": "hessian", "ltsa": "ltsa"}[args.method]
        estimator = LocallyLinearEmbedding(n_components=2, n_neighbors=args.k, reg=1e-3, method=method,
                                           eigen_solver="arpack", random_state=0)
    start = time.perf_counter()
    Y = estimator.fit_transform(X)
    seconds = time.perf_counter() - start
    if args.calibrate:
        print(f"seconds={seconds:.6f}")
        return
    peak_mib = peak_rss_mib()
    if args.out:
        np.ascontiguousarray(Y, dtype="<f8").tofile(args.out)
    print(f"seconds={seconds:.6f} peak_rss_mib={peak_mib:.1f}")


if __name__ == "__main__":
    main()
