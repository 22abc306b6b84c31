#!/usr/bin/env bash
# Installs the dependencies, builds nldr's tests, tool, examples and Python package, and runs the
# whole test suite (the C++ tests, then the Python package's pytest).
# Usage: bash scripts/run-tests.sh [--build-only] [build-dir] [extra cmake args...]
#   --build-only  configure and build, run nothing (.ci/run builds its sanitizer tree so, in the
#                 background, and runs this script again on that tree for the tests)
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=false
if [ "${1:-}" = --build-only ]; then
  build_only=true
  shift
fi
build=${1:-build}
shift || true
bash scripts/install-deps.sh
# -O2, not CMake's -O3 for Release: the suites compile in less CPU time and run about as fast.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
  -DNLDR_BUILD_TESTS=ON -DNLDR_BUILD_EXAMPLES=ON "$@" >/dev/null
cmake --build "$build" --parallel 2
if $build_only; then
  exit 0
fi
# ctest --parallel 2 runs two test processes of two OpenMP threads each on two cores. OpenMP's default
# waits by spinning (libgomp: a while; clang's libomp: 200 ms) after every parallel region, so each
# process's idle thread burns the core the other one needs: the iterative methods' thousands of short
# regions took 6.2 s instead of 0.49 s in one test, the whole suite 221 s instead of 97 s. Passive
# threads sleep instead; no result depends on it (only on the thread count, which the tests set).
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
ctest --test-dir "$build" --output-on-failure --parallel 2
# The Python package, when this build has it (NLDR_BUILD_PYTHON: on when pybind11 is found; docs/python.md),
# with the tool it is compared with (python/tests/test_front_ends.py).
if grep -q '^NLDR_BUILD_PYTHON:BOOL=ON' "$build/CMakeCache.txt"; then
  python=$(sed -n 's/^PYTHON_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt")
  tool=$(realpath "$build/tools/nldr")
  NLDR_TOOL="$tool" PYTHONPATH="$build/python" "${python:-/usr/bin/python3}" -m pytest python/tests -q \
    -p no:cacheprovider
fi
