#!/usr/bin/env python3
"""Assembles PTX files with `ptxas -arch=sm_90a -v` and fails on what would
make a kernel slow or wrong without an error: register spills, setmaxnreg
ignored (C7508), serialized wgmma (C75xx "... wgmma ... serialized"), stack
frames, or any other ptxas warning. Prints registers per kernel.

  check_ptxas.py PTXAS [--allow-spills REGEX=BYTES]... DIR_OR_FILE...

--allow-spills lets kernels whose name matches REGEX (whole name) spill at
most BYTES bytes of stores and of loads (a stack frame of that size too):
for kernels whose spills are known to lie outside the K loop and were
measured not to cost (the test says where).
"""
import os
import re
import subprocess
import sys


def main(ptxas, args):
    allowed = []
    paths = []
    while args:
        a = args.pop(0)
        if a == "--allow-spills":
            regex, limit = args.pop(0).rsplit("=", 1)
            allowed.append((re.compile(regex), int(limit)))
        else:
            paths.append(a)
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".ptx"))
        else:
            files.append(p)
    if not files:
        print("check_ptxas: no .ptx files found in", paths)
        return 1
    bad = 0
    kernels = 0
    for f in files:
        r = subprocess.run([ptxas, "-arch=sm_90a", "-v", f, "-o", os.devnull],
                           capture_output=True, text=True)
        out = r.stdout + r.stderr
        if r.returncode != 0:
            print("FAIL %s: ptxas exit %d\n%s" % (f, r.returncode, out))
            bad += 1
            continue
        name = None
        for line in out.splitlines():
            m = re.search(r"Compiling entry function '([^']+)'", line)
            if m:
                name = m.group(1)
                kernels += 1
            if re.search(r"warning|C75\d\d|serializ", line, re.I):
                print("FAIL %s: %s" % (name or f, line.strip()))
                bad += 1
            m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
            if m and any(int(x) for x in m.groups()):
                limit = next((n for r, n in allowed if name and r.fullmatch(name)), None)
                if limit is not None and all(int(x) <= limit for x in m.groups()):
                    print("allowed %s: %s" % (name, line.strip()))
                else:
                    print("FAIL %s: %s" % (name, line.strip()))
                    bad += 1
            m = re.search(r"Used (\d+) registers", line)
            if m:
                print("kernel %s: %s registers" % (name, m.group(1)))
    print("check_ptxas: %d kernels, %d problems" % (kernels, bad))
    return 1 if bad or kernels == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
