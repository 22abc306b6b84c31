"""scikit-learn's check_estimator on every generated estimator (docs/python.md lists the results)."""
import pytest

import nldr

pytest.importorskip("sklearn")
from sklearn.utils.estimator_checks import check_estimator  # noqa: E402

# Checks a method cannot pass, with the reason (docs/python.md, "check_estimator").
EXPECTED_FAILURES = {}


@pytest.mark.parametrize("name", nldr.estimators.__all__)
def test_check_estimator(name):
    estimator = getattr(nldr, name)()
    failures = {}
    for check_estimator_instance, check in check_estimator(estimator, generate_only=True):
        check_name = getattr(check, "func", check).__name__
        try:
            check(check_estimator_instance)
        except Exception as error:  # noqa: BLE001 - collected and compared below
            failures[check_name] = f"{type(error).__name__}: {str(error)[:200]}"
    unexpected = {k: v for k, v in failures.items() if k not in EXPECTED_FAILURES.get(name, {})}
    assert not unexpected, unexpected
