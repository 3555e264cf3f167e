#!/usr/bin/env bash
#===- local-sass.sh - the SASS of a lowered kernel, without a GPU ---------===#
#
# Lowers an MLIR module with dgemm-opt, assembles its PTX with ptxas and
# disassembles the cubin on this machine, so that a lowering change's SASS
# (the K loop's schedule, its spills) can be read before any GPU time is
# spent:
#
#   scripts/local-sass.sh IN.mlir OUT_PREFIX ["lower-to-kernel options"]
#
# writes OUT_PREFIX.ptx, .cubin, .sass (nvdisasm -c -hex) and .lst (one line
# an instruction; runs of FFMA folded into a count; `UNKNOWN` where the
# disassembler skipped an instruction it does not know), and prints ptxas's
# registers and spills. Options go space-separated, as the pass takes them:
#   scripts/local-sass.sh k.mlir /tmp/fr "full-rounds=on"
#
# The disassembler: nvdisasm of Debian's nvidia-cuda-toolkit 11.8 (non-free),
# downloaded once into $SASS_TOOLS (default ~/.cache/dgemm-sass) with a
# private apt configuration (the system's sources are not changed) and
# unpacked there, nothing installed. It predates ptxas 13's cubins: the ELF
# header is rewritten to the old form (EI_OSABI 0x33, ABI version 7,
# e_flags 0x005a055a) and instructions it does not know (QGMMA, VIADD,
# VIMNMX) are left out; the .lst marks the gaps. Matches the GPU machine's
# cuobjdump instruction for instruction (1456 instructions in the contiguous
# kernel of 4 x 8192 rows, N 4096, K 7168, as Nsight Compute counted them).
# DGEMM_OPT (default build-bundle/bin/dgemm-opt, then build/bin) and PTXAS
# (default ptxas on PATH, then /usr/local/cuda/bin/ptxas) pick the tools.
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n 8,13p "$0" >&2
  exit 2
fi
in=$1
out=$2
opts=${3:-}
root=$(cd "$(dirname "$0")/.." && pwd)
opt=${DGEMM_OPT:-}
for c in "$root/build-bundle/bin/dgemm-opt" "$root/build/bin/dgemm-opt"; do
  [ -n "$opt" ] || { [ -x "$c" ] && opt=$c; }
done
[ -n "$opt" ] || { echo "local-sass: no dgemm-opt (set DGEMM_OPT)" >&2; exit 1; }
ptxas=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
[ -x "$ptxas" ] || { echo "local-sass: no ptxas (set PTXAS)" >&2; exit 1; }

tools=${SASS_TOOLS:-$HOME/.cache/dgemm-sass}
nvdisasm=$tools/x/usr/bin/nvdisasm
if [ ! -x "$nvdisasm" ]; then
  echo "local-sass: fetching nvdisasm (Debian non-free nvidia-cuda-toolkit) into $tools" >&2
  mkdir -p "$tools/apt/lists/partial" "$tools/apt/archives/partial"
  cat > "$tools/apt/sources.list" <<'EOF'
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm non-free
EOF
  aptopts=(-o "Dir::Etc::SourceList=$tools/apt/sources.list"
           -o "Dir::Etc::SourceParts=-" -o "Dir::State::Lists=$tools/apt/lists"
           -o "Dir::Cache::Archives=$tools/apt/archives"
           -o "APT::Sandbox::User=root" -q)
  apt-get "${aptopts[@]}" update >&2
  (cd "$tools" && apt-get "${aptopts[@]}" download nvidia-cuda-toolkit >&2)
  dpkg -x "$tools"/nvidia-cuda-toolkit_*.deb "$tools/x"
  [ -x "$nvdisasm" ] || { echo "local-sass: no nvdisasm in the package" >&2; exit 1; }
fi

mkdir -p "$(dirname "$out")"
dump=$(mktemp -d)
trap 'rm -rf "$dump"' EXIT
lower=--dgemm-lower-to-kernel
[ -z "$opts" ] || lower="--dgemm-lower-to-kernel=$opts"
"$opt" "$in" "$lower" | "$opt" --dgemm-kernel-to-ptx --dgemm-dump-ptx=dir="$dump" -o /dev/null
cp "$dump"/*.ptx "$out.ptx"
"$ptxas" -arch=sm_90a -v "$out.ptx" -o "$out.cubin" 2>&1 | grep -E "Compiling|registers|spill" || true
python3 - "$out" <<'EOF'
import re, struct, sys
out = sys.argv[1]
elf = bytearray(open(out + ".cubin", "rb").read())
elf[7], elf[8] = 0x33, 7                      # EI_OSABI, EI_ABIVERSION
struct.pack_into("<I", elf, 0x30, 0x005A055A)  # e_flags (64-bit ELF)
open(out + ".old.cubin", "wb").write(elf)
EOF
"$nvdisasm" -c -hex "$out.old.cubin" > "$out.sass"
rm -f "$out.old.cubin"
python3 - "$out" <<'EOF'
import re, sys
out = sys.argv[1]
rows, prev, ffma = [], None, 0
for line in open(out + ".sass"):
    if line.lstrip().startswith("//") and "-----" in line:
        rows.append(line.strip()); prev = None
        continue
    m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
    if not m:
        continue
    addr, text = int(m.group(1), 16), m.group(2)
    if prev is not None:
        for a in range(prev + 16, addr, 16):
            rows.append("%05x UNKNOWN" % a)
    prev = addr
    if "FFMA" in text and "@" not in text:
        ffma += 1
        continue
    if ffma:
        rows.append("      [%d FFMA]" % ffma); ffma = 0
    rows.append("%05x %s" % (addr, text))
open(out + ".lst", "w").write("\n".join(rows) + "\n")
print("local-sass: %s.lst, %d lines" % (out, len(rows)))
EOF
