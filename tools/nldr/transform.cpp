// nldr transform: new points placed by a model that embed --save-model wrote (docs/tool.md).
#include "cli.hpp"
#include "report.hpp"

namespace nldr_tool {
namespace {

struct TransformArgs {
  std::string model, in;
  Output out, json;
};

int transform(const TransformArgs& a, const Session& session) {
  check_distinct({{"--out", a.out.path}, {"--json", a.json.path}}, {a.model, a.in});
  for (const Output* o : {&a.out, &a.json}) check_writable(*o);
  Console console = session.console();
  nldr::StageTimes times;
  nldr::Stopwatch clock;
  const nldr::AnyModel<double> model = nldr::load_model<double>(a.model);
  console.stage(times, "load model", clock.seconds());
  clock.restart();
  const nldr::Matrix<double> X = session.read_points(a.in);
  console.stage(times, "read", clock.seconds());
  clock.restart();
  const nldr::Matrix<double> Y = model.transform(X);
  console.stage(times, "transform", clock.seconds());
  clock.restart();
  session.write_points(a.out.path, Y);
  console.stage(times, "write", clock.seconds());
  JsonValue report;
  report["command"] = "transform";
  report["version"] = nldr::version;
  report["model"] = a.model;
  report["method"] = model.method();
  report["input"] = a.in;
  report["n"] = X.rows();
  report["dim"] = Y.cols();
  report["parameters"] = parameters_json(model.parameters());
  add_resources(report, times);
  emit_json(a.json, report);
  return ok;
}

}  // namespace

std::function<int()> add_transform(CLI::App& command, Session& session) {
  auto a = std::make_shared<TransformArgs>();
  command.add_option("--model", a->model, "Model file written by nldr embed --save-model")->required();
  command.add_option("--in,-i", a->in,
                     "New points CSV (P x D; for a model fit on --distances: P x N distances to the training points)")
      ->required();
  command.add_option("--out,-o", a->out.path, "Embedding CSV of the new points (P x d)")->required();
  add_json_option(command, a->json);
  add_input_options(command, session);
  add_output_options(command, session);
  add_threads_option(command, session);
  return [a, &session] { return transform(*a, session); };
}

}  // namespace nldr_tool
