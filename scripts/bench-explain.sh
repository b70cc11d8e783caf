#!/usr/bin/env bash
# Throughput and memory of `cudoctor explain` on a large log.
#
# Generates a realistic training log (progress bars, per-step metrics, framework warnings, NCCL
# INFO lines, a few real errors) of about SIZE_GB (default 1.5) in /tmp, then runs the release
# build of `cudoctor explain --no-check FILE` under /usr/bin/time -v and reports GB/s and the
# maximum resident set size. A second run on half the file shows that memory does not grow with
# the input.
#
# Usage: scripts/bench-explain.sh [SIZE_GB]   (SKIP_BUILD=1 uses the release binary as built)
set -euo pipefail
cd "$(dirname "$0")/.."
size_gb=${1:-1.5}
log=/tmp/cudoctor-bench-explain.log
half=/tmp/cudoctor-bench-explain-half.log
block=/tmp/cudoctor-bench-explain-block.log

# SKIP_BUILD=1, or no cargo on this machine: use the release binary as it is.
if [ -z "${SKIP_BUILD:-}" ] && command -v cargo >/dev/null; then
    cargo build --release --quiet
fi
bin=target/release/cudoctor

# One block of ~32 MiB of noise with a few errors, repeated to the target size.
python3 - "$block" <<'PY'
import random, sys
random.seed(7)
out = open(sys.argv[1], "w")
errors = [
    "RuntimeError: CUDA error: an illegal memory access was encountered",
    "F1217 08:19:28.327307  6021 cudnn_conv_layer.cpp:53] Check failed: status == CUDNN_STATUS_SUCCESS (4 vs. 0)  CUDNN_STATUS_INTERNAL_ERROR",
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.02 GiB is free.",
    "node17-2:36748:36748 [0] NCCL WARN NET/IB : Got async event : port error",
]
noise = [
    "Epoch {e}/100:  {p}%|{bar}| {i}/5000 [01:{s:02d}<03:12, 25.{s}it/s, loss={l:.4f}, lr=3.0e-04]",
    "{{'loss': {l:.4f}, 'grad_norm': {g:.3f}, 'learning_rate': 2.9e-05, 'epoch': {e}.{i}}}",
    "[rank{r}]:[W1129 17:{s:02d}:08.461980659 ProcessGroupNCCL.cpp:1538] [PG ID 0 PG GUID 0(default_pg) Rank {r}] heartbeat",
    "node17-2:36748:36748 [{r}] NCCL INFO Channel {s:02d}/0 : {r} -> {r} via P2P/IPC/read",
    "2026-11-29 17:{s:02d}:33.498928: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1247] step {i} took {g:.3f}s",
    "/opt/venv/lib/python3.12/site-packages/transformers/trainer.py:2012: FutureWarning: `resume_download` is deprecated",
    "INFO:root:step={i} samples/s={s}{i} tokens/s={i}{s} mem_alloc_gib={g:.2f} mem_reserved_gib={l:.2f}",
]
n = 0
target = 32 << 20
written = 0
while written < target:
    n += 1
    if n % 50000 == 0:
        line = errors[(n // 50000) % len(errors)]
    else:
        t = noise[n % len(noise)]
        line = t.format(e=n % 100, p=n % 100, bar="#" * (n % 10) + " " * (10 - n % 10), i=n % 5000,
                        s=n % 60, l=random.random(), g=random.random() * 3, r=n % 8)
    out.write(line + "\n")
    written += len(line) + 1
PY

bytes_block=$(stat -c %s "$block")
copies=$(python3 -c "print(max(1, int($size_gb * 1e9 / $bytes_block)))")
: > "$log"
for _ in $(seq "$copies"); do cat "$block" >> "$log"; done
head -c "$(( $(stat -c %s "$log") / 2 ))" "$log" > "$half"

run() {
    local file=$1
    local bytes
    bytes=$(stat -c %s "$file")
    # Warm the page cache so that the disk is not measured.
    cat "$file" > /dev/null
    /usr/bin/time -v "$bin" explain --no-check "$file" > /tmp/cudoctor-bench-explain.out 2> /tmp/cudoctor-bench-explain.time
    local wall rss user sys
    wall=$(grep 'Elapsed (wall clock)' /tmp/cudoctor-bench-explain.time | awk '{print $NF}')
    rss=$(grep 'Maximum resident set size' /tmp/cudoctor-bench-explain.time | awk '{print $NF}')
    user=$(grep 'User time' /tmp/cudoctor-bench-explain.time | awk '{print $NF}')
    sys=$(grep 'System time' /tmp/cudoctor-bench-explain.time | awk '{print $NF}')
    python3 - "$bytes" "$wall" "$rss" "$file" "$user" "$sys" <<'PY'
import sys
b, wall, rss, f, user, system = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4], float(sys.argv[5]), float(sys.argv[6])
parts = [float(x) for x in wall.split(":")]
secs = parts[-1] + (parts[-2] * 60 if len(parts) > 1 else 0) + (parts[-3] * 3600 if len(parts) > 2 else 0)
gb = b / 1e9
print(f"{f}: {gb:.2f} GB; wall {secs:.2f} s = {gb/secs:.2f} GB/s; CPU user {user:.2f} s + sys {system:.2f} s "
      f"= {gb/(user+system):.2f} GB/s per core ({gb/user:.2f} GB/s user only); max RSS {rss/1024:.1f} MiB")
PY
}

run "$log"
run "$half"
echo "errors found:"
grep -E '^\[[0-9]+\]' /tmp/cudoctor-bench-explain.out || true
rm -f "$block"

# A second kind of text, not the one the anchor groups were timed on (a training log and Python
# sources): the C headers of this machine, repeated to half the size. Its lines mention CUDA,
# memory, drivers and libraries far more often than a training log does.
other=/tmp/cudoctor-bench-explain-other.log
if [ -d /usr/include ]; then
    find /usr/include -name '*.h' -type f -print0 | xargs -0 cat 2>/dev/null | head -c $((64 << 20)) > "$block"
    if [ -s "$block" ]; then
        : > "$other"
        while [ "$(stat -c %s "$other")" -lt "$(stat -c %s "$half")" ]; do cat "$block" >> "$other"; done
        run "$other"
    fi
    rm -f "$block"
fi
