#!/usr/bin/env bash
# Packs the self-contained bundle for the GPU machine from a -DDGEMM_BUNDLE=ON
# build: libdgemm.so (MLIR/LLVM and libstdc++ inside) and the tools, stripped,
# as one xz-compressed tarball; checks that the library needs nothing beyond
# libc/libm/ld.so and prints the sizes.
#   scripts/pack-bundle.sh BUILD_DIR OUT.tar.xz
set -euo pipefail
build=$1
out=$2
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/dgemm/bin" "$stage/dgemm/lib"
cp "$build/lib/libdgemm.so" "$stage/dgemm/lib/"
# The tools (not the libFuzzer targets a -DDGEMM_FUZZ=ON build also has:
# they link libstdc++ and are no use on the GPU machine).
for t in "$build"/bin/dgemm-*; do
  case $(basename "$t") in dgemm-fuzz-*) continue ;; esac
  [ -x "$t" ] && cp "$t" "$stage/dgemm/bin/"
done
strip --strip-unneeded "$stage/dgemm/lib/libdgemm.so" "$stage"/dgemm/bin/*

# Nothing but the C library may be needed at run time (libcuda is dlopened).
bad=$(readelf -d "$stage/dgemm/lib/libdgemm.so" "$stage"/dgemm/bin/* |
      sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u |
      grep -v -E '^(libc\.so\.6|libm\.so\.6|ld-linux-x86-64\.so\.2|libdgemm\.so)$' || true)
if [ -n "$bad" ]; then
  echo "pack-bundle: the bundle would need: $bad" >&2
  exit 1
fi

# The commit the bundle was built from, for the results the device records.
git -C "$(dirname "$0")/.." rev-parse HEAD > "$stage/dgemm/COMMIT" 2>/dev/null || echo unknown > "$stage/dgemm/COMMIT"
if [ -n "$(git -C "$(dirname "$0")/.." status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  sed -i 's/$/-dirty/' "$stage/dgemm/COMMIT"
fi
mkdir -p "$(dirname "$out")"
cp "$stage/dgemm/COMMIT" "$(dirname "$out")/COMMIT"
tar -C "$stage" -cf - dgemm | xz -9 -T2 > "$out.tmp"
mv "$out.tmp" "$out"
raw=$(du -sb "$stage/dgemm" | cut -f1)
packed=$(stat -c %s "$out")
awk -v o="$out" -v r="$raw" -v p="$packed" 'BEGIN {
  printf "dgemm bundle: %s (%.1f MiB stripped, %.1f MiB xz-compressed; limit 64 MiB)\n",
         o, r / 1048576, p / 1048576 }'
