# Compiles every core source with clang --target=wasm32 -nostdlib and links
# them: proof that libocc needs no libc, no allocator and no I/O.
file(GLOB sources ${SOURCE_DIR}/src/*.c)
execute_process(
  COMMAND ${CLANG} --target=wasm32 -nostdlib -std=c11 -O2 -Wall -Wextra -Werror
          -ffreestanding -I${SOURCE_DIR}/include -I${SOURCE_DIR}/src
          -Wl,--no-entry -Wl,--export-all -o ${OUT} ${sources}
          ${SOURCE_DIR}/tests/wasm_shim.c
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "libocc does not build freestanding for wasm32:\n${out}${err}")
endif()
file(SIZE ${OUT} bytes)
message(STATUS "libocc for wasm32: ${bytes} bytes, no imports required")
