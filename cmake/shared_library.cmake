# The shared builds of libocc and libocc-inspect (libocc.so.0,
# libocc-inspect.so.0): for programs that load them at run time (the Python
# package, dlopen) or link them dynamically. The static libraries stay what
# the CLI, the tests and the fuzzers link.
#
# Only the public API is exported: the objects are compiled with hidden
# visibility except what the public headers declare
# (packaging/public_api_visibility.h), and a version script names the
# exported prefix (packaging/*.map). tests/install/check_symbols.sh checks it.
include(GNUInstallDirs)

# occ_add_shared_library(TARGET OUTPUT_NAME VERSION_SCRIPT SOURCES...)
function(occ_add_shared_library target output_name version_script)
  add_library(${target} SHARED ${ARGN})
  # soname libNAME.so.0: the major version, bumped when the ABI breaks.
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${output_name}
    VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}
    C_VISIBILITY_PRESET hidden LINK_DEPENDS ${version_script})
  target_compile_options(${target} PRIVATE
    -include ${CMAKE_SOURCE_DIR}/packaging/public_api_visibility.h)
  target_link_options(${target} PRIVATE -Wl,--version-script=${version_script})
  # Every symbol the library needs must come from a library it names (the
  # sanitizer runtimes are not linked into shared objects by clang).
  if(NOT OCC_SANITIZE)
    target_link_options(${target} PRIVATE -Wl,--no-undefined)
  endif()
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include>
                             $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endfunction()
