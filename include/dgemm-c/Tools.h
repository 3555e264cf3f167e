/*===- Tools.h - entry points of the dgemm tools -------------------*- C -*-===*\
|*                                                                            *|
|* The command-line tools are thin executables over libdgemm; their bodies   *|
|* are these functions, exported with C linkage.                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef DGEMM_C_TOOLS_H
#define DGEMM_C_TOOLS_H

#ifdef __cplusplus
extern "C" {
#endif

/* dgemm-opt: parse, verify, run passes, print. Returns the exit code. */
int dgemm_opt_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif /* DGEMM_C_TOOLS_H */
