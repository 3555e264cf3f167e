#!/usr/bin/env bash
# Builds DeepGEMM and calls its fp8_gemm_nt once as run_bench.py does, in
# fresh processes: without and with the system libstdc++ preloaded
# (faulthandler; a cuda-gdb backtrace of the first). It found the crash in
# DeepGEMM's std::regex that scripts/deepgemm-env.sh now avoids with the
# preload (2026-12-06, H100; bench/README.md, "DeepGEMM in the same run").
#   run(command="bash scripts/device-diag-deepgemm-call.sh", carry=[".bundle", ".peers"])
set -u
export OUT=${OUT:-/tmp/dgemm-device-out}
mkdir -p "$OUT"
BENCH=0 TESTS=0 bash scripts/device-deepgemm.sh >"$OUT/deepgemm-setup.log" 2>&1
echo "build rc=$?"
# shellcheck source=device-env.sh
source scripts/device-env.sh /tmp/dgemm-probe-cache
export PYTHONPATH=/tmp/dg/DeepGEMM:$PYTHONPATH:$root/bench DG_JIT_CACHE_DIR=/tmp/dg-jit-cache
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda} DG_JIT_DEBUG=1
cat >/tmp/call.py <<'PY'
import torch
import deep_gemm
import dgemm
import run_bench as RB
inp = RB.make_inputs(torch, dgemm, 64, 2112, 7168, seed=1)
d = torch.empty(64, 2112, dtype=torch.bfloat16, device="cuda")
deep_gemm.fp8_gemm_nt((inp["a"], inp["sfa_tma"]), (inp["b"], inp["sfb"]), d,
                      disable_ue8m0_cast=True)
torch.cuda.synchronize()
print("ok", float(d.float().abs().mean()), flush=True)
PY
timeout 60 python3 -X faulthandler /tmp/call.py 2>&1 | tail -25
echo "no preload: rc=${PIPESTATUS[0]}"
(
  # shellcheck source=deepgemm-env.sh
  source scripts/deepgemm-env.sh
  timeout 60 python3 /tmp/call.py 2>&1 | tail -5
  echo "preload $LD_PRELOAD: rc=${PIPESTATUS[0]}"
)
timeout 80 cuda-gdb -batch -ex run -ex "bt 8" --args python3 /tmp/call.py 2>&1 |
  grep "^#" | cut -c1-300
