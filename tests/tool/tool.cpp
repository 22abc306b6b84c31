// The nldr tool's contract (docs/tool.md): outputs, exit codes, one-line errors, no partial files.
// References are independent of the tool: brute-force distances from the CSV it wrote, file sizes.
#include "catch.hpp"
#include "io/scratch_dir.hpp"

#include <nldr/core/random.hpp>
#include <nldr/io/csv.hpp>
#include <nldr/io/plot.hpp>
#include <nldr/metrics/coranking.hpp>
#include <nldr/metrics/residual_variance.hpp>
#include <nldr/neighbors/epsilon_ball.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/neighbors/shortest_paths.hpp>
#include <nldr/registry/embedders.hpp>
#include <nldr/registry/selectors.hpp>
#include <nldr/tune/criteria.hpp>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Run {
  int exit_code = -1;
  std::string err, out;
};

/// A scratch directory removed at the end of the test.
struct Scratch {
  fs::path dir;
  Scratch() {
    dir = fs::temp_directory_path() / ("nldr_tool_test_" + std::to_string(::getpid()) + "_" +
                                       std::to_string(counter()++));
    fs::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string operator/(const std::string& name) const { return (dir / name).string(); }
  static int& counter() {
    static int value = 0;
    return value;
  }
  /// Names of the files in the directory (temporary files left behind would show here).
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
};

std::string slurp(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Runs `nldr <arguments>` through the shell, capturing stdout, stderr and the exit code.
Run nldr_run(const Scratch& scratch, const std::string& arguments) {
  const std::string out = scratch / ".stdout", err = scratch / ".stderr";
  const std::string command = std::string("'") + NLDR_TOOL_PATH + "' " + arguments + " >'" + out + "' 2>'" + err + "'";
  const int status = std::system(command.c_str());
  Run run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = slurp(out);
  run.err = slurp(err);
  fs::remove(out);
  fs::remove(err);
  return run;
}

/// An error run: the code, exactly one stderr line, starting "nldr".
void require_error(const Run& run, int code, const std::string& needle) {
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == code);
  REQUIRE(std::count(run.err.begin(), run.err.end(), '\n') == 1);
  REQUIRE(run.err.rfind("nldr", 0) == 0);
  REQUIRE_THAT(run.err, ContainsSubstring(needle));
  CHECK(run.err.find("::") == std::string::npos);  // the tool's words (flags), not the library's type names
}

nldr::Matrix<double> read(const std::string& path) { return nldr::io::read_csv<double>(path).values; }

}  // namespace

TEST_CASE("generate writes the points and the ground truth, reproducibly", "[tool]") {
  Scratch s;
  const auto first = nldr_run(s, "generate swiss-roll --n 300 --seed 7 --out " + s / "a.csv" + " --truth " + s / "t.csv");
  REQUIRE(first.exit_code == 0);
  const auto X = read(s / "a.csv");
  const auto T = read(s / "t.csv");
  REQUIRE(X.rows() == 300);
  REQUIRE(X.cols() == 3);
  REQUIRE(T.rows() == 300);
  REQUIRE(T.cols() == 2);
  REQUIRE(nldr_run(s, "generate swiss-roll --n 300 --seed 7 --out " + s / "b.csv").exit_code == 0);
  REQUIRE(slurp(s / "a.csv") == slurp(s / "b.csv"));
  REQUIRE(nldr_run(s, "generate swiss-roll --n 300 --seed 8 --out " + s / "c.csv").exit_code == 0);
  REQUIRE(slurp(s / "a.csv") != slurp(s / "c.csv"));

  REQUIRE(nldr_run(s, "generate clusters-3d --n 300 --out " + s / "k.csv" + " --labels " + s / "l.csv").exit_code == 0);
  const auto labels = read(s / "l.csv");
  REQUIRE(labels.rows() == 300);
  REQUIRE(labels.minCoeff() == 0);  // bridge points
  REQUIRE(labels.maxCoeff() == 3);  // three clusters, labels 1..3
}

TEST_CASE("neighbors writes every point's k nearest as i,j,distance lines", "[tool]") {
  Scratch s;
  REQUIRE(nldr_run(s, "generate s-curve --n 200 --seed 3 --out " + s / "x.csv").exit_code == 0);
  const auto run = nldr_run(s, "neighbors --in " + s / "x.csv" + " --k 6 --out " + s / "e.csv" + " --json");
  REQUIRE(run.exit_code == 0);
  REQUIRE_THAT(run.out, ContainsSubstring("\"peak_memory_bytes\""));
  REQUIRE_THAT(run.out, ContainsSubstring("\"neighbors\""));
  const auto X = read(s / "x.csv");
  const auto edges = read(s / "e.csv");
  REQUIRE(edges.rows() == 200 * 6);
  REQUIRE(edges.cols() == 3);
  for (Eigen::Index row = 0; row < edges.rows(); ++row) {
    const auto i = Eigen::Index(edges(row, 0)), j = Eigen::Index(edges(row, 1));
    REQUIRE(edges(row, 2) == Approx((X.row(i) - X.row(j)).norm()).epsilon(1e-12));
    // Brute force: fewer than 6 other points are strictly closer to i than j.
    int closer = 0;
    for (Eigen::Index m = 0; m < X.rows(); ++m)
      closer += m != i && (X.row(i) - X.row(m)).norm() < edges(row, 2) * (1 - 1e-12);
    REQUIRE(closer < 6);
  }
}

TEST_CASE("neighbors: the pruning selectors and their options", "[tool]") {
  Scratch s;
  REQUIRE(nldr_run(s, "generate swiss-roll --n 400 --seed 6 --out " + s / "x.csv").exit_code == 0);
  const std::string in = " --in " + s / "x.csv";
  const auto edges = [&](const std::string& options) {
    const auto run = nldr_run(s, "neighbors" + in + " --out " + s / "e.csv " + options);
    INFO(options << ": " << run.err);
    REQUIRE(run.exit_code == 0);
    return read(s / "e.csv").rows();
  };
  const auto knn = edges("--k 20");
  // A stricter rule prunes more: the shared-neighbor ratio and the Gaussian z are honoured.
  REQUIRE(edges("--selector shared --k 20 --ratio 0.7") < edges("--selector shared --k 20 --ratio 0.2"));
  REQUIRE(edges("--selector gaussian --k 20 --z 0") < edges("--selector gaussian --k 20 --z 2"));
  REQUIRE(edges("--selector curvature --k 20 --tolerance 0.1") <= 2 * knn);
  REQUIRE(edges("--selector gaussian --k 20 --most-probable") > 0);
  // Short-circuit pruning: both box indexes count the same points, so they keep the same edges.
  REQUIRE(nldr_run(s, "neighbors" + in + " --out " + s / "kd.csv --selector short-circuit --k 30 --index kdtree")
              .exit_code == 0);
#if defined(NLDR_HAVE_BOOST)
  REQUIRE(nldr_run(s, "neighbors" + in + " --out " + s / "rs.csv --selector short-circuit --k 30 --index rstar")
              .exit_code == 0);
  REQUIRE(slurp(s / "kd.csv") == slurp(s / "rs.csv"));
#endif
  require_error(nldr_run(s, "neighbors" + in + " --out " + s / "e2.csv --selector short-circuit --index quadtree"), 2,
                "not one of kdtree, rstar");
}

TEST_CASE("embed, then evaluate: isomap unrolls the Swiss roll", "[tool]") {
  Scratch s;
  REQUIRE(nldr_run(s, "generate swiss-roll --n 400 --seed 2 --out " + s / "x.csv" + " --truth " + s / "t.csv")
              .exit_code == 0);
  const auto embed = nldr_run(s, "embed --in " + s / "x.csv" + " --out " + s / "y.csv" +
                                     " --method isomap --k 10 --json " + s / "r.json");
  REQUIRE(embed.exit_code == 0);
  const auto Y = read(s / "y.csv");
  REQUIRE(Y.rows() == 400);
  REQUIRE(Y.cols() == 2);
  const std::string report = slurp(s / "r.json");
  for (const char* key : {"\"times\"", "\"neighbors\"", "\"eigensolve\"", "\"peak_memory_bytes\"", "\"graph\""})
    REQUIRE_THAT(report, ContainsSubstring(key));

  const auto evaluate = nldr_run(s, "evaluate --in " + s / "x.csv" + " --embedding " + s / "y.csv" + " --k 10 --truth " +
                                        s / "t.csv" + " --json");
  REQUIRE(evaluate.exit_code == 0);
  for (const char* key : {"\"trustworthiness\"", "\"continuity\"", "\"r_nx\"", "\"residual_variance_truth\"",
                          "\"konig\"", "\"mrre_x\"", "\"spearman_rho\"", "\"peak_memory_bytes\""})
    REQUIRE_THAT(evaluate.out, ContainsSubstring(key));
}

TEST_CASE("verbose: every command prints each stage as it ends with -v, and nothing without", "[tool]") {
  Scratch s;
  REQUIRE(nldr_run(s, "generate swiss-roll --n 300 --seed 4 --out " + s / "x.csv").exit_code == 0);
  REQUIRE(nldr_run(s, "embed -i " + s / "x.csv" + " -o " + s / "y.csv" + " -m ltsa -k 10 --save-model " +
                          s / "m.nldr").exit_code == 0);
  const std::vector<std::pair<std::string, std::vector<std::string>>> commands{
      {"neighbors --in " + s / "x.csv" + " --selector shared --k 10 --out " + s / "g.csv", {"read", "neighbors", "write"}},
      {"embed -i " + s / "x.csv" + " -o " + s / "y2.csv" + " -m ltsa -k 10", {"read", "neighbors", "eigensolve", "write"}},
      {"transform --model " + s / "m.nldr" + " --in " + s / "x.csv" + " --out " + s / "z.csv",
       {"load model", "read", "transform", "write"}},
      {"evaluate --in " + s / "x.csv" + " --embedding " + s / "y.csv" + " --k 10", {"read"}},
      {"intrinsic-dim --in " + s / "x.csv", {"mle", "twonn"}},
      {"tune --in " + s / "x.csv" + " --method isomap --k-min 8 --k-max 9", {"knn", "embed", "criteria"}}};
  for (const auto& [command, stages] : commands) {
    INFO(command);
    const auto quiet = nldr_run(s, command);
    REQUIRE(quiet.exit_code == 0);
    CHECK(quiet.err.find(" s\n") == std::string::npos);
    const auto verbose = nldr_run(s, command + " -v");
    REQUIRE(verbose.exit_code == 0);
    for (const auto& stage : stages) CHECK_THAT(verbose.err, ContainsSubstring("nldr: " + stage + " "));
  }
}

TEST_CASE("evaluate compares several embeddings on one R_NX plot", "[tool]") {
  Scratch s;
  REQUIRE(nldr_run(s, "generate s-curve --n 300 --seed 5 --out " + s / "x.csv").exit_code == 0);
  REQUIRE(nldr_run(s, "embed --in " + s / "x.csv" + " --out " + s / "ltsa.csv" + " --method ltsa --k 10").exit_code == 0);
  REQUIRE(nldr_run(s, "embed --in " + s / "x.csv" + " --out " + s / "pca.csv" + " --method pca").exit_code == 0);
  const auto run = nldr_run(s, "evaluate --in " + s / "x.csv" + " --embedding " + s / "ltsa.csv" + " " + s / "pca.csv" +
                                   " --k 8 --konig-k1 5 --konig-k2 9 --plot " + s / "rnx.svg" + " --json");
  REQUIRE(run.exit_code == 0);
  REQUIRE_THAT(run.out, ContainsSubstring("\"embeddings\""));
  REQUIRE_THAT(run.out, ContainsSubstring("\"konig_k1\": 5"));
  REQUIRE_THAT(run.out, ContainsSubstring("\"konig_k2\": 9"));
  const std::string svg = slurp(s / "rnx.svg");
  REQUIRE_THAT(svg, ContainsSubstring("ltsa.csv"));
  REQUIRE_THAT(svg, ContainsSubstring("pca.csv"));
}

TEST_CASE("embed --factorization: the simplicial, supernodal and lu factorizations give one embedding", "[tool]") {
  Scratch s;
  REQUIRE(nldr_run(s, "generate swiss-roll --n 400 --seed 6 --out " + s / "x.csv").exit_code == 0);
  const std::string embed = "embed --in " + s / "x.csv" + " --k 10 --factorization ";
  REQUIRE(nldr_run(s, embed + "simplicial --method lle --out " + s / "y1.csv --json " + s / "r1.json").exit_code == 0);
  REQUIRE_THAT(slurp(s / "r1.json"), ContainsSubstring("spectra-shift-invert-ldlt"));
  const auto supernodal = nldr_run(s, embed + "supernodal --method lle --out " + s / "y2.csv --json " + s / "r2.json");
  if (supernodal.exit_code == 2) {  // a tool built without SuiteSparse says how to get it
    require_error(supernodal, 2, "nldr::suitesparse");
    require_error(nldr_run(s, embed + "lu --method lle --out " + s / "y3.csv"), 2, "nldr::suitesparse");
    return;
  }
  REQUIRE(supernodal.exit_code == 0);
  REQUIRE_THAT(slurp(s / "r2.json"), ContainsSubstring("cholmod-supernodal"));
  REQUIRE(nldr_run(s, embed + "lu --method lle --out " + s / "y3.csv --json " + s / "r3.json").exit_code == 0);
  REQUIRE_THAT(slurp(s / "r3.json"), ContainsSubstring("umfpack-lu"));
  // All solve the same eigenproblem to Spectra's 1e-10 tolerance; the gaps between LLE's bottom
  // eigenvalues here keep the unit-norm eigenvectors within ~1e-8 of each other, up to sign.
  const auto Y1 = read(s / "y1.csv");
  for (const char* other : {"y2.csv", "y3.csv"}) {
    const auto Y2 = read(s / other);
    REQUIRE(Y1.rows() == Y2.rows());
    REQUIRE(Y1.cols() == Y2.cols());
    for (Eigen::Index c = 0; c < Y1.cols(); ++c)
      CHECK(std::min((Y1.col(c) - Y2.col(c)).cwiseAbs().maxCoeff(), (Y1.col(c) + Y2.col(c)).cwiseAbs().maxCoeff()) < 1e-6);
  }
  // The LU factorizes LLE's I - W; no other method has one.
  require_error(nldr_run(s, embed + "lu --method ltsa --out " + s / "y4.csv"), 2, "standard LLE only");
  CHECK_FALSE(std::filesystem::exists(s / "y4.csv"));
}

TEST_CASE("embed --report-gap adds the relative eigengap to the report", "[tool]") {
  Scratch s;
  REQUIRE(nldr_run(s, "generate swiss-roll --n 300 --seed 2 --out " + s / "x.csv").exit_code == 0);
  const std::string embed = "embed --in " + s / "x.csv" + " --method ltsa --k 10 --out " + s / "y.csv --json ";
  REQUIRE(nldr_run(s, embed + s / "plain.json").exit_code == 0);
  CHECK_THAT(slurp(s / "plain.json"), !ContainsSubstring("relative_gap"));
  REQUIRE(nldr_run(s, embed + s / "gap.json --report-gap").exit_code == 0);
  CHECK_THAT(slurp(s / "gap.json"), ContainsSubstring("\"diagnostics.relative_gap\": 0."));
}

TEST_CASE("results do not depend on the thread count", "[tool]") {
  Scratch s;
  REQUIRE(nldr_run(s, "generate swiss-roll --n 300 --seed 4 --out " + s / "x.csv").exit_code == 0);
  for (const char* method : {"lle", "isomap"}) {
    REQUIRE(nldr_run(s, "embed --in " + s / "x.csv" + " --out " + s / "y1.csv" + " --method " + method +
                            " --k 10 --threads 1").exit_code == 0);
    REQUIRE(nldr_run(s, "embed --in " + s / "x.csv" + " --out " + s / "y2.csv" + " --method " + method +
                            " --k 10 --threads 2").exit_code == 0);
    REQUIRE(slurp(s / "y1.csv") == slurp(s / "y2.csv"));
  }
}

TEST_CASE("errors: exit code, one line naming the problem, no output left behind", "[tool]") {
  Scratch s;
  REQUIRE(nldr_run(s, "generate swiss-roll --n 50 --out " + s / "x.csv").exit_code == 0);
  const std::string in = " --in " + s / "x.csv";
  const std::string out = " --out " + s / "y.csv";

  SECTION("usage errors exit 2") {
    require_error(nldr_run(s, "generate no-such-set --out " + s / "z.csv"), 2, "swiss-roll");
    require_error(nldr_run(s, "embed" + in + out + " --method sne"), 2, "unknown method \"sne\"");
    require_error(nldr_run(s, "embed" + in + out + " --method lle --selector magic"), 2, "unknown selector");
    require_error(nldr_run(s, "embed" + in + out + " --method lle --factorization magic"), 2, "is not one of automatic, simplicial, supernodal, lu");
    require_error(nldr_run(s, "neighbors" + in + out + " --k 50"), 2, "k");
    require_error(nldr_run(s, "neighbors" + in + out + " --selector epsilon"), 2, "--radius");
    require_error(nldr_run(s, "embed" + in + out), 2, "--method");
    require_error(nldr_run(s, "frobnicate"), 2, "frobnicate");
  }
  SECTION("input and output failures exit 3") {
    require_error(nldr_run(s, "embed --in " + s / "missing.csv" + out + " --method pca"), 3, "missing.csv");
    std::ofstream(s / "ragged.csv") << "1,2,3\n4,5\n";
    require_error(nldr_run(s, "embed --in " + s / "ragged.csv" + out + " --method pca"), 3, "line 2");
    std::ofstream(s / "nan.csv") << "1,2,3\n4,nan,6\n7,8,9\n";
    require_error(nldr_run(s, "embed --in " + s / "nan.csv" + out + " --method pca"), 3, "nan.csv:2:3");
    require_error(nldr_run(s, "embed" + in + " --out " + s / "no/such/dir/y.csv" + " --method pca"), 3, "does not exist");
    // The JSON path is checked before any work: the embedding is not written either.
    require_error(nldr_run(s, "embed" + in + out + " --method pca --json " + s / "no/r.json"), 3, "does not exist");
  }
  SECTION("data the method cannot handle exit 4") {
    // Two groups of 20 points, 1000 apart: no 5-NN edge joins them.
    std::ofstream two(s / "c.csv");
    for (int i = 0; i < 40; ++i) two << (i < 20 ? 0 : 1000) + i % 20 << ',' << (i * 7) % 20 << ',' << (i * 3) % 5 << '\n';
    two.close();
    for (const char* method : {"isomap", "lle", "laplacian-eigenmaps"}) {
      const auto run = nldr_run(s, "embed --in " + s / "c.csv" + out + " --method " + method + " --k 5 --disconnected error");
      require_error(run, 4, "2 connected components (sizes 20, 20)");
      // The advice names the tool's flags: joining, or the smallest k that connects (none does up to 64).
      REQUIRE_THAT(run.err, ContainsSubstring("--disconnected join"));
    }
  }
  SECTION("evaluate rejects mismatched files") {
    REQUIRE(nldr_run(s, "generate swiss-roll --n 60 --out " + s / "other.csv").exit_code == 0);
    require_error(nldr_run(s, "evaluate" + in + " --embedding " + s / "other.csv" + " --k 5"), 2, "rows");
  }
  // Only the inputs written above remain: no y.csv, no JSON, no temporary files.
  for (const auto& name : s.files()) {
    INFO("left behind: " << name);
    REQUIRE((name == "x.csv" || name == "c.csv" || name == "other.csv" || name == "ragged.csv" || name == "nan.csv"));
  }
}

TEST_CASE("embed --plot: labels, title and size flags; the format follows the extension", "[tool][plot]") {
  Scratch s;
  REQUIRE(nldr_run(s, "generate swiss-roll --n 300 --seed 3 --out " + s / "x.csv" + " --color " + s / "t.csv").exit_code == 0);
  const std::string embed = "embed --in " + s / "x.csv" + " --out " + s / "y.csv" + " --method isomap --k 10 --color " + s / "t.csv";
  REQUIRE(nldr_run(s, embed + " --plot " + s / "d.svg").exit_code == 0);
  const std::string defaults = slurp(s / "d.svg");
  for (const char* text : {">coordinate 1</text>", ">coordinate 2</text>", ">isomap of x.csv, knn(k=10)</text>", ">t</text>"})
    CHECK_THAT(defaults, ContainsSubstring(text));
  CHECK_THAT(defaults, ContainsSubstring("linearGradient"));  // the roll angle is continuous

  REQUIRE(nldr_run(s, embed + " --plot " + s / "y.svg" + " --title 'Isomap, k = 10' --x-label 'unrolled t'"
                              " --y-label height --color-label 'roll angle' --width 500 --height 400").exit_code == 0);
  const std::string svg = slurp(s / "y.svg");
  for (const char* text : {">Isomap, k = 10</text>", ">unrolled t</text>", ">height</text>", ">roll angle</text>",
                           "width=\"500\" height=\"400\""})
    CHECK_THAT(svg, ContainsSubstring(text));

  if (nldr::io::cairo_available) {
    REQUIRE(nldr_run(s, embed + " --plot " + s / "y.png --width 450 --height 300").exit_code == 0);
    const std::string png = slurp(s / "y.png");
    REQUIRE(png.rfind("\x89PNG\r\n\x1a\n", 0) == 0);
    const auto be32 = [&](std::size_t at) {
      std::uint32_t v = 0;
      for (std::size_t k = 0; k < 4; ++k) v = v << 8 | static_cast<unsigned char>(png[at + k]);
      return v;
    };
    CHECK(png.substr(12, 4) == "IHDR");
    CHECK(be32(16) == 450);
    CHECK(be32(20) == 300);
    REQUIRE(nldr_run(s, embed + " --plot " + s / "y.pdf").exit_code == 0);
    CHECK(slurp(s / "y.pdf").rfind("%PDF-", 0) == 0);
    const auto tune = nldr_run(s, "tune --in " + s / "x.csv" + " --method isomap --k-min 8 --k-max 9 --plot " +
                                      s / "k.png --title 'k sweep'");
    REQUIRE(tune.exit_code == 0);
    CHECK(slurp(s / "k.png").rfind("\x89PNG", 0) == 0);
  } else {
    require_error(nldr_run(s, embed + " --plot " + s / "y.png"), 2, "name the file .svg");
  }
}

TEST_CASE("embed --color-column: a label column of the input colors the plot and is not embedded", "[tool][plot]") {
  Scratch s;
  // Fisher's iris as pandas writes it (tests/data/make_iris.py): index, 4 measurements, species as text.
  const std::string iris = (nldr_test::data_dir() / "pandas" / "iris.csv").string();
  const auto run = nldr_run(s, "embed --in " + iris + " --out " + s / "y.csv" + " --method pca --color-column species"
                                   " --plot " + s / "iris.svg --json");
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.out, ContainsSubstring("\"input_dim\": 4"));  // index and species left out
  CHECK_THAT(run.err, ContainsSubstring("column 'species' colors the plot and is not embedded (3 categories)"));
  const std::string svg = slurp(s / "iris.svg");
  for (const char* text : {">setosa</text>", ">versicolor</text>", ">virginica</text>", ">species</text>"})
    CHECK_THAT(svg, ContainsSubstring(text));
  CHECK(svg.find("linearGradient") == std::string::npos);  // a legend, no color bar
  CHECK(read(s / "y.csv").rows() == 150);

  // The species alone in a headerless file (as `cut` writes it): its first line "setosa" is a label, not
  // a header, so all 150 rows color the plot and setosa keeps its legend entry.
  {
    std::ifstream in(iris);
    std::ofstream species(s / "species.txt");
    std::string line;
    std::getline(in, line);  // pandas' header
    while (std::getline(in, line)) species << line.substr(line.rfind(',') + 1) << '\n';
  }
  // The measurements colored by a file of one value per line: the plot's legend holds each category.
  const std::string embed_iris = "embed --in " + iris + " --out " + s / "y.csv" + " --method pca --columns 1,2,3,4";
  const auto check_legend = [&](const std::string& file, std::initializer_list<const char*> categories) {
    const auto run = nldr_run(s, embed_iris + " --color " + s / file + " --plot " + s / (file + ".svg"));
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    const std::string svg = slurp(s / (file + ".svg"));
    for (const char* category : categories) CHECK_THAT(svg, ContainsSubstring(">" + std::string(category) + "</text>"));
  };
  check_legend("species.txt", {"setosa", "versicolor", "virginica"});

  // Class names with spaces and slashes, one per line (Fashion-MNIST's "T-shirt/top", "Ankle boot"):
  // each whole line is one category, whatever the whitespace inside it.
  {
    std::ofstream names(s / "names.txt");
    for (int i = 0; i < 150; ++i) names << (i % 3 == 0 ? "T-shirt/top" : i % 3 == 1 ? "Ankle boot" : "Bag") << '\n';
  }
  check_legend("names.txt", {"T-shirt/top", "Ankle boot", "Bag"});
  // Numbers in two space-separated columns are still two columns, and refused.
  {
    std::ofstream pairs(s / "pairs.txt");
    for (int i = 0; i < 150; ++i) pairs << i << ' ' << i % 3 << '\n';
  }
  require_error(nldr_run(s, embed_iris + " --color " + s / "pairs.txt" + " --plot " + s / "pairs.svg --quiet"), 2,
                "1 column");

  // A numeric label column by position: integer classes are categorical too.
  std::ofstream(s / "labeled.csv") << "x,y,z,class\n";
  {
    std::ofstream labeled(s / "labeled.csv", std::ios::app);
    for (int i = 0; i < 40; ++i) labeled << i % 7 << ',' << (i * 3) % 11 << ',' << i * 0.5 << ',' << i % 2 + 1 << '\n';
  }
  REQUIRE(nldr_run(s, "embed --in " + s / "labeled.csv" + " --out " + s / "l.csv --method pca --color-column 3 --plot " +
                          s / "l.svg --json").exit_code == 0);
  const std::string labeled = slurp(s / "l.svg");
  CHECK_THAT(labeled, ContainsSubstring(">class</text>"));
  CHECK_THAT(labeled, ContainsSubstring(">1</text>"));
  CHECK(labeled.find("linearGradient") == std::string::npos);
  // Forced continuous: a color bar instead.
  REQUIRE(nldr_run(s, "embed --in " + s / "labeled.csv" + " --out " + s / "l.csv --method pca --color-column class --plot " +
                          s / "l.svg --color-kind continuous").exit_code == 0);
  CHECK_THAT(slurp(s / "l.svg"), ContainsSubstring("linearGradient"));
}

TEST_CASE("plot flags that do not apply are errors naming what to add", "[tool][plot]") {
  Scratch s;
  REQUIRE(nldr_run(s, "generate swiss-roll --n 50 --out " + s / "x.csv" + " --color " + s / "t.csv").exit_code == 0);
  const std::string iris = (nldr_test::data_dir() / "pandas" / "iris.csv").string();
  const std::string embed = "embed --in " + s / "x.csv" + " --out " + s / "y.csv" + " --method pca";
  require_error(nldr_run(s, embed + " --title T"), 2, "--title styles the --plot: add --plot");
  require_error(nldr_run(s, embed + " --width 300"), 2, "--width styles the --plot");
  require_error(nldr_run(s, embed + " --color-column 2"), 2, "--color-column colors the --plot");
  require_error(nldr_run(s, embed + " --plot " + s / "y.svg --color-kind categorical"), 2, "add --color");
  require_error(nldr_run(s, embed + " --plot " + s / "y.jpg"), 2, "name it .svg, .png or .pdf");
  require_error(nldr_run(s, embed + " --plot " + s / "y"), 2, "no extension");
  require_error(nldr_run(s, embed + " --plot " + s / "y.svg --width 50"), 2, "--width");
  require_error(nldr_run(s, embed + " --plot " + s / "y.svg --color " + s / "t.csv --color-column 1"), 2, "drop --color");
  require_error(nldr_run(s, "embed --in " + iris + " --out " + s / "y.csv --method pca --plot " + s / "y.svg"
                             " --color-column species --color-kind continuous -q"), 2, "cannot be colored continuously");
  require_error(nldr_run(s, "embed --in " + iris + " --out " + s / "y.csv --method pca --plot " + s / "y.svg"
                             " --color-column 5 --columns 1,2,5 -q"), 2, "also a data column");
  require_error(nldr_run(s, "evaluate --in " + s / "x.csv --embedding " + s / "x.csv --title T"), 2, "add --plot");
  // --color-kind is a scatter flag: line plots do not take it.
  require_error(nldr_run(s, "evaluate --in " + s / "x.csv --embedding " + s / "x.csv --plot " + s / "r.svg --color-kind auto"),
                2, "color-kind");
  for (const auto& name : s.files()) {
    INFO("left behind: " << name);
    CHECK((name == "x.csv" || name == "t.csv"));
  }
}

TEST_CASE("embed joins a disconnected graph by default, says so, and -k from the advice connects it", "[tool]") {
  Scratch s;
  // Two 5 x 6 grids of spacing 0.5 whose facing columns are 2 apart (x = 2 and x = 4): a point's 4th
  // neighbor is at most 1 away, so k = 4 keeps them apart, and the advice's k connects them.
  std::ofstream two(s / "g.csv");
  for (int i = 0; i < 60; ++i) two << (i < 30 ? 0 : 4) + (i % 30) / 6 * 0.5 << ',' << (i % 6) * 0.5 << '\n';
  two.close();
  const std::string in = " --in " + s / "g.csv" + " --out " + s / "y.csv";
  const auto joined = nldr_run(s, "embed" + in + " --method isomap --k 4 --json");
  REQUIRE(joined.exit_code == 0);
  REQUIRE_THAT(joined.err, ContainsSubstring("2 connected components (sizes 30, 30): joined them by 1 shortest"));
  REQUIRE_THAT(joined.out, ContainsSubstring("\"joined_components\": 2"));
  REQUIRE_THAT(joined.out, ContainsSubstring("\"longest_joining_edge\": 2"));  // (2, y) -- (4, y)
  REQUIRE(read(s / "y.csv").rows() == 60);
  REQUIRE(nldr_run(s, "embed" + in + " --method isomap --k 4 --quiet").err.empty());

  const auto refused = nldr_run(s, "embed" + in + " --method isomap --k 4 --disconnected error");
  require_error(refused, 4, "-k ");
  const std::string advice = refused.err.substr(refused.err.find("-k ") + 3);
  const int k = std::stoi(advice);
  REQUIRE(k > 4);
  const auto fixed = nldr_run(s, "embed" + in + " --method isomap --disconnected error -k " + std::to_string(k));
  REQUIRE(fixed.exit_code == 0);
  require_error(nldr_run(s, "embed" + in + " --method isomap --disconnected error -k " + std::to_string(k - 1)), 4,
                "connected components");
  require_error(nldr_run(s, "embed" + in + " --method pca --disconnected join"), 2, "drop --disconnected");
}

TEST_CASE("embed stops cleanly on Ctrl-C at the next progress report and writes nothing", "[tool]") {
  Scratch s;
  REQUIRE(nldr_run(s, "generate swiss-roll --n 3000 --seed 1 --out " + s / "x.csv").exit_code == 0);
  // --verbose prints "neighbors" when that stage ends; SIGINT then lands in Isomap's shortest paths.
  const std::string err = s / "err.txt";
  const std::string command = std::string("'") + NLDR_TOOL_PATH + "' embed --in " + s / "x.csv" + " --out " +
                              s / "y.csv" + " --json " + s / "r.json" + " --method isomap --verbose 2>'" + err +
                              "' & pid=$!; while ! grep -q neighbors '" + err +
                              "' 2>/dev/null; do sleep 0.02; done; kill -INT $pid; wait $pid";
  const int status = std::system(command.c_str());
  REQUIRE(WIFEXITED(status));
  INFO("stderr: " << slurp(err));
  REQUIRE(WEXITSTATUS(status) == 130);
  REQUIRE_THAT(slurp(err), ContainsSubstring("was cancelled"));
  fs::remove(err);
  REQUIRE(s.files() == std::vector<std::string>{"x.csv"});
}

TEST_CASE("tune sweeps k, the epsilon-ball radius or Laplacian Eigenmaps' t, and refuses mixed sweep flags",
          "[tool][tune]") {
  Scratch s;
  REQUIRE(nldr_run(s, "generate swiss-roll --n 300 --seed 3 --out " + s / "x.csv").exit_code == 0);
  const auto X = read(s / "x.csv");
  const std::string in = " --in " + s / "x.csv";

  const auto by_k = nldr_run(s, "tune" + in + " --method isomap --k-min 7 --k-max 8 --json");
  INFO(by_k.err);
  REQUIRE(by_k.exit_code == 0);
  for (const char* text : {"\"parameter\": \"k\"", "\"best_k\": ", "\"k\": 7,", "\"k\": 8,", "\"mean_degree\": 7,"})
    CHECK_THAT(by_k.out, ContainsSubstring(text));

  // Radii 3 and 5 (evenly spaced, 2 steps): the graph of each is EpsilonBall's, whose mean degree the
  // test computes itself; a radius too small to connect the roll is reported as failed.
  const auto by_radius = nldr_run(s, "tune" + in + " --method isomap --radius-min 0.8 --radius-max 5 --radius-steps 2 "
                                                   "--criterion geodesic-rv --json");
  INFO(by_radius.err);
  REQUIRE(by_radius.exit_code == 0);
  for (double radius : {0.8, 5.0}) {
    const auto ball = nldr::EpsilonBall{.radius = radius}(X);
    std::ostringstream row;
    row << "\"radius\": " << radius << ",\n      \"mean_degree\": ";
    CHECK_THAT(by_radius.out, ContainsSubstring(row.str()));
    const auto at = by_radius.out.find(row.str());
    REQUIRE(at != std::string::npos);
    CHECK(std::abs(std::atof(by_radius.out.c_str() + at + row.str().size()) - double(ball.num_edges()) / 300.0) < 1e-9);
  }
  CHECK_THAT(by_radius.out, ContainsSubstring("connected components"));  // radius 0.8 fails
  CHECK_THAT(by_radius.out, ContainsSubstring("\"best_value\": 5,"));
  CHECK(by_radius.out.find("best_k") == std::string::npos);

  const auto by_t = nldr_run(s, "tune" + in + " --method laplacian-eigenmaps --t-values 1,inf --k 8 --json");
  INFO(by_t.err);
  REQUIRE(by_t.exit_code == 0);
  for (const char* text : {"\"parameter\": \"t\"", "\"graph_k\": 8", "\"t\": 1,", "\"t\": \"inf\"", "\"mean_degree\": 8,"})
    CHECK_THAT(by_t.out, ContainsSubstring(text));

  // --curve-k 10: auc-rnx at k = 7 is the co-ranking AUC up to K = 10 of the embedding `nldr embed` gives at k = 7
  // (the whole curve's differs), recomputed here from the written coordinates.
  const auto short_curve = nldr_run(s, "tune" + in + " --method isomap --k-min 7 --k-max 7 --curve-k 10 --json");
  INFO(short_curve.err);
  REQUIRE(short_curve.exit_code == 0);
  CHECK_THAT(short_curve.out, ContainsSubstring("\"curve_k\": 10,"));
  CHECK_THAT(by_k.out, ContainsSubstring("\"curve_k\": 298,"));
  REQUIRE(nldr_run(s, "embed" + in + " --method isomap --k 7 --out " + s / "y7.csv").exit_code == 0);
  const auto Y7 = read(s / "y7.csv");
  const auto auc_in = [](const std::string& json) {
    const auto at = json.find("\"auc-rnx\": ");
    REQUIRE(at != std::string::npos);
    return std::atof(json.c_str() + at + 11);
  };
  CHECK(std::abs(auc_in(short_curve.out) - nldr::metrics::coranking_summary(X, Y7, 10).auc_rnx()) < 1e-9);
  CHECK(std::abs(auc_in(short_curve.out) - nldr::metrics::coranking_summary(X, Y7).auc_rnx()) > 1e-3);
  require_error(nldr_run(s, "tune" + in + " --method isomap --curve-k 299"), 2, "--curve-k = 299 exceeds N - 2 = 298");

  require_error(nldr_run(s, "tune" + in + " --method isomap --k-max 9 --radius-max 3"), 2, "--k-max and --radius-max");
  require_error(nldr_run(s, "tune" + in + " --method isomap --radius-max 3"), 2, "give --radius-min");
  require_error(nldr_run(s, "tune" + in + " --method isomap --t-values 1,2"), 2, "isomap does not take");
  require_error(nldr_run(s, "tune" + in + " --method isomap --k 5"), 2, "--k fixes the graph of a t sweep");
  require_error(nldr_run(s, "tune" + in + " --method laplacian-eigenmaps --t-values 1,2 --t-min 1"), 2,
                "--t-min and --t-values");
  require_error(nldr_run(s, "tune" + in + " --method laplacian-eigenmaps --t-values 1,2 --heat-t 3"), 2, "drop --heat-t");
  require_error(nldr_run(s, "tune" + in + " --method laplacian-eigenmaps --t-values 1,x"), 2, "\"x\" is not one");
}

namespace {

/// The number after `"key": ` in a JSON report (NaN when absent).
double json_number(const std::string& json, const std::string& key) {
  const std::string label = "\"" + key + "\": ";
  const auto at = json.find(label);
  return at == std::string::npos ? std::nan("") : std::atof(json.c_str() + at + label.size());
}

/// A Swiss roll (3-D) rotated into 12-D by a seeded orthogonal map, plus a little noise in every
/// coordinate: high ambient, low intrinsic dimension, with its first 3 principal components the roll.
nldr::Matrix<double> roll_in_12d(int n, const Scratch& s, const std::string& name) {
  REQUIRE(nldr_run(s, "generate swiss-roll --n " + std::to_string(n) + " --seed 11 --out " + s / "roll.csv").exit_code == 0);
  const auto roll = read(s / "roll.csv");
  nldr::Random rng(12);
  Eigen::MatrixXd gaussian(12, 12);
  for (Eigen::Index i = 0; i < gaussian.size(); ++i) gaussian.data()[i] = rng.normal();
  const Eigen::MatrixXd rotation = Eigen::HouseholderQR<Eigen::MatrixXd>(gaussian).householderQ();
  nldr::Matrix<double> X = roll * rotation.topRows(3);
  for (Eigen::Index i = 0; i < X.size(); ++i) X.data()[i] += 0.01 * rng.normal();
  std::ofstream out(s / name);
  out.precision(17);
  for (Eigen::Index i = 0; i < X.rows(); ++i)
    for (Eigen::Index c = 0; c < X.cols(); ++c) out << X(i, c) << (c + 1 < X.cols() ? ',' : '\n');
  return X;
}

}  // namespace

TEST_CASE("neighbors and embed report the search; an approximate graph is announced with its recall", "[tool][search]") {
  Scratch s;
  REQUIRE(nldr_run(s, "generate swiss-roll --n 300 --seed 5 --out " + s / "x.csv").exit_code == 0);
  // 3-D points get the k-d tree; the brute force needs D > 20: the 12-D roll widened by zero columns.
  const auto X = roll_in_12d(300, s, "x12.csv");
  nldr::Matrix<double> wide = nldr::Matrix<double>::Zero(X.rows(), 30);
  wide.leftCols(12) = X;
  {
    std::ofstream out(s / "x30.csv");
    out.precision(17);
    for (Eigen::Index i = 0; i < wide.rows(); ++i)
      for (Eigen::Index c = 0; c < wide.cols(); ++c) out << wide(i, c) << (c + 1 < wide.cols() ? ',' : '\n');
  }
  const auto low = nldr_run(s, "neighbors --in " + s / "x.csv" + " --k 6 --out " + s / "e.csv --json");
  REQUIRE(low.exit_code == 0);
  CHECK_THAT(low.out, ContainsSubstring("\"search\": \"kdtree\""));
  CHECK_THAT(low.out, ContainsSubstring("\"exact\": true"));
  CHECK(low.err.empty());  // an exact search is not announced without --verbose
  const auto high = nldr_run(s, "neighbors --in " + s / "x30.csv" + " --k 6 --out " + s / "e.csv --json -v");
  REQUIRE(high.exit_code == 0);
  CHECK_THAT(high.out, ContainsSubstring("\"search\": \"brute-force\""));
  CHECK_THAT(high.err, ContainsSubstring("neighbor search: brute-force (exact)"));
  const auto exact = nldr_run(s, "embed --in " + s / "x30.csv" + " --out " + s / "y.csv -m isomap -k 8 --search exact --json");
  REQUIRE(exact.exit_code == 0);
  CHECK_THAT(exact.out, ContainsSubstring("\"search\": \"brute-force\""));
#if defined(NLDR_HAVE_HNSWLIB)
  const auto approximate =
      nldr_run(s, "neighbors --in " + s / "x30.csv" + " --k 6 --search approximate --out " + s / "a.csv --json");
  INFO(approximate.err);
  REQUIRE(approximate.exit_code == 0);
  CHECK_THAT(approximate.out, ContainsSubstring("\"search\": \"hnsw\""));
  CHECK_THAT(approximate.out, ContainsSubstring("\"exact\": false"));
  CHECK_THAT(approximate.err, ContainsSubstring("approximate (estimated recall "));
  CHECK_THAT(approximate.err, ContainsSubstring("--search exact"));
  // The reported recall is that of the lists, checked against a brute force here.
  const auto edges = read(s / "a.csv");
  REQUIRE(edges.rows() == 300 * 6);
  int found = 0;
  for (Eigen::Index row = 0; row < edges.rows(); ++row) {
    const auto i = Eigen::Index(edges(row, 0)), j = Eigen::Index(edges(row, 1));
    CHECK(edges(row, 2) == Approx((wide.row(i) - wide.row(j)).norm()).epsilon(1e-12));
    int closer = 0;
    for (Eigen::Index m = 0; m < wide.rows(); ++m)
      closer += m != i && (wide.row(i) - wide.row(m)).norm() < edges(row, 2) * (1 - 1e-12);
    found += closer < 6;
  }
  CHECK(double(found) / double(edges.rows()) >= 0.9);
  CHECK(json_number(approximate.out, "estimated_recall") >= 0.9);
  const auto quiet = nldr_run(s, "neighbors --in " + s / "x30.csv" + " --k 6 --search approximate -q --out " + s / "a.csv");
  REQUIRE(quiet.exit_code == 0);
  CHECK(quiet.err.empty());
#else
  require_error(nldr_run(s, "neighbors --in " + s / "x30.csv" + " --search approximate --out " + s / "a.csv"), 2,
                "--search approximate needs hnswlib");
#endif
  require_error(nldr_run(s, "neighbors --in " + s / "x.csv" + " --search fast --out " + s / "a.csv"), 2,
                "not one of auto, exact, approximate");
}

TEST_CASE("pca P (--pca): the graph and the method see the first P principal components; transform projects the same way",
          "[tool][pca]") {
  Scratch s;
  const auto X = roll_in_12d(400, s, "x.csv");
  // The reference PCA: eigenvectors of the covariance, computed here.
  const Eigen::MatrixXd centered = X.rowwise() - X.colwise().mean();
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(centered.transpose() * centered / double(X.rows() - 1));
  const Eigen::MatrixXd Z = centered * eigen.eigenvectors().rightCols(3);  // the top 3 axes (any order, sign)
  const double kept = eigen.eigenvalues().tail(3).sum() / eigen.eigenvalues().sum();

  // neighbors: every edge length is the distance of the points' PCA coordinates, and each list the
  // 6 nearest in those coordinates (axis signs and order do not change distances).
  const auto graph = nldr_run(s, "neighbors --in " + s / "x.csv" + " --pca 3 -k 6 --out " + s / "e.csv --json -v");
  INFO(graph.err);
  REQUIRE(graph.exit_code == 0);
  CHECK(json_number(graph.out, "explained_variance_ratio") == Approx(kept).epsilon(1e-9));
  CHECK_THAT(graph.err, ContainsSubstring("PCA from D = 12 to 3 dimensions keeps"));
  CHECK_THAT(graph.err, ContainsSubstring("nldr: pca "));
  const auto edges = read(s / "e.csv");
  REQUIRE(edges.rows() == 400 * 6);
  for (Eigen::Index row = 0; row < edges.rows(); ++row) {
    const auto i = Eigen::Index(edges(row, 0)), j = Eigen::Index(edges(row, 1));
    REQUIRE(edges(row, 2) == Approx((Z.row(i) - Z.row(j)).norm()).epsilon(1e-9));
    int closer = 0;
    for (Eigen::Index m = 0; m < Z.rows(); ++m) closer += m != i && (Z.row(i) - Z.row(m)).norm() < edges(row, 2) * (1 - 1e-9);
    REQUIRE(closer < 6);
  }

  // embed --pca 3: the same embedding as embedding the reference PCA coordinates (Isomap depends on
  // distances only), and the saved model places the 12-D training points where they are.
  {
    std::ofstream out(s / "z.csv");
    out.precision(17);
    for (Eigen::Index i = 0; i < Z.rows(); ++i) out << Z(i, 0) << ',' << Z(i, 1) << ',' << Z(i, 2) << '\n';
  }
  const auto fit = nldr_run(s, "embed --in " + s / "x.csv" + " --pca 3 -m isomap -k 10 --out " + s / "y.csv" +
                                   " --save-model " + s / "m.nldr --json");
  INFO(fit.err);
  REQUIRE(fit.exit_code == 0);
  CHECK_THAT(fit.out, ContainsSubstring("\"pca\": {"));
  CHECK(json_number(fit.out, "input_dim") == 12);
  REQUIRE(nldr_run(s, "embed --in " + s / "z.csv" + " -m isomap -k 10 --out " + s / "y_ref.csv").exit_code == 0);
  const auto Y = read(s / "y.csv"), Y_ref = read(s / "y_ref.csv");
  REQUIRE(Y.rows() == 400);
  for (Eigen::Index c = 0; c < 2; ++c) {
    const double sign = Y.col(c).dot(Y_ref.col(c)) < 0 ? -1 : 1;
    CHECK((Y.col(c) - sign * Y_ref.col(c)).cwiseAbs().maxCoeff() <= 1e-6 * Y_ref.col(c).cwiseAbs().maxCoeff());
  }
  REQUIRE(nldr_run(s, "transform --model " + s / "m.nldr" + " --in " + s / "x.csv" + " --out " + s / "t.csv").exit_code == 0);
  const auto placed = read(s / "t.csv");
  CHECK((placed - Y).cwiseAbs().maxCoeff() <= 1e-9 * Y.cwiseAbs().maxCoeff());
  // New points must have the training data's 12 columns, not the 3 the method saw.
  require_error(nldr_run(s, "transform --model " + s / "m.nldr" + " --in " + s / "z.csv" + " --out " + s / "t2.csv"), 2,
                "projected to 3 by PCA");

  // tune --pca: the sweep runs on the reduced points and reports the PCA.
  const auto tuned = nldr_run(s, "tune --in " + s / "x.csv" + " --pca 3 -m isomap --k-min 9 --k-max 10 --json");
  INFO(tuned.err);
  REQUIRE(tuned.exit_code == 0);
  CHECK(json_number(tuned.out, "explained_variance_ratio") == Approx(kept).epsilon(1e-9));

  const std::string in = "embed --in " + s / "x.csv" + " --out " + s / "bad.csv -m isomap";
  require_error(nldr_run(s, in + " --pca 12"), 2, "--pca 12 must be below the input's D = 12");
  require_error(nldr_run(s, in + " --pca 1"), 2, "--pca 1 is below --dim 2");
  require_error(nldr_run(s, in + " --pca 2 --dim 3"), 2, "raise --pca or lower --dim");
  require_error(nldr_run(s, "embed --distances " + s / "x.csv" + " --out " + s / "bad.csv -m mds --pca 2"), 2,
                "--distances gives no points");
  require_error(nldr_run(s, in + " --pca 3 --graph " + s / "e.csv"), 2, "drop --pca");
  require_error(nldr_run(s, in + " --pca 0"), 2, "--pca");
  CHECK_FALSE(fs::exists(s / "bad.csv"));
}

TEST_CASE("tune --scoring landmarks scores with Landmark Isomap and fits Isomap once at the pick", "[tool][tune]") {
  Scratch s;
  REQUIRE(nldr_run(s, "generate swiss-roll --n 300 --seed 3 --out " + s / "x.csv").exit_code == 0);
  const auto X = read(s / "x.csv");
  const std::string in = " --in " + s / "x.csv";
  const auto run = nldr_run(s, "tune" + in + " --method isomap --k-min 7 --k-max 9 --curve-k 20 --criterion geodesic-rv "
                                             "--scoring landmarks --scoring-landmarks 40 --json");
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  for (const char* text : {"\"by\": \"landmarks\"", "\"method\": \"landmark-isomap\"", "\"landmarks\": 40",
                           "\"exact_at_best\": {"})
    CHECK_THAT(run.out, ContainsSubstring(text));
  // Every score is Landmark Isomap's (m = 40, seed 0) at that k, recomputed here through nldr embed.
  const auto best_k = int(json_number(run.out, "best_k"));
  REQUIRE(best_k >= 7);
  REQUIRE(best_k <= 9);
  const nldr::CriteriaOptions criteria{.rank_k_max = 20};
  double best_rv = INFINITY;
  for (int k = 7; k <= 9; ++k) {
    const std::string y = s / ("y" + std::to_string(k) + ".csv");
    REQUIRE(nldr_run(s, "embed" + in + " --method landmark-isomap --landmarks 40 --k " + std::to_string(k) +
                            " --out " + y).exit_code == 0);
    const double rv = nldr::evaluate_criteria(X, nldr::KNearest{k}(X), read(y), criteria).geodesic_rv;
    const std::string scores = run.out.substr(run.out.find("\"scores\""));
    const auto at = scores.find("\"k\": " + std::to_string(k) + ",");
    REQUIRE(at != std::string::npos);
    CHECK(std::abs(json_number(scores.substr(at), "geodesic-rv") - rv) < 1e-9);
    best_rv = std::min(best_rv, rv);
  }
  // exact_at_best: Isomap itself at the picked k, with its own criteria.
  REQUIRE(nldr_run(s, "embed" + in + " --method isomap --k " + std::to_string(best_k) + " --out " + s / "exact.csv")
              .exit_code == 0);
  const double exact_rv =
      nldr::evaluate_criteria(X, nldr::KNearest{best_k}(X), read(s / "exact.csv"), criteria).geodesic_rv;
  const std::string exact_report = run.out.substr(run.out.find("\"exact_at_best\""));
  CHECK(json_number(exact_report, "k") == best_k);
  CHECK(std::abs(json_number(exact_report, "geodesic-rv") - exact_rv) < 1e-9);

  const auto plain = nldr_run(s, "tune" + in + " --method isomap --k-min 7 --k-max 7 --curve-k 20");
  REQUIRE(plain.exit_code == 0);
  CHECK(plain.out == "best k = 7 by auc-rnx\n");
  require_error(nldr_run(s, "tune" + in + " --method lle --scoring landmarks"), 2,
                "--scoring landmarks: lle has no landmark approximation");
  require_error(nldr_run(s, "tune" + in + " --method isomap --scoring-landmarks 50"), 2,
                "--scoring-landmarks applies to --scoring landmarks");
  require_error(nldr_run(s, "tune" + in + " --method isomap --scoring landmarks --scoring-landmarks 301"), 2,
                "--scoring-landmarks = 301 exceeds N = 300");
  require_error(nldr_run(s, "tune" + in + " --method isomap --scoring landmarks --scoring-landmarks 2"), 2,
                "--scoring-landmarks = 2 must exceed --dim 2");
}

TEST_CASE("embed --geodesics gives the distance methods graph geodesics: MDS becomes Isomap and the stress methods "
          "unroll a Swiss roll", "[tool]") {
  Scratch s;
  REQUIRE(nldr_run(s, "generate swiss-roll --n 1000 --seed 4 --out " + s / "x.csv" + " --truth " + s / "t.csv")
              .exit_code == 0);
  const nldr::Matrix<double> truth = read(s / "t.csv");
  const std::string in = " --in " + s / "x.csv";
  // Classical MDS of the geodesics is Isomap (Tenenbaum et al. 2000), up to each coordinate's sign.
  REQUIRE(nldr_run(s, "embed" + in + " --method isomap --k 10 --out " + s / "isomap.csv").exit_code == 0);
  const auto mds = nldr_run(s, "embed" + in + " --method mds --geodesics --k 10 --json --out " + s / "mds.csv");
  INFO(mds.err);
  REQUIRE(mds.exit_code == 0);
  CHECK_THAT(mds.out, ContainsSubstring("\"dissimilarities\": \"geodesic\""));
  const nldr::Matrix<double> isomap = read(s / "isomap.csv"), from_mds = read(s / "mds.csv");
  for (Eigen::Index c = 0; c < 2; ++c) {
    const double sign = isomap.col(c).dot(from_mds.col(c)) < 0 ? -1.0 : 1.0;
    CHECK((sign * from_mds.col(c) - isomap.col(c)).cwiseAbs().maxCoeff() < 1e-6 * isomap.cwiseAbs().maxCoeff());
  }
  for (const std::string method : {"sammon", "smacof", "nonmetric-mds"}) {
    CAPTURE(method);
    const std::string base = "embed" + in + " --method " + method + " --out " + s / "y.csv";
    REQUIRE(nldr_run(s, base).exit_code == 0);
    const double flat = nldr::metrics::residual_variance(truth, read(s / "y.csv")).value;
    const auto run = nldr_run(s, base + " --geodesics --k 10");
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    const double unrolled = nldr::metrics::residual_variance(truth, read(s / "y.csv")).value;
    CHECK(flat > 0.5);       // Euclidean dissimilarities flatten the roll
    CHECK(unrolled < 0.05);  // geodesic ones unroll it
  }
  const auto isomap_geodesics = nldr_run(s, "embed" + in + " --method isomap --geodesics --out " + s / "z.csv");
  CHECK(isomap_geodesics.exit_code == 2);
  CHECK_THAT(isomap_geodesics.err, ContainsSubstring("--geodesics"));
  CHECK_THAT(isomap_geodesics.err, ContainsSubstring("mds, sammon, smacof, nonmetric-mds"));
  REQUIRE(nldr_run(s, "neighbors" + in + " --k 10 --out " + s / "edges.csv").exit_code == 0);
  const auto graph_without = nldr_run(s, "embed" + in + " --method smacof --graph " + s / "edges.csv" + " --out " +
                                             s / "z.csv");
  CHECK(graph_without.exit_code == 2);
  CHECK_THAT(graph_without.err, ContainsSubstring("unless --geodesics"));
  const auto from_graph = nldr_run(s, "embed" + in + " --method smacof --geodesics --graph " + s / "edges.csv" +
                                          " --out " + s / "z.csv");
  INFO(from_graph.err);
  CHECK(from_graph.exit_code == 0);
  // With --pca the graph is built on the reduced points, but the model still takes dissimilarities.
  REQUIRE(nldr_run(s, "embed" + in + " --method smacof --geodesics --k 10 --pca 2 --out " + s / "z.csv" +
                          " --save-model " + s / "m.nldr").exit_code == 0);
  nldr::Matrix<double> D_new(5, 1000);
  const nldr::Matrix<double> X = read(s / "x.csv");
  for (Eigen::Index p = 0; p < 5; ++p)
    for (Eigen::Index j = 0; j < 1000; ++j) D_new(p, j) = (X.row(p) - X.row(j)).norm() + 0.5;
  nldr::io::write_csv(s / "d_new.csv", D_new);
  const auto placed = nldr_run(s, "transform --model " + s / "m.nldr" + " --in " + s / "d_new.csv" + " --out " +
                                      s / "y_new.csv");
  INFO(placed.err);
  CHECK(placed.exit_code == 0);
  CHECK(read(s / "y_new.csv").rows() == 5);
  const auto with_distances = nldr_run(s, "embed --distances " + s / "x.csv" + " --method smacof --geodesics --out " +
                                              s / "z.csv");
  CHECK(with_distances.exit_code == 2);
  CHECK_THAT(with_distances.err, ContainsSubstring("drop --distances"));
}

TEST_CASE("help: every registry parameter's flag states each method's and selector's own default", "[tool][help]") {
  Scratch s;
  const auto help = nldr_run(s, "embed --help");
  REQUIRE(help.exit_code == 0);
  // A flag's help line ends "[owner, owner: default V; owner: default W]".
  const auto defaults_of = [&](std::string_view parameter) {
    std::string flag = "--" + std::string(parameter);
    std::replace(flag.begin(), flag.end(), '_', '-');
    std::istringstream lines(help.out);
    std::map<std::string, std::string> by_owner;
    for (std::string line; std::getline(lines, line);) {
      if (line.find(flag + " ") == std::string::npos && line.find(flag + ",") == std::string::npos) continue;
      if (line.find('[') == std::string::npos) std::getline(lines, line);  // a long flag's help on the next line
      const std::string list = line.substr(line.rfind('[') + 1, line.rfind(']') - line.rfind('[') - 1);
      std::istringstream groups(list);
      for (std::string group; std::getline(groups, group, ';');) {
        const auto colon = group.find(": default ");
        std::istringstream owners(group.substr(0, colon));
        for (std::string owner; std::getline(owners, owner, ',');)
          by_owner[owner.substr(owner.find_first_not_of(' '))] = group.substr(colon + 10);
      }
    }
    return by_owner;
  };
  std::size_t checked = 0;
  const auto check = [&](std::string_view owner, std::span<const nldr::ParameterSpec> specs) {
    for (const auto& spec : specs) {
      INFO(owner << " " << spec.name);
      CHECK(defaults_of(spec.name)[std::string(owner)] == spec.default_value);
      ++checked;
    }
  };
  for (const auto& entry : nldr::embedders()) check(entry.name, entry.parameters);
  for (const auto& entry : nldr::selectors()) check(entry.name, entry.parameters);
  CHECK(checked > 60);
  // The three that were wrong while the help kept the first owner's default.
  CHECK(defaults_of("max_iterations")["smacof"] == "300");
  CHECK(defaults_of("negative_eigenvalues")["isomap"] == "0");
  CHECK(defaults_of("relative_tolerance")["smacof"] == "1e-4");
}

TEST_CASE("a misspelt command gets the nearest one", "[tool]") {
  Scratch s;
  require_error(nldr_run(s, "embd --in x.csv"), 2, "unknown command \"embd\" (did you mean \"embed\"?)");
  require_error(nldr_run(s, "evalute"), 2, "did you mean \"evaluate\"");
}

TEST_CASE("a misspelt flag is named before any missing one, with the flag it was meant as", "[tool]") {
  Scratch s;
  // CLI11 alone said "--out is required" here: the required flags are checked before the unknown ones.
  require_error(nldr_run(s, "embed --method umap --input x.csv --output y.csv"), 2,
                "unknown option --input (did you mean \"--in\"?) (see: nldr embed --help)");
  require_error(nldr_run(s, "embed --method umap --in x.csv --output y.csv"), 2,
                "unknown option --output (did you mean \"--out\"?)");
  require_error(nldr_run(s, "neighbors --in x.csv --out y.csv --kk 5"), 2,
                "unknown option --kk (did you mean \"--k\"?)");
  require_error(nldr_run(s, "embed --method=umap --in x.csv --out y.csv --dimm=3"), 2,
                "unknown option --dimm (did you mean \"--dim\"?)");
  require_error(nldr_run(s, "generate swiss-roll --out y.csv --frobnicate"), 2, "unknown option --frobnicate (see:");
}

TEST_CASE("embed --labels: a supervised UMAP fit; an unsupervised method refuses them", "[tool][labels]") {
  Scratch s;
  REQUIRE(nldr_run(s, "generate clusters-3d --n 150 --seed 2 --out " + s / "x.csv" + " --labels " + s / "l.csv")
              .exit_code == 0);
  const std::string embed = "embed --in " + s / "x.csv" + " --method umap --k 10 --n-epochs 50 --quiet --out ";
  REQUIRE(nldr_run(s, embed + s / "plain.csv").exit_code == 0);
  const auto supervised = nldr_run(s, embed + s / "supervised.csv --labels " + s / "l.csv --json");
  INFO(supervised.err);
  REQUIRE(supervised.exit_code == 0);
  // The labels reach the fit: the same seed and graph, another layout.
  const auto plain = read(s / "plain.csv"), labeled = read(s / "supervised.csv");
  REQUIRE(plain.rows() == 150);
  CHECK((plain - labeled).cwiseAbs().maxCoeff() > 1e-3 * plain.cwiseAbs().maxCoeff());
  require_error(nldr_run(s, "embed --in " + s / "x.csv" + " --out " + s / "y.csv --method pca --labels " + s / "l.csv"),
                2, "pca is unsupervised: drop --labels (labels are for umap)");
  std::ofstream(s / "short.csv") << "0\n1\n";
  require_error(nldr_run(s, embed + s / "y.csv --labels " + s / "short.csv"), 2,
                "--labels " + s / "short.csv has 2 rows but must hold one value per point: 150 rows");
}

TEST_CASE("a label or color file of one integer per point has no header line, whatever its first value",
          "[tool][labels]") {
  Scratch s;
  REQUIRE(nldr_run(s, "generate clusters-3d --n 120 --seed 4 --out " + s / "x.csv" + " --labels " + s / "l.csv")
              .exit_code == 0);
  const auto labels = read(s / "l.csv");
  REQUIRE(labels.rows() == 120);
  // The same labels with 0 first, the digits' case: "0" is a row of data, not pandas' column name.
  std::ofstream zero_first(s / "z.csv");
  zero_first << "0\n";
  for (Eigen::Index i = 1; i < labels.rows(); ++i) zero_first << labels(i, 0) << '\n';
  zero_first.close();
  const std::string embed = "embed --in " + s / "x.csv" + " --out " + s / "y.csv" + " --method pca --plot " + s / "y.svg";
  const auto colored = nldr_run(s, embed + " --color " + s / "z.csv --json");
  INFO(colored.err);
  REQUIRE(colored.exit_code == 0);
  const auto evaluated = nldr_run(s, "evaluate --in " + s / "x.csv" + " --embedding " + s / "y.csv" + " --labels " +
                                         s / "z.csv --json");
  INFO(evaluated.err);
  REQUIRE(evaluated.exit_code == 0);
  REQUIRE_THAT(evaluated.out, ContainsSubstring("\"knn_error\""));
  // N + 1 rows: the first is a header; other row counts are refused naming the flag and both counts.
  std::ofstream header(s / "h.csv");
  header << "class\n" << slurp(s / "z.csv");
  header.close();
  REQUIRE(nldr_run(s, embed + " --color " + s / "h.csv").exit_code == 0);
  REQUIRE(nldr_run(s, "evaluate --in " + s / "x.csv" + " --embedding " + s / "y.csv" + " --labels " + s / "h.csv")
              .exit_code == 0);
  std::ofstream short_file(s / "short.csv");
  short_file << "0\n1\n";
  short_file.close();
  require_error(nldr_run(s, embed + " --color " + s / "short.csv"), 2, "--color " + s / "short.csv has 2 rows but "
                "must hold one value per point: 120 rows");
  require_error(nldr_run(s, "evaluate --in " + s / "x.csv" + " --embedding " + s / "y.csv" + " --labels " +
                             s / "short.csv"),
                2, "--labels " + s / "short.csv has 2 rows");
}

TEST_CASE("evaluate: a disconnected --geodesic-k graph costs only the geodesic measure; --pairs all is exact",
          "[tool][evaluate]") {
  Scratch s;
  // Three blobs 100 apart: their 5-NN graph has three components.
  nldr::Random random(11);
  std::ofstream blobs(s / "b.csv"), flat(s / "f.csv");
  for (int i = 0; i < 90; ++i) {
    const double x = 100.0 * (i / 30) + random.normal(), y = random.normal(), z = random.normal();
    blobs << x << ',' << y << ',' << z << '\n';
    flat << x << ',' << y << '\n';
  }
  blobs.close();
  flat.close();
  const std::string evaluate = "evaluate --in " + s / "b.csv" + " --embedding " + s / "f.csv" + " --json";
  const auto plain = nldr_run(s, evaluate);
  const auto geodesic = nldr_run(s, evaluate + " --geodesic-k 5");
  INFO(geodesic.err);
  REQUIRE(plain.exit_code == 0);
  REQUIRE(geodesic.exit_code == 0);
  CHECK_THAT(geodesic.out, ContainsSubstring("\"residual_variance_geodesic\": null"));
  CHECK_THAT(geodesic.out, ContainsSubstring("3 connected components"));
  for (const char* key : {"trustworthiness", "continuity", "r_nx", "spearman_rho", "residual_variance", "konig"})
    CHECK(json_number(geodesic.out, key) == json_number(plain.out, key));
  // A connected graph: the residual variance against its geodesics (Tenenbaum et al. 2000), computed here
  // from the library's shortest paths on the symmetrized kNN graph.
  const auto X = read(s / "b.csv");
  const auto connected = nldr_run(s, evaluate + " --geodesic-k 40");
  REQUIRE(connected.exit_code == 0);
  const auto G = nldr::all_pairs_shortest_paths<double>(nldr::KNearest{40}(X).symmetrized());
  const double expected =
      nldr::metrics::residual_variance(nldr::metrics::precomputed(G), read(s / "f.csv")).value;
  CHECK(json_number(connected.out, "residual_variance_geodesic") == Approx(expected).epsilon(1e-9));

  // 1500 points have 1,124,250 pairs, above Spearman's default budget of 10^6: sampled unless --pairs all.
  std::ofstream many(s / "m.csv"), many_flat(s / "mf.csv");
  for (int i = 0; i < 1500; ++i) {
    const double x = random.normal(), y = random.normal();
    many << x << ',' << y << ',' << random.normal() << '\n';
    many_flat << x << ',' << y << '\n';
  }
  many.close();
  many_flat.close();
  const std::string big = "evaluate --in " + s / "m.csv" + " --embedding " + s / "mf.csv" + " --k 5 --k-max 5 --json";
  const auto sampled = nldr_run(s, big);
  const auto exact = nldr_run(s, big + " --pairs all");
  REQUIRE(sampled.exit_code == 0);
  REQUIRE(exact.exit_code == 0);
  CHECK(json_number(sampled.out, "spearman_pairs") == 1000000);
  CHECK_THAT(sampled.out, ContainsSubstring("\"pairs_sampled\": true"));
  CHECK(json_number(exact.out, "spearman_pairs") == 1124250);
  CHECK(json_number(exact.out, "distance_pairs") == 1124250);
  CHECK_THAT(exact.out, ContainsSubstring("\"pairs_sampled\": false"));
  require_error(nldr_run(s, big + " --pairs 0"), 2, "--pairs 0 must be a number of pairs >= 1, or all");
  require_error(nldr_run(s, big + " --pairs most"), 2, "--pairs most");
}
