#!/usr/bin/env bash
# Times cudoctor's GPU-architecture listing beside `cuobjdump --list-elf` on the same library,
# and checks that both count the same cubins per architecture.
#
#   scripts/bench-arches.sh /path/to/site-packages/torch/lib/libtorch_cuda.so [runs]
#
# Uses hyperfine when installed, else a loop timed with `date +%s%N`. cudoctor is taken from
# $CUDOCTOR, else target/release/cudoctor (built if missing). cuobjdump from $CUOBJDUMP or PATH.
set -euo pipefail
lib=${1:?usage: $0 LIBRARY [runs]}
runs=${2:-5}
cd "$(dirname "$0")/.."
cudoctor=${CUDOCTOR:-target/release/cudoctor}
[ -x "$cudoctor" ] || cargo build --release --quiet
cuobjdump=${CUOBJDUMP:-$(command -v cuobjdump || true)}
ours=("$cudoctor" inspect --no-live --format json "$lib")

echo "file: $lib ($(stat -Lc %s "$lib") bytes)"
if command -v hyperfine >/dev/null; then
  cmds=("${ours[*]} > /dev/null")
  [ -n "$cuobjdump" ] && cmds+=("$cuobjdump --list-elf $lib > /dev/null")
  hyperfine --warmup 1 --runs "$runs" "${cmds[@]}"
else
  time_it() { # name, command...
    local name=$1; shift
    local best="" total=0
    "$@" > /dev/null 2>&1 || true # warm the page cache
    for _ in $(seq "$runs"); do
      local t0 t1 ms
      t0=$(date +%s%N); "$@" > /dev/null 2>&1 || true; t1=$(date +%s%N)
      ms=$(( (t1 - t0) / 1000000 ))
      total=$((total + ms))
      if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
    done
    printf '%-12s mean %6d ms   best %6d ms   (%d runs)\n' "$name" $((total / runs)) "$best" "$runs"
  }
  time_it cudoctor "${ours[@]}"
  [ -n "$cuobjdump" ] && time_it cuobjdump "$cuobjdump" --list-elf "$lib"
fi

# Same answer? cubins per architecture, as cuobjdump names them (family-specific `f` cubins
# appear without their `f` in cuobjdump's listing).
if [ -n "$cuobjdump" ]; then
  theirs=$("$cuobjdump" --list-elf "$lib" 2>/dev/null | grep -o 'sm_[0-9]*[a-z]*' | sort | uniq -c | awk '{print $2, $1}' | sort)
  mine=$("${ours[@]}" | python3 -c '
import json, sys, re
r = json.load(sys.stdin)["files"][0]["gpu_code"]["summary"]["cubins"]
for name, n in r:
    print(re.sub(r"f$", "", name), n)' | awk '{c[$1]+=$2} END {for (k in c) print k, c[k]}' | sort)
  if [ "$theirs" = "$mine" ]; then
    echo "same cubins per architecture as cuobjdump:"; echo "$mine" | sed 's/^/  /'
  else
    echo "DIFFERENT from cuobjdump:"; diff <(echo "$theirs") <(echo "$mine") || true
    exit 1
  fi
fi
