# Sourced by the GPU-machine scripts that run DeepGEMM beside dgemm outside
# the benchmarks (device-deepgemm-multicast.sh, device-deepgemm-profile.sh),
# with dgemm's kernel cache folder as its argument: builds DeepGEMM from the
# carried tarball (scripts/device-deepgemm.sh with no benchmarks; its log in
# $OUT/deepgemm-setup.log, exit 3 if it fails), then sources device-env.sh
# and deepgemm-env.sh. Sets `root`, the checkout, and cds there (before the
# build too).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 2
export OUT=${OUT:-/tmp/dgemm-device-out}
mkdir -p "$OUT"
BENCH=0 TESTS=0 bash scripts/device-deepgemm.sh >"$OUT/deepgemm-setup.log" 2>&1 || {
  tail -20 "$OUT/deepgemm-setup.log"
  exit 3
}
grep "DeepGEMM build\|^deep_gemm" "$OUT/deepgemm-setup.log"
# shellcheck source=device-env.sh
source scripts/device-env.sh "$1"
# shellcheck source=deepgemm-env.sh
source scripts/deepgemm-env.sh
