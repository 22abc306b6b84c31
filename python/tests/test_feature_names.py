"""Output feature names (get_feature_names_out) and scikit-learn's set_output on every estimator."""
import numpy as np
import pytest

import nldr

sklearn = pytest.importorskip("sklearn")
from sklearn.compose import ColumnTransformer  # noqa: E402

CLASSES = [name for name in nldr.estimators.__all__ if getattr(nldr, name).__name__ == name]


@pytest.mark.parametrize("name", CLASSES)
def test_feature_names_are_the_class_name_and_the_index(swiss_roll, name):
    cls = getattr(nldr, name)
    estimator = cls(n_components=2, **({"landmarks": 20} if "landmarks" in cls._parameter_names else {}))
    assert hasattr(estimator, "set_output")
    Y = estimator.fit_transform(swiss_roll[:200])
    assert Y.shape == (200, 2)
    assert list(estimator.get_feature_names_out()) == [f"{name.lower()}0", f"{name.lower()}1"]


def test_feature_names_are_scikit_learns(swiss_roll):
    from sklearn.manifold import Isomap, LocallyLinearEmbedding
    X = swiss_roll[:200]
    for ours, theirs in ((nldr.Isomap, Isomap), (nldr.LocallyLinearEmbedding, LocallyLinearEmbedding)):
        assert list(ours(n_components=3).fit(X).get_feature_names_out()) == list(
            theirs(n_components=3).fit(X).get_feature_names_out())


@pytest.mark.parametrize("name", CLASSES)
def test_scikit_learns_feature_name_and_set_output_checks(name):
    # scikit-learn 1.2 runs these on its own estimators (not in check_estimator), with the parameters
    # test_check_estimator.py gives for the checks' tiny data sets.
    from sklearn.utils import estimator_checks as checks
    from test_check_estimator import checking_parameters
    cls = getattr(nldr, name)
    estimator = cls(**checking_parameters(cls))
    run = [checks.check_get_feature_names_out_error, checks.check_transformer_get_feature_names_out,
           checks.check_set_output_transform]
    try:
        import pandas  # noqa: F401
        run += [checks.check_transformer_get_feature_names_out_pandas, checks.check_set_output_transform_pandas,
                checks.check_global_ouptut_transform_pandas]
    except ImportError:  # pandas' checks need pandas (test_set_output_pandas says it is skipped)
        pass
    for check in run:
        check(name, estimator)


def test_feature_names_need_a_fit():
    with pytest.raises(sklearn.exceptions.NotFittedError):
        nldr.Isomap().get_feature_names_out()


def test_column_transformer_names_the_embedding_columns(swiss_roll):
    X = swiss_roll[:300]
    columns = ColumnTransformer([("iso", nldr.Isomap(n_components=2), [0, 1, 2]), ("keep", "passthrough", [1])])
    Z = columns.fit_transform(X)
    assert list(columns.get_feature_names_out()) == ["iso__isomap0", "iso__isomap1", "keep__x1"]
    np.testing.assert_array_equal(Z[:, :2], nldr.Isomap(n_components=2).fit_transform(X))
    np.testing.assert_array_equal(Z[:, 2], X[:, 1])
    # set_output with the default container (no pandas needed) keeps arrays.
    assert isinstance(nldr.Isomap().set_output(transform="default").fit_transform(X), np.ndarray)


def test_set_output_pandas(swiss_roll):
    pd = pytest.importorskip("pandas")
    X = pd.DataFrame(swiss_roll[:300], columns=["a", "b", "c"], index=np.arange(300) + 1000)
    iso = nldr.Isomap(n_components=2).set_output(transform="pandas")
    Y = iso.fit_transform(X)
    assert isinstance(Y, pd.DataFrame)
    assert list(Y.columns) == ["isomap0", "isomap1"]
    assert list(Y.index) == list(X.index)
    np.testing.assert_array_equal(Y.to_numpy(), nldr.Isomap(n_components=2).fit_transform(X.to_numpy()))
    assert list(iso.transform(X.iloc[:5]).columns) == ["isomap0", "isomap1"]
    columns = ColumnTransformer([("iso", nldr.Isomap(n_components=2), ["a", "b", "c"]),
                                 ("keep", "passthrough", ["b"])]).set_output(transform="pandas")
    assert list(columns.fit_transform(X).columns) == ["iso__isomap0", "iso__isomap1", "keep__b"]


def test_feature_names_without_scikit_learn():
    # The fallback of an interpreter without scikit-learn: the same names.
    import os
    import subprocess
    import sys
    program = ("import sys; sys.modules['sklearn'] = None\n"
               "import numpy as np, nldr\n"
               "X = np.random.RandomState(0).normal(size=(60, 3))\n"
               "print(' '.join(nldr.Isomap(n_components=2).fit(X).get_feature_names_out()))\n")
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120,
                            env=dict(os.environ))
    assert result.stdout.strip() == "isomap0 isomap1", result.stderr
