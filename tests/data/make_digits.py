"""Writes tests/data/digits.csv and prints umap-learn's reference accuracy on it (tests/embed/umap.cpp).

Run with Debian's Python (scikit-learn 1.2, umap-learn 0.5.3): /usr/bin/python3 tests/data/make_digits.py
digits.csv: scikit-learn's 1797 8 x 8 digits, one per line, the label first, then the 64 pixels (0..16).
The accuracy: 10-NN majority vote on umap-learn's 2-D embedding (n_neighbors = 15, which counts the
point itself: nldr's k = 14; every other parameter at its default), point i in fold i mod 5, the
vote's ties to the smallest label; mean over random_state 0..4.
"""
import os
import sys

import numpy as np
from sklearn.datasets import load_digits

here = os.path.dirname(os.path.abspath(__file__))
digits = load_digits()
np.savetxt(os.path.join(here, "digits.csv"), np.column_stack([digits.target, digits.data]).astype(int),
           fmt="%d", delimiter=",")


def knn_accuracy(Y, labels, k=10, folds=5):
    n = len(labels)
    fold = np.arange(n) % folds
    correct = 0
    for f in range(folds):
        test, train = np.where(fold == f)[0], np.where(fold != f)[0]
        d = ((Y[test, None, :] - Y[None, train, :]) ** 2).sum(-1)
        nearest = np.argsort(d, axis=1, kind="stable")[:, :k]
        for row, t in zip(nearest, test):
            votes = np.bincount(labels[train[row]], minlength=10)
            correct += votes.argmax() == labels[t]
    return correct / n


if "--no-umap" not in sys.argv:
    import umap
    scores = [knn_accuracy(umap.UMAP(n_neighbors=15, random_state=s).fit_transform(digits.data), digits.target)
              for s in range(5)]
    print("umap-learn 10-NN accuracy per seed:", " ".join(f"{s:.4f}" for s in scores), f"mean {np.mean(scores):.4f}")
