#!/usr/bin/env bash
# Installs nldr's build, test and example dependencies from Debian's archive (bookworm).
# Idempotent; needs root (or sudo).
# Options (any order):
#   --benchmarks  what only the benchmark drivers compare against (not the tests):
#                 R with MASS (MASS::sammon, MASS::isoMDS) for benchmarks/mds_compare.py;
#   --clang       clang and its sanitizer and libFuzzer runtimes, for CI's sanitizer build and the
#                 fuzzers (scripts/run-fuzzers.sh).
set -euo pipefail
packages=(
  g++ cmake ninja-build                               # toolchain
  libeigen3-dev libnanoflann-dev libspectra-dev      # required by the library
  libxxhash-dev                                      # required: XXH3, the model files' checksum
  catch2                                             # tests (Catch2 2.13)
  libboost-dev libomp-dev libcli11-dev               # R*-tree index, OpenMP for clang, the nldr tool
  libsuitesparse-dev libopenblas0-pthread            # optional nldr::suitesparse: CHOLMOD, UMFPACK on OpenBLAS
  libhnswlib-dev                                     # optional nldr::hnswlib: ApproximateKNearest
  libopenblas-dev                                    # optional nldr::openblas: GEMM of the exact neighbor search
  libcairo2-dev                                      # optional nldr::cairo: PNG and PDF plots
  libfftw3-dev                                       # optional nldr::fftw: FFTs of the t-SNE repulsion
  libopenmpi-dev openmpi-bin petsc-dev slepc-dev     # optional nldr::mpi: distributed embedding, nldr-mpi
  pybind11-dev python3-dev                           # the Python package nldr (docs/python.md)
  python3-numpy python3-scipy python3-sklearn python3-pytest  # ... its run-time needs and its tests
  python3-pandas                                     # ... scikit-learn's set_output(transform="pandas") test
)
for option in "$@"; do
  case "$option" in
    --benchmarks) packages+=(r-base-core r-cran-mass) ;;  # benchmarks/mds_compare.py's R side
    --clang) packages+=(clang libclang-rt-14-dev) ;;      # Debian ships ASan and libFuzzer in libclang-rt
    *) echo "install-deps.sh: unknown option $option (use --benchmarks, --clang)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
