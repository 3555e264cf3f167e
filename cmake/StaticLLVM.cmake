# Debian's MLIR libraries are static but name the shared libLLVM ("LLVM") in
# their link interface. libdgemm links LLVM statically instead, so that the
# bundle depends only on libc/libstdc++ and carries one copy of LLVM: this
# rewrites "LLVM" in every imported target's link interface to an interface
# library listing LLVM's static component libraries (the NVPTX backend only;
# lld pulls just the members that are referenced).
function(dgemm_link_llvm_statically)
  set(components ${LLVM_AVAILABLE_LIBS})
  list(FILTER components INCLUDE REGEX "^LLVM.")
  list(FILTER components EXCLUDE REGEX
    "^LLVM(AArch64|AMDGPU|ARM|AVR|BPF|Hexagon|Lanai|LoongArch|Mips|MSP430|PowerPC|RISCV|Sparc|SPIRV|SystemZ|VE|WebAssembly|X86|XCore|M68k|Xtensa|BOLT|Exegesis|CFIVerify|Diff|OptDriver|FuzzerCLI|FuzzMutate|TableGen|LineEditor|Debuginfod|Extensions|Plugins|LTO|DTLTO|WindowsManifest|WindowsDriver|LibDriver|DlltoolDriver|Interpreter|MCJIT|OrcJIT|OrcDebugging|OrcTargetProcess|OrcShared|JITLink|PerfJITEvents|ExecutionEngine|RuntimeDyld|Telemetry|XRay|MCA|ObjCopy|ObjectYAML|DWP|DWARFCFIChecker|DWARFLinker.*|Coverage|CAS|SupportLSP|FileCheck|InterfaceStub|TextAPIBinaryReader)")
  set(existing)
  foreach(c ${components})
    if(TARGET ${c})
      get_target_property(loc ${c} IMPORTED_LOCATION_RELWITHDEBINFO)
      if(NOT loc)
        get_target_property(loc ${c} IMPORTED_LOCATION_RELEASE)
      endif()
      if(loc AND EXISTS "${loc}")
        list(APPEND existing ${c})
      endif()
    endif()
  endforeach()
  add_library(dgemm_llvm_static INTERFACE)
  target_link_libraries(dgemm_llvm_static INTERFACE ${existing})

  # LLVMSupport's compression libraries, static too; z3 only serves clang's
  # static analyzer and is left out.
  find_library(DGEMM_LIBZ_STATIC libz.a)
  find_library(DGEMM_LIBZSTD_STATIC libzstd.a)
  if(TARGET LLVMSupport AND DGEMM_LIBZ_STATIC AND DGEMM_LIBZSTD_STATIC)
    get_target_property(libs LLVMSupport INTERFACE_LINK_LIBRARIES)
    list(FILTER libs EXCLUDE REGEX "z3")
    list(TRANSFORM libs REPLACE "^ZLIB::ZLIB$" "${DGEMM_LIBZ_STATIC}")
    list(TRANSFORM libs REPLACE "^zstd::libzstd_shared$" "${DGEMM_LIBZSTD_STATIC}")
    set_target_properties(LLVMSupport PROPERTIES INTERFACE_LINK_LIBRARIES "${libs}")
  endif()

  get_property(imported DIRECTORY ${PROJECT_SOURCE_DIR} PROPERTY IMPORTED_TARGETS)
  foreach(t ${imported})
    get_target_property(type ${t} TYPE)
    if(type STREQUAL "INTERFACE_LIBRARY" OR type STREQUAL "STATIC_LIBRARY")
      get_target_property(libs ${t} INTERFACE_LINK_LIBRARIES)
      if(libs AND "LLVM" IN_LIST libs)
        list(TRANSFORM libs REPLACE "^LLVM$" "dgemm_llvm_static")
        set_target_properties(${t} PROPERTIES INTERFACE_LINK_LIBRARIES "${libs}")
      endif()
    endif()
  endforeach()
endfunction()
