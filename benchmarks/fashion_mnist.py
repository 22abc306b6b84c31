"""Fashion-MNIST for the benchmark drivers: the first n images of the 70,000 (the 60,000 training
images, then the 10,000 test images), pixels / 255, with their labels. Debian's
dataset-fashion-mnist installs the four IDX files under /usr/share/datasets/fashion-mnist."""
import gzip
import os

import numpy as np

PARTS = ("train", "t10k")


def _idx(path, header_bytes):
    with gzip.open(path, "rb") as f:
        return np.frombuffer(f.read(), dtype=np.uint8, offset=header_bytes)


def read_fashion(directory, n):
    """(images n x 784 in [0, 1], labels n) of the first n of the 70,000 images."""
    images, labels = [], []
    for part in PARTS:
        if sum(len(y) for y in labels) >= n:
            break
        images.append(_idx(os.path.join(directory, f"{part}-images-idx3-ubyte.gz"), 16).reshape(-1, 784))
        labels.append(_idx(os.path.join(directory, f"{part}-labels-idx1-ubyte.gz"), 8))
    X, y = np.concatenate(images)[:n], np.concatenate(labels)[:n].astype(int)
    if len(y) < n:
        raise SystemExit(f"Fashion-MNIST has {len(y)} images, fewer than --n {n}")
    return X / 255.0, y
