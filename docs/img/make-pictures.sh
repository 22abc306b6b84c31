#!/usr/bin/env bash
# Regenerates the pictures of docs/ with the nldr tool.
# Usage: bash docs/img/make-pictures.sh [path/to/nldr]   (default: build/tools/nldr)
set -euo pipefail
cd "$(dirname "$0")"
nldr=$(realpath "${1:-../../build/tools/nldr}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$nldr" generate swiss-roll --n 1500 --seed 1 --out "$work/roll.csv" --truth "$work/roll-truth.csv" --color "$work/roll-t.csv"
embed() {  # embed <picture> <input> <color> <method> [options...]
  local picture=$1 input=$2 color=$3 method=$4
  shift 4
  "$nldr" embed --in "$input" --out "$work/$picture.csv" --method "$method" --plot "$picture.svg" --color "$color" \
    --color-label "roll angle t" "$@"
}
embed pca-swiss-roll "$work/roll.csv" "$work/roll-t.csv" pca
embed mds-swiss-roll "$work/roll.csv" "$work/roll-t.csv" mds
embed isomap-swiss-roll "$work/roll.csv" "$work/roll-t.csv" isomap --k 10
embed lle "$work/roll.csv" "$work/roll-t.csv" lle --k 10
embed modified-lle "$work/roll.csv" "$work/roll-t.csv" modified-lle --k 10
embed hessian-lle "$work/roll.csv" "$work/roll-t.csv" hessian-lle --k 10
embed ltsa "$work/roll.csv" "$work/roll-t.csv" ltsa --k 10
embed laplacian-eigenmaps "$work/roll.csv" "$work/roll-t.csv" laplacian-eigenmaps --k 10
embed diffusion-maps "$work/roll.csv" "$work/roll-t.csv" diffusion-maps --k 10
# The stress methods fit input (Euclidean) distances: on the roll they flatten it as PCA does, Sammon
# keeping more of the local structure (docs/methods/sammon.md, smacof.md).
embed sammon "$work/roll.csv" "$work/roll-t.csv" sammon
embed smacof "$work/roll.csv" "$work/roll-t.csv" smacof
embed nonmetric-mds "$work/roll.csv" "$work/roll-t.csv" nonmetric-mds

# Neighborhood selection decides the outcome: at k = 14 kNN lists cross between the roll's layers
# (trustworthiness 0.87); shared-neighbor pruning of the same lists removes those edges (0.996).
embed ltsa-knn-k14 "$work/roll.csv" "$work/roll-t.csv" ltsa --k 14 --selector knn
embed ltsa-shared-k14 "$work/roll.csv" "$work/roll-t.csv" ltsa --k 14 --selector shared

"$nldr" generate swiss-hole --n 1500 --seed 1 --out "$work/hole.csv" --color "$work/hole-t.csv"
embed isomap-swiss-hole "$work/hole.csv" "$work/hole-t.csv" isomap --k 10

"$nldr" generate swiss-roll --n 5000 --seed 1 --out "$work/big.csv" --color "$work/big-t.csv"
embed landmark-isomap-swiss-roll "$work/big.csv" "$work/big-t.csv" landmark-isomap --k 10 --landmarks 200

# How the methods compare on the Swiss roll: R_NX(K) curves (docs/metrics.md).
(cd "$work" && "$nldr" evaluate --in roll.csv --embedding isomap-swiss-roll.csv ltsa.csv lle.csv \
  laplacian-eigenmaps.csv pca-swiss-roll.csv --k 10 --plot "$OLDPWD/rnx-swiss-roll.svg" >/dev/null)

# docs/figures.md: PNG figures for a paper (the tool must be built with cairo, docs/building.md).
"$nldr" embed --in "$work/roll.csv" --out "$work/isomap.csv" --method isomap --k 10 --color "$work/roll-t.csv" \
  --color-label "roll angle t" --plot isomap-swiss-roll.png --width 480 --height 380
"$nldr" embed --in ../../tests/data/pandas/iris.csv --out "$work/iris.csv" --method pca --color-column species \
  --plot iris-species.png --width 480 --height 380
