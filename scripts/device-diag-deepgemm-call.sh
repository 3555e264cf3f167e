#!/usr/bin/env bash
# Builds DeepGEMM and calls its fp8_gemm_nt once as run_bench.py does, in
# fresh processes (faulthandler; a cuda-gdb backtrace where it crashes).
# It found the crash in DeepGEMM's std::regex that device-deepgemm.sh now
# avoids by preloading the system libstdc++ (2026-12-06, H100).
set -u
OUT=${OUT:-/tmp/o}; mkdir -p $OUT; export OUT
BENCH=0 TESTS=0 bash scripts/device-deepgemm.sh > $OUT/deepgemm-setup.log 2>&1; echo "build rc=$?"
export DGEMM_LIB=/tmp/dgemm/dgemm/lib/libdgemm.so DGEMM_CACHE_DIR=/tmp/dc CUDA_HOME=/usr/local/cuda
export PYTHONPATH=/tmp/dg/DeepGEMM:$PWD/python:$PWD/bench DG_JIT_CACHE_DIR=/tmp/dg-jit-cache
export DG_JIT_DEBUG=1
cat > /tmp/call.py <<'PY'
import sys
import torch
import deep_gemm
import dgemm
import deepgemm_peer
import run_bench as RB
which = sys.argv[1]
inp = RB.make_inputs(torch, dgemm, 64, 2112, 7168, seed=1)
d = torch.empty(64, 2112, dtype=torch.bfloat16, device="cuda")
sfa = inp["sfa_tma"] if which == "tma" else inp["sfa"]
print("sfa", sfa.shape, sfa.stride(), sfa.dtype, "sfb", inp["sfb"].shape, inp["sfb"].stride(), flush=True)
deep_gemm.fp8_gemm_nt((inp["a"], sfa), (inp["b"], inp["sfb"]), d, disable_ue8m0_cast=True)
torch.cuda.synchronize()
print(which, "ok", float(d.float().abs().mean()), flush=True)
PY
for w in rowmajor tma; do
  timeout 60 python3 -X faulthandler /tmp/call.py $w 2>&1 | tail -25; echo "$w rc=${PIPESTATUS[0]}"
done
timeout 80 cuda-gdb -batch -ex run -ex bt --args python3 /tmp/call.py tma 2>&1 |
  grep -v "^\[New Thread\|^\[Thread\|^\[Detach" | tail -25
