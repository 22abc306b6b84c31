# FindCairo: the 2-D graphics library behind nldr's PNG and PDF plots (nldr/io/plot.hpp,
# docs/figures.md). Debian: libcairo2-dev. Asks pkg-config first, then looks for the header and
# library directly. Defines Cairo_FOUND, Cairo_VERSION and the imported target Cairo::Cairo.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(PC_Cairo QUIET cairo)
endif()
find_path(Cairo_INCLUDE_DIR NAMES cairo.h HINTS ${PC_Cairo_INCLUDE_DIRS} PATH_SUFFIXES cairo)
find_library(Cairo_LIBRARY NAMES cairo HINTS ${PC_Cairo_LIBRARY_DIRS})
set(Cairo_VERSION ${PC_Cairo_VERSION})
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Cairo REQUIRED_VARS Cairo_LIBRARY Cairo_INCLUDE_DIR VERSION_VAR Cairo_VERSION)
mark_as_advanced(Cairo_INCLUDE_DIR Cairo_LIBRARY)

if(Cairo_FOUND AND NOT TARGET Cairo::Cairo)
  add_library(Cairo::Cairo UNKNOWN IMPORTED)
  set_target_properties(Cairo::Cairo PROPERTIES
    IMPORTED_LOCATION "${Cairo_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${Cairo_INCLUDE_DIR}")
endif()
