# lit configuration of the dgemm test suite: FileCheck tests of the dialect,
# passes and tools. GPU execution tests (Integration/GPU) are marked
# unsupported where no sm_90 GPU is present.
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "DGEMM"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.dgemm_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%dgemm_src_root", config.dgemm_src_root))
config.substitutions.append(("%dgemm_obj_root", config.dgemm_obj_root))
config.substitutions.append(("%mlir_dir", config.mlir_dir))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%cxx", config.cxx_compiler))
config.substitutions.append(("%cc", config.c_compiler))
config.substitutions.append(("%python", config.python_executable))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.dgemm_tools_dir, config.llvm_tools_dir]
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(["dgemm-opt"], tool_dirs)

if config.cuda_ptxas and os.path.exists(config.cuda_ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.cuda_ptxas))
