# Build settings for nldr's own targets (tests, tool, examples, benchmarks);
# none of this leaks into the installed nldr::nldr target.
function(nldr_project_options target)
  target_link_libraries(${target} PRIVATE nldr::nldr)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror)
  if(NLDR_USE_OPENMP AND OpenMP_CXX_FOUND)
    target_link_libraries(${target} PRIVATE OpenMP::OpenMP_CXX)
  endif()
  if(NLDR_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()
