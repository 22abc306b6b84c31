# Findhnswlib: the header-only HNSW library behind nldr's optional ApproximateKNearest selector
# (nldr/neighbors/approximate_knn.hpp). Debian's libhnswlib-dev (0.6.2) installs the headers in
# /usr/include/hnswlib and no CMake or pkg-config file, so the header is looked up directly.
# Defines hnswlib_FOUND and the imported target hnswlib::hnswlib.
find_path(hnswlib_INCLUDE_DIR NAMES hnswlib/hnswlib.h hnswlib/hnswalg.h)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(hnswlib REQUIRED_VARS hnswlib_INCLUDE_DIR)
mark_as_advanced(hnswlib_INCLUDE_DIR)

if(hnswlib_FOUND AND NOT TARGET hnswlib::hnswlib)
  find_package(Threads REQUIRED)  # the index's locks are std::mutex
  add_library(hnswlib::hnswlib INTERFACE IMPORTED)
  set_target_properties(hnswlib::hnswlib PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${hnswlib_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES Threads::Threads)
endif()
