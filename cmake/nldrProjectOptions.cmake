# Build settings for nldr's own targets (tests, tool, examples, benchmarks);
# none of this leaks into the installed nldr::nldr target.
function(nldr_project_options target)
  target_link_libraries(${target} PRIVATE nldr::nldr)
  if(TARGET nldr_registry AND NOT target STREQUAL "nldr_registry")
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
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 reports false positives inside Eigen (SelfAdjointEigenSolver, JacobiSVD) and libstdc++
    # string concatenation at -O2; both are known GCC bugs (PR 105562, PR 105329).
    target_compile_options(${target} PRIVATE -Wno-maybe-uninitialized -Wno-restrict)
  endif()
  if(Boost_FOUND)  # optional: the R*-tree box index (nldr/neighbors/rstar_box_index.hpp)
    target_link_libraries(${target} PRIVATE Boost::headers)
    target_compile_definitions(${target} PRIVATE NLDR_HAVE_BOOST BOOST_ALLOW_DEPRECATED_HEADERS)
  endif()
  if(NLDR_USE_OPENMP AND OpenMP_CXX_FOUND)
    target_link_libraries(${target} PRIVATE OpenMP::OpenMP_CXX)
  endif()
  if(NLDR_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()
