# Build settings for nldr's own targets (tests, tool, examples, benchmarks, nldr::registry);
# none of this leaks into the installed nldr::nldr target.

# Warnings as errors and, with NLDR_SANITIZE, the sanitizers' compile flags: every own target.
function(nldr_warnings_and_sanitizers target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 reports false positives inside Eigen (SelfAdjointEigenSolver, JacobiSVD) and libstdc++
    # string concatenation at -O2; both are known GCC bugs (PR 105562, PR 105329).
    target_compile_options(${target} PRIVATE -Wno-maybe-uninitialized -Wno-restrict)
  endif()
  if(NLDR_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  endif()
endfunction()

function(nldr_project_options target)
  target_link_libraries(${target} PRIVATE nldr::nldr)
  if(TARGET nldr_registry)
    target_link_libraries(${target} PRIVATE nldr_registry)  # the registries' tables, compiled once
  endif()
  if(TARGET nldr::suitesparse)  # optional: the fast factorizations of the spectral embedders
    target_link_libraries(${target} PRIVATE nldr::suitesparse)
  endif()
  if(TARGET nldr::hnswlib)  # optional: ApproximateKNearest
    target_link_libraries(${target} PRIVATE nldr::hnswlib)
  endif()
  if(TARGET nldr::openblas)  # optional: OpenBLAS's GEMM in the exact neighbor search
    target_link_libraries(${target} PRIVATE nldr::openblas)
  endif()
  if(TARGET nldr::cairo)  # optional: PNG and PDF plots
    target_link_libraries(${target} PRIVATE nldr::cairo)
  endif()
  if(TARGET nldr::fftw)  # optional: FFTW for the FFT-accelerated t-SNE repulsion
    target_link_libraries(${target} PRIVATE nldr::fftw)
  endif()
  nldr_warnings_and_sanitizers(${target})
  if(Boost_FOUND)  # optional: the R*-tree box index (nldr/neighbors/rstar_box_index.hpp)
    target_link_libraries(${target} PRIVATE Boost::headers)
    target_compile_definitions(${target} PRIVATE NLDR_HAVE_BOOST BOOST_ALLOW_DEPRECATED_HEADERS)
  endif()
  if(NLDR_USE_OPENMP AND OpenMP_CXX_FOUND)
    target_link_libraries(${target} PRIVATE OpenMP::OpenMP_CXX)
  endif()
  if(NLDR_SANITIZE)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()

# Build settings of nldr::registry (CMakeLists.txt), an installed library: what its users need to link
# is PUBLIC (nldr::nldr, OpenMP, and the optional targets whose NLDR_HAVE_* it was compiled with, so a
# program that links it sees the same definitions), the rest PRIVATE. NLDR_REGISTRY_REQUIRES lists the
# optional targets for nldrConfig.cmake, which offers nldr::registry only where they exist.
function(nldr_registry_options target)
  target_link_libraries(${target} PUBLIC nldr)
  target_compile_definitions(${target} PUBLIC NLDR_REGISTRY_COMPILED)
  set(requires "")
  # What each optional nldr_<name> target carries (its library's imported targets and NLDR_HAVE_*),
  # not the target itself: an installed static library may only name exported or imported targets.
  foreach(optional suitesparse hnswlib openblas fftw)
    if(TARGET nldr_${optional})
      get_target_property(libraries nldr_${optional} INTERFACE_LINK_LIBRARIES)
      list(REMOVE_ITEM libraries nldr)
      get_target_property(definitions nldr_${optional} INTERFACE_COMPILE_DEFINITIONS)
      target_link_libraries(${target} PUBLIC ${libraries})
      target_compile_definitions(${target} PUBLIC ${definitions})
      list(APPEND requires ${optional})
    endif()
  endforeach()
  if(NLDR_USE_OPENMP AND OpenMP_CXX_FOUND)
    target_link_libraries(${target} PUBLIC OpenMP::OpenMP_CXX)
    list(APPEND requires openmp)
  endif()
  if(Boost_FOUND)  # the R*-tree box index of the short-circuit selector, header-only
    target_link_libraries(${target} PRIVATE $<BUILD_INTERFACE:Boost::headers>)
    target_compile_definitions(${target} PRIVATE NLDR_HAVE_BOOST BOOST_ALLOW_DEPRECATED_HEADERS)
  endif()
  set(NLDR_REGISTRY_REQUIRES "${requires}" PARENT_SCOPE)
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON EXPORT_NAME registry)
  nldr_warnings_and_sanitizers(${target})
endfunction()
