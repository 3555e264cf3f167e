#!/usr/bin/env bash
#===- device-run.sh - test and benchmark dgemm on the GPU machine ---------===#
#
# The one script to run on the GPU machine, from the repository root, with
# the bundle carried along (it is git-ignored):
#
#   run(command="bash scripts/device-run.sh", carry=[".bundle"])
#
# The device tool brings back at most 8 files of $OUT, and a full run
# (SANITIZE=1 WGRAD=1) writes 19: write them elsewhere and bring back a tar:
#
#   run(command="D=$OUT; export OUT=/tmp/run; mkdir -p $OUT;
#       SANITIZE=1 WGRAD=1 bash scripts/device-run.sh > $OUT/console.log 2>&1;
#       rc=$?; tar -C /tmp/run -cJf $D/run.tar.xz .; exit $rc", carry=[".bundle"])
#
# Everything (BIAS=1 WGRAD=1 SANITIZE=1) takes more than one call's 10
# minutes: make it two calls on the warm machine, the timed steps
# (BIAS=1 WGRAD=1) then the sanitizers (SANITIZE=1 BENCH=0 TESTS=0 BIAS=1
# WGRAD=1).
#
# Steps (each with a timeout inside one overall budget, so the default run
# stays under 9 minutes of GPU time; a failing step does not stop the next):
#   1. unpack .bundle/dgemm.tar.xz to /tmp/dgemm; export DGEMM_LIB,
#      PYTHONPATH, DGEMM_OPT, DGEMM_CACHE_DIR and CUDA_CACHE_PATH (both
#      emptied, and not shared with the tests: compile and JIT times are cold)
#   2. nvidia-smi, Python, PyTorch and bundle versions
#   3. the Python package tests (test/Python, GPU tests included)
#   4. GPU execution tests: test/Integration/GPU/test_*.py, if present
#   5. (BENCH=1) bench/run_grouped.py (GROUPED=1): the m-grouped cases
#      -> $OUT/grouped.jsonl; then
#      bench/run_bench.py: shapes.csv + $RANDOM_SHAPES random shapes
#      -> $OUT/bench.jsonl, then a warm-start probe in a new process
#      -> $OUT/bench-warm.jsonl; bench/compile_times.py (cold compile per
#      kernel in fresh processes with CUDA_CACHE_DISABLE=1, warm start,
#      warm-call host overhead) -> $OUT/compile-times.jsonl; and
#      $OUT/RESULTS.md (scripts/gen_results.py)
#   6. with SANITIZE=1: compute-sanitizer memcheck and racecheck on
#      run_bench.py --sanitize -> $OUT/memcheck.log, $OUT/racecheck.log,
#      and (GROUPED=1) on run_grouped.py --sanitize -> $OUT/*-grouped.log;
#      bench/sanitizer_planted.py: each tool must report a bug planted in
#      the kernel IR -> $OUT/planted.log; synccheck and initcheck on the
#      small-M normal and grouped runs -> $OUT/synccheck.log, initcheck.log
#   7. a short status table and the benchmark table, last
# Everything printed is also in $OUT/device-run.log. Exit status: 0 if every
# step passed.
#
# Knobs (environment): RANDOM_SHAPES (40), SANITIZE (0), BENCH (1; 0 skips
# step 5, every timed run: with TESTS=0 SANITIZE=1, a sanitizer-only run), TESTS (1; 0 skips steps 3-4), BUDGET_S (510: the whole run),
# SANITIZE_ALL (0; 1: memcheck over every reference shape, bench/sanitize_all.py),
# SWEEP_GROUPED (0; 1: bench/sweep_grouped.py -> $OUT/sweep-grouped.jsonl),
# WGRAD (0; 1: bench/run_wgrad.py -> $OUT/wgrad.jsonl; with SANITIZE=1 also
# the four sanitizers on its small cases -> $OUT/<tool>-wgrad.log),
# BIAS (0; 1: bench/run_bias.py, the GEMM with a fused bias -> $OUT/bias.jsonl,
# its section in RESULTS.md; with SANITIZE=1 also memcheck and racecheck on
# its small cases -> $OUT/<tool>-bias.log),
# GROUPED (1; 0 skips the grouped bench and the grouped sanitizers),
# GROUPED_BENCH (1; 0 skips the grouped bench only), GROUPED_RANDOM (6 random
# cases per layout), GROUPED_BUDGET_S (150), SANITIZE_BASE (1; 0 skips the
# four sanitizers on the normal kernels, to finish an earlier run's others),
# COMPILE_TIMES (1; 0 skips compile_times.py), COMPILE_TIMES_ARGS
# ("--limit 8": the first 8 distinct kernels of shapes.csv),
# BENCH_ARGS (extra run_bench.py arguments), GROUPED_ARGS (extra
# run_grouped.py arguments; scripts/device-deepgemm.sh passes --deepgemm in
# both), DGEMM_COMMIT (the commit to
# record; the GPU machine gets no .git, so also read from .bundle/COMMIT),
# RACECHECK_FILTER (default "--kernel-name kns=dgemm": racecheck only our
# kernels; set empty to check every kernel).
#
#===----------------------------------------------------------------------===#
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
OUT=${OUT:-/tmp/dgemm-device-out}
mkdir -p "$OUT"

RANDOM_SHAPES=${RANDOM_SHAPES:-40}
SANITIZE=${SANITIZE:-0}
BENCH=${BENCH:-1}
TESTS=${TESTS:-1}
BUDGET_S=${BUDGET_S:-510}
BENCH_ARGS=${BENCH_ARGS:-}
GROUPED_ARGS=${GROUPED_ARGS:-}
COMPILE_TIMES=${COMPILE_TIMES:-1}
COMPILE_TIMES_ARGS=${COMPILE_TIMES_ARGS---limit 8}
RACECHECK_FILTER=${RACECHECK_FILTER---kernel-name kns=dgemm}
GROUPED=${GROUPED:-1}
GROUPED_RANDOM=${GROUPED_RANDOM:-6}
GROUPED_BUDGET_S=${GROUPED_BUDGET_S:-150}
GROUPED_BENCH=${GROUPED_BENCH:-1}
SANITIZE_BASE=${SANITIZE_BASE:-1}
start=$(date +%s)
steps=()
failed=0

remaining() { echo $((BUDGET_S - ($(date +%s) - start))); }
# cap(SECONDS): SECONDS, or what is left of the budget if less (at least 5).
cap() {
  local c=$1 r
  r=$(remaining)
  ((r < c)) && c=$r
  ((c < 5)) && c=5
  echo "$c"
}
# step NAME RC: records a step's outcome for the closing table.
step() {
  local what
  case $2 in
    0) what="ok" ;;
    124 | 137) what="TIMED OUT (exit $2)" ;;
    skip*) what="$2" ;;
    *) what="FAILED (exit $2)" ;;
  esac
  case $2 in 0 | skip*) ;; *) failed=1 ;; esac
  steps+=("$(printf '%-34s %s' "$1" "$what")")
}
banner() { printf '\n==== %s  [%ss elapsed, %ss left]\n' "$1" $(($(date +%s) - start)) "$(remaining)"; }
# sanitize TOOL LOG SECONDS COMMAND...: COMMAND under compute-sanitizer's TOOL
# (racecheck limited by RACECHECK_FILTER), its output appended to $OUT/LOG,
# within SECONDS (capped by the budget); returns the sanitizer's status.
sanitize() {
  local tool=$1 log=$2 limit=$3 filter=()
  shift 3
  [ "$tool" = racecheck ] && read -ra filter <<<"$RACECHECK_FILTER"
  timeout -k 10 "$(cap "$limit")" compute-sanitizer --tool "$tool" --error-exitcode 99 \
    --print-limit 50 "${filter[@]}" "$@" >>"$OUT/$log" 2>&1
}

run_steps() {
  banner "dgemm device run $(date -u +%Y-%m-%dT%H:%M:%SZ)"

  # 1. The bundle.
  local bundle=.bundle/dgemm.tar.xz
  if [ ! -f "$bundle" ]; then
    echo "device-run: $bundle is missing: build it here with"
    echo "  scripts/build.sh build-bundle -DDGEMM_BUNDLE=ON"
    echo "and call run with carry=[\".bundle\"] (.bundle/ is git-ignored)."
    step "unpack bundle" 2
    return 0
  fi
  rm -rf /tmp/dgemm && mkdir -p /tmp/dgemm &&
    tar -C /tmp/dgemm -xJf "$bundle"
  local rc=$?
  step "unpack bundle" $rc
  [ $rc -eq 0 ] || return 0
  export DGEMM_LIB=/tmp/dgemm/dgemm/lib/libdgemm.so
  export DGEMM_OPT=/tmp/dgemm/dgemm/bin/dgemm-opt
  export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
  # The benchmark's caches start empty (cold compile and driver JIT numbers);
  # the tests use caches of their own so they do not warm the benchmark's.
  export DGEMM_CACHE_DIR=/tmp/dgemm-cache
  export CUDA_CACHE_PATH=/tmp/nv-compute-cache
  export PYTHONUNBUFFERED=1
  export PATH="/tmp/dgemm/dgemm/bin:$PATH:/usr/local/cuda/bin"
  rm -rf "$DGEMM_CACHE_DIR" "$CUDA_CACHE_PATH" /tmp/dgemm-cache-tests /tmp/nv-compute-cache-tests
  if [ -z "${DGEMM_COMMIT:-}" ] && [ -f .bundle/COMMIT ]; then
    DGEMM_COMMIT=$(cat .bundle/COMMIT)
  fi
  export DGEMM_COMMIT=${DGEMM_COMMIT:-unknown}

  # 2. Versions.
  banner "versions"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,power.limit \
    --format=csv || true
  python3 -c 'import sys, torch; print("python", sys.version.split()[0], "| torch",
torch.__version__, "| CUDA", torch.version.cuda, "|", torch.cuda.get_device_name(0),
torch.cuda.get_device_capability(0))' || true
  ls -l "$DGEMM_LIB" "$DGEMM_OPT"
  sha256sum "$DGEMM_LIB" | cut -c1-16
  echo "commit: $DGEMM_COMMIT"
  command -v compute-sanitizer >/dev/null && compute-sanitizer --version | tail -1

  # 3-4. Tests.
  if [ "$TESTS" = 1 ]; then
    banner "Python package tests (test/Python)"
    DGEMM_CACHE_DIR=/tmp/dgemm-cache-tests CUDA_CACHE_PATH=/tmp/nv-compute-cache-tests \
      timeout -k 10 "$(cap 200)" python3 -m unittest discover -s test/Python -v 2>&1
    step "python tests" $?
    local t
    for t in test/Integration/GPU/test_*.py; do
      [ -f "$t" ] || continue
      banner "GPU execution test $t"
      DGEMM_CACHE_DIR=/tmp/dgemm-cache-tests CUDA_CACHE_PATH=/tmp/nv-compute-cache-tests \
        timeout -k 10 "$(cap 120)" python3 "$t" 2>&1
      # The status first: the name's command substitution would reset $?
      # (every failure of these tests was reported as ok before 685df5b).
      rc=$?
      step "$(basename "$t")" $rc
    done
  else
    step "tests" "skipped (TESTS=0)"
  fi

  # 5. Benchmark (BENCH=0 skips every timed step, as for a sanitizer-only run).
  if [ "$BENCH" = 1 ]; then
    if [ "${SWEEP_GROUPED:-0}" = 1 ]; then
      banner "config sweep of the grouped kernels (bench/sweep_grouped.py)"
      timeout -k 10 "$(cap 300)" python3 bench/sweep_grouped.py --out "$OUT/sweep-grouped.jsonl" \
        --time-budget 240 2>&1
      step "grouped config sweep" $?
    fi
    if [ "${WGRAD:-0}" = 1 ]; then
      banner "weight-gradient GEMM: checks and timing (bench/run_wgrad.py)"
      timeout -k 10 "$(cap 240)" python3 bench/run_wgrad.py --out "$OUT/wgrad.jsonl" 2>&1
      step "wgrad checks + timing" $?
    fi
    if [ "${BIAS:-0}" = 1 ]; then
      banner "epilogue fusion: a bias, checks and timing (bench/run_bias.py)"
      timeout -k 10 "$(cap 200)" python3 bench/run_bias.py --out "$OUT/bias.jsonl" --random 6 \
        2>&1 | grep -v '^{'
      step "bias checks + timing" "${PIPESTATUS[0]}"
    fi
    if [ "$GROUPED" = 1 ] && [ "$GROUPED_BENCH" = 1 ]; then
      banner "m-grouped benchmark (time budget ${GROUPED_BUDGET_S}s)"
      # shellcheck disable=SC2086
      timeout -k 15 $((GROUPED_BUDGET_S + 60)) python3 bench/run_grouped.py \
        --out "$OUT/grouped.jsonl" --random "$GROUPED_RANDOM" \
        --time-budget "$GROUPED_BUDGET_S" $GROUPED_ARGS 2>&1
      step "grouped benchmark + checks" $?
    fi
    local left budget
    left=$(remaining)
    # Leave room for the warm probe, compile times, gen_results and (maybe)
    # the sanitizers.
    budget=$((left - 60 - (COMPILE_TIMES == 1 ? 90 : 0) - (SANITIZE == 1 ? 150 : 0)))
    ((budget < 30)) && budget=30
    banner "benchmark: shapes.csv + $RANDOM_SHAPES random shapes (time budget ${budget}s)"
    # shellcheck disable=SC2086
    timeout -k 15 $((budget + 60)) python3 bench/run_bench.py --out "$OUT/bench.jsonl" \
      --random "$RANDOM_SHAPES" --time-budget "$budget" $BENCH_ARGS 2>&1
    step "benchmark + checks" $?
    banner "warm start: prepare + first call in a new process (disk cache filled)"
    timeout -k 5 "$(cap 45)" python3 bench/run_bench.py --prepare-only \
      --out "$OUT/bench-warm.jsonl" --time-budget 25 2>&1
    step "warm-start probe" $?
    if [ "$COMPILE_TIMES" = 1 ]; then
      banner "compile times: cold compile, warm start, warm-call overhead (fresh processes)"
      # shellcheck disable=SC2086
      timeout -k 10 "$(cap 90)" python3 bench/compile_times.py \
        --out "$OUT/compile-times.jsonl" $COMPILE_TIMES_ARGS 2>&1
      step "compile times" $?
    fi
    if [ -s "$OUT/bench.jsonl" ]; then
      local grouped_arg=()
      [ -s "$OUT/grouped.jsonl" ] && grouped_arg=(--grouped "$OUT/grouped.jsonl")
      [ -s "$OUT/wgrad.jsonl" ] && grouped_arg+=(--wgrad "$OUT/wgrad.jsonl")
      [ -s "$OUT/bias.jsonl" ] && grouped_arg+=(--bias "$OUT/bias.jsonl")
      python3 scripts/gen_results.py "$OUT/bench.jsonl" --warm "$OUT/bench-warm.jsonl" \
        "${grouped_arg[@]}" --compile-times "$OUT/compile-times.jsonl" \
        --out "$OUT/RESULTS.md" 2>&1
      step "gen_results" $?
    fi
  else
    step "benchmark" "skipped (BENCH=0)"
  fi

  # 6. Sanitizers.
  if [ "$SANITIZE" = 1 ] && ! command -v compute-sanitizer >/dev/null; then
    step "sanitizers" 127
    echo "device-run: compute-sanitizer not found"
  elif [ "$SANITIZE" = 1 ]; then
    rm -f "$OUT"/*check*.log
    local tool
    if [ "$SANITIZE_BASE" != 1 ]; then
      step "sanitizers, normal kernels" "skipped (SANITIZE_BASE=0)"
    else
      for tool in memcheck racecheck; do
        banner "compute-sanitizer $tool"
        sanitize $tool $tool.log 240 python3 bench/run_bench.py --sanitize
        rc=$?
        tail -n 25 "$OUT/$tool.log"
        step "$tool" $rc
      done
      if [ "${SANITIZE_ALL:-0}" = 1 ]; then
        banner "compute-sanitizer memcheck on every reference shape (normal, contiguous, masked)"
        sanitize memcheck memcheck-all.log 420 python3 bench/sanitize_all.py
        rc=$?
        tail -n 4 "$OUT/memcheck-all.log"
        step "memcheck (all reference shapes)" $rc
      fi
      for tool in synccheck initcheck; do
        banner "compute-sanitizer $tool (small M, normal and grouped kernels)"
        sanitize $tool $tool.log 120 python3 bench/run_bench.py --sanitize
        rc=$?
        sanitize $tool $tool.log 120 python3 bench/run_grouped.py --sanitize
        rc2=$?
        grep -E "SUMMARY" "$OUT/$tool.log"
        step "$tool" $((rc != 0 ? rc : rc2))
      done
    fi
    if [ "${WGRAD:-0}" = 1 ]; then
      for tool in memcheck racecheck synccheck initcheck; do
        banner "compute-sanitizer $tool on the weight-gradient kernels (small cases)"
        sanitize $tool $tool-wgrad.log 150 python3 bench/run_wgrad.py --sanitize --random 4
        rc=$?
        grep -E "SUMMARY|\"summary\"" "$OUT/$tool-wgrad.log"
        step "$tool (wgrad, k-grouped)" $rc
      done
    fi
    if [ "${BIAS:-0}" = 1 ]; then
      for tool in memcheck racecheck; do
        banner "compute-sanitizer $tool on the kernels with a fused bias (small cases)"
        sanitize $tool $tool-bias.log 120 python3 bench/run_bias.py \
          --out "/tmp/bias-$tool.jsonl" --no-csv --no-time --random 3
        rc=$?
        grep -E "SUMMARY|^bias:" "$OUT/$tool-bias.log"
        step "$tool (bias)" $rc
      done
    fi
    banner "compute-sanitizer on planted bugs (they must be reported)"
    timeout -k 10 "$(cap 240)" python3 bench/sanitizer_planted.py >"$OUT/planted.log" 2>&1
    rc=$?
    cat "$OUT/planted.log"
    step "sanitizers catch planted bugs" $rc
    if [ "$GROUPED" = 1 ]; then
      for tool in memcheck racecheck; do
        banner "compute-sanitizer $tool, grouped kernels"
        sanitize $tool $tool-grouped.log 180 python3 bench/run_grouped.py --sanitize
        rc=$?
        tail -n 15 "$OUT/$tool-grouped.log"
        step "$tool (grouped)" $rc
      done
    fi
  fi
}

main() {
  run_steps

  # 7. The tables, last.
  banner "summary"
  if [ -s "$OUT/bench.jsonl" ]; then
    python3 bench/run_bench.py --table-from "$OUT/bench.jsonl"
    echo
  fi
  printf '%s\n' "${steps[@]}"
  echo "outputs in \$OUT:" "$OUT"/*
  if [ $failed -eq 0 ]; then
    echo "device-run: ALL STEPS PASSED"
  else
    echo "device-run: SOME STEPS FAILED"
  fi
  return $failed
}

main 2>&1 | tee "$OUT/device-run.log"
exit "${PIPESTATUS[0]}"
