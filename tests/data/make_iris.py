"""Writes tests/data/pandas/iris.csv, the tool's test of coloring a plot by a text column of its input.

Run with Debian's Python (scikit-learn 1.2, pandas 1.5): /usr/bin/python3 tests/data/make_iris.py
Fisher's iris measurements as scikit-learn bundles them, with the species as text, written by
pandas' default to_csv: an unnamed 0..149 row index first, then four measurements and 'species'.
"""
import os

from sklearn.datasets import load_iris

here = os.path.dirname(os.path.abspath(__file__))
iris = load_iris(as_frame=True)
frame = iris.frame.drop(columns="target")
frame["species"] = iris.target_names[iris.target]
frame.to_csv(os.path.join(here, "pandas", "iris.csv"))
