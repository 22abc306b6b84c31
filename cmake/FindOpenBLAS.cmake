# FindOpenBLAS: OpenBLAS's CBLAS interface, the optimized GEMM behind nldr's exact high-dimensional
# neighbor search (nldr/neighbors/detail/brute_force.hpp). OpenBLAS itself is required, not any
# BLAS: the search sets OpenBLAS's thread count (openblas_set_num_threads) while it runs its own
# threads. Debian's libopenblas-dev puts cblas.h under a per-variant folder (openblas-pthread,
# openblas-openmp, openblas-serial); other installs put it under openblas/ or the include root.
# Defines OpenBLAS_FOUND and the imported target OpenBLAS::OpenBLAS.
find_library(OpenBLAS_LIBRARY NAMES openblas)
find_path(OpenBLAS_INCLUDE_DIR NAMES cblas.h
  PATH_SUFFIXES openblas-pthread openblas-openmp openblas-serial openblas)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(OpenBLAS REQUIRED_VARS OpenBLAS_LIBRARY OpenBLAS_INCLUDE_DIR)
mark_as_advanced(OpenBLAS_LIBRARY OpenBLAS_INCLUDE_DIR)

if(OpenBLAS_FOUND AND NOT TARGET OpenBLAS::OpenBLAS)
  add_library(OpenBLAS::OpenBLAS UNKNOWN IMPORTED)
  set_target_properties(OpenBLAS::OpenBLAS PROPERTIES
    IMPORTED_LOCATION "${OpenBLAS_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${OpenBLAS_INCLUDE_DIR}")
endif()
