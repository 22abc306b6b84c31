#!/usr/bin/python3
"""Would a search for the best k cost less than a sweep, and pick as well? Replayed on recorded curves.

Usage:  tune_study OUT --k-min 5 --k-max 24 --k-step 1      (examples/tune_study.cpp: every criterion at every k)
        /usr/bin/python3 benchmarks/tune_search_replay.py OUT/tune-study-curves.csv

For every (data set, method) cell and criterion of the study, the k each strategy picks from the recorded
values (no new fits) and whether the truth residual variance there is within 5% (or 0.005) of the best over
the sweep, the study's own test (docs/tuning.md, "Study"):
  grid          every k (what nldr::tune does);
  golden        Fibonacci search (Kiefer 1953), exact for a criterion with one peak: ~log_1.618(n) fits;
  coarse-S      every S-th k (and the last), then every k within S - 1 of the coarse best.
"""
import csv
import math
import sys
from collections import defaultdict

CRITERIA = {"auc_rnx": True, "lcmc": True, "geodesic_rv": False, "euclidean_rv": False}  # True: higher is better


def golden(n, better):
    fibonacci = [1, 2]
    while fibonacci[-1] < n + 1:
        fibonacci.append(fibonacci[-1] + fibonacci[-2])
    first, asked = 0, set()
    for m in range(len(fibonacci) - 1, 1, -1):
        left, right = first + fibonacci[m - 2] - 1, first + fibonacci[m - 1] - 1
        if right < n:
            asked |= {left, right}
            if better(right, left):
                first = left + 1
    return asked | {first}


def coarse(n, step, best_of):
    asked = set(range(0, n, step)) | {n - 1}
    best = best_of(asked)
    return asked | set(range(max(0, best - step + 1), min(n - 1, best + step - 1) + 1))


def main():
    cells = defaultdict(list)
    for row in csv.DictReader(open(sys.argv[1])):
        cells[row["data"], row["noise"], row["method"]].append(row)
    strategies = ["grid", "golden", "coarse-3", "coarse-4"]
    picks_same = defaultdict(int)
    good = defaultdict(int)
    fits = defaultdict(list)
    for rows in cells.values():
        rows.sort(key=lambda r: int(r["k"]))
        n = len(rows)
        truth = [float(r["truth_rv"]) if r["truth_rv"] not in ("", "nan") else math.inf for r in rows]
        best_truth = min(truth)
        for criterion, higher in CRITERIA.items():
            value = [None if r["failure"] or r[criterion] in ("", "nan") else float(r[criterion]) for r in rows]
            order = lambda i: (value[i] if higher else -value[i], -i)  # ties: the smaller k

            def best_of(asked):
                working = [i for i in asked if value[i] is not None]
                return max(working, key=order) if working else min(asked)

            def better(i, j):
                if value[i] is None or value[j] is None:
                    return value[i] is not None or (value[j] is None and i > j)
                return order(i) > order(j)

            asked = {"grid": set(range(n)), "golden": golden(n, better),
                     "coarse-3": coarse(n, 3, best_of), "coarse-4": coarse(n, 4, best_of)}
            grid_pick = best_of(asked["grid"])
            for strategy in strategies:
                pick = best_of(asked[strategy])
                picks_same[strategy, criterion] += pick == grid_pick
                good[strategy, criterion] += truth[pick] <= 1.05 * best_truth or truth[pick] - best_truth <= 0.005
                fits[strategy].append(len(asked[strategy]))
    print(f"{len(cells)} cells, {n} values of k each. Per criterion: picks equal to the grid's / picks within 5% of "
          "the best truth residual variance")
    print(f"{'strategy':<10} {'fits':>6} " + " ".join(f"{c:>14}" for c in CRITERIA))
    for strategy in strategies:
        mean_fits = sum(fits[strategy]) / len(fits[strategy])
        print(f"{strategy:<10} {mean_fits:6.1f} " +
              " ".join(f"{picks_same[strategy, c]:>6} / {good[strategy, c]:<5}" for c in CRITERIA))


if __name__ == "__main__":
    main()
