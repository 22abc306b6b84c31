#!/usr/bin/env bash
# Installs the dependencies, builds nldr's tests, tool and examples, and runs the whole test suite.
# Usage: bash scripts/run-tests.sh [build-dir] [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
bash scripts/install-deps.sh
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DNLDR_BUILD_TESTS=ON -DNLDR_BUILD_EXAMPLES=ON "$@" >/dev/null
cmake --build "$build" --parallel 2
ctest --test-dir "$build" --output-on-failure --parallel 2
