//===- dgemm-opt.cpp - dgemm optimizer driver ------------------------------===//
//
// Thin executable over libdgemm: parse dgemm IR, run passes and pipelines,
// print the result. `dgemm-opt --help` lists the passes.
//
//===----------------------------------------------------------------------===//
#include "dgemm-c/Tools.h"

int main(int argc, char **argv) { return dgemm_opt_main(argc, argv); }
