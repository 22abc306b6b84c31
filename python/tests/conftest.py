import numpy as np
import pytest


@pytest.fixture(scope="session")
def swiss_roll():
    """scikit-learn's Swiss roll (N = 800), the data of the comparisons."""
    from sklearn.datasets import make_swiss_roll
    X, _ = make_swiss_roll(n_samples=800, random_state=0)
    return X
