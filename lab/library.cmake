# occ_lab_data: the lab's records and their statistics, one library that
# occ-lab's writer, the CLI (occ lab, occ lab regs), the tests and the
# fuzzers share. lab/include/ is its interface: the readers of occ-lab's
# records (lab_data.h) and occ-regs-bench's (lab_regs_data.h), the records'
# version (lab_format.h), and the analysis over them (lab_analysis.h,
# regs_regret.h, regs_caps.h: no I/O). lab/records/ holds what the two
# readers share (record_reader.h), private to the library.
file(GLOB OCC_LAB_DATA_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/lab/records/*.c
     ${CMAKE_SOURCE_DIR}/lab/analysis/*.c)
add_library(occ_lab_data STATIC ${OCC_LAB_DATA_SOURCES})
target_include_directories(occ_lab_data PUBLIC ${CMAKE_SOURCE_DIR}/lab/include
                           PRIVATE ${CMAKE_SOURCE_DIR}/lab/records)
# flockfile and getc_unlocked: the bounded line reader (lab_lines.c)
target_compile_definitions(occ_lab_data PRIVATE _POSIX_C_SOURCE=200809L)
target_link_libraries(occ_lab_data PUBLIC libocc PkgConfig::JANSSON m)

# The records' version alone, for occ-lab (nvcc), which writes them but
# links none of the library's C.
add_library(occ_lab_format INTERFACE)
target_include_directories(occ_lab_format INTERFACE ${CMAKE_SOURCE_DIR}/lab/include)
