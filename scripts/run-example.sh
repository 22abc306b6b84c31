#!/usr/bin/env bash
# Installs the dependencies, builds the tool and examples, and unrolls a Swiss roll:
# prints the embedding's quality figures and writes swiss_roll.svg.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --parallel 2 --target swiss_roll nldr_tool
./build/examples/swiss_roll swiss_roll.svg
