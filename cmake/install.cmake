# What `make install` and `cmake --install BUILD [--prefix P]` put in place
# (DESTDIR is honoured): the occ and occ-lab executables, the three libraries
# static and shared with their headers, pkg-config and CMake package files,
# the man pages generated from the option tables, shell completions, the
# guides (docs/*.md) the pages cite, and the occupancy page where it was
# built. Components, for installing a part:
#   runtime  libocc.so.0, libocc-inspect.so.0, libocc-profile.so.0
#   devel    headers, static libraries, occ.pc, occ-inspect.pc, occ-profile.pc,
#            lib/cmake/occ
#   cli      bin/occ, bin/occ-lab, bin/occ-regs-bench (with
#            share/occ/lab/regs/kernels.tsv), man pages, completions
#   doc      share/doc/occ: docs/*.md, the images they show, the records
#            occ lab's example reads
#   web      share/occ/web
# The target occ_install_files builds what the install copies and nothing
# else (`make install` builds it, not the tests or benchmarks).
# `make uninstall` removes what the last install listed in
# install_manifest.txt (packaging/uninstall.cmake).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(OCC_PACKAGING_DIR ${CMAKE_SOURCE_DIR}/packaging)
set(OCC_CMAKE_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/occ)

# The executables. occ finds occ-lab and occ-regs-bench beside itself, and
# occ lab regs the kernels' table under share/occ/lab/regs when it is not run
# from the source tree.
install(TARGETS occ RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
if(TARGET occ-lab)
  install(TARGETS occ-lab RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
endif()
if(TARGET occ-regs-bench)
  install(TARGETS occ-regs-bench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
  install(FILES ${CMAKE_SOURCE_DIR}/lab/regs/kernels.tsv
          DESTINATION ${CMAKE_INSTALL_DATADIR}/occ/lab/regs COMPONENT cli)
endif()

# The libraries. libocc-inspect.so and libocc-profile.so find libocc.so beside
# themselves ($ORIGIN), wherever the prefix is moved (a Python wheel, a
# relocated tree).
set_target_properties(occ_shared PROPERTIES EXPORT_NAME occ)
set_target_properties(occ_inspect_shared PROPERTIES EXPORT_NAME inspect INSTALL_RPATH "$ORIGIN")
set_target_properties(occ_profile_shared PROPERTIES EXPORT_NAME profile INSTALL_RPATH "$ORIGIN")
install(TARGETS occ_shared occ_inspect_shared occ_profile_shared EXPORT occTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime
                NAMELINK_COMPONENT devel)
install(TARGETS libocc libocc_inspect libocc_profile ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        COMPONENT devel)
install(FILES ${CMAKE_SOURCE_DIR}/include/occ.h ${CMAKE_SOURCE_DIR}/include/occ_cuda.h
        ${CMAKE_SOURCE_DIR}/include/occ_inspect.h
        ${CMAKE_SOURCE_DIR}/include/occ_diff.h
        ${CMAKE_SOURCE_DIR}/include/occ_regs.h
        ${CMAKE_SOURCE_DIR}/include/occ_profile.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT devel)

# pkg-config files, written at install time so that `prefix=` names the
# prefix installed to (`cmake --install --prefix` decides it then, not the
# configure step); DESTDIR stays out of them.
foreach(pc occ occ-inspect occ-profile)
  install(CODE "
    set(OCC_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
    set(OCC_PC_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
    set(OCC_PC_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
    set(OCC_PC_VERSION \"${PROJECT_VERSION}\")
    configure_file(\"${OCC_PACKAGING_DIR}/${pc}.pc.in\"
                   \"${CMAKE_BINARY_DIR}/packaging/${pc}.pc\" @ONLY)"
    COMPONENT devel)
  install(FILES ${CMAKE_BINARY_DIR}/packaging/${pc}.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT devel)
endforeach()

# find_package(occ): occ::occ, occ::inspect and occ::profile (the shared
# libraries, from the export), occ::occ_static, occ::inspect_static and
# occ::profile_static (occConfig.cmake).
install(EXPORT occTargets NAMESPACE occ:: DESTINATION ${OCC_CMAKE_PACKAGE_DIR}
        COMPONENT devel)
configure_package_config_file(${OCC_PACKAGING_DIR}/occConfig.cmake.in
  ${CMAKE_BINARY_DIR}/packaging/occConfig.cmake
  INSTALL_DESTINATION ${OCC_CMAKE_PACKAGE_DIR}
  PATH_VARS CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_INCLUDEDIR)
# The soname carries the major version; a program built against 0.x loads any 0.y.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/packaging/occConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/packaging/occConfig.cmake
        ${CMAKE_BINARY_DIR}/packaging/occConfigVersion.cmake
        DESTINATION ${OCC_CMAKE_PACKAGE_DIR} COMPONENT devel)

# The guides. --help and the man pages cite them as docs/NAME.md; the pages
# installed below cite them here instead (DOCDIR, share/doc/occ).
file(GLOB OCC_DOCS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/docs/*.md)
install(FILES ${OCC_DOCS} DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT doc)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/img DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT doc)
# the records of `occ lab residency --records ...`, occ lab's example
install(FILES ${CMAKE_SOURCE_DIR}/docs/results/h200/lab-all.jsonl
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/results/h200 COMPONENT doc)

# Man pages: occ-man (cli/man/) writes occ.1 and occ-CMD.1 for every command
# of the table from the option tables --help prints. They are written at
# install time, when the prefix is known (`cmake --install --prefix` decides
# it then), so that they cite the guides where they are installed
# (--docs DOCDIR: "docs/json.md" reads "/usr/local/share/doc/occ/json.md");
# the directory is emptied first so a removed command leaves no page behind.
set(OCC_MAN_DIR ${CMAKE_BINARY_DIR}/man)
add_executable(occ-man ${CMAKE_SOURCE_DIR}/cli/man/occ_man.c ${CMAKE_SOURCE_DIR}/cli/man/man_page.c)
target_link_libraries(occ-man PRIVATE occcli)
install(CODE "
  set(occ_docdir \"${CMAKE_INSTALL_DOCDIR}\")
  if(NOT IS_ABSOLUTE \"\${occ_docdir}\")
    set(occ_docdir \"\${CMAKE_INSTALL_PREFIX}/\${occ_docdir}\")
  endif()
  file(REMOVE_RECURSE \"${OCC_MAN_DIR}\")
  file(MAKE_DIRECTORY \"${OCC_MAN_DIR}\")
  execute_process(COMMAND \"$<TARGET_FILE:occ-man>\" --docs \"\${occ_docdir}\" \"${OCC_MAN_DIR}\"
                  RESULT_VARIABLE occ_man_status)
  if(NOT occ_man_status EQUAL 0)
    message(FATAL_ERROR \"occ-man: the man pages were not written (\${occ_man_status})\")
  endif()" COMPONENT cli)
install(DIRECTORY ${OCC_MAN_DIR}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT cli
        FILES_MATCHING PATTERN "*.1")

# Completions, where each shell looks for them under a prefix.
install(FILES ${CMAKE_SOURCE_DIR}/completions/occ.bash RENAME occ
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions COMPONENT cli)
install(FILES ${CMAKE_SOURCE_DIR}/completions/_occ
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions COMPONENT cli)
install(FILES ${CMAKE_SOURCE_DIR}/completions/occ.fish
        DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d COMPONENT cli)

# The occupancy page, where `make web` built it (build/web/).
install(DIRECTORY ${CMAKE_BINARY_DIR}/web/ DESTINATION ${CMAKE_INSTALL_DATADIR}/occ/web
        COMPONENT web OPTIONAL)

# What the install copies, built: `make install` builds this target alone.
add_custom_target(occ_install_files)
add_dependencies(occ_install_files occ occ_shared occ_inspect_shared occ_profile_shared libocc
                 libocc_inspect libocc_profile occ-man)
if(TARGET occ-lab)
  add_dependencies(occ_install_files occ-lab)
endif()
if(TARGET occ-regs-bench)
  add_dependencies(occ_install_files occ-regs-bench)
endif()

# `cmake --build BUILD --target uninstall`, as `make uninstall` does.
add_custom_target(uninstall
  COMMAND ${CMAKE_COMMAND} -DMANIFEST=${CMAKE_BINARY_DIR}/install_manifest.txt
          -P ${OCC_PACKAGING_DIR}/uninstall.cmake
  COMMENT "Removing what the last install from this build directory listed")
