# FindCHOLMOD: SuiteSparse's CHOLMOD, the optional supernodal sparse Cholesky behind nldr's
# spectral embedders (nldr/embed/detail/cholmod_factor.hpp).
#
# SuiteSparse 7 installs a CMake package (SuiteSparse::CHOLMOD); Debian bookworm's SuiteSparse 5.12
# (libsuitesparse-dev) installs none, so the library and header are looked up directly there.
# Defines CHOLMOD_FOUND and the imported target SuiteSparse::CHOLMOD.
if(TARGET SuiteSparse::CHOLMOD)
  set(CHOLMOD_FOUND TRUE)
  return()
endif()

find_package(CHOLMOD CONFIG QUIET NO_CMAKE_PACKAGE_REGISTRY)
if(TARGET SuiteSparse::CHOLMOD)
  set(CHOLMOD_FOUND TRUE)
  return()
endif()

find_path(CHOLMOD_INCLUDE_DIR cholmod.h PATH_SUFFIXES suitesparse)
find_library(CHOLMOD_LIBRARY cholmod)
find_library(CHOLMOD_SUITESPARSECONFIG_LIBRARY suitesparseconfig)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(CHOLMOD
  REQUIRED_VARS CHOLMOD_LIBRARY CHOLMOD_SUITESPARSECONFIG_LIBRARY CHOLMOD_INCLUDE_DIR)
mark_as_advanced(CHOLMOD_INCLUDE_DIR CHOLMOD_LIBRARY CHOLMOD_SUITESPARSECONFIG_LIBRARY)

if(CHOLMOD_FOUND)
  add_library(SuiteSparse::CHOLMOD UNKNOWN IMPORTED)
  set_target_properties(SuiteSparse::CHOLMOD PROPERTIES
    IMPORTED_LOCATION "${CHOLMOD_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${CHOLMOD_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${CHOLMOD_SUITESPARSECONFIG_LIBRARY}")
endif()
