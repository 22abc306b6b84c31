#!/usr/bin/env bash
# The nldr-mpi tool end to end under mpirun (registered by tests/CMakeLists.txt): the embeddings of 1
# and 2 ranks agree (Laplacian Eigenmaps, diffusion maps, LLE, LTSA), the output is a complete .npy,
# the model --save-model writes places points with the single-process tool (nldr transform), and bad
# input stops every rank with exit status 1, one error line and no output file. Needs numpy
# (/usr/bin/python3) to make the input; skips (77) without it.
# Usage: tool.sh NLDR_MPI MPIRUN NLDR
set -uo pipefail
tool=$1
mpirun=$2
nldr=$3
python=/usr/bin/python3
"$python" -c "import numpy" 2>/dev/null || exit 77
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }

"$python" - "$work" <<'PY'
import sys, numpy as np
rng = np.random.default_rng(4)
t = rng.uniform(1.5 * np.pi, 4.5 * np.pi, 800)
X = np.column_stack([t * np.cos(t), rng.uniform(0, 21, 800), t * np.sin(t)])
np.save(sys.argv[1] + "/X.npy", X)
np.save(sys.argv[1] + "/X_fortran.npy", np.asfortranarray(X).astype(np.float32))
PY

for ranks in 1 2; do
  "$mpirun" -np $ranks "$tool" embed --in "$work/X.npy" --out "$work/Y$ranks.npy" --k 10 --dim 2 \
    --json "$work/r$ranks.json" || fail "embed on $ranks ranks exited with $?"
done
for ranks in 1 2; do
  "$mpirun" -np $ranks "$tool" embed --in "$work/X.npy" --out "$work/D$ranks.npy" --method diffusion-maps --k 10 \
    --dim 2 --alpha 0.5 || fail "diffusion maps on $ranks ranks exited with $?"
done
for method in lle hessian-lle ltsa; do
  for ranks in 1 2; do
    "$mpirun" -np $ranks "$tool" embed --in "$work/X.npy" --out "$work/$method$ranks.npy" --method $method --k 10 \
      --dim 2 --json "$work/$method$ranks.json" || fail "$method on $ranks ranks exited with $?"
  done
done
# The model of a distributed fit, gathered on rank 0, is the single-process model: nldr transform
# places the training points at their coordinates and moved points near them.
for method in laplacian-eigenmaps diffusion-maps lle ltsa; do
  "$mpirun" -np 2 "$tool" embed --in "$work/X.npy" --out "$work/m_$method.npy" --method $method --k 10 --dim 2 \
    --save-model "$work/$method.nldr" --json "$work/m_$method.json" || fail "$method --save-model exited with $?"
  "$nldr" transform --model "$work/$method.nldr" --in "$work/X.npy" --out "$work/t_$method.npy" 2>/dev/null \
    || fail "nldr transform of the $method model of nldr-mpi exited with $?"
done
"$mpirun" -np 2 "$tool" embed --in "$work/X.npy" --out "$work/lle_reg.npy" --method lle --reg 0.1 --k 10 --dim 2 \
  || fail "lle --reg 0.1 exited with $?"
# An alias and a registry flag; the report gives the parameters as resolved.
"$mpirun" -np 2 "$tool" embed --in "$work/X.npy" --out "$work/spectral.npy" --method spectral --heat-t 50 --k 10 \
  --json "$work/spectral.json" || fail "--method spectral --heat-t 50 exited with $?"
"$mpirun" -np 2 "$tool" embed --in "$work/X_fortran.npy" --out "$work/Yf.npy" --k 10 --dim 2 || fail "Fortran-order float32 input"
"$python" - "$work" <<'PY' || fail "the embeddings of 1 and 2 ranks differ or are malformed"
import sys, json, numpy as np
w = sys.argv[1]
Y1, Y2 = np.load(w + "/Y1.npy"), np.load(w + "/Y2.npy")
assert Y1.shape == (800, 2) and Y1.dtype == np.float64 and np.isfinite(Y1).all()
assert np.abs(Y1 - Y2).max() <= 1e-10 * np.abs(Y1).max(), np.abs(Y1 - Y2).max()
assert json.load(open(w + "/r2.json"))["ranks"] == 2
assert np.load(w + "/Yf.npy").shape == (800, 2)
D1, D2 = np.load(w + "/D1.npy"), np.load(w + "/D2.npy")
assert D1.shape == (800, 2) and np.abs(D1 - D2).max() <= 1e-9 * np.abs(D1).max(), np.abs(D1 - D2).max()
for method in ("lle", "hessian-lle", "ltsa"):
    A, B = np.load(w + "/%s1.npy" % method), np.load(w + "/%s2.npy" % method)
    assert A.shape == (800, 2) and np.isfinite(A).all()
    # unit-norm orthogonal columns, as the single-process methods give
    assert np.abs(A.T @ A - np.eye(2)).max() <= 1e-8, A.T @ A
    assert np.abs(A - B).max() <= 1e-8 * np.abs(A).max(), (method, np.abs(A - B).max())
    assert json.load(open(w + "/%s2.json" % method))["max_bytes_sent_per_rank_halo"] > 0
report = json.load(open(w + "/spectral.json"))
assert report["method"] == "laplacian-eigenmaps" and report["t"] == 50, report
assert report["parameters"]["heat_t"] == "50" and report["parameters"]["eigen_tolerance"] == "1e-10", report
assert np.abs(np.load(w + "/spectral.npy") - Y2).max() > 1e-3  # --heat-t reaches the weights
# --reg reaches the weights
assert np.abs(np.load(w + "/lle_reg.npy") - np.load(w + "/lle2.npy")).max() > 1e-3
# A saved model's transform of its own training points gives their coordinates, to the last bit;
# the report has the model's results.
for method in ("laplacian-eigenmaps", "diffusion-maps", "lle", "ltsa"):
    Y, T = np.load(w + "/m_%s.npy" % method), np.load(w + "/t_%s.npy" % method)
    assert T.shape == Y.shape and (T == Y).all(), (method, np.abs(T - Y).max())
assert json.load(open(w + "/m_lle.json"))["results"]["reconstruction_error"] > 0
assert json.load(open(w + "/m_ltsa.json"))["results"]["diagnostics.solver"].startswith("slepc-")
PY

# expect_error <stderr substring> <args...>: exit 1, one error line, no output file left.
expect_error() {
  local text=$1
  shift
  rm -f "$work/bad.npy"
  "$mpirun" -np 2 "$tool" embed --out "$work/bad.npy" "$@" > "$work/out.txt" 2> "$work/err.txt"
  local status=$?
  [ $status -ne 0 ] || fail "$* exited 0"
  [ "$(grep -c '^nldr-mpi: error:' "$work/err.txt")" -eq 1 ] || fail "$*: not one error line: $(cat "$work/err.txt")"
  grep -qF -- "$text" "$work/err.txt" || fail "$*: no '$text' in: $(cat "$work/err.txt")"
  [ -z "$(ls -A "$work" | grep 'bad.npy')" ] || fail "$*: an output file was left"
}
expect_error "cannot be opened" --in "$work/missing.npy" --k 5
expect_error "k = 800 must be < N = 800" --in "$work/X.npy" --k 800
expect_error "dim = 799 must be < N - 1 = 799" --in "$work/X.npy" --k 5 --dim 799
expect_error "not distributed yet: nldr-mpi embeds with laplacian-eigenmaps, diffusion-maps, lle, hessian-lle or ltsa" \
  --in "$work/X.npy" --method isomap
expect_error "needs at least 3 (d + 1 for the local weights)" --in "$work/X.npy" --method lle --k 2
expect_error "reg = -1 must lie in" --in "$work/X.npy" --method lle --reg -1
# The methods' flags are the registry's: one a method does not take is refused naming those it takes.
expect_error "--heat-t does not apply to lle; lle takes --dim, --reg" --in "$work/X.npy" --method lle --heat-t 2
expect_error 'did you mean "lle"' --in "$work/X.npy" --method lel
expect_error "needs at least 6 (1 + d + d(d+1)/2 for the local quadratic fit)" --in "$work/X.npy" --method hessian-lle --k 5
expect_error "k = 0 must be >= 1" --in "$work/X.npy" --k 0
expect_error "--save-model names the same file" --in "$work/X.npy" --save-model "$work/X.npy"
expect_error "m.nldr: cannot be written" --in "$work/X.npy" --k 10 --save-model "$work/no/such/dir/m.nldr"
exit $((failures > 0))
