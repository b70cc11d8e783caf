#!/usr/bin/env bash
# Times `cudoctor check` (median of N runs, wall clock) and, beside it in the same run, the tools
# people use today: `python -m torch.utils.collect_env` and `nvidia-smi`, when present.
#
#   scripts/bench-check.sh [CUDOCTOR] [RUNS]              this machine, live
#   ROOT=tests/fixtures/h200-cuda13-torch211/root scripts/bench-check.sh   a fixture root
#
# CUDOCTOR defaults to target/release/cudoctor (build it with `cargo build --release`).
set -euo pipefail
bin=${1:-target/release/cudoctor}
runs=${2:-21}
python=${PYTHON:-python3}

median_ms() { # runs a command $runs times, prints the median wall time in ms
  # $EPOCHREALTIME is read by bash itself: no `date` process inside the timed interval.
  local times=() start end
  for _ in $(seq "$runs"); do
    start=${EPOCHREALTIME/[.,]/}
    "$@" >/dev/null 2>&1 || true
    end=${EPOCHREALTIME/[.,]/}
    times+=($(( end - start )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {m=a[int((NR+1)/2)]; printf "%.1f", m/1000}'
}

if [ -n "${ROOT:-}" ]; then
  args=(check --root "$ROOT" --format json)
  [ -f "$ROOT/../env" ] && args+=(--env-file "$ROOT/../env")
  "$bin" "${args[@]}" >/dev/null
  echo "cudoctor check --root $ROOT: median $(median_ms "$bin" "${args[@]}") ms over $runs runs"
  exit 0
fi

"$bin" check >/dev/null
echo "cudoctor check (live):         median $(median_ms "$bin" check) ms over $runs runs"
echo "cudoctor check --no-live:      median $(median_ms "$bin" check --no-live) ms over $runs runs"
if command -v nvidia-smi >/dev/null; then
  runs=5 echo "nvidia-smi:                    median $(runs=5 median_ms nvidia-smi) ms"
fi
if "$python" -c 'import torch' >/dev/null 2>&1; then
  saved=$runs; runs=3
  echo "python -m torch.utils.collect_env: median $(median_ms "$python" -m torch.utils.collect_env) ms over 3 runs"
  runs=$saved
fi
