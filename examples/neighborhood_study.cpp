// The neighborhood study (docs/neighborhood-study.md): what the seed documents' selectors are worth.
// Every figure is measured against ground truth; selectors and methods are the tool's (same names).
//
// Usage: neighborhood_study <output-dir> [--digits digits.csv] [--parts abcde]
// Writes <output-dir>/study.md (the tables) and <output-dir>/study-*.svg (the plots of part a); --parts runs
// only the parts named (e.g. --parts bd: the tables with MRRE), all five by default.
//   a. the experiment of Xia et al. 2008: residual variance against the true manifold distances, plain kNN vs
//      short-circuit pruning, K = 6..40, LLE / Isomap / Laplacian Eigenmaps;
//   b. Roy 2015's table: Spearman's rho, Konig's measure, MRRE for every selector x method x data set;
//   c. 7-NN 5-fold classification error of embeddings of the digits (a CSV with the label last);
//   d. the same as b on Swiss rolls with Gaussian noise 0, 0.5, 1;
//   e. the same for t-SNE and UMAP: does a pruned graph keep them from short-circuiting the roll?
#include <nldr/nldr.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

namespace {

using nldr::Matrix;
/// A registry entry by name with the parameters the study sets.
struct Choice {
  std::string name;
  nldr::ParameterValues values;
  /// A method's: the neighbors a pruning selector keeps at least; 0: the method's min_neighbors(d).
  nldr::index_t min_neighbors = 0;
};
using SelectorSettings = Choice;
using MethodSettings = Choice;

MethodSettings method_named(const std::string& name, nldr::index_t dim = 2) {
  return {name, {{"dim", std::to_string(dim)}}};
}

/// What an embedding is measured against: exact manifold distances where the data set has them,
/// else its intrinsic (chart) coordinates.
using Reference = std::variant<Eigen::MatrixXd, Matrix<double>>;

Reference reference_of(const nldr::datasets::Dataset<double>& data) {
  if (data.has_manifold_distances()) return data.manifold_distances();
  return data.intrinsic;
}

/// Why a run failed, once per distinct message; cells cite them as "fails [n]".
std::vector<std::string> failure_notes;

std::string cite_failure(const std::string& message) {
  std::size_t n = 0;
  while (n < failure_notes.size() && failure_notes[n] != message) ++n;
  if (n == failure_notes.size()) failure_notes.push_back(message);
  return "fails [" + std::to_string(n + 1) + "]";
}

/// An embedding, or the reason there is none (the study reports failures instead of hiding them).
struct Outcome {
  std::optional<Matrix<double>> Y;
  std::string failure;
};

Outcome embed(const Matrix<double>& X, SelectorSettings selector, const MethodSettings& method) {
  const nldr::EmbedderInfo& embedder = nldr::find_embedder(method.name);
  const nldr::SelectorInfo& chosen = nldr::find_selector(selector.name);
  const nldr::index_t dim = nldr::index_t(std::stol(method.values.at("dim")));
  if (chosen.prunes)
    selector.values["min_neighbors"] =
        std::to_string(method.min_neighbors > 0 ? method.min_neighbors : embedder.min_neighbors(dim));
  if (selector.name == "curvature") selector.values["intrinsic_dim"] = std::to_string(dim);
  try {
    const auto graph = chosen.select(X, selector.values);
    return {embedder.fit(nldr::FitInput<double>{.points = &X, .graph = &graph}, method.values).coordinates(), ""};
  } catch (const nldr::disconnected_graph&) {
    return {std::nullopt, "disconnected"};
  } catch (const nldr::error& e) {
    return {std::nullopt, cite_failure(method.name + " with " + selector.name + ": " + e.what())};
  }
}

double residual_variance(const Reference& reference, const Matrix<double>& Y) {
  return std::visit(
      [&](const auto& ref) {
        if constexpr (std::is_same_v<std::decay_t<decltype(ref)>, Eigen::MatrixXd>)
          return nldr::metrics::residual_variance(nldr::metrics::precomputed(ref), Y).value;
        else
          return nldr::metrics::residual_variance(ref, Y).value;
      },
      reference);
}

/// Spearman's rho, Konig's KM(k, 2k) and MRRE_X(k) of Y against the reference.
std::string rank_measures(const Reference& reference, const Matrix<double>& Y, nldr::index_t k) {
  return std::visit(
      [&](const auto& ref) {
        auto run = [&](const auto& R) {
          char cell[64];
          std::snprintf(cell, sizeof cell, "%.3f / %.3f / %.4f", nldr::metrics::spearman_rho(R, Y).rho,
                        nldr::metrics::konig(R, Y, k, 2 * k), nldr::metrics::mrre(R, Y, k).x);
          return std::string(cell);
        };
        if constexpr (std::is_same_v<std::decay_t<decltype(ref)>, Eigen::MatrixXd>)
          return run(nldr::metrics::precomputed(ref));
        else
          return run(ref);
      },
      reference);
}

std::string fixed(double value, int digits = 3) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(digits);
  out << value;
  return out.str();
}

/// The study's selectors on candidate lists of k: every selector of the library, with the seeds'
/// defaults. Epsilon's radius is the smallest that gives every point dim + 1 neighbors (what LLE needs):
/// the largest distance from a point to its (dim + 1)-th nearest neighbor.
std::vector<SelectorSettings> selectors_for(const Matrix<double>& X, nldr::index_t k, nldr::index_t dim) {
  const auto near = nldr::KNearest{dim + 1}(X);
  double radius = 0;
  for (nldr::index_t i = 0; i < near.size(); ++i) radius = std::max(radius, double(near.distances(i).back()));
  std::vector<SelectorSettings> list;
  for (const auto& entry : nldr::selectors()) {
    SelectorSettings s{std::string(entry.name), {{"k", std::to_string(k)}}};
    if (entry.name == "epsilon") {
      char text[32];
      std::snprintf(text, sizeof text, "%.17g", radius);  // exact: rounding down would lose neighbors
      s.values = {{"radius", text}};
    }
    list.push_back(s);
  }
  return list;
}

const std::vector<std::string> table_methods{"lle", "isomap", "ltsa", "laplacian-eigenmaps"};

/// The spectral methods of the rank tables, at d = 2.
std::vector<MethodSettings> spectral_methods() {
  std::vector<MethodSettings> methods;
  for (const auto& name : table_methods) methods.push_back(method_named(name));
  return methods;
}

void markdown_row(std::ostream& out, const std::vector<std::string>& cells) {
  out << '|';
  for (const auto& cell : cells) out << ' ' << cell << " |";
  out << '\n';
}

void markdown_header(std::ostream& out, const std::vector<std::string>& cells) {
  markdown_row(out, cells);
  out << '|';
  for (std::size_t c = 0; c < cells.size(); ++c) out << (c == 0 ? "---|" : "---:|");
  out << '\n';
}

// ---- a. the experiment of Xia et al. 2008 -------------------------------------------------------

void part_a(std::ostream& md, const std::filesystem::path& dir) {
  md << "## a. Short-circuit pruning vs plain kNN over K (the experiment of Xia et al. 2008)\n\n"
        "Residual variance 1 - r^2 between embedding distances and the exact manifold distances "
        "(0 best); `disconnected` = the graph fell apart, `fails [n]` = note n at the end.\n\n";
  const std::vector<nldr::index_t> ks{6, 8, 10, 12, 15, 20, 25, 30, 40};
  const std::vector<std::string> methods{"lle", "isomap", "laplacian-eigenmaps"};
  struct Set {
    std::string name;
    nldr::index_t n;
  };
  for (const Set& set : {Set{"s-curve", 2000}, Set{"swiss-roll", 2000}, Set{"nonuniform-swiss-roll", 450}}) {
    std::cerr << "a: " << set.name << '\n';
    const auto data = nldr::datasets::generate<double>(set.name, {.n = set.n, .seed = 1});
    const Reference reference = reference_of(data);
    md << "### " << set.name << " (N = " << set.n << ")\n\n";
    std::vector<std::string> header{"K"};
    for (const auto& m : methods)
      for (const char* s : {"kNN", "short-circuit"}) header.push_back(m + ", " + s);
    markdown_header(md, header);
    std::vector<nldr::io::LineSeries> curves;
    for (const auto& m : methods)
      for (const char* s : {"knn", "short-circuit"}) curves.push_back({.name = m + ", " + s});
    for (const nldr::index_t k : ks) {
      std::vector<std::string> row{std::to_string(k)};
      std::size_t series = 0;
      for (const auto& m : methods)
        for (const char* s : {"knn", "short-circuit"}) {
          const Outcome outcome = embed(data.points, {s, {{"k", std::to_string(k)}}}, method_named(m));
          if (outcome.Y) {
            const double rv = residual_variance(reference, *outcome.Y);
            row.push_back(fixed(rv));
            curves[series].x.push_back(double(k));
            curves[series].y.push_back(rv);
          } else {
            row.push_back(outcome.failure);
          }
          ++series;
        }
      markdown_row(md, row);
    }
    std::erase_if(curves, [](const nldr::io::LineSeries& c) { return c.x.empty(); });
    const std::string picture = "study-a-" + set.name + ".svg";
    nldr::io::write_line_plot_svg(dir / picture, curves,
                                  {.title = "Residual variance vs true manifold distances, " + set.name,
                                   .x_label = "neighbors K",
                                   .y_label = "residual variance (0 best)"});
    md << "\n![residual variance over K on the " << set.name << "](" << picture << ")\n\n";
  }
}

// ---- b. and d. Roy 2015's table ----------------------------------------------------------------

void rank_table(std::ostream& md, const nldr::datasets::Dataset<double>& data, nldr::index_t k,
                const std::vector<MethodSettings>& methods) {
  const Reference reference = reference_of(data);
  std::vector<std::string> header{"selector"};
  for (const auto& m : methods) header.push_back(m.name);
  markdown_header(md, header);
  for (const SelectorSettings& selector : selectors_for(data.points, k, 2)) {
    std::vector<std::string> row{selector.name};
    for (const auto& m : methods) {
      const Outcome outcome = embed(data.points, selector, m);
      row.push_back(outcome.Y ? rank_measures(reference, *outcome.Y, k) : outcome.failure);
    }
    markdown_row(md, row);
  }
  md << '\n';
}

void part_b(std::ostream& md) {
  const nldr::index_t k = 12;
  md << "## b. Every selector x method (Roy 2015's table)\n\n"
        "Cells: Spearman's rho (1 best) / Konig's KM(12, 24) (1 best) / MRRE_X(12) (0 best), against "
        "the exact manifold distances (Swiss roll, S-curve, Swiss hole) or the intrinsic chart "
        "coordinates (Mobius strip, twin peaks). N = 1500, candidate lists of k = 12; epsilon's radius is the "
        "smallest giving every point 3 neighbors.\n\n";
  for (const char* name : {"swiss-roll", "s-curve", "mobius", "twin-peaks", "swiss-hole"}) {
    std::cerr << "b: " << name << '\n';
    md << "### " << name << "\n\n";
    rank_table(md, nldr::datasets::generate<double>(name, {.n = 1500, .seed = 1}), k, spectral_methods());
  }
}

/// The rank tables of `methods` on 1500-point Swiss rolls with noise sigma = 0, 0.5, 1 (parts d and e).
void noise_tables(std::ostream& md, char part, const std::vector<MethodSettings>& methods) {
  for (const double noise : {0.0, 0.5, 1.0}) {
    std::cerr << part << ": noise " << noise << '\n';
    md << "### sigma = " << noise << "\n\n";
    rank_table(md, nldr::datasets::generate<double>("swiss-roll", {.n = 1500, .noise = noise, .seed = 1}), 12,
               methods);
  }
}

void part_d(std::ostream& md) {
  md << "## d. Noise\n\n"
        "As b, on 1500-point Swiss rolls with Gaussian noise of standard deviation sigma added to every "
        "coordinate, measured against the noise-free manifold distances.\n\n";
  noise_tables(md, 'd', spectral_methods());
}

void part_e(std::ostream& md) {
  md << "## e. t-SNE and UMAP on every selector's graph\n\n"
        "As d, for the neighbor-embedding methods: does a pruned graph keep them from short-circuiting the "
        "roll? Candidate lists of k = 12; t-SNE at perplexity 4 (k / 3, van der Maaten 2014's rule), its "
        "pruned graphs keeping at least 5 neighbors (t-SNE needs more than the perplexity); UMAP with "
        "n_neighbors = the graph's. Rho is global (is the roll unrolled or folded?); KM and MRRE are local.\n\n";
  noise_tables(md, 'e', {{"tsne", {{"dim", "2"}, {"perplexity", "4"}}, 5}, method_named("umap")});
}

// ---- c. digits ---------------------------------------------------------------------------------

void part_c(std::ostream& md, const std::optional<std::string>& digits_path) {
  md << "## c. Classification error on the digits\n\n";
  if (!digits_path) {
    md << "Skipped: no digits file given (`--digits`).\n\n";
    return;
  }
  std::cerr << "c: digits\n";
  const Matrix<double> table = nldr::io::read_csv<double>(*digits_path).values;
  const Matrix<double> X = table.leftCols(table.cols() - 1);
  std::vector<int> labels(std::size_t(table.rows()));
  for (Eigen::Index i = 0; i < table.rows(); ++i) labels[std::size_t(i)] = int(table(i, table.cols() - 1));
  const nldr::index_t k = 12, dim = 5;
  md << "7-NN classification error, 5-fold stratified cross-validation (Roy 2015, sec. 4.2), of " << dim
     << "-D embeddings of the " << X.rows() << " handwritten digits (" << X.cols()
     << "-D, scikit-learn's copy of the UCI set), candidate lists of k = " << k
     << ". Without reduction the error is " << fixed(nldr::metrics::knn_error(X, labels).error)
     << "; PCA to " << dim << "-D gives "
     << fixed(nldr::metrics::knn_error(nldr::Pca{{.dim = dim}}.fit(X).coordinates, labels).error) << ".\n\n";
  std::vector<std::string> header{"selector"};
  for (const auto& m : table_methods) header.push_back(m);
  markdown_header(md, header);
  for (const SelectorSettings& selector : selectors_for(X, k, dim)) {
    std::vector<std::string> row{selector.name};
    for (const auto& m : table_methods) {
      const Outcome outcome = embed(X, selector, method_named(m, dim));
      row.push_back(outcome.Y ? fixed(nldr::metrics::knn_error(*outcome.Y, labels).error) : outcome.failure);
    }
    markdown_row(md, row);
  }
  md << '\n';
}

}  // namespace

int main(int argc, char** argv) {
  const char* usage = "usage: neighborhood_study <output-dir> [--digits digits.csv] [--parts abcde]\n";
  if (argc < 2) {
    std::cerr << usage;
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::optional<std::string> digits;
  std::string parts = "abcde";
  for (int i = 2; i < argc; i += 2) {
    const std::string flag = argv[i];
    if (i + 1 >= argc || (flag != "--digits" && flag != "--parts")) {
      std::cerr << usage;
      return 2;
    }
    if (flag == "--digits")
      digits = argv[i + 1];
    else
      parts = argv[i + 1];
  }
  const auto runs = [&](char part) { return parts.find(part) != std::string::npos; };
  try {
    std::filesystem::create_directories(dir);
    std::ostringstream md;
    nldr::Stopwatch clock;
    if (runs('a')) part_a(md, dir);
    if (runs('b')) part_b(md);
    if (runs('c')) part_c(md, digits);
    if (runs('d')) part_d(md);
    if (runs('e')) part_e(md);
    md << "## Notes: why runs failed\n\n";
    for (std::size_t n = 0; n < failure_notes.size(); ++n) md << n + 1 << ". " << failure_notes[n] << "\n";
    md << "\nProduced by `neighborhood_study` (parts " << parts << ") in " << fixed(clock.seconds(), 0) << " s.\n";
    nldr::io::write_file_atomically(dir / "study.md", md.str());
  } catch (const std::exception& e) {
    std::cerr << "neighborhood_study: " << e.what() << '\n';
    return 1;
  }
}
