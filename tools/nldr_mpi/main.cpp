// nldr-mpi: Laplacian Eigenmaps, diffusion maps, LLE (standard, Hessian) or LTSA of a .npy file over
// MPI ranks (docs/scaling.md).
//
//   mpirun -np P nldr-mpi embed --in X.npy --out Y.npy --method laplacian-eigenmaps|diffusion-maps|lle|hessian-lle|ltsa --k K --dim d [--json R.json]
//
// Every rank reads its block of rows, the exact kNN graph is built by a spatial partition (low D) or
// a ring pass of the blocks, the method's matrix is a PETSc matrix with rows local, SLEPc solves it,
// and rank 0 writes Y.npy block by block through a temporary file renamed at the end. Errors: every
// rank stops with exit status 1; rank 0 prints the one-line message.
#include <nldr/core/error.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/io/json.hpp>
#include <nldr/mpi/collective.hpp>
#include <nldr/mpi/diffusion_maps.hpp>
#include <nldr/mpi/laplacian_eigenmaps.hpp>
#include <nldr/mpi/lle.hpp>
#include <nldr/mpi/ltsa.hpp>
#include <nldr/mpi/nearest_neighbors.hpp>
#include <nldr/mpi/npy_writer.hpp>
#include <nldr/mpi/petsc.hpp>
#include <nldr/mpi/point_block.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/registry/described_parameters.hpp>
#include <nldr/registry/embedders.hpp>

#include "../nldr/parameters.hpp"

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <exception>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct EmbedArguments {
  std::string in, out, json, method = "laplacian-eigenmaps", knn = "automatic";
  int k = nldr::KNearest{}.k;
  /// The methods' parameters, one flag each, as the single-process tool names them (--dim, --heat-t, --reg, ...).
  nldr_tool::RegistryFlags flags;
};

using Points = nldr::mpi::PointBlock<double>;
using Graph = nldr::mpi::GraphBlock<double>;
using Embedding = nldr::mpi::SpectralBlock<double>;

/// `options` with the fields its describe() lists set from `arguments` (core/described.hpp).
template <class Options>
Options described(Options options, const nldr::Arguments& arguments) {
  nldr::set_described(options, arguments);
  return options;
}

/// A distributed method: its registry name, what it runs on the method's own Options, and the report
/// key of its kernel width.
struct Method {
  std::string_view name;
  Embedding (*embed)(MPI_Comm, const Points&, const Graph&, const nldr::Arguments&);
  const char* width_key;  // nullptr: no kernel width
};

/// The distributed methods: the one list behind --method's check, its help and its error message.
/// Their parameters, defaults and checks are the registry's (registry/embedders.hpp).
const std::array<Method, 5> methods{{
    {"laplacian-eigenmaps",
     [](MPI_Comm comm, const Points&, const Graph& graph, const nldr::Arguments& a) {
       return nldr::mpi::laplacian_eigenmaps(comm, graph, described(nldr::LaplacianEigenmapsOptions{}, a));
     },
     "t"},
    {"diffusion-maps",
     [](MPI_Comm comm, const Points&, const Graph& graph, const nldr::Arguments& a) {
       return nldr::mpi::diffusion_maps(comm, graph, described(nldr::DiffusionMapsOptions{}, a));
     },
     "bandwidth"},
    {"lle",
     [](MPI_Comm comm, const Points& points, const Graph& graph, const nldr::Arguments& a) {
       return nldr::mpi::lle(comm, points, graph, described(nldr::LleOptions{}, a));
     },
     nullptr},
    {"hessian-lle",
     [](MPI_Comm comm, const Points& points, const Graph& graph, const nldr::Arguments& a) {
       return nldr::mpi::lle(comm, points, graph, described(nldr::LleOptions{.variant = nldr::LleVariant::hessian}, a));
     },
     nullptr},
    {"ltsa",
     [](MPI_Comm comm, const Points& points, const Graph& graph, const nldr::Arguments& a) {
       return nldr::mpi::ltsa(comm, points, graph, described(nldr::LtsaOptions{}, a));
     },
     nullptr},
}};

/// The parameters nldr-mpi offers as flags for a method: its registry entry's, without those of the
/// single-process eigensolver that SLEPc has no use for (they keep their defaults, which
/// nldr::mpi::detail::slepc_settings requires).
std::vector<nldr::ParameterSpec> offered_parameters(std::string_view method) {
  std::vector<nldr::ParameterSpec> specs;
  for (const auto& spec : nldr::find_embedder(method).parameters)
    if (spec.name != "factorization" && spec.name != "report_gap") specs.push_back(spec);
  return specs;
}

/// "laplacian-eigenmaps, diffusion-maps, lle, hessian-lle or ltsa".
std::string method_names() {
  std::string names;
  for (std::size_t m = 0; m < methods.size(); ++m)
    names += (m == 0 ? "" : m + 1 == methods.size() ? " or " : ", ") + std::string(methods[m].name);
  return names;
}

/// The largest value of `x` over the ranks.
double max_over_ranks(MPI_Comm comm, double x) {
  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_MAX, comm);
  return x;
}

void embed(MPI_Comm comm, const EmbedArguments& a) {
  const std::string_view name = nldr::find_embedder(a.method).name;  // aliases, "did you mean"
  const auto method = std::find_if(methods.begin(), methods.end(), [&](const Method& m) { return m.name == name; });
  if (method == methods.end())
    nldr::throw_invalid("method", "method '", a.method, "' is not distributed yet: nldr-mpi embeds with ",
                        method_names(), " (use the single-process nldr tool for the others)");
  const auto& parameters = nldr::find_embedder(name).parameters;
  a.flags.require_applicable({{std::string(name), offered_parameters(name)}}, std::string(name));
  const nldr::Arguments arguments(parameters, a.flags.given(parameters), name);
  const int rank = nldr::mpi::rank_of(comm), parts = nldr::mpi::size_of(comm);
  const auto requested_knn = nldr::mpi::knn_algorithm_named(a.knn);
  if (!a.json.empty() && (a.json == a.out || a.json == a.in))
    nldr::throw_invalid("json", "--json names the same file as --in or --out: choose another path");
  if (a.out == a.in) nldr::throw_invalid("out", "--out names the input file: choose another path");
  nldr::mpi::NpyBlockWriter writer(comm, a.out);
  nldr::StageTimes times;
  nldr::Stopwatch clock;
  const auto points = nldr::mpi::read_npy_block<double>(comm, a.in);
  times.add("read", clock.seconds());
  clock.restart();
  nldr::mpi::KnnStatistics search;
  const auto knn = nldr::mpi::resolve_knn_algorithm(requested_knn, points.rows.cols());
  const auto graph = nldr::mpi::nearest_neighbors(comm, points, a.k, knn, &search);
  times.add("knn", clock.seconds());
  const Embedding embedding = method->embed(comm, points, graph, arguments);
  for (const auto& [stage, seconds] : embedding.times.stages) times.add(stage, seconds);
  clock.restart();
  writer.write(points.blocks, embedding.coordinates);
  times.add("write", clock.seconds());

  // The report: per stage and for memory, the largest value over the ranks.
  nldr::io::JsonValue report;
  report["method"] = std::string(name);
  report["ranks"] = parts;
  report["n"] = points.total();
  report["d_in"] = std::int64_t(points.rows.cols());
  report["k"] = a.k;
  report["dim"] = std::int64_t(arguments.index("dim"));
  for (const auto& [parameter, value] : arguments.values()) report["parameters"][parameter] = value;
  if (method->width_key) report[method->width_key] = embedding.t;
  report["knn_algorithm"] = std::string(nldr::mpi::knn_algorithm_name(knn));
  report["eigensolver"] = "slepc-" + embedding.solver;
  report["iterations"] = embedding.iterations;
  for (double value : embedding.eigenvalues) report["eigenvalues"].push_back(value);
  for (const auto& [stage, seconds] : times.stages) report["max_seconds_per_rank"][stage] = max_over_ranks(comm, seconds);
  report["max_knn_search_seconds_per_rank"] = max_over_ranks(comm, search.search_seconds);
  report["max_knn_exchange_seconds_per_rank"] = max_over_ranks(comm, search.exchange_seconds);
  report["max_bytes_sent_per_rank_knn"] = max_over_ranks(comm, double(search.bytes_sent));
  report["max_knn_halo_queries_per_rank"] = max_over_ranks(comm, double(search.halo_queries));
  report["max_bytes_sent_per_rank_halo"] = max_over_ranks(comm, double(embedding.bytes_sent));
  report["max_peak_memory_bytes_per_rank"] = max_over_ranks(comm, double(nldr::peak_memory_bytes()));
  nldr::mpi::collectively(comm, [&] {
    if (rank == 0 && !a.json.empty()) nldr::io::write_json(a.json, report);
  });
}

}  // namespace

int main(int argc, char** argv) {
  nldr::mpi::Session session(&argc, &argv);
  const MPI_Comm comm = PETSC_COMM_WORLD;
  const int rank = nldr::mpi::rank_of(comm);
  CLI::App app{"nldr-mpi: distributed manifold learning on MPI, PETSc and SLEPc (docs/scaling.md)", "nldr-mpi"};
  app.require_subcommand(1);
  EmbedArguments a;
  auto* embed_command = app.add_subcommand("embed", "embed the rows of a .npy file, one block of rows per rank");
  embed_command->add_option("--in", a.in, "input points, N x D .npy (float32/float64/integers, C order)")->required();
  embed_command->add_option("--out", a.out, "output embedding, N x dim float64 .npy")->required();
  embed_command->add_option("--method", a.method, method_names())->capture_default_str();
  embed_command->add_option("--k", a.k, "neighbors per point, 1 <= k < N")->capture_default_str();
  {
    nldr_tool::RegistryFlags::Owners owners;
    std::vector<std::vector<nldr::ParameterSpec>> specs;  // the owners' views point into these
    specs.reserve(methods.size());
    for (const auto& method : methods)
      owners.emplace_back(method.name, specs.emplace_back(offered_parameters(method.name)));
    a.flags.add_to(*embed_command, owners);
  }
  embed_command->add_option("--knn", a.knn, "kNN search: automatic (spatial for D <= 20, else ring), ring or spatial")
      ->capture_default_str();
  embed_command->add_option("--json", a.json, "write a JSON report (times, memory, traffic per rank) to this file");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return rank == 0 ? app.exit(e) : 0;
  } catch (const CLI::ParseError& e) {
    if (rank == 0) std::fprintf(stderr, "nldr-mpi: error: %s (see nldr-mpi embed --help)\n", e.what());
    return 1;
  }
  try {
    embed(comm, a);
  } catch (const std::exception& e) {
    if (rank == 0) std::fprintf(stderr, "nldr-mpi: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
