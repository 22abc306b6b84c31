#!/usr/bin/python3
"""Does a cheaper stand-in pick the k the method itself would? Replayed on recorded curves.

Usage:  tune_study OUT --k-min 5 --k-max 24 --k-step 1 \
            --methods isomap,landmark-isomap:landmarks=100,landmark-isomap:landmarks=200
        /usr/bin/python3 benchmarks/tune_approximation_replay.py OUT/tune-study-curves.csv isomap

For every data set of the study, criterion and stand-in (every other method of the CSV), the k the stand-in's
criterion curve picks, judged by the exact method's truth residual variance at that k: "good" when within 5%
(or 0.005) of the exact method's best over the sweep (the study's own test, docs/tuning.md, "Study"), "same"
when it is the k the exact method's own curve picks. The exact method's own row is the reference.
"""
import csv
import sys
from collections import Counter, defaultdict

CRITERIA = {"auc_rnx": True, "lcmc": True, "geodesic_rv": False, "euclidean_rv": False}  # True: higher is better


def pick(curve, criterion):
    """The k whose value is best on this curve (the smaller k on ties, as nldr::tune)."""
    better = max if CRITERIA[criterion] else min
    return better(sorted(curve), key=lambda k: float(curve[k][criterion]))


def near_best(value, best):
    return value <= 1.05 * best or value <= best + 0.005


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    exact = sys.argv[2]
    cells = defaultdict(dict)  # (data, noise) -> method -> {k: row}
    with open(sys.argv[1]) as file:
        for row in csv.DictReader(file):
            if not row["failure"]:
                cells[(row["data"], row["noise"])].setdefault(row["method"], {})[int(row["k"])] = row
    methods = sorted({m for cell in cells.values() for m in cell}, key=lambda m: (m != exact, m))
    if exact not in methods:
        sys.exit(f"no rows of {exact} in {sys.argv[1]}")
    print(f"{len(cells)} data sets; per criterion: good (pick within 5% of {exact}'s best truth RV) / same (pick "
          f"equal to {exact}'s own)")
    print("| scored by | " + " | ".join(CRITERIA) + " |")
    print("|---|" + "---:|" * len(CRITERIA))
    for method in methods:
        good, same = Counter(), Counter()
        for cell in cells.values():
            if exact not in cell or method not in cell:
                continue
            truth = {k: float(row["truth_rv"]) for k, row in cell[exact].items()}
            best = min(truth.values())
            for criterion in CRITERIA:
                k = pick(cell[method], criterion)
                good[criterion] += k in truth and near_best(truth[k], best)
                same[criterion] += k == pick(cell[exact], criterion)
        print(f"| {method} | " + " | ".join(f"{good[c]} / {same[c]}" for c in CRITERIA) + " |")


if __name__ == "__main__":
    main()
