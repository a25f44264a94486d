#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs/s of `nhsim sweep` for 10^4 sampled runs of ball_on_turntable (t = 0 … 1)
# and of the largest classic, whipple_bicycle (t = 0 … 0.5), on 1 and 2 threads and on 2 MPI
# ranks of 1 thread each (mpirun), and the MPI overhead per run against 2 threads. Prints the
# load average before and after: other processes take cores from the workers.
# Usage: bench/bench_sweep_mpi.sh [NHSIM (default build/release/bin/nhsim)] [RUNS (10000)]
set -euo pipefail
nhsim=${1:-$(dirname "$0")/../build/release/bin/nhsim}
runs=${2:-10000}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
mpi=(mpirun -n 2 --oversubscribe --mca btl self,vader)

# The runs/s of the summary line ("… 1234 runs/s on …").
rate() { sed -n 's/.*, \([0-9.e+]*\) runs\/s on .*/\1/p'; }

echo "bench_sweep_mpi: $runs runs each; load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
while read -r system tend axes; do
  # shellcheck disable=SC2086
  args=(sweep "$system" $axes --count "$runs" --seed 1 --t-end "$tend" --measure 'max(x)')
  t1=$("$nhsim" "${args[@]}" --jobs 1 --out "$out/a.csv" 2>/dev/null | rate)
  t2=$("$nhsim" "${args[@]}" --jobs 2 --out "$out/b.csv" 2>/dev/null | rate)
  m2=$("${mpi[@]}" "$nhsim" "${args[@]}" --mpi --out "$out/c.csv" </dev/null 2>/dev/null | rate)
  cmp -s "$out/a.csv" "$out/c.csv" || { echo "bench_sweep_mpi: MPI output differs" >&2; exit 1; }
  awk -v s="$system" -v t="$tend" -v t1="$t1" -v t2="$t2" -v m2="$m2" 'BEGIN {
    printf "%-18s t_end %-4s 1 thread %8.1f runs/s | 2 threads %8.1f runs/s (x%.2f) | 2 MPI ranks %8.1f runs/s (x%.2f); MPI - threads: %+.1f us wall per run\n",
      s, t, t1, t2, t2 / t1, m2, m2 / t1, (1 / m2 - 1 / t2) * 1e6 }'
done <<'CASES'
ball_on_turntable 1 --sample vx=normal:0:0.3 --sample vy=uniform:-0.3:0.3
whipple_bicycle 0.5 --sample v=uniform:3:6 --sample lean_rate=normal:0:0.3
CASES
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
