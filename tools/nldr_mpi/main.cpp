// nldr-mpi: Laplacian Eigenmaps, diffusion maps, LLE (standard, Hessian) or LTSA of a .npy file over
// MPI ranks (docs/scaling.md).
//
//   mpirun -np P nldr-mpi embed --in X.npy --out Y.npy --method laplacian-eigenmaps|diffusion-maps|lle|hessian-lle|ltsa --k K --dim d [--json R.json] [--save-model M.nldr]
//
// Every rank reads its block of rows, the exact kNN graph is built by a spatial partition (low D) or
// a ring pass of the blocks, the method's matrix is a PETSc matrix with rows local, SLEPc solves it,
// and rank 0 writes Y.npy block by block through a temporary file renamed at the end. With
// --save-model rank 0 gathers the single-process model (nldr/mpi/model.hpp) and writes it first. Errors: every
// rank stops with exit status 1; rank 0 prints the one-line message.
#include <nldr/core/error.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/io/atomic_file.hpp>
#include <nldr/io/json.hpp>
#include <nldr/mpi/collective.hpp>
#include <nldr/mpi/model.hpp>
#include <nldr/mpi/nearest_neighbors.hpp>
#include <nldr/mpi/npy_writer.hpp>
#include <nldr/mpi/petsc.hpp>
#include <nldr/mpi/point_block.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/registry/described_parameters.hpp>
#include <nldr/registry/embedders.hpp>
#include <nldr/registry/model_file.hpp>

#include "../nldr/parameters.hpp"
#include "../nldr/report.hpp"

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct EmbedArguments {
  std::string in, out, json, model, method = "laplacian-eigenmaps", knn = "automatic";
  int k = nldr::KNearest{}.k;
  /// The methods' parameters, one flag each, as the single-process tool names them (--dim, --heat-t, --reg, ...).
  nldr_tool::RegistryFlags flags;
};

using Points = nldr::mpi::PointBlock<double>;
using Graph = nldr::mpi::GraphBlock<double>;
using Embedding = nldr::mpi::SpectralBlock<double>;

/// What a distributed method is asked for: its registry name and arguments, the graph's k, and
/// whether rank 0 should gather the single-process model (--save-model).
struct Request {
  std::string_view name;
  const nldr::Arguments& arguments;
  nldr::index_t k = 0;
  bool with_model = false;
};

/// A distributed fit: this rank's rows, and on rank 0 the model when it was asked for.
struct Fit {
  Embedding block;
  std::optional<nldr::AnyModel<double>> model;
};

/// The distributed fit with `options` set from the request's arguments where its describe() lists them
/// (core/described.hpp), and its single-process model when asked for (nldr/mpi/model.hpp).
template <class Options>
Fit distributed_fit(MPI_Comm comm, const Points& points, const Graph& graph, const Request& request, Options options) {
  nldr::set_described(options, request.arguments);
  Fit result{nldr::mpi::embed(comm, points, graph, options), std::nullopt};
  if (request.with_model)
    if (auto model = nldr::mpi::model_of(comm, points, request.k, result.block, options))
      result.model.emplace(std::string(request.name), request.arguments.values(), std::move(*model));
  return result;
}

/// A distributed method: its registry name, its fit from the method's own Options, and the report
/// key of its kernel width.
struct Method {
  std::string_view name;
  Fit (*fit)(MPI_Comm, const Points&, const Graph&, const Request&);
  const char* width_key;  // nullptr: no kernel width
};

/// The distributed methods: the one list behind --method's check, its help and its error message.
/// Their parameters, defaults and checks are the registry's (registry/embedders.hpp).
const std::array<Method, 5> methods{{
    {"laplacian-eigenmaps",
     [](MPI_Comm c, const Points& p, const Graph& g, const Request& r) {
       return distributed_fit(c, p, g, r, nldr::LaplacianEigenmapsOptions{});
     },
     "t"},
    {"diffusion-maps",
     [](MPI_Comm c, const Points& p, const Graph& g, const Request& r) {
       return distributed_fit(c, p, g, r, nldr::DiffusionMapsOptions{});
     },
     "bandwidth"},
    {"lle", [](MPI_Comm c, const Points& p, const Graph& g, const Request& r) { return distributed_fit(c, p, g, r, nldr::LleOptions{}); },
     nullptr},
    {"hessian-lle",
     [](MPI_Comm c, const Points& p, const Graph& g, const Request& r) {
       return distributed_fit(c, p, g, r, nldr::LleOptions{.variant = nldr::LleVariant::hessian});
     },
     nullptr},
    {"ltsa", [](MPI_Comm c, const Points& p, const Graph& g, const Request& r) { return distributed_fit(c, p, g, r, nldr::LtsaOptions{}); },
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
  if (!a.model.empty() && (a.model == a.out || a.model == a.in || a.model == a.json))
    nldr::throw_invalid("save_model", "--save-model names the same file as --in, --out or --json: choose another path");
  if (a.out == a.in) nldr::throw_invalid("out", "--out names the input file: choose another path");
  nldr::mpi::NpyBlockWriter writer(comm, a.out);
  nldr::mpi::collectively(comm, [&] {  // the model's path checked before the work, as --out's is
    if (rank == 0 && !a.model.empty()) nldr::io::AtomicFile probe(a.model);
  });
  nldr::StageTimes times;
  nldr::Stopwatch clock;
  const auto points = nldr::mpi::read_npy_block<double>(comm, a.in);
  times.add("read", clock.seconds());
  clock.restart();
  nldr::mpi::KnnStatistics search;
  const auto knn = nldr::mpi::resolve_knn_algorithm(requested_knn, points.rows.cols());
  const auto graph = nldr::mpi::nearest_neighbors(comm, points, a.k, knn, &search);
  times.add("knn", clock.seconds());
  const Fit fit = method->fit(comm, points, graph, {name, arguments, a.k, !a.model.empty()});
  const Embedding& embedding = fit.block;
  for (const auto& [stage, seconds] : embedding.times.stages) times.add(stage, seconds);
  clock.restart();
  // The model first: when it cannot be written, no embedding is left either.
  nldr::mpi::collectively(comm, [&] {
    if (fit.model) nldr::save_model(*fit.model, a.model);
  });
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
  if (fit.model) report["results"] = nldr_tool::results_json(fit.model->results());  // rank 0, which writes it
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
  embed_command->add_option("--save-model", a.model,
                            "write the fitted model (for nldr transform) to this file; rank 0 gathers the N training "
                            "points and coordinates for it");
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
