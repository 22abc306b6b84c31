#!/usr/bin/env bash
# Installs the dependencies, builds nldr's tests, tool, examples and Python package, and runs the
# whole test suite: ctest, then the Python package's pytest suite against the build tree.
# Usage: bash scripts/run-tests.sh [build-dir] [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
bash scripts/install-deps.sh
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DNLDR_BUILD_TESTS=ON -DNLDR_BUILD_EXAMPLES=ON \
  -DNLDR_BUILD_PYTHON=ON -DPYTHON_EXECUTABLE=/usr/bin/python3 "$@" >/dev/null
cmake --build "$build" --parallel 2
ctest --test-dir "$build" --output-on-failure --parallel 2
# The Python package straight from the build tree (python/CMakeLists.txt puts nldr/ together there).
PYTHONPATH="$build/python" /usr/bin/python3 -m pytest python/tests -q -p no:cacheprovider
