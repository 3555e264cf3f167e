# Sourced by the GPU-machine scripts (scripts/device-*.sh), with the default
# kernel cache folder as its argument: makes $OUT (default
# /tmp/dgemm-device-out), unpacks the carried bundle (.bundle/dgemm.tar.xz,
# or $BUNDLE_DIR/dgemm.tar.xz) into /tmp/dgemm (once per bundle), and exports what dgemm's Python package and the bench
# tools read (DGEMM_LIB, DGEMM_OPT, PYTHONPATH, DGEMM_CACHE_DIR unless set)
# with the CUDA tools on PATH and PYTHONUNBUFFERED=1 (the logs show each line as
# it comes). Sets `root`, the checkout, and cds there.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Seconds since this file was sourced, for the scripts' step lines.
env_t0=$(date +%s)
elapsed() { echo $(( $(date +%s) - env_t0 )); }
OUT=${OUT:-/tmp/dgemm-device-out}
mkdir -p "$OUT"
# (Again when the carried bundle differs from the one unpacked: a warm
# machine keeps /tmp between calls.)
bundle_dir=${BUNDLE_DIR:-$root/.bundle}
bundle_sum=$(sha256sum "$bundle_dir/dgemm.tar.xz" | cut -d' ' -f1)
if [ ! -f /tmp/dgemm/dgemm/lib/libdgemm.so ] ||
   [ "$(cat /tmp/dgemm/.bundle-sha256 2>/dev/null)" != "$bundle_sum" ]; then
  rm -rf /tmp/dgemm && mkdir -p /tmp/dgemm &&
    tar -C /tmp/dgemm -xJf "$bundle_dir/dgemm.tar.xz" &&
    echo "$bundle_sum" > /tmp/dgemm/.bundle-sha256
fi
export DGEMM_LIB=/tmp/dgemm/dgemm/lib/libdgemm.so DGEMM_OPT=/tmp/dgemm/dgemm/bin/dgemm-opt
export PYTHONPATH="$root/python" DGEMM_CACHE_DIR=${DGEMM_CACHE_DIR:-$1}
export PATH="$PATH:/usr/local/cuda/bin:/usr/local/cuda-13.0/bin"
export PYTHONUNBUFFERED=1
cd "$root" || exit 2

# kernel_sass IR NAME: a kernel-IR file to PTX (dgemm-opt), cubin (ptxas -v,
# its report in $OUT/ptx/NAME.ptxas) and SASS ($OUT/sass/NAME.sass).
kernel_sass() {
  mkdir -p "$OUT/ptx" "$OUT/sass"
  "$DGEMM_OPT" "$1" --dgemm-kernel-to-ptx --dgemm-dump-ptx=dir="$OUT/ptx/$2" -o /dev/null &&
    ptxas -arch=sm_90a -v "$OUT/ptx/$2"/*.ptx -o "$OUT/ptx/$2.cubin" > "$OUT/ptx/$2.ptxas" 2>&1 &&
    cuobjdump -sass "$OUT/ptx/$2.cubin" > "$OUT/sass/$2.sass" || { echo "sass of $2 failed"; return 1; }
}

# ptx_sass PTX DIR: one PTX file to SASS, named after its entry: cubin
# (ptxas -v, its report in DIR/ENTRY.ptxas, the cubin removed) and
# DIR/ENTRY.sass (cuobjdump -sass); prints the entry and its count of
# local loads and stores (spills).
ptx_sass() {
  local name
  name=$(grep -m1 -oE "\.entry [A-Za-z0-9_]+" "$1" | cut -d' ' -f2)
  ptxas -arch=sm_90a -v "$1" -o "$2/$name.cubin" > "$2/$name.ptxas" 2>&1 &&
    cuobjdump -sass "$2/$name.cubin" > "$2/$name.sass" 2>&1 ||
    { echo "sass of $1 failed"; return 1; }
  rm -f "$2/$name.cubin"
  echo "$name: $(grep -c -E "STL|LDL" "$2/$name.sass") local loads/stores"
}
export -f ptx_sass

# cache_sass CACHE DIR: ptx_sass on every kernel of a dgemm kernel cache
# folder (its .ptx entries), 12 at a time, within 120 s. Returns 1 if any
# failed.
cache_sass() {
  mkdir -p "$2"
  find "$1" -maxdepth 1 -name "*.ptx" -print0 |
    timeout -k 5 120 xargs -0 -r -P 12 -I{} bash -c 'ptx_sass "$0" "$1"' {} "$2"
}

# sanitize_check TOOL LOG LIMIT_S CMD...: CMD under compute-sanitizer TOOL
# (exit 9 on a report) into LOG within LIMIT_S seconds; prints one line
# with its exit status, the lines saying "checked" and the tool's summary,
# and returns the exit status.
sanitize_check() {
  local tool=$1 log=$2 limit=$3 r
  shift 3
  timeout -k 5 "$limit" compute-sanitizer --tool "$tool" --error-exitcode 9 "$@" > "$log" 2>&1
  r=$?
  echo "compute-sanitizer $tool: exit $r ($(grep -c "checked" "$log") checked;" \
    "$(grep -m1 -E "(ERROR|RACECHECK) SUMMARY" "$log"))"
  return $r
}

# sanitize_contiguous TAG LIMIT_S [--edit EDITS]...: compute-sanitizer
# racecheck and synccheck, each within LIMIT_S, on bench/
# check_contiguous_lowering.py's edge cases (no random cases, no reference)
# with those edits -> $OUT/{racecheck,synccheck}-TAG.log. Returns 1 if
# either failed.
sanitize_contiguous() {
  local tag=$1 limit=$2 tool r=0
  shift 2
  for tool in racecheck synccheck; do
    echo "== $tool at $(elapsed)s"
    sanitize_check "$tool" "$OUT/$tool-$tag.log" "$limit" --print-limit 20 \
      --kernel-name kns=dgemm python3 bench/check_contiguous_lowering.py \
      --random 0 --no-reference "$@" || r=1
  done
  return $r
}

# probe_contiguous TAG LIMIT_S PHASES [--variant NAME=EDITS]...: bench/
# probe_power.py sustained on the contiguous shapes of $SHAPES (N,K pairs;
# default 4 x 8192 rows at N 4096 / K 7168 and N 7168 / K 2048), PHASE_S
# (3) seconds a phase, each within LIMIT_S -> $OUT/probe-TAG-nN-kK.log.
# Returns 1 if any probe failed.
probe_contiguous() {
  local tag=$1 limit=$2 phases=$3 shape r=0
  shift 3
  for shape in ${SHAPES:-"4096,7168" "7168,2048"}; do
    echo "== probe N ${shape%,*} K ${shape#*,}"
    timeout -k 5 "$limit" python3 bench/probe_power.py --n "${shape%,*}" \
      --k "${shape#*,}" --seconds "${PHASE_S:-3}" "$@" --phases "$phases" 2>&1 |
      tee "$OUT/probe-$tag-n${shape%,*}-k${shape#*,}.log" || r=1
  done
  return $r
}
