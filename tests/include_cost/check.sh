#!/usr/bin/env bash
# Fails when merely including nldr/nldr.hpp instantiates an eigensolver, a dense factorization or an
# SVD: then every unit that includes the library compiles it, called or not (docs/building.md,
# "Compile time": including the headers took 33 s of GCC when two such helpers slipped in, 17 s
# without them). Argument: include_only.cpp's object, compiled with -fkeep-inline-functions.
set -euo pipefail
object=$1
heavy='SelfAdjointEigenSolver<|Spectra::Sym|Spectra::Lanczos|bottom_eigenpairs|shift_invert_eigenpairs|LDLT<Eigen::Matrix|LLT<Eigen::Matrix|HouseholderQR<|JacobiSVD<|BDCSVD<|tridiagonalization|SimplicialLDLT<[^>]*>[^:]*::compute|SimplicialCholeskyBase<[^:]*::factorize'
symbols=$(nm -C "$object")
if [[ $(wc -l <<<"$symbols") -lt 100 ]]; then
  echo "FAILED: $object holds almost no symbols: was it compiled with -fkeep-inline-functions?"
  exit 1
fi
found=$(grep -E "$heavy" <<<"$symbols" | sed 's/^[0-9a-f]* [A-Za-z] //' | sort -u || true)
if [[ -n $found ]]; then
  echo "FAILED: including nldr/nldr.hpp instantiates these (make the non-template inline function"
  echo "that calls them a template: docs/building.md, \"Compile time\"):"
  head -n 20 <<<"$found" | cut -c1-300
  echo "($(wc -l <<<"$found") symbols in all)"
  exit 1
fi
echo "including nldr/nldr.hpp instantiates no solver ($(wc -l <<<"$symbols") symbols checked)"
