// nldr neighbors: a selector's graph, written as its directed edges (docs/tool.md).
#include "cli.hpp"
#include "parameters.hpp"
#include "report.hpp"

namespace nldr_tool {
namespace {

struct NeighborsArgs {
  std::string in, selector = "knn";
  nldr::index_t pca = 0;  ///< --pca P; 0: none
  RegistryFlags flags;
  Output out, json;
};

int neighbors(const NeighborsArgs& a, const Session& session) {
  const nldr::SelectorInfo& selector = nldr::find_selector(a.selector);
  a.flags.require_applicable({{"--selector " + std::string(selector.name), selector.parameters}},
                             "--selector " + std::string(selector.name));
  check_distinct({{"--out", a.out.path}, {"--json", a.json.path}}, {a.in});
  for (const Output* o : {&a.out, &a.json}) check_writable(*o);
  Console console = session.console();
  nldr::StageTimes times;
  nldr::Stopwatch clock;
  nldr::Matrix<double> X = session.read_points(a.in);
  console.stage(times, "read", clock.seconds());
  JsonValue report;
  if (a.pca > 0) reduce_by_pca(session, X, a.pca, 1, console, times, report);
  clock.restart();
  const auto graph =
      selector.select(X, a.flags.given(selector.parameters), console.progress(std::string(selector.name)));
  console.stage(times, "neighbors", clock.seconds());
  session.note_search(graph.selection());
  clock.restart();
  nldr::io::CsvWriter edges(a.out.path);
  for (nldr::index_t i = 0; i < graph.size(); ++i) {
    const auto list = graph.neighbors(i);
    const auto distances = graph.distances(i);
    for (std::size_t e = 0; e < list.size(); ++e) edges.write_row(i, list[e], distances[e]);
  }
  edges.commit();
  console.stage(times, "write", clock.seconds());

  report["command"] = "neighbors";
  report["input"] = a.in;
  report["graph"] = graph_json(graph);
  add_resources(report, times);
  emit_json(a.json, report);
  return ok;
}

}  // namespace

std::function<int()> add_neighbors(CLI::App& command, Session& session) {
  auto a = std::make_shared<NeighborsArgs>();
  command.add_option("--in,-i", a->in, "Points CSV (N x D)")->required();
  command.add_option("--selector", a->selector, "Neighbor selector: " + selector_names())->capture_default_str();
  a->flags.add_to(command, false, true);
  add_pca_option(command, a->pca);
  command.add_option("--out,-o", a->out.path, "Edges CSV, one directed edge i,j,distance per line (0-based)")
      ->required();
  add_json_option(command, a->json);
  add_input_options(command, session);
  add_threads_option(command, session);
  return [a, &session] { return neighbors(*a, session); };
}

}  // namespace nldr_tool
