# FindSuiteSparse: the parts of SuiteSparse behind nldr's optional fast spectral solvers
# (nldr/embed/detail/cholmod_factor.hpp, umfpack_factor.hpp): CHOLMOD (supernodal Cholesky) and
# UMFPACK (sparse LU).
#
# SuiteSparse 7 installs CMake packages (SuiteSparse::CHOLMOD, SuiteSparse::UMFPACK); Debian bookworm's
# SuiteSparse 5.12 (libsuitesparse-dev) installs none, so libraries and headers are looked up directly there.
# Defines SuiteSparse_FOUND and the imported targets SuiteSparse::CHOLMOD and SuiteSparse::UMFPACK.
foreach(component CHOLMOD UMFPACK)
  if(NOT TARGET SuiteSparse::${component})
    find_package(${component} CONFIG QUIET NO_CMAKE_PACKAGE_REGISTRY)
  endif()
endforeach()
if(TARGET SuiteSparse::CHOLMOD AND TARGET SuiteSparse::UMFPACK)
  set(SuiteSparse_FOUND TRUE)
  return()
endif()

find_path(SuiteSparse_INCLUDE_DIR NAMES cholmod.h umfpack.h PATH_SUFFIXES suitesparse)
find_library(SuiteSparse_CHOLMOD_LIBRARY cholmod)
find_library(SuiteSparse_UMFPACK_LIBRARY umfpack)
find_library(SuiteSparse_CONFIG_LIBRARY suitesparseconfig)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SuiteSparse
  REQUIRED_VARS SuiteSparse_CHOLMOD_LIBRARY SuiteSparse_UMFPACK_LIBRARY SuiteSparse_CONFIG_LIBRARY
                SuiteSparse_INCLUDE_DIR)
mark_as_advanced(SuiteSparse_INCLUDE_DIR SuiteSparse_CHOLMOD_LIBRARY SuiteSparse_UMFPACK_LIBRARY
                 SuiteSparse_CONFIG_LIBRARY)

if(SuiteSparse_FOUND)
  foreach(component CHOLMOD UMFPACK)
    if(NOT TARGET SuiteSparse::${component})
      add_library(SuiteSparse::${component} UNKNOWN IMPORTED)
      set_target_properties(SuiteSparse::${component} PROPERTIES
        IMPORTED_LOCATION "${SuiteSparse_${component}_LIBRARY}"
        INTERFACE_INCLUDE_DIRECTORIES "${SuiteSparse_INCLUDE_DIR}"
        INTERFACE_LINK_LIBRARIES "${SuiteSparse_CONFIG_LIBRARY}")
    endif()
  endforeach()
endif()
