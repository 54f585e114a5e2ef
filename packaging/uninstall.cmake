# uninstall.cmake - removes what `make install` / `cmake --install` put in
# place, as the install manifest of the build directory lists it (the last
# install from that directory), then the directories occ made for itself
# (share/occ, lib/cmake/occ) where they are left empty. Shared directories
# (bin, lib, share/man/man1, ...) stay, empty or not. The manifest lists
# paths without DESTDIR: give the same DESTDIR as the install.
#   [DESTDIR=STAGE] cmake -DMANIFEST=BUILD/install_manifest.txt -P packaging/uninstall.cmake
if(NOT MANIFEST)
  message(FATAL_ERROR "uninstall: give the manifest: cmake -DMANIFEST=FILE -P uninstall.cmake")
endif()
if(NOT EXISTS "${MANIFEST}")
  message(FATAL_ERROR "uninstall: ${MANIFEST} does not exist: nothing was installed from "
                      "this build directory (or it was uninstalled already)")
endif()

file(STRINGS "${MANIFEST}" installed)
set(dirs)
set(removed 0)
foreach(path IN LISTS installed)
  set(path "$ENV{DESTDIR}${path}")
  if(IS_SYMLINK "${path}" OR EXISTS "${path}")
    file(REMOVE "${path}")
    math(EXPR removed "${removed} + 1")
  else()
    message(STATUS "uninstall: already gone: ${path}")
  endif()
  get_filename_component(dir "${path}" DIRECTORY)
  list(APPEND dirs "${dir}")
endforeach()

# occ's own directories, deepest first: share/occ/web, share/occ, lib/cmake/occ.
list(REMOVE_DUPLICATES dirs)
foreach(dir IN LISTS dirs)
  while(dir MATCHES "/share/occ(/.*)?$" OR dir MATCHES "/cmake/occ$")
    file(GLOB left LIST_DIRECTORIES true "${dir}/*")
    if(left OR NOT IS_DIRECTORY "${dir}")
      break()
    endif()
    file(REMOVE_RECURSE "${dir}")
    get_filename_component(dir "${dir}" DIRECTORY)
  endwhile()
endforeach()
file(REMOVE "${MANIFEST}")
message(STATUS "uninstall: removed ${removed} files listed in ${MANIFEST}")
