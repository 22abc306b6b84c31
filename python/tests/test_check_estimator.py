"""scikit-learn's check_estimator on every generated estimator (docs/python.md lists the results).

Every estimator runs the checks twice:

* with parameters suited to the checks' data sets, which are tiny (10 to 30 points, several of them
  two blobs of 15 points 1.7 apart): a neighbor graph joining every pair of points (an epsilon graph
  whose radius exceeds the data's diameter) and, for LandmarkIsomap, fewer landmarks than points.
  scikit-learn adjusts its own estimators for these checks in the same way. Every check must pass.
* with the default parameters, where the graph methods cannot fit the 10-point data sets (their two-blob
  data sets they fit by joining the blobs' graph components, with a warning). Each such
  check is listed in EXPECTED_FAILURES with the reason; the set of failures must be exactly that.
"""
import pytest

import nldr

pytest.importorskip("sklearn")
from sklearn.utils.estimator_checks import check_estimator  # noqa: E402

# The default k = 10 nearest neighbors on the checks' data.
_TEN_POINTS = ("fits 10 points; k = 10 neighbors needs N >= 11, and nldr refuses k >= N (with a message "
               "naming k and N) rather than lowering k silently")
_FEW_POINTS_FOR_LANDMARKS = ("fits fewer than the default 100 landmarks; nldr refuses landmarks > N rather "
                             "than lowering it")

_GRAPH_METHOD_FAILURES = {
    "check_estimators_nan_inf": _TEN_POINTS,
    "check_fit2d_1feature": _TEN_POINTS + " (the check wants a message naming the single feature)",
}
_LANDMARK_FAILURES = {name: _FEW_POINTS_FOR_LANDMARKS for name in (
    "check_estimators_dtypes", "check_fit_score_takes_y", "check_estimators_fit_returns_self",
    "check_dtype_object", "check_pipeline_consistency", "check_estimators_overwrite_params",
    "check_estimators_pickle", "check_transformer_data_not_an_array", "check_transformer_general",
    "check_transformer_preserve_dtypes", "check_methods_sample_order_invariance",
    "check_methods_subset_invariance", "check_dict_unchanged", "check_dont_overwrite_parameters",
    "check_fit_idempotent", "check_fit2d_predict1d")}

# Checks that fail with the default parameters, with the reason (docs/python.md, "check_estimator").
# t-SNE and UMAP choose their own k (n_neighbors=None: at most N - 1), so they fit 10 points.
EXPECTED_FAILURES = {
    name: ({**_GRAPH_METHOD_FAILURES, **_LANDMARK_FAILURES} if name == "LandmarkIsomap" else _GRAPH_METHOD_FAILURES)
    for name in nldr.estimators.__all__ if getattr(nldr, name)._graph and getattr(nldr, name)().n_neighbors is not None
}


# One run per class: SpectralEmbedding and MDS are other names of LaplacianEigenmaps and ClassicalMDS.
CLASSES = [name for name in nldr.estimators.__all__ if getattr(nldr, name).__name__ == name]


def checking_parameters(cls):
    """Parameters under which an estimator can fit every data set of check_estimator."""
    parameters = {}
    if cls._graph:
        parameters.update(neighbors="epsilon", neighbors_params={"radius": 10.0})
    if "landmarks" in cls._parameter_names:
        parameters["landmarks"] = 5
    return parameters


def failed_checks(estimator):
    failures = {}
    for check_estimator_instance, check in check_estimator(estimator, generate_only=True):
        check_name = getattr(check, "func", check).__name__
        try:
            check(check_estimator_instance)
        except Exception as error:  # noqa: BLE001 - collected and compared below
            failures[check_name] = f"{type(error).__name__}: {str(error)[:200]}"
    return failures


@pytest.mark.parametrize("name", CLASSES)
def test_check_estimator_passes_on_suitable_parameters(name):
    cls = getattr(nldr, name)
    failures = failed_checks(cls(**checking_parameters(cls)))
    assert not failures, failures


@pytest.mark.parametrize("name", CLASSES)
def test_check_estimator_failures_on_defaults_are_the_documented_ones(name):
    failures = failed_checks(getattr(nldr, name)())
    assert set(failures) == set(EXPECTED_FAILURES.get(name, {})), failures
