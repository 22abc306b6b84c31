#!/usr/bin/env bash
# Builds nldr's libFuzzer targets with clang (build dir build-fuzz) and runs each one for the given
# number of seconds on a scratch corpus seeded from tests/fuzz/corpus/<target> (the committed seeds
# are read, never written). Prints each target's executions and rate; fails if a fuzzer finds a
# crash, a hang or a contract violation, and says where the input that triggers it was saved.
# Usage: bash scripts/run-fuzzers.sh [seconds-per-target]   (default 60; docs/errors.md, "Fuzzing")
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
bash scripts/install-deps.sh --clang  # clang, and libFuzzer with the sanitizer runtimes

# OpenMP off: one thread per fuzzer keeps the runs reproducible and the rate per core honest.
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DNLDR_BUILD_FUZZERS=ON -DNLDR_BUILD_TESTS=OFF \
  -DNLDR_BUILD_EXAMPLES=OFF -DNLDR_BUILD_PYTHON=OFF -DNLDR_USE_OPENMP=OFF >/dev/null
cmake --build build-fuzz --parallel "${CMAKE_BUILD_PARALLEL_LEVEL:-2}"

artifacts=$PWD/build-fuzz/artifacts
rm -rf "$artifacts" && mkdir -p "$artifacts"
failed=()
for target in csv_reader graph_lists npy_reader model_file; do
  scratch=$(mktemp -d)
  options=(-max_total_time="$seconds" -timeout=10 -print_final_stats=1 -artifact_prefix="$artifacts/$target-")
  [ -f "tests/fuzz/$target.dict" ] && options+=(-dict="tests/fuzz/$target.dict")
  # New inputs go to the first directory (scratch); the committed seeds are only read.
  if ! "build-fuzz/tests/fuzz/fuzz_$target" "${options[@]}" "$scratch" "tests/fuzz/corpus/$target" \
       >"$scratch.log" 2>&1; then
    tail -n 40 "$scratch.log"
    failed+=("$target")
  fi
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch.log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$scratch.log")
  echo "fuzz_$target: ${seconds} s, ${executions:-?} executions, ${rate:-?} exec/s"
  rm -rf "$scratch" "$scratch.log"
done

if ((${#failed[@]})); then
  echo "FAILED: ${failed[*]}: the failing inputs are in $artifacts/ (reproduce: build-fuzz/tests/fuzz/fuzz_<target> <file>)"
  exit 1
fi
