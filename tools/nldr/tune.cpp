// nldr tune: a sweep of k, the radius or t for one method, every criterion without ground truth
// (docs/tuning.md).
#include "cli.hpp"
#include "parameters.hpp"
#include "report.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <map>

namespace nldr_tool {
namespace {

struct TuneArgs {
  std::string in, method, criterion = "auc-rnx";
  std::string scoring = "exact";        ///< --scoring: exact or landmarks
  nldr::index_t scoring_landmarks = 0;  ///< --scoring-landmarks; 0: nldr::default_scoring_landmarks
  nldr::index_t k_min = 5, k_max = 30, k_step = 1;
  nldr::index_t pca = 0;  ///< --pca P; 0: none
  nldr::index_t curve_k = 0;  ///< --curve-k: largest K of the R_NX curve; 0: N - 2
  double radius_min = 0, radius_max = 0;
  int radius_steps = 10;
  std::string t_values;
  double t_min = 0, t_max = 0;
  int t_steps = 9;
  /// The knn selector's default k.
  nldr::index_t graph_k = nldr::KNearest{}.k;
  /// The sweep flags by name, to tell which were given.
  std::map<std::string, CLI::Option*, std::less<>> sweep_flags;
  RegistryFlags flags;
  Output json;
  PlotFlags plot;

  bool given(std::string_view flag) const { return sweep_flags.find(flag)->second->count() > 0; }
  /// The first of `flags` that was given ("" if none).
  std::string first_given(std::initializer_list<std::string_view> names) const {
    for (std::string_view name : names)
      if (given(name)) return std::string(name);
    return "";
  }
};

JsonValue dimension_json(const nldr::TuneResult& result) {
  JsonValue json = JsonValue::object();
  if (result.mle) {
    json["mle"] = result.mle->estimate;
    json["mle_points"] = result.mle->points_used;
  }
  if (result.twonn) {
    json["twonn"] = result.twonn->estimate;
    json["twonn_interval"] = JsonValue::array();
    json["twonn_interval"].push_back(result.twonn->lower);
    json["twonn_interval"].push_back(result.twonn->upper);
  }
  if (!result.dimension_failure.empty()) json["failure"] = result.dimension_failure;
  json["suggested_dim"] = result.suggested_dim;
  return json;
}

/// `steps` values from `low` to `high`, evenly spaced on a linear or a log scale (steps >= 2, low < high).
std::vector<double> spaced_values(double low, double high, int steps, bool log_scale) {
  std::vector<double> values;
  for (int i = 0; i < steps; ++i) {
    const double f = double(i) / double(steps - 1);
    values.push_back(log_scale ? low * std::pow(high / low, f) : low + (high - low) * f);
  }
  values.back() = high;  // exactly, whatever the rounding of the last step
  return values;
}

/// A comma-separated list of numbers ("inf" allowed), as given to `flag`.
std::vector<double> parse_number_list(const std::string& text, std::string_view flag) {
  std::vector<double> values;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    char* stop = nullptr;
    const double v = std::strtod(item.c_str(), &stop);
    if (item.empty() || *stop != '\0')
      nldr::throw_invalid(std::string(flag), flag, " takes numbers separated by commas (e.g. 0.5,1,2,inf): \"",
                          item, "\" is not one");
    values.push_back(v);
    start = end + 1;
  }
  return values;
}

/// A swept value for the JSON report: t may be +infinity (0/1 weights), which JSON numbers cannot hold.
JsonValue swept_json(double value) { return std::isfinite(value) ? JsonValue(value) : JsonValue("inf"); }

/// Which parameter the flags sweep, after refusing flags that belong to another sweep or a missing bound.
nldr::TuneParameter sweep_parameter(const TuneArgs& a) {
  const std::string k_flag = a.first_given({"--k-min", "--k-max", "--k-step"});
  const std::string radius_flag = a.first_given({"--radius-min", "--radius-max", "--radius-steps"});
  const std::string t_flag = a.first_given({"--t-values", "--t-min", "--t-max", "--t-steps"});
  const auto refuse_pair = [](const std::string& one, const std::string& other) {
    if (!one.empty() && !other.empty())
      nldr::throw_invalid(one, one, " and ", other, " sweep different parameters: give the flags of one sweep "
                          "(k: --k-min/--k-max/--k-step; radius: --radius-min/--radius-max/--radius-steps; "
                          "t: --t-values or --t-min/--t-max/--t-steps)");
  };
  refuse_pair(k_flag, radius_flag);
  refuse_pair(k_flag, t_flag);
  refuse_pair(radius_flag, t_flag);
  if (a.given("--k") && t_flag.empty())
    nldr::throw_invalid("--k", "--k fixes the graph of a t sweep (--t-values or --t-min/--t-max); to sweep k give "
                        "--k-min and --k-max");
  if (!radius_flag.empty()) {
    for (std::string_view bound : {"--radius-min", "--radius-max"})
      if (!a.given(bound))
        nldr::throw_invalid(std::string(bound), "the radius sweep needs --radius-min and --radius-max: give ", bound);
    return nldr::TuneParameter::radius;
  }
  if (!t_flag.empty()) {
    if (a.given("--t-values")) {
      const std::string range_flag = a.first_given({"--t-min", "--t-max", "--t-steps"});
      if (!range_flag.empty())
        nldr::throw_invalid(range_flag, range_flag, " and --t-values both give the t values: give one of them");
    } else {
      for (std::string_view bound : {"--t-min", "--t-max"})
        if (!a.given(bound))
          nldr::throw_invalid(std::string(bound), "the t sweep needs --t-min and --t-max (or --t-values): give ", bound);
    }
    return nldr::TuneParameter::t;
  }
  return nldr::TuneParameter::k;
}

/// The radius or t values the flags give (parameter radius or t).
std::vector<double> sweep_values(const TuneArgs& a, nldr::TuneParameter parameter) {
  if (parameter == nldr::TuneParameter::t && a.given("--t-values")) return parse_number_list(a.t_values, "--t-values");
  const bool radius = parameter == nldr::TuneParameter::radius;
  const double low = radius ? a.radius_min : a.t_min, high = radius ? a.radius_max : a.t_max;
  const std::string min_flag = radius ? "--radius-min" : "--t-min", max_flag = radius ? "--radius-max" : "--t-max";
  if (!(std::isfinite(low) && low > 0))
    nldr::throw_invalid(min_flag, min_flag, " = ", low, " must be finite and > 0");
  if (!(std::isfinite(high) && high > low))
    nldr::throw_invalid(max_flag, max_flag, " = ", high, " must be finite and > ", min_flag, " = ", low);
  return spaced_values(low, high, radius ? a.radius_steps : a.t_steps, !radius);
}

/// Sweeps k, the epsilon-ball radius or Laplacian Eigenmaps' t for one method (docs/tuning.md): every
/// criterion for every value, the best value by --criterion.
int tune(const TuneArgs& a, const Session& session) {
  const nldr::EmbedderInfo& method = nldr::find_embedder(a.method);
  if (!method.accepts(nldr::needs_graph))
    nldr::throw_invalid("method", method.name, " uses no neighbor graph, so it has nothing to tune: choose a graph method");
  a.flags.require_applicable({{std::string(method.name), method.parameters}}, std::string(method.name));
  const nldr::TuneParameter parameter = sweep_parameter(a);
  if (parameter == nldr::TuneParameter::t) {
    const std::string t_flag = a.given("--t-values") ? "--t-values" : "--t-min";
    if (!nldr::takes_parameter(method.parameters, "heat_t")) {
      std::string takers;
      for (const auto& entry : nldr::embedders())
        if (nldr::takes_parameter(entry.parameters, "heat_t")) takers += (takers.empty() ? "" : ", ") + std::string(entry.name);
      nldr::throw_invalid(t_flag, t_flag, " sweeps the heat-kernel width heat_t, which ", method.name,
                          " does not take: use it with ", takers);
    }
    if (a.flags.given("heat_t"))
      nldr::throw_invalid("heat_t", "--heat-t is what ", t_flag, " sweeps: drop --heat-t");
  }
  const nldr::TuneCriterion criterion = nldr::parse_criterion(a.criterion);
  a.plot.check();
  check_distinct({{"--json", a.json.path}, {"--plot", a.plot.plot.path}}, {a.in});
  for (const Output* o : {&a.json, &a.plot.plot}) check_writable(*o);
  Console console = session.console();
  nldr::Matrix<double> X = session.read_points(a.in);
  const nldr::ParameterValues values = a.flags.given(method.parameters);
  JsonValue report;
  nldr::StageTimes pca_times;
  if (a.pca > 0) {
    reduce_by_pca(session, X, a.pca, nldr::detail::requested_dim(method, values), console, pca_times, report);
  }
  // The sweep draws the progress line (one step per value); each fit only answers Ctrl-C.
  const nldr::ProgressCallback fit_cancel = console.cancel_only();
  const auto fit_with = [&](const nldr::EmbedderInfo& entry, const nldr::NeighborGraph<double>& graph,
                            const nldr::ParameterValues& given) {
    return nldr::Matrix<double>(
        entry.fit(nldr::FitInput<double>{.points = &X, .graph = &graph, .progress = &fit_cancel}, given).coordinates());
  };
  const auto fit = [&](const nldr::NeighborGraph<double>& graph, const nldr::ParameterValues& given) {
    return fit_with(method, graph, given);
  };
  const auto n = nldr::index_t(X.rows());
  if (a.curve_k > n - 2)
    nldr::throw_invalid("--curve-k", "--curve-k = ", a.curve_k, " exceeds N - 2 = ", n - 2,
                        ": give at most that, or 0 for the whole curve");
  // --scoring landmarks: a cheaper stand-in scores every value, the method itself runs once at the best.
  std::optional<nldr::LandmarkScoring> stand_in;
  if (a.scoring == "landmarks") {
    if (a.scoring_landmarks > n)
      nldr::throw_invalid("--scoring-landmarks", "--scoring-landmarks = ", a.scoring_landmarks, " exceeds N = ", n,
                          ": give at most N, or 0 for the default");
    if (a.scoring_landmarks > 0 && a.scoring_landmarks <= nldr::detail::requested_dim(method, values))
      nldr::throw_invalid("--scoring-landmarks", "--scoring-landmarks = ", a.scoring_landmarks, " must exceed --dim ",
                          nldr::detail::requested_dim(method, values), ": give more landmarks, or 0 for the default");
    try {
      stand_in = nldr::landmark_scoring(method, values,
                                        a.scoring_landmarks > 0 ? a.scoring_landmarks : nldr::default_scoring_landmarks(n));
    } catch (const nldr::invalid_argument& e) {
      nldr::throw_invalid("--scoring", "--scoring landmarks: ", e.what(), " (--scoring exact)");
    }
  } else if (a.scoring_landmarks > 0) {
    nldr::throw_invalid("--scoring-landmarks", "--scoring-landmarks applies to --scoring landmarks: add it, or drop "
                        "--scoring-landmarks");
  }
  nldr::TuneOptions options{.parameter = parameter, .criterion = criterion,
                            .criteria = {.rank_k_max = a.curve_k},
                            .progress = console.progress("tune " + std::string(method.name))};
  std::optional<nldr::TuneResult> result;
  if (parameter != nldr::TuneParameter::t) {
    if (parameter == nldr::TuneParameter::k)
      options.k_min = a.k_min, options.k_max = a.k_max, options.k_step = a.k_step;
    else
      options.values = sweep_values(a, parameter);
    const auto exact = [&](const nldr::NeighborGraph<double>& graph) { return fit(graph, values); };
    result = stand_in ? nldr::tune(X, options,
                                   [&](const nldr::NeighborGraph<double>& graph) {
                                     return fit_with(*stand_in->method, graph, stand_in->values);
                                   },
                                   exact)
                      : nldr::tune(X, options, exact);
  } else {
    options.values = sweep_values(a, parameter);
    const auto graph = nldr::KNearest{a.graph_k}(X);
    result = nldr::tune(X, graph, options, [&](const nldr::NeighborGraph<double>& g, double t) {
      nldr::ParameterValues with_t = values;
      with_t["heat_t"] = nldr::detail::concat(t);
      return fit(g, with_t);
    });
  }
  const std::string name(nldr::parameter_name(parameter));
  report["command"] = "tune";
  report["version"] = nldr::version;
  report["input"] = a.in;
  report["method"] = std::string(method.name);
  auto fixed = nldr::Arguments(method.parameters, values, method.name).values();
  if (parameter == nldr::TuneParameter::t) fixed.erase("heat_t");  // swept, not fixed
  report["parameters"] = parameters_json(fixed);
  report["criterion"] = std::string(nldr::criterion_name(result->criterion));
  report["parameter"] = name;
  if (parameter == nldr::TuneParameter::t) report["graph_k"] = a.graph_k;
  report["curve_k"] = a.curve_k > 0 ? a.curve_k : n - 2;
  report["best_value"] = swept_json(result->best_value);
  if (parameter == nldr::TuneParameter::k) report["best_k"] = result->best_k;
  const auto score_json = [&](const nldr::TuneScore& score) {
    JsonValue row = JsonValue::object();
    if (parameter == nldr::TuneParameter::k)
      row["k"] = score.k;
    else
      row[name] = swept_json(score.value);
    row["mean_degree"] = score.mean_degree;
    for (const auto c : nldr::all_tune_criteria) {
      const double v = score.values.value(c);
      row[std::string(nldr::criterion_name(c))] = std::isfinite(v) ? JsonValue(v) : JsonValue(nullptr);
    }
    if (!score.failure.empty()) row["failure"] = score.failure;
    return row;
  };
  JsonValue scoring = JsonValue::object();
  scoring["by"] = a.scoring;
  if (stand_in) {
    scoring["method"] = std::string(stand_in->method->name);
    scoring["landmarks"] = std::stoi(stand_in->values.at("landmarks"));
  }
  report["scoring"] = std::move(scoring);
  if (result->exact_at_best) report["exact_at_best"] = score_json(*result->exact_at_best);
  JsonValue scores = JsonValue::array();
  nldr::io::LineSeries curve{.name = std::string(nldr::criterion_name(criterion))};
  for (const auto& score : result->scores) {
    scores.push_back(score_json(score));
    const double v = score.values.value(criterion);
    if (std::isfinite(v) && std::isfinite(score.value)) curve.x.push_back(score.value), curve.y.push_back(v);
  }
  report["scores"] = std::move(scores);
  report["dimension"] = dimension_json(*result);
  const std::string scored_by = stand_in ? " (scored by " + std::string(stand_in->method->name) + ", m = " +
                                               stand_in->values.at("landmarks") + ")"
                                         : "";
  if (a.plot.plot.requested()) {
    nldr::io::LinePlotOptions plot_options;
    plot_options.log_x = parameter == nldr::TuneParameter::t;
    const std::string axis = parameter == nldr::TuneParameter::k        ? "neighbors k"
                             : parameter == nldr::TuneParameter::radius ? "radius"
                                                                        : "heat-kernel width t";
    a.plot.apply(plot_options,
                 std::string(method.name) + " on " + std::filesystem::path(a.in).filename().string() + ": " + curve.name + " over " +
                     name + scored_by,
                 axis, curve.name);
    nldr::io::write_line_plot(a.plot.plot.path, {curve}, plot_options);
  }
  console.print(result->times);
  for (const auto& [stage, seconds] : result->times.stages) pca_times.add(stage, seconds);
  add_resources(report, pca_times);  // --pca's stage first, then the sweep's
  if (a.json.requested())
    emit_json(a.json, report);
  else
    std::printf("best %s = %g by %s%s\n", name.c_str(), result->best_value, curve.name.c_str(), scored_by.c_str());
  return ok;
}

}  // namespace

std::function<int()> add_tune(CLI::App& command, Session& session) {
  auto a = std::make_shared<TuneArgs>();
  command.add_option("--in,-i", a->in, "Points CSV (N x D)")->required();
  command.add_option("--method,-m", a->method, "Method: " + method_names())->required();
  const auto sweep_flag = [&](std::string name, CLI::Option* option) { a->sweep_flags[std::move(name)] = option; };
  sweep_flag("--k-min", command.add_option("--k-min", a->k_min, "k sweep: smallest k")->capture_default_str()
                            ->check(CLI::Range(1, 1 << 30)));
  sweep_flag("--k-max", command.add_option("--k-max", a->k_max, "k sweep: largest k")->capture_default_str()
                            ->check(CLI::Range(1, 1 << 30)));
  sweep_flag("--k-step", command.add_option("--k-step", a->k_step, "k sweep: step of k")->capture_default_str()
                             ->check(CLI::Range(1, 1 << 30)));
  sweep_flag("--radius-min", command.add_option("--radius-min", a->radius_min,
                                                  "Radius sweep (epsilon-ball graphs): smallest radius"));
  sweep_flag("--radius-max", command.add_option("--radius-max", a->radius_max, "Radius sweep: largest radius"));
  sweep_flag("--radius-steps", command.add_option("--radius-steps", a->radius_steps,
                                                    "Radius sweep: radii, evenly spaced from min to max")
                                   ->capture_default_str()->check(CLI::Range(2, 1 << 20)));
  sweep_flag("--t-values", command.add_option("--t-values", a->t_values,
                                                "t sweep (heat-kernel width, e.g. laplacian-eigenmaps): the t values, "
                                                "comma-separated, increasing (inf: 0/1 weights)"));
  sweep_flag("--t-min", command.add_option("--t-min", a->t_min, "t sweep: smallest t"));
  sweep_flag("--t-max", command.add_option("--t-max", a->t_max, "t sweep: largest t"));
  sweep_flag("--t-steps", command.add_option("--t-steps", a->t_steps, "t sweep: values, evenly spaced on a log scale")
                              ->capture_default_str()->check(CLI::Range(2, 1 << 20)));
  sweep_flag("--k", command.add_option("--k", a->graph_k, "t sweep: k of the fixed kNN graph")
                        ->capture_default_str()->check(CLI::Range(1, 1 << 30)));
  command.add_option("--criterion", a->criterion, "What picks the best value: auc-rnx, lcmc, geodesic-rv, euclidean-rv")
      ->capture_default_str();
  command.add_option("--curve-k", a->curve_k,
                       "Largest K of the R_NX curve behind auc-rnx and lcmc; 0 = N - 2, the whole curve, O(N^2 log N) "
                       "per value. Below N/8, two neighbor searches per value suffice: e.g. 100 for N >= 10^4")
      ->capture_default_str()->check(CLI::Range(0, 1 << 30));
  std::string approximations;
  for (const auto& entry : nldr::embedders())
    if (!entry.landmark_approximation.empty())
      approximations += (approximations.empty() ? "" : ", ") + std::string(entry.name) + ": " +
                        std::string(entry.landmark_approximation);
  command.add_option("--scoring", a->scoring,
                       "exact: fit the method at every value; landmarks: score every value with the method's "
                       "landmark approximation (" + approximations + ") and fit the method once, at the best")
      ->capture_default_str()->check(CLI::IsMember({"exact", "landmarks"}));
  command.add_option("--scoring-landmarks", a->scoring_landmarks,
                       "Landmarks of --scoring landmarks; 0 = the default (docs/tuning.md, \"Scoring through landmarks\")")
      ->capture_default_str()->check(CLI::Range(0, 1 << 30));
  a->flags.add_to(command, true, false);
  add_pca_option(command, a->pca);
  a->plot.add_to(command, false, "The criterion over the swept parameter");
  add_json_option(command, a->json);
  add_input_options(command, session);
  add_threads_option(command, session);

  return [a, &session] { return tune(*a, session); };
}

}  // namespace nldr_tool
