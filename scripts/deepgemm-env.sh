# Sourced on the GPU machine after scripts/device-deepgemm.sh built DeepGEMM
# into /tmp/dg: puts it on PYTHONPATH, gives its JIT a cache folder and
# CUDA_HOME, and preloads the system libstdc++ (without it the extension's
# first call died in std::regex on the H100 machine, 2026-12-06; with it,
# it ran: bench/README.md, "DeepGEMM in the same run").
export PYTHONPATH=/tmp/dg/DeepGEMM${PYTHONPATH:+:$PYTHONPATH}
export DG_JIT_CACHE_DIR=${DG_JIT_CACHE_DIR:-/tmp/dg-jit-cache}
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
for lib in /lib/x86_64-linux-gnu/libstdc++.so.6 /usr/lib64/libstdc++.so.6; do
  if [ -f "$lib" ]; then
    case ":${LD_PRELOAD:-}:" in *":$lib:"*) ;; *) export LD_PRELOAD=$lib${LD_PRELOAD:+:$LD_PRELOAD} ;; esac
    break
  fi
done
