#!/usr/bin/env bash
# Builds nldr's libFuzzer targets with clang and runs each one for the given number of seconds on a
# scratch corpus seeded from tests/fuzz/corpus/<target> (the committed seeds are read, never written).
# Prints each target's executions and rate; fails if a fuzzer finds a crash, a hang or a contract
# violation, and says where the input that triggers it was saved.
# Usage: bash scripts/run-fuzzers.sh [seconds-per-target [build-dir]]   (docs/errors.md, "Fuzzing")
#   seconds-per-target  default 60
#   build-dir           default build-fuzz, configured here (fuzzers only, OpenMP off); or an existing
#                       clang build configured with -DNLDR_BUILD_FUZZERS=ON (CI's sanitizer build),
#                       whose compiled registry the fuzzers then share instead of compiling their own
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
build=${2:-build-fuzz}
bash scripts/install-deps.sh --clang  # clang, and libFuzzer with the sanitizer runtimes

if [ "$build" = build-fuzz ]; then
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DNLDR_BUILD_FUZZERS=ON -DNLDR_BUILD_TESTS=OFF \
    -DNLDR_BUILD_TOOLS=OFF -DNLDR_BUILD_EXAMPLES=OFF -DNLDR_BUILD_PYTHON=OFF -DNLDR_USE_OPENMP=OFF >/dev/null
elif ! grep -q '^NLDR_BUILD_FUZZERS:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null; then
  echo "run-fuzzers.sh: $build is not a build configured with -DNLDR_BUILD_FUZZERS=ON (and clang):" \
       "configure it so, or leave the build directory out to use build-fuzz" >&2
  exit 2
fi
targets=(csv_reader graph_lists npy_reader model_file)
cmake --build "$build" --parallel "${CMAKE_BUILD_PARALLEL_LEVEL:-2}" --target "${targets[@]/#/fuzz_}"
# One fuzzer per core at a time (each is single-threaded): four targets take two rounds on two cores.
# Counted before OMP_NUM_THREADS is set below, which GNU nproc obeys (it ran them one at a time).
cores=$(nproc)
# One thread per fuzzer keeps the runs reproducible and the rate per core honest, in a build with
# OpenMP too.
export OMP_NUM_THREADS=1

artifacts=$(cd "$build" && pwd)/artifacts
rm -rf "$artifacts" && mkdir -p "$artifacts"
results=$(mktemp -d)
run_target() {
  local target=$1 scratch
  scratch=$(mktemp -d)
  local options=(-max_total_time="$seconds" -timeout=10 -print_final_stats=1 -artifact_prefix="$artifacts/$target-")
  [ -f "tests/fuzz/$target.dict" ] && options+=(-dict="tests/fuzz/$target.dict")
  # New inputs go to the first directory (scratch); the committed seeds are only read.
  if ! "$build/tests/fuzz/fuzz_$target" "${options[@]}" "$scratch" "tests/fuzz/corpus/$target" \
       >"$results/$target.log" 2>&1; then
    touch "$results/$target.failed"
  fi
  rm -rf "$scratch"
}
for target in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= cores)); do wait -n || true; done
  run_target "$target" &
done
wait
failed=()
for target in "${targets[@]}"; do
  log="$results/$target.log"
  if [ -f "$results/$target.failed" ]; then
    tail -n 40 "$log"
    failed+=("$target")
  fi
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  echo "fuzz_$target: ${seconds} s, ${executions:-?} executions, ${rate:-?} exec/s"
done
rm -rf "$results"

if ((${#failed[@]})); then
  echo "FAILED: ${failed[*]}: the failing inputs are in $artifacts/ (reproduce: $build/tests/fuzz/fuzz_<target> <file>)"
  exit 1
fi
