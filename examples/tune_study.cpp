// The tuning study (docs/tuning.md, "Study"): does a criterion without ground truth pick a good k?
//
// Usage: tune_study <output-dir> [--n N] [--k-min A] [--k-max B] [--k-step S] [--curve-k K] [--methods M,M,...]
// A method is a registry name with optional parameters, e.g. landmark-isomap:landmarks=100 (default: isomap,lle);
// --curve-k bounds the R_NX curve behind auc-rnx and lcmc (default 0: the whole curve).
// For every method (Isomap, LLE) x data set with ground truth (Swiss roll, S-curve, Swiss hole,
// non-uniform roll, twin peaks; the Swiss roll also with Gaussian noise 0.5 and 1), nldr::tune sweeps k and
// every criterion of nldr/tune/criteria.hpp picks its k; the residual variance against the truth (exact
// manifold distances, or the intrinsic chart coordinates of twin peaks) at that k is compared with the best
// over the sweep. Writes <output-dir>/tune-study.md (the tables) and tune-study-curves.csv (every value
// of every k), and reproduces two claims of the literature on the way:
//   - Kouropteva et al. 2002 (the rule the Nottingham report applies: k_opt = 14 on its Swiss roll) picks k
//     by the residual variance against input Euclidean distances (criterion euclidean-rv);
//   - Xia, Li, Zhang & Tang 2008 show that this rule fails on the S-curve and the Swiss roll.
#include <nldr/nldr.hpp>
#include <nldr/tune/sweep.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

namespace {

using nldr::Matrix;

/// What an embedding is measured against: exact manifold distances where the set has them, else its
/// intrinsic chart coordinates.
using Reference = std::variant<Matrix<double>, Eigen::MatrixXd>;

double truth_residual_variance(const Reference& reference, const Matrix<double>& Y) {
  if (const auto* distances = std::get_if<Eigen::MatrixXd>(&reference))
    return nldr::metrics::residual_variance(nldr::metrics::precomputed(*distances), Y).value;
  return nldr::metrics::residual_variance(std::get<Matrix<double>>(reference), Y).value;
}

struct Method {
  std::string name;
  std::function<Matrix<double>(const Matrix<double>&, const nldr::NeighborGraph<double>&)> embed;
};

struct Cell {
  std::string data, method;
  nldr::TuneResult result;
  std::map<nldr::index_t, double> truth;  // residual variance against the truth, per k
};

std::string fixed(double value, int digits = 3) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(digits);
  out << value;
  return out.str();
}

/// The best (smallest) truth residual variance over the sweep and its k.
std::pair<nldr::index_t, double> best_truth(const Cell& cell) {
  std::pair<nldr::index_t, double> best{0, INFINITY};
  for (const auto& [k, rv] : cell.truth)
    if (rv < best.second) best = {k, rv};
  return best;
}

/// The k `criterion` picks on this cell (as nldr::tune would with that criterion).
nldr::index_t pick(const Cell& cell, nldr::TuneCriterion criterion) {
  const nldr::TuneScore* chosen = nullptr;
  for (const auto& score : cell.result.scores) {
    if (!score.failure.empty()) continue;
    const double v = score.values.value(criterion);
    if (!chosen || (nldr::higher_is_better(criterion) ? v > chosen->values.value(criterion)
                                                      : v < chosen->values.value(criterion)))
      chosen = &score;
  }
  return chosen ? chosen->k : 0;
}

/// Within 5% of the best truth residual variance (relative), or within 0.005 (absolute, for values near 0).
bool near_best(double rv, double best) { return rv <= 1.05 * best || rv <= best + 0.005; }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: tune_study <output-dir> [--n N] [--k-min A] [--k-max B] [--k-step S] [--curve-k K] "
                 "[--methods M,M,...]\n";
    return 2;
  }
  const std::filesystem::path out_dir = argv[1];
  nldr::index_t n = 1000, k_min = 4, k_max = 28, k_step = 2, curve_k = 0;
  std::string method_list = "isomap,lle";
  for (int a = 2; a + 1 < argc; a += 2) {
    const std::string flag = argv[a];
    const auto value = nldr::index_t(std::atoi(argv[a + 1]));
    if (flag == "--methods") method_list = argv[a + 1];
    else if (flag == "--n") n = value;
    else if (flag == "--k-min") k_min = value;
    else if (flag == "--k-max") k_max = value;
    else if (flag == "--k-step") k_step = value;
    else if (flag == "--curve-k") curve_k = value;
    else {
      std::cerr << "unknown option " << flag << "\n";
      return 2;
    }
  }
  std::filesystem::create_directories(out_dir);

  // The methods of the study, from the registry: "name[:parameter=value:...]" each.
  std::vector<Method> methods;
  std::istringstream list(method_list);
  for (std::string spec; std::getline(list, spec, ',');) {
    std::istringstream fields(spec);
    std::string name, field;
    std::getline(fields, name, ':');
    nldr::ParameterValues parameters{{"dim", "2"}};
    while (std::getline(fields, field, ':')) {
      const auto equals = field.find('=');
      if (equals == std::string::npos) {
        std::cerr << "method parameter " << field << " is not name=value\n";
        return 2;
      }
      parameters[field.substr(0, equals)] = field.substr(equals + 1);
    }
    const nldr::EmbedderInfo& entry = nldr::find_embedder(name);
    methods.push_back({spec, [&entry, parameters](const Matrix<double>& X, const nldr::NeighborGraph<double>& g) {
                         return Matrix<double>(
                             entry.fit(nldr::FitInput<double>{.points = &X, .graph = &g}, parameters).coordinates());
                       }});
  }
  struct DataSpec {
    std::string name;
    double noise;
  };
  const std::vector<DataSpec> data_sets{{"swiss-roll", 0},    {"s-curve", 0},        {"swiss-hole", 0},
                                        {"nonuniform-swiss-roll", 0}, {"twin-peaks", 0}, {"swiss-roll", 0.5},
                                        {"swiss-roll", 1.0}};
  std::vector<Cell> cells;
  std::ofstream curves(out_dir / "tune-study-curves.csv");
  curves << "data,noise,method,k,auc_rnx,lcmc,geodesic_rv,euclidean_rv,truth_rv,failure\n";
  for (const auto& spec : data_sets) {
    const auto data = nldr::datasets::generate<double>(spec.name, {.n = n, .noise = spec.noise, .seed = 1});
    const Reference reference = data.has_manifold_distances() ? Reference(data.manifold_distances().cast<double>().eval())
                                                              : Reference(data.intrinsic);
    for (const auto& method : methods) {
      Cell cell{spec.noise > 0 ? spec.name + " (noise " + fixed(spec.noise, 1) + ")" : spec.name, method.name, {}, {}};
      nldr::Stopwatch watch;
      cell.result = nldr::tune(data.points,
                               {.k_min = k_min, .k_max = k_max, .k_step = k_step,
                                .criteria = {.rank_k_max = curve_k, .seed = 1}},
                               [&](const nldr::NeighborGraph<double>& graph) {
                                 Matrix<double> Y = method.embed(data.points, graph);
                                 cell.truth[graph.degree(0)] = truth_residual_variance(reference, Y);
                                 return Y;
                               });
      for (const auto& score : cell.result.scores) {
        const auto truth = cell.truth.find(score.k);
        curves << spec.name << ',' << spec.noise << ',' << method.name << ',' << score.k << ',' << score.values.auc_rnx
               << ',' << score.values.lcmc << ',' << score.values.geodesic_rv << ',' << score.values.euclidean_rv << ','
               << (truth == cell.truth.end() ? NAN : truth->second) << ",\"" << score.failure << "\"\n";
      }
      std::cerr << cell.data << " / " << method.name << ": " << fixed(watch.seconds(), 1) << " s\n";
      cells.push_back(std::move(cell));
    }
  }

  std::ofstream md(out_dir / "tune-study.md");
  md << "N = " << n << ", k = " << k_min << ".." << k_max << " in steps of " << k_step << ", dim = 2, seed 1. Cells: the k each criterion picks and "
     << "the residual variance against the truth there; **bold** when within 5% (or 0.005) of the best over the sweep.\n\n";
  md << "| data | method | best k (truth RV) |";
  for (auto c : nldr::all_tune_criteria) md << ' ' << nldr::criterion_name(c) << " |";
  md << "\n|---|---|---:|";
  for (std::size_t c = 0; c < nldr::all_tune_criteria.size(); ++c) md << "---:|";
  md << '\n';
  std::map<nldr::TuneCriterion, int> wins;
  int won_by_some = 0;
  for (const auto& cell : cells) {
    const auto [k_best, rv_best] = best_truth(cell);
    md << "| " << cell.data << " | " << cell.method << " | " << k_best << " (" << fixed(rv_best) << ") |";
    bool some = false;
    for (auto c : nldr::all_tune_criteria) {
      const nldr::index_t k = pick(cell, c);
      const double rv = cell.truth.at(k);
      const bool good = near_best(rv, rv_best);
      wins[c] += good;
      some = some || good;
      md << ' ' << (good ? "**" : "") << k << " (" << fixed(rv) << ")" << (good ? "**" : "") << " |";
    }
    won_by_some += some;
    md << '\n';
  }
  md << "\nCells where the criterion's pick is within 5% of the best (of " << cells.size() << "):";
  for (auto c : nldr::all_tune_criteria) md << ' ' << nldr::criterion_name(c) << ' ' << wins[c] << ';';
  md << " at least one criterion: " << won_by_some << ".\n";

  // The suggested dimension of every data set (the same for both methods).
  md << "\n| data | MLE (k = 10..20) | TwoNN [95% interval] | suggested d |\n|---|---:|---:|---:|\n";
  for (std::size_t c = 0; c < cells.size(); c += methods.size()) {
    const auto& r = cells[c].result;
    md << "| " << cells[c].data << " | " << (r.mle ? fixed(r.mle->estimate, 2) : "-") << " | "
       << (r.twonn ? fixed(r.twonn->estimate, 2) + " [" + fixed(r.twonn->lower, 2) + ", " + fixed(r.twonn->upper, 2) + "]"
                   : "-")
       << " | " << r.suggested_dim << " |\n";
  }
  std::cout << "wrote " << (out_dir / "tune-study.md").string() << "\n";
  return 0;
}
