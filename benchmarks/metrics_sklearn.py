#!/usr/bin/python3
"""Times scikit-learn's trustworthiness on the data bench_metrics wrote (--data DIR).

usage: /usr/bin/python3 metrics_sklearn.py DIR N [k]
prints: sklearn N k wall_s cpu_s peak_MiB working_MiB value
(the same columns as bench_metrics; working = peak RSS minus the RSS after loading the data)
"""
import resource
import sys
import time

import numpy as np
from sklearn.manifold import trustworthiness


def peak_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # KiB on Linux


def main():
    directory, n = sys.argv[1], int(sys.argv[2])
    k = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    X = np.fromfile(f"{directory}/X_{n}.f64", dtype="<f8").reshape(n, 3)
    Y = np.fromfile(f"{directory}/Y_{n}.f64", dtype="<f8").reshape(n, 2)
    base = peak_mib()
    start, cpu_start = time.perf_counter(), time.process_time()
    value = trustworthiness(X, Y, n_neighbors=k)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    peak = peak_mib()
    print(f"sklearn {n} {k} {seconds:.3f} {cpu:.3f} {peak:.1f} {peak - base:.1f} {value:.10f}")


if __name__ == "__main__":
    main()
