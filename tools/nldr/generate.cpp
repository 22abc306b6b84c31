// nldr generate: a data set with its ground truth (docs/tool.md).
#include "cli.hpp"

namespace nldr_tool {
namespace {

struct GenerateArgs {
  std::string dataset;
  nldr::datasets::Options options;
  Output out, truth, labels, color;
};

int generate(const GenerateArgs& a, const Session& session) {
  check_distinct({{"--out", a.out.path}, {"--truth", a.truth.path}, {"--labels", a.labels.path}, {"--color", a.color.path}});
  for (const Output* o : {&a.out, &a.truth, &a.labels, &a.color}) check_writable(*o);
  const auto data = nldr::datasets::generate<double>(a.dataset, a.options);
  if (a.labels.requested() && data.labels.empty())
    nldr::throw_invalid("labels", "data set \"", a.dataset, "\" has no class labels (clusters-3d has): drop --labels");
  session.write_points(a.out.path, data.points, "x");
  if (a.truth.requested()) session.write_points(a.truth.path, data.intrinsic, "t");
  if (a.color.requested()) session.write_points(a.color.path, nldr::Matrix<double>(data.parameter), "color");
  if (a.labels.requested()) {
    nldr::io::CsvWriter labels(a.labels.path);
    for (int label : data.labels) labels.write_row(label);
    labels.commit();
  }
  return ok;
}

}  // namespace

std::function<int()> add_generate(CLI::App& command, Session& session) {
  auto a = std::make_shared<GenerateArgs>();
  command.add_option("dataset", a->dataset, "Data set: " + nldr::detail::joined(nldr::datasets::dataset_names()))
      ->required();
  command.add_option("--n", a->options.n, "Number of points")->capture_default_str();
  command.add_option("--noise", a->options.noise, "Standard deviation of Gaussian noise")->capture_default_str();
  command.add_option("--seed", a->options.seed, "Random seed (same seed, same data)")->capture_default_str();
  command.add_option("--out,-o", a->out.path, "Points CSV (N x D)")->required();
  command.add_option("--truth", a->truth.path, "Intrinsic coordinates CSV (N x m)");
  command.add_option("--labels", a->labels.path, "Class labels CSV (clusters-3d)");
  command.add_option("--color", a->color.path, "Generating parameter CSV (for coloring plots)");
  add_output_options(command, session);
  return [a, &session] { return generate(*a, session); };
}

}  // namespace nldr_tool
