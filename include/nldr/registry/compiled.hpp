// Compiling the registries' tables once (docs/building.md, "Compile time of the registries").
//
// The method and selector tables instantiate every method's fit and load and every selector for
// float and double: about 5 CPU minutes at -O3 in each translation unit that uses them. They are
// function templates, so a unit that merely includes the registry (e.g. through nldr/nldr.hpp)
// pays nothing. A program whose several units call the registry defines NLDR_REGISTRY_COMPILED in
// all of them, which declares the tables `extern template`, and instantiates them in one unit:
//
//   #include <nldr/registry/embedders.hpp>
//   #include <nldr/registry/selectors.hpp>
//   NLDR_INSTANTIATE_REGISTRY_TABLES
//
// nldr's own tool, tests, examples and Python module do (src/registry_tables.cpp, target nldr_registry).
#pragma once

/// The explicit instantiations of both tables, for the one unit of NLDR_REGISTRY_COMPILED programs.
#define NLDR_INSTANTIATE_REGISTRY_TABLES                                                     \
  template const std::vector<nldr::EmbedderInfo>& nldr::detail::embedder_table<void>(); \
  template const std::vector<nldr::SelectorInfo>& nldr::detail::selector_table<void>();
