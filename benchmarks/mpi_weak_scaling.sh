#!/usr/bin/env bash
# Weak scaling of nldr-mpi: a fixed number of points per rank (default 25,000) on P = 1, 2, 4, 8 ranks
# (more ranks than cores are oversubscribed), with Open MPI's monitoring component counting every byte
# each rank sends to the others: nldr's own exchanges and PETSc's, SLEPc's and MUMPS's messages alike.
# Prints, per P, the stage times (largest over the ranks), the peak memory of a rank, the kNN bytes nldr
# counts, and the bytes and messages each rank sent in total (largest and mean over the ranks).
# Inputs: Swiss rolls t ~ U[1.5 pi, 4.5 pi], h ~ U[0, 21], X = (t cos t, h, t sin t), numpy seed 0.
# Usage: bash benchmarks/mpi_weak_scaling.sh BUILD_DIR [method] [points-per-rank] [work-dir]
#   extra solver settings through PETSc's environment, e.g. PETSC_OPTIONS="-eps_type lobpcg ..." (docs/scaling.md)
set -euo pipefail
build=$(cd "$1" && pwd)
method=${2:-laplacian-eigenmaps}
per_rank=${3:-25000}
work=${4:-/tmp/nldr-weak-scaling}
mkdir -p "$work"
cd "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
export OMPI_MCA_rmaps_base_oversubscribe=1
for P in 1 2 4 8; do
  N=$((per_rank * P))
  [ -f "roll_$N.npy" ] || /usr/bin/python3 -c "
import numpy as np
rng = np.random.default_rng(0)
t = rng.uniform(1.5 * np.pi, 4.5 * np.pi, $N); h = rng.uniform(0, 21, $N)
np.save('roll_$N.npy', np.column_stack([t * np.cos(t), h, t * np.sin(t)]))"
  rm -f monitoring.*.prof
  # Yielding when idle: oversubscribed ranks that busy-wait in MPI calls would take the cores from the others.
  /usr/bin/time -f "%e" -o wall.txt mpirun -np $P --mca mpi_yield_when_idle 1 --mca pml_monitoring_enable 2 \
    --mca pml_monitoring_enable_output 3 --mca pml_monitoring_filename "$work/monitoring" \
    "$build/tools/nldr-mpi" embed --in "roll_$N.npy" --out "Y_$P.npy" --method "$method" --k 10 --dim 2 \
    --json "report_$P.json" >/dev/null
  /usr/bin/python3 - "$P" "$N" <<'PY'
import glob, json, re, sys
P, N = sys.argv[1], sys.argv[2]
r = json.load(open(f"report_{P}.json"))
stages = " ".join(f"{k} {v:.2f}" for k, v in r["max_seconds_per_rank"].items())
sent, messages = [], []
for f in glob.glob("monitoring.*.prof"):
    b = m = 0
    for line in open(f):  # E: the program's point-to-point messages, I: those inside collectives
        x = re.match(r"([EI])\t(\d+)\t(\d+)\t(\d+) bytes\t(\d+) msgs", line)
        if x and x.group(2) != x.group(3):
            b += int(x.group(4)); m += int(x.group(5))
    sent.append(b); messages.append(m)
sent = sent or [0]; messages = messages or [0]
print(f"P {P}  N {N}  wall {open('wall.txt').read().strip()} s  stages (s): {stages}")
print(f"    peak per rank {r['max_peak_memory_bytes_per_rank'] / 1e6:.0f} MB, kNN sent {r['max_bytes_sent_per_rank_knn'] / 1e6:.2f} MB, "
      f"all sent per rank: largest {max(sent) / 1e6:.1f} MB, mean {sum(sent) / len(sent) / 1e6:.1f} MB, "
      f"messages largest {max(messages)}")
PY
done
