# FindFFTW3: FFTW 3 in double precision, the FFT library behind nldr's optional nldr::fftw (the
# FFT-accelerated t-SNE repulsion, nldr/embed/routines/grid_fft.hpp, docs/algorithms.md). Debian:
# libfftw3-dev, which installs pkg-config files (fftw3.pc) and no CMake config. Asks pkg-config first,
# then looks for the header and library directly. Defines FFTW3_FOUND, FFTW3_VERSION and the imported
# target FFTW3::fftw3.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(PC_FFTW3 QUIET fftw3)
endif()
find_path(FFTW3_INCLUDE_DIR NAMES fftw3.h HINTS ${PC_FFTW3_INCLUDE_DIRS})
find_library(FFTW3_LIBRARY NAMES fftw3 HINTS ${PC_FFTW3_LIBRARY_DIRS})
set(FFTW3_VERSION ${PC_FFTW3_VERSION})
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(FFTW3 REQUIRED_VARS FFTW3_LIBRARY FFTW3_INCLUDE_DIR VERSION_VAR FFTW3_VERSION)
mark_as_advanced(FFTW3_INCLUDE_DIR FFTW3_LIBRARY)

if(FFTW3_FOUND AND NOT TARGET FFTW3::fftw3)
  add_library(FFTW3::fftw3 UNKNOWN IMPORTED)
  set_target_properties(FFTW3::fftw3 PROPERTIES
    IMPORTED_LOCATION "${FFTW3_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${FFTW3_INCLUDE_DIR}")
endif()
