"""Embeds scikit-learn's Swiss roll with nldr's Isomap and scikit-learn's, and compares them.

Run: PYTHONPATH=build/python /usr/bin/python3 examples/python/swiss_roll.py [N]
"""
import sys
import time

from sklearn import manifold
from sklearn.datasets import make_swiss_roll

import nldr


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    X, _ = make_swiss_roll(n_samples=n, random_state=0)
    for name, estimator in [("nldr", nldr.Isomap(n_neighbors=10, n_components=2)),
                            ("scikit-learn", manifold.Isomap(n_neighbors=10, n_components=2))]:
        start = time.perf_counter()
        Y = estimator.fit_transform(X)
        seconds = time.perf_counter() - start
        report = nldr.metrics.quality_report(X, Y, 10, k_max=50)
        print(f"{name:>12}: {seconds:7.2f} s  trustworthiness {report['trustworthiness']:.4f}  "
              f"continuity {report['continuity']:.4f}  R_NX(10) {report['r_nx']:.4f}")
    model = nldr.LocallyLinearEmbedding(method="ltsa", n_neighbors=12).fit(X[: n // 2])
    print("LTSA on half the points, the other half placed by transform:", model.transform(X[n // 2:]).shape)


if __name__ == "__main__":
    main()
