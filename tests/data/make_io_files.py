"""Writes the .npy and pandas fixtures of tests/io/matrix_file.cpp with numpy and pandas themselves.

Run from anywhere with Debian's Python (numpy 1.24, pandas 1.5): /usr/bin/python3 tests/data/make_io_files.py
The tests compare what nldr reads against the literal matrices below (typed into the tests as
well), so the reference is numpy's and pandas' own encoding of known values.
"""
import gzip
import os

import numpy as np
import pandas as pd

here = os.path.dirname(os.path.abspath(__file__))
npy_dir = os.path.join(here, "npy")
pandas_dir = os.path.join(here, "pandas")
os.makedirs(npy_dir, exist_ok=True)
os.makedirs(pandas_dir, exist_ok=True)

# --- .npy: every supported dtype x C/Fortran order x byte order -------------------------------
# Unsigned: U; signed: U - 6 (negative values); floats: U / 8 - 0.375 (exact in float32).
U = np.array([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 100]])
for kind, sizes in (("f", (4, 8)), ("i", (1, 2, 4, 8)), ("u", (1, 2, 4, 8))):
    for size in sizes:
        values = U / 8 - 0.375 if kind == "f" else (U - 6 if kind == "i" else U)
        orders = ("<", ">") if size > 1 else ("|",)
        for byte_order in orders:
            dtype = np.dtype(f"{byte_order}{kind}{size}")
            for layout in ("C", "F"):
                a = np.asarray(values, dtype=dtype, order=layout)
                endian = {"<": "le", ">": "be", "|": "1b"}[byte_order]
                np.save(os.path.join(npy_dir, f"{kind}{size}_{layout}_{endian}.npy"), a)

# One column of the float64 values as a 1-D array.
np.save(os.path.join(npy_dir, "f8_1d.npy"), U[:, 0] / 8 - 0.375)
# Format versions 2.0 and 3.0 of the float64 matrix.
for version in ((2, 0), (3, 0)):
    with open(os.path.join(npy_dir, f"f8_v{version[0]}.npy"), "wb") as f:
        np.lib.format.write_array(f, U / 8 - 0.375, version=version)
# int64 beyond 2^53: rounded when read as double (2^53 + 1 -> 2^53).
np.save(os.path.join(npy_dir, "i8_big.npy"), np.array([[2**53 + 1, -(2**62)], [3, 4]], dtype="<i8"))
# Arrays nldr refuses.
np.save(os.path.join(npy_dir, "bad_object.npy"), np.array([[1, "a"], [2, None]], dtype=object), allow_pickle=True)
np.save(os.path.join(npy_dir, "bad_complex.npy"), np.array([[1 + 2j, 3], [4, 5j]]))
np.save(os.path.join(npy_dir, "bad_structured.npy"), np.array([(1.0, 2), (3.0, 4)], dtype=[("x", "<f8"), ("n", "<i4")]))
np.save(os.path.join(npy_dir, "bad_3d.npy"), np.zeros((2, 3, 4)))
np.save(os.path.join(npy_dir, "bad_float16.npy"), np.ones((2, 2), dtype=np.float16))
np.save(os.path.join(npy_dir, "bad_bool.npy"), np.array([[True, False]]))
np.save(os.path.join(npy_dir, "bad_text.npy"), np.array([["a", "b"]]))
np.save(os.path.join(npy_dir, "bad_scalar.npy"), np.float64(1.5))
np.save(os.path.join(npy_dir, "bad_empty.npy"), np.zeros((0, 3)))
np.save(os.path.join(npy_dir, "bad_nan.npy"), np.array([[1.0, 2.0], [np.nan, 4.0]]))
with open(os.path.join(npy_dir, "f8_C_le.npy"), "rb") as f:
    whole = f.read()
with open(os.path.join(npy_dir, "bad_truncated.npy"), "wb") as f:
    f.write(whole[:-5])
with open(os.path.join(npy_dir, "bad_two_arrays.npy"), "wb") as f:
    np.save(f, np.ones((2, 2)))
    np.save(f, np.ones((2, 2)))

# --- CSV and TSV written by pandas ---------------------------------------------------------------
X = np.array([[0.5, -1.25, 3.0], [2.0, 0.125, -4.5], [1e-3, 7.0, 8.25], [6.5, -0.0625, 2.5]])
named = pd.DataFrame(X, columns=["x", "y", "z"])
named.to_csv(os.path.join(pandas_dir, "index.csv"))  # ",x,y,z" over the index 0..3
named.to_csv(os.path.join(pandas_dir, "no_index.csv"), index=False)
named.to_csv(os.path.join(pandas_dir, "index.tsv"), sep="\t")
pd.DataFrame(X).to_csv(os.path.join(pandas_dir, "int_header.csv"), index=False)  # "0,1,2"
pd.DataFrame(X).to_csv(os.path.join(pandas_dir, "int_header_index.csv"))  # ",0,1,2"
with gzip.open(os.path.join(pandas_dir, "index.csv.gz"), "wt") as f:
    named.to_csv(f)
# A label column of text, as in iris.
labelled = named.assign(species=["setosa", "versicolor", "setosa", "virginica"])
labelled.to_csv(os.path.join(pandas_dir, "labels.csv"), index=False)
# An index that is not 0..N-1 (rows filtered out), a named index, a text index.
named[named.x > 1].to_csv(os.path.join(pandas_dir, "filtered_index.csv"))
named.reset_index().to_csv(os.path.join(pandas_dir, "named_index.csv"), index=False)  # "index,x,y,z"
named.set_axis(["a", "b", "c", "d"]).to_csv(os.path.join(pandas_dir, "text_index.csv"))
# Integer data under the integer header: the header cannot be told from a row of data.
pd.DataFrame(np.arange(12).reshape(4, 3)).to_csv(os.path.join(pandas_dir, "int_data_int_header.csv"), index=False)
