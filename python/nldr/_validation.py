"""Input checks shared by the estimators, metrics and selectors.

With scikit-learn installed, the estimators validate through its own machinery (``_validate_data``:
n_features_in_, feature names, NaN/Inf, sparse input, dtypes), so that they behave like its
estimators; without it, the minimal checks below run and nldr's C++ checks catch the rest.
"""
import numpy as np

try:  # scikit-learn is optional at run time
    from sklearn.base import BaseEstimator as _Base, TransformerMixin as _Mixin
    from sklearn.utils.validation import check_is_fitted as _check_is_fitted

    HAVE_SKLEARN = True
except ImportError:  # pragma: no cover - exercised by the no-sklearn test in a subprocess
    HAVE_SKLEARN = False
    _check_is_fitted = None

    class _Base:  # stand-ins for BaseEstimator and TransformerMixin: distinct bases (two `object`s are a TypeError)
        pass

    class _Mixin:
        pass


def as_float_array(X, name="X"):
    """X as a 2-D float32 or float64 array: float32/float64 kept as is (any order), others -> float64."""
    if hasattr(X, "tocsr"):
        raise TypeError(f"{name}: a sparse matrix was passed, but dense data is required")
    X = np.asarray(X)
    if X.dtype not in (np.float32, np.float64):
        if np.iscomplexobj(X):
            raise ValueError(f"{name}: complex data is not supported")
        X = X.astype(np.float64)
    if X.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array (samples x features), got shape {X.shape}; "
                         "reshape 1-D data with X.reshape(-1, 1) or X.reshape(1, -1)")
    return X


class NotFittedError(ValueError, AttributeError):
    """The estimator was used before fit (scikit-learn's NotFittedError when it is installed)."""


if HAVE_SKLEARN:
    from sklearn.exceptions import NotFittedError  # noqa: F811  (the same class users catch)


def check_is_fitted(estimator):
    if _check_is_fitted is not None:
        _check_is_fitted(estimator, "model_")
    elif not hasattr(estimator, "model_"):
        raise NotFittedError(f"This {type(estimator).__name__} instance is not fitted yet: call fit first")
