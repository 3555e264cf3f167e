# Builds DeepGEMM, checks whether importing it after torch has started CUDA
# crashes the first dgemm call (backtrace with cuda-gdb if so), then runs the
# DeepGEMM benchmarks (device-run.sh with --deepgemm) in what time is left.
set -u
t0=$(date +%s)
OUT=${OUT:-/tmp/o}; mkdir -p $OUT
export OUT
BENCH=0 TESTS=0 bash scripts/device-deepgemm.sh > $OUT/deepgemm-setup.log 2>&1; echo "build rc=$?"
grep -i "DeepGEMM build\|^deep_gemm\|^Ran\|^OK\|FAIL" $OUT/deepgemm-setup.log
export DGEMM_LIB=/tmp/dgemm/dgemm/lib/libdgemm.so DGEMM_CACHE_DIR=/tmp/dc
export PYTHONPATH=/tmp/dg/DeepGEMM:$PWD/python DG_JIT_CACHE_DIR=/tmp/dg-jit-cache
cat > /tmp/after.py <<'PY'
import torch
torch.cuda.get_device_properties(0)
import deep_gemm
import dgemm
print("after CUDA start:", dgemm.config(128, 256, 512))
print("compile:", dgemm.prepare(256, 512, 1024))
PY
python3 -X faulthandler /tmp/after.py 2>&1 | tail -8; rc=${PIPESTATUS[0]}; echo "import-after rc=$rc"
if [ "$rc" != 0 ]; then
  timeout 90 cuda-gdb -batch -ex run -ex bt --args python3 /tmp/after.py 2>&1 |
    grep -v "^\[New Thread\|^\[Thread\|^\[Detach" | tail -30
fi
grouped=1
if [ "$rc" != 0 ]; then
  # A compile beside DeepGEMM crashes: fill the disk cache in a process of
  # its own first (a cached kernel is loaded, not compiled), normal shapes only.
  DGEMM_CACHE_DIR=/tmp/dgemm-cache timeout 120 python3 bench/run_bench.py --prepare-only \
    --out /tmp/prefill.jsonl > /dev/null 2>&1; echo "prefill rc=$?"
  grouped=0
  export KEEP_CACHE=1
fi
left=$((${TOTAL_S:-270} - ($(date +%s) - t0)))
echo "bench budget ${left}s"
TESTS=0 RANDOM_SHAPES=0 COMPILE_TIMES=0 GROUPED_RANDOM=0 GROUPED_BUDGET_S=100 GROUPED=$grouped \
  BUDGET_S=$left BENCH_ARGS=--deepgemm GROUPED_ARGS=--deepgemm bash scripts/device-run.sh > $OUT/bench-console.log 2>&1
echo "bench rc=$?"
