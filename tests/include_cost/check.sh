#!/usr/bin/env bash
# The compile cost of nldr's headers in a unit (docs/building.md, "Compile time" and "Compile time of
# the registries"), from the symbols of an object file. Two checks:
#
#   check.sh include OBJECT   OBJECT is include_only.cpp, compiled with -fkeep-inline-functions: fails
#       when merely including nldr/nldr.hpp instantiates an eigensolver, a dense factorization or an
#       SVD. Then every unit that includes the library compiles it, called or not (including the
#       headers took 33 s of GCC when two such helpers slipped in, 17 s without them).
#   check.sh registry OBJECT  OBJECT is src/registry_tables.cpp compiled at -O0 (both tables instantiated
#       where NLDR_REGISTRY_COMPILED): fails when it defines a solver or any function the headers
#       name with NLDR_PRECOMPILED, or when it references none of them (the check would be vacuous).
set -euo pipefail
mode=$1
object=$2
heavy='SelfAdjointEigenSolver<|Spectra::Sym|Spectra::Lanczos|bottom_eigenpairs|shift_invert_eigenpairs|LDLT<Eigen::Matrix|LLT<Eigen::Matrix|HouseholderQR<|JacobiSVD<|BDCSVD<|tridiagonalization|SimplicialLDLT<[^>]*>[^:]*::compute|SimplicialCholeskyBase<[^:]*::factorize'
# The precompiled functions by name (core/precompiled.hpp): fits, selector rules, searches, placements.
precompiled='::fit_points<|::fit<(float|double)>\(|::fit_distances<|::solve<|_rule<|exact_neighbors<|assemble_pruned<|PointIndex<(float|double)>::search\(|TrainingNeighbors<(float|double)>::of\(|Model<(float|double)>::(place|triangulate)\('
# fail_if_any FOUND WHY: fails naming the symbols in FOUND (one per line), after the line WHY.
fail_if_any() {
  [[ -z $1 ]] && return 0
  echo "FAILED: $2"
  head -n 20 <<<"$1" | cut -c1-300
  echo "($(wc -l <<<"$1") symbols in all)"
  exit 1
}
names() { sed 's/^[0-9a-f]* *[A-Za-z] //' | sort -u; }
symbols=$(nm -C "$object")
if [[ $(wc -l <<<"$symbols") -lt 100 ]]; then
  echo "FAILED: $object holds almost no symbols: was it compiled as tests/CMakeLists.txt says?"
  exit 1
fi
case $mode in
  include)
    fail_if_any "$(grep -E "$heavy" <<<"$symbols" | names || true)" \
      'including nldr/nldr.hpp instantiates these (make the non-template inline function that calls them a
template: docs/building.md, "Compile time"):'
    echo "including nldr/nldr.hpp instantiates no solver ($(wc -l <<<"$symbols") symbols checked)" ;;
  registry)
    fail_if_any "$(nm -C --defined-only "$object" | grep -E "$heavy|$precompiled" | names || true)" \
      'a unit of a program that links nldr::registry compiles these itself (give the function that does the
work an NLDR_PRECOMPILED instance: docs/building.md, "Compile time of the registries"):'
    referenced=$(nm -C --undefined-only "$object" | grep -cE "$precompiled" || true)
    if [[ $referenced -lt 20 ]]; then
      echo "FAILED: the unit references only $referenced precompiled functions: did it instantiate the tables?"
      exit 1
    fi
    echo "the registry tables call $referenced precompiled functions and compile no fit or solver of their own" ;;
  *) echo "usage: check.sh include|registry OBJECT"; exit 2 ;;
esac
