# FindxxHash: the XXH3 hash behind the checksum of nldr's model files (format version 3,
# nldr/registry/model_format.hpp, docs/models.md). Debian's libxxhash-dev (0.8.1) installs xxhash.h
# and no CMake config file; nldr includes it with XXH_INLINE_ALL, header-only, so only the header is
# looked up. Defines xxHash_FOUND and the imported target xxHash::xxHash.
find_path(xxHash_INCLUDE_DIR NAMES xxhash.h)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(xxHash REQUIRED_VARS xxHash_INCLUDE_DIR)
mark_as_advanced(xxHash_INCLUDE_DIR)

if(xxHash_FOUND AND NOT TARGET xxHash::xxHash)
  add_library(xxHash::xxHash INTERFACE IMPORTED)
  set_target_properties(xxHash::xxHash PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${xxHash_INCLUDE_DIR}")
endif()
