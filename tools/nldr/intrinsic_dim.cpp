// nldr intrinsic-dim: the MLE and TwoNN estimates of the intrinsic dimension (docs/tuning.md).
#include "cli.hpp"
#include "report.hpp"

#include <cstdio>

namespace nldr_tool {
namespace {

struct DimensionArgs {
  std::string in;
  Output json;
};

int intrinsic_dim(const DimensionArgs& a, const Session& session) {
  check_writable(a.json);
  Console console = session.console();
  const nldr::Matrix<double> X = session.read_points(a.in);
  nldr::StageTimes times;
  nldr::Stopwatch clock;
  const auto mle = nldr::mle_intrinsic_dimension(X);
  console.stage(times, "mle", clock.seconds());
  clock.restart();
  const auto twonn = nldr::twonn_intrinsic_dimension(X);
  console.stage(times, "twonn", clock.seconds());
  JsonValue report;
  report["command"] = "intrinsic-dim";
  report["version"] = nldr::version;
  report["input"] = a.in;
  report["mle"] = mle.estimate;
  JsonValue per_k = JsonValue::object();
  for (std::size_t i = 0; i < mle.k.size(); ++i) per_k[std::to_string(mle.k[i])] = mle.per_k[i];
  report["mle_per_k"] = std::move(per_k);
  report["twonn"] = twonn.estimate;
  report["twonn_interval"] = JsonValue::array();
  report["twonn_interval"].push_back(twonn.lower);
  report["twonn_interval"].push_back(twonn.upper);
  report["twonn_confidence"] = twonn.confidence;
  report["duplicates_removed"] = mle.duplicates_removed;
  add_resources(report, times);
  if (a.json.requested())
    emit_json(a.json, report);
  else
    std::printf("intrinsic dimension: MLE %.2f, TwoNN %.2f (%.0f%% interval %.2f..%.2f)\n", mle.estimate,
                twonn.estimate, 100 * twonn.confidence, twonn.lower, twonn.upper);
  return ok;
}

}  // namespace

std::function<int()> add_intrinsic_dim(CLI::App& command, Session& session) {
  auto a = std::make_shared<DimensionArgs>();
  command.add_option("--in,-i", a->in, "Points CSV (N x D)")->required();
  add_json_option(command, a->json);
  add_input_options(command, session);
  add_threads_option(command, session);
  return [a, &session] { return intrinsic_dim(*a, session); };
}

}  // namespace nldr_tool
