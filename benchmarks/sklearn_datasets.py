"""Every bundled scikit-learn data set x every method of the nldr tool, with default flags (d = 2).

Each data set is written as pandas' default `df.to_csv(path)` does (a header and the row index as
the first column), so the tool's reading of pandas files is part of the test. Each cell either
embeds (trustworthiness at k = 10 by `nldr evaluate`, and the wall time) or gives a one-line error;
every error must name a flag of the tool, and the script tries that flag and reports whether the
run then works. Prints a Markdown table (docs/tool.md, "What users try first"), then classical MDS
at every d = 1..10 on every data set (each must embed; the negative-eigenvalue diagnostic's status).

    /usr/bin/python3 benchmarks/sklearn_datasets.py build/tools/nldr [--datasets iris,wine] [--methods isomap]
        [--mds-dims 10]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import pandas as pd
import sklearn.datasets

DATASETS = ["iris", "wine", "breast_cancer", "digits", "diabetes", "linnerud"]


def methods_of(tool):
    """The method names the tool's `embed --help` lists."""
    help_text = subprocess.run([tool, "embed", "--help"], capture_output=True, text=True).stdout
    match = re.search(r"Method: ([a-z, -]+)", help_text)
    return [m.strip() for m in match.group(1).split(",") if m.strip()]


def run(args):
    start = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True)
    return proc, time.perf_counter() - start


def suggested_flags(message):
    """Flag-value pairs an error message suggests, in order (e.g. ['-k', '24'], ['--disconnected', 'join'])."""
    return [[flag, value.rstrip(".,;:)")] for flag, value in re.findall(r"(?<![\w-])(-k|--[a-z][a-z-]*) ([^\s,;()]+)", message)
            if not value.startswith("-")]


def embed(tool, data, out, extra):
    proc, seconds = run([tool, "embed", "-i", data, "-o", out, "--quiet", "--json", out + ".json"] + extra)
    if proc.returncode != 0:
        lines = proc.stderr.strip().splitlines()
        return None, seconds, lines[-1] if lines else f"exit {proc.returncode}, no message", len(lines)
    with open(out + ".json") as f:
        report = json.load(f)
    return report, seconds, None, 0


def trustworthiness(tool, data, out):
    proc, _ = run([tool, "evaluate", "-i", data, "--embedding", out, "--k", "10", "--json", "--quiet"])
    if proc.returncode != 0:
        return float("nan")
    return json.loads(proc.stdout)["trustworthiness"]


def describe_success(report, seconds, trust):
    text = f"T = {trust:.3f}, {seconds:.1f} s"
    if report.get("joined_components"):
        text += f"; joined {report['joined_components']} components"
    return text


def mds_dims(tool, name, shape, data, out, dims):
    """A table row: does classical MDS embed at d = 1..dims, the diagnostic's statuses, the slowest run."""
    failed, statuses, slowest = [], set(), 0.0
    for d in range(1, dims + 1):
        report, seconds, error, _ = embed(tool, data, out, ["-m", "mds", "-d", str(d)])
        slowest = max(slowest, seconds)
        if error is not None:
            failed.append(f"d = {d}: {error}")
            continue
        statuses.add(str(report.get("results", {}).get("negative_status", "?")))
    embeds = f"{dims - len(failed)} of {dims}" + (f"; FAILS {'; '.join(failed)}" if failed else "")
    return f"| {name} ({shape[0]} x {shape[1]}) | {embeds} | {', '.join(sorted(statuses))} | {slowest:.1f} s |"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tool_dir", help="directory of the nldr executable (or its path)")
    parser.add_argument("--datasets", default=",".join(DATASETS))
    parser.add_argument("--methods", default="")
    parser.add_argument("--mds-dims", type=int, default=10, help="classical MDS at d = 1..this (0: skip)")
    options = parser.parse_args()
    tool = options.tool_dir
    if os.path.isdir(tool):
        tool = os.path.join(tool, "nldr")
    methods = options.methods.split(",") if options.methods else methods_of(tool)

    rows, mds_rows = [], []
    failures = 0
    with tempfile.TemporaryDirectory() as scratch:
        for name in options.datasets.split(","):
            X = getattr(sklearn.datasets, "load_" + name)().data
            data = os.path.join(scratch, name + ".csv")
            pd.DataFrame(X).to_csv(data)  # pandas' default: header line and row-index column
            for method in methods:
                out = os.path.join(scratch, f"{name}_{method}.csv")
                report, seconds, error, error_lines = embed(tool, data, out, ["-m", method])
                if error is None:
                    cell = describe_success(report, seconds, trustworthiness(tool, data, out))
                else:
                    fixes = suggested_flags(error)
                    cell = f"error: {error}"
                    if error_lines != 1:
                        cell += f" ({error_lines} lines on stderr)"
                        failures += 1
                    for flag in fixes:
                        # A suggested --method replaces the method; any other flag is added.
                        args = ["-m", flag[1]] if flag[0] == "--method" else ["-m", method] + flag
                        fixed, fixed_seconds, fixed_error, _ = embed(tool, data, out, args)
                        if fixed_error is None:
                            cell += f" -> with `{' '.join(flag)}`: " + describe_success(
                                fixed, fixed_seconds, trustworthiness(tool, data, out))
                            break
                    else:
                        cell += " -> NO suggested flag works" if fixes else " -> names NO flag"
                        failures += 1
                rows.append((f"{name} ({X.shape[0]} x {X.shape[1]})", method, cell))
                print(f"{rows[-1][0]:<24} {method:<20} {cell}", file=sys.stderr, flush=True)
            if options.mds_dims > 0:
                mds_rows.append(mds_dims(tool, name, X.shape, data, os.path.join(scratch, name + "_mds.csv"),
                                         options.mds_dims))
                print(mds_rows[-1], file=sys.stderr, flush=True)

    print("| data set (N x D) | method | result with default flags (T = trustworthiness at k = 10) |")
    print("|---|---|---|")
    for dataset, method, cell in rows:
        print(f"| {dataset} | {method} | {cell.replace('|', '/')} |")
    print(f"\n{len(rows)} runs, {failures} without a working suggested flag")
    if mds_rows:
        print(f"\nClassical MDS (`-m mds -d d`), d = 1..{options.mds_dims}:\n")
        print("| data set (N x D) | embeds | negative-eigenvalue diagnostic | slowest run |")
        print("|---|---|---|---|")
        for row in mds_rows:
            print(row)
        failures += sum("FAILS" in row for row in mds_rows)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
