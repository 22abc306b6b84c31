// Model files: every registered method survives save -> load with bit-identical coordinates and
// transform, and every kind of damage (truncation, a flipped byte, another magic, a newer version,
// the other scalar type, an unknown method) is an io_error that says what is wrong.
#include "catch.hpp"

#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/registry/embedders.hpp>
#include <nldr/registry/model_file.hpp>
#include <nldr/registry/selectors.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace {

/// `method` fit on X with the graph of `selector` (k = 8; radius 10, which gives every point of a
/// 150-point roll the 6 neighbors Hessian LLE needs).
template <class T>
nldr::AnyModel<T> small_model(const std::string& method, const nldr::Matrix<T>& X,
                              const std::string& selector = "knn") {
  const auto& entry = nldr::find_embedder(method);
  nldr::ParameterValues options;
  for (const auto& spec : nldr::find_selector(selector).parameters) {
    if (spec.name == "k") options["k"] = "8";
    if (spec.name == "radius") options["radius"] = "10";
    if (spec.name == "min_neighbors") options["min_neighbors"] = std::to_string(entry.min_neighbors(2));
  }
  const auto graph = nldr::find_selector(selector).select(X, options);
  nldr::ParameterValues values{{"dim", "2"}};
  if (method == "landmark-isomap") values["landmarks"] = "20";
  if (nldr::takes_parameter(entry.parameters, "perplexity")) values["perplexity"] = "2";  // t-SNE: below k = 8
  return entry.fit(nldr::FitInput<T>{.points = &X, .graph = &graph}, values);
}

/// `bytes` with a valid checksum (of the version they claim) again after an edit, so that the
/// check after it is what fails.
std::string rechecksummed(std::string bytes) {
  std::uint32_t version = 0;
  std::memcpy(&version, bytes.data() + 8, 4);
  const std::uint64_t sum = nldr::detail::model_checksum(version, std::string_view(bytes).substr(0, bytes.size() - 8));
  std::memcpy(bytes.data() + bytes.size() - 8, &sum, 8);
  return bytes;
}

}  // namespace

TEMPLATE_TEST_CASE("every method's model survives a save and a load bit for bit", "[model-file]", float, double) {
  using T = TestType;
  const auto roll = nldr::datasets::swiss_roll<T>({.n = 150, .seed = 4});
  const nldr::Matrix<T> X_new = roll.points.topRows(7).array() + T(0.03);
  // One file per process and type: ctest runs the float and double cases (and other builds' tests) at once.
  const auto path = std::filesystem::temp_directory_path() /
                    ("nldr-test-model-" + std::to_string(::getpid()) + "-" + std::to_string(8 * sizeof(T)) + ".nldr");
  for (const auto& entry : nldr::embedders()) {
    // The graph methods keep how a new point gets its neighbors, one rule per kind of selector
    // (docs/models.md, "What a new point gets"): k nearest, a radius, the nearest point's graph list.
    for (const std::string selector : {"knn", "epsilon", "shared"}) {
      if (selector != "knn" && !entry.accepts(nldr::needs_graph)) continue;
      CAPTURE(entry.name, selector);
      const auto model = small_model<T>(std::string(entry.name), roll.points, selector);
      nldr::save_model(model, path.string());
      const auto loaded = nldr::load_model<T>(path.string());
      CHECK(loaded.method() == entry.name);
      CHECK(loaded.parameters() == model.parameters());
      CHECK((loaded.coordinates().array() == model.coordinates().array()).all());
      CHECK((loaded.transform(X_new).array() == model.transform(X_new).array()).all());
      CHECK(loaded.results().size() == model.results().size());
    }
  }
  std::filesystem::remove(path);
}

TEST_CASE("a damaged or foreign model file is an io_error naming the fault", "[model-file][hostile]") {
  const auto roll = nldr::datasets::swiss_roll<double>({.n = 120, .seed = 5});
  const std::string bytes = nldr::model_bytes(small_model<double>("isomap", roll.points));
  const auto fails_with = [](const std::string& damaged, const std::string& text) {
    CHECK_THROWS_CONTAINING(nldr::model_from_bytes<double>(damaged, "m.nldr"), nldr::io_error, text);
  };
  fails_with("", "NLDRMODL");
  fails_with("PK\x03\x04 a zip file", "NLDRMODL");
  for (const std::size_t keep : {std::size_t(8), std::size_t(20), bytes.size() / 2, bytes.size() - 1})
    fails_with(bytes.substr(0, keep), keep < 21 ? "truncated" : "checksum");
  std::string flipped = bytes;
  flipped[flipped.size() / 3] ^= 0x10;
  fails_with(flipped, "checksum");
  std::string newer = bytes;
  newer[8] = char(nldr::kModelFormatVersion + 1);  // a format version this nldr does not know yet
  fails_with(rechecksummed(newer), "newer");
  std::string unknown = bytes;
  unknown.replace(unknown.find("isomap"), 6, "isomaq");
  fails_with(rechecksummed(unknown), "unknown");
  CHECK_THROWS_CONTAINING(nldr::model_from_bytes<float>(bytes, "m.nldr"), nldr::io_error, "load it as double");
  // A field claiming more values than the file holds (the first matrix's row count, made huge).
  std::string huge = bytes;
  const std::size_t at = huge.find("coordinates") + std::string("coordinates").size() + 1;
  const std::uint64_t rows = std::uint64_t(1) << 60;
  std::memcpy(huge.data() + at, &rows, 8);
  fails_with(rechecksummed(huge), "matrix");
  // 2^40 x 0 and 0 x 2^63 hold no bytes, so only the extent bound refuses them (a fuzzer found the
  // first took minutes, the second aborted in Eigen's resize).
  for (const auto& [new_rows, new_cols] : {std::pair{std::uint64_t(1) << 40, std::uint64_t(0)},
                                          std::pair{std::uint64_t(0), std::uint64_t(1) << 63}}) {
    std::string empty = bytes;
    std::memcpy(empty.data() + at, &new_rows, 8);
    std::memcpy(empty.data() + at + 8, &new_cols, 8);
    fails_with(rechecksummed(empty), "claims");
  }
  CHECK_THROWS_CONTAINING(nldr::load_model<double>("/nonexistent/m.nldr"), nldr::io_error, "cannot be opened");
}

TEMPLATE_TEST_CASE("an input projection (--pca) is kept in the file and applied by transform",
                   "[model-file]", float, double) {
  using T = TestType;
  const auto roll = nldr::datasets::swiss_roll<T>({.n = 150, .seed = 5});
  // The roll in 5-D: X = roll A + offset with A a 3 x 5 map of orthonormal rows, so that the
  // projection (X - mean) A^T gives the roll back (up to its mean).
  nldr::Matrix<T> A = nldr::Matrix<T>::Zero(3, 5);
  A(0, 1) = 1, A(1, 3) = 1, A(2, 4) = 1;
  const nldr::Matrix<T> X = (roll.points * A).array() + T(2);
  const nldr::Vector<T> mean = X.colwise().mean().transpose();
  const nldr::Matrix<T> reduced = X.rowwise() - mean.transpose();
  auto model = small_model<T>("lle", nldr::Matrix<T>(reduced * A.transpose()));
  const auto plain = model;
  model.set_input_projection({mean, A});
  const nldr::Matrix<T> X_new = X.topRows(6).array() + T(0.02);
  const nldr::Matrix<T> expected = plain.transform(nldr::Matrix<T>((X_new.rowwise() - mean.transpose()) * A.transpose()));
  CHECK((model.transform(X_new).array() == expected.array()).all());
  CHECK_THROWS_CONTAINING(model.transform(nldr::Matrix<T>(X_new.leftCols(3))), nldr::invalid_argument,
                          "projected to 3 by PCA");

  const std::string with = nldr::model_bytes(model), without = nldr::model_bytes(plain);
  CHECK(with[8] == char(nldr::kModelFormatVersion));
  CHECK(without[8] == char(nldr::kModelFormatVersion));
  const auto loaded = nldr::model_from_bytes<T>(with, "m.nldr");
  REQUIRE(loaded.input_projection().has_value());
  CHECK((loaded.transform(X_new).array() == expected.array()).all());
  CHECK_FALSE(nldr::model_from_bytes<T>(without, "m.nldr").input_projection().has_value());
  // A file whose projection's axes do not match its mean (a valid file otherwise) is refused.
  auto mismatched = plain;
  mismatched.set_input_projection({nldr::Vector<T>(mean.head(4)), A});
  CHECK_THROWS_CONTAINING(nldr::model_from_bytes<T>(nldr::model_bytes(mismatched), "m.nldr"), nldr::io_error,
                          "input projection");
}

TEST_CASE("the checksums are XXH3-64 (format 3) and FNV-1a 64 (formats 1 and 2)", "[model-file]") {
  // Published test vectors: XXH3_64bits of no bytes (xxHash's sanity checks), FNV-1a 64 of "" and "a".
  CHECK(nldr::detail::model_checksum(3, "") == 0x2D06800538D394C2ull);
  CHECK(nldr::detail::model_checksum(2, "") == 0xcbf29ce484222325ull);
  CHECK(nldr::detail::model_checksum(1, "a") == 0xaf63dc4c8601ec8cull);
  const auto roll = nldr::datasets::swiss_roll<double>({.n = 100, .seed = 6});
  const std::string bytes = nldr::model_bytes(small_model<double>("lle", roll.points));
  CHECK(bytes[8] == 3);
  std::uint64_t stored = 0;
  std::memcpy(&stored, bytes.data() + bytes.size() - 8, 8);
  CHECK(stored == XXH3_64bits(bytes.data(), bytes.size() - 8));
}

TEMPLATE_TEST_CASE("files of format versions 1 and 2 still load", "[model-file]", float, double) {
  using T = TestType;
  const auto roll = nldr::datasets::swiss_roll<T>({.n = 120, .seed = 7});
  const nldr::Matrix<T> X_new = roll.points.topRows(5).array() + T(0.02);
  for (const std::string method : {"isomap", "landmark-isomap", "lle"}) {
    CAPTURE(method);
    const auto model = small_model<T>(method, roll.points);
    // Versions 1 and 2 differ from 3 only in the version and the checksum (FNV-1a).
    for (const char version : {1, 2}) {
      std::string old = nldr::model_bytes(model);
      old[8] = version;
      const std::uint64_t sum = nldr::detail::fnv1a(std::string_view(old).substr(0, old.size() - 8));
      std::memcpy(old.data() + old.size() - 8, &sum, 8);
      const auto loaded = nldr::model_from_bytes<T>(old, "old.nldr");
      CHECK((loaded.coordinates().array() == model.coordinates().array()).all());
      CHECK((loaded.transform(X_new).array() == model.transform(X_new).array()).all());
      // An old file's FNV-1a checksum is not accepted as XXH3, nor the other way round.
      old[8] = 3;
      CHECK_THROWS_CONTAINING(nldr::model_from_bytes<T>(old, "old.nldr"), nldr::io_error, "checksum");
    }
  }
}

TEST_CASE("model files written by the previous version (format 1) load and place their training points",
          "[model-file]") {
  // tests/data/models: written by nldr before format 3 (the fuzz seeds of 2026-11-27, FNV-1a).
  const char* env = std::getenv("NLDR_TEST_DATA");
  const std::filesystem::path data =
      env != nullptr ? std::filesystem::path(env) : std::filesystem::path(__FILE__).parent_path().parent_path() / "data";
  for (const char* name : {"isomap-format-1.nldr", "landmark-isomap-format-1.nldr"}) {
    CAPTURE(name);
    const std::filesystem::path path = data / "models" / name;
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in.get() == 'N');
    in.seekg(8);
    CHECK(in.get() == 1);
    const auto model = nldr::load_model<double>(path.string());
    // A training point is its own nearest neighbor at distance 0, so transform gives its fitted
    // coordinates back (to the tolerance of tests/embed/transform.cpp: 1e-10 of the spread).
    const auto* isomap = model.get<nldr::IsomapModel<double>>();
    const auto* landmark = model.get<nldr::LandmarkIsomapModel<double>>();
    REQUIRE((isomap != nullptr || landmark != nullptr));
    const nldr::Matrix<double> training =
        isomap != nullptr ? isomap->training.points.points() : landmark->training.points.points();
    const double spread = (model.coordinates().colwise().maxCoeff() - model.coordinates().colwise().minCoeff()).maxCoeff();
    CHECK((model.transform(training) - model.coordinates()).cwiseAbs().maxCoeff() <= 1e-10 * spread);
  }
}

TEST_CASE("load_model reads an empty file and a non-regular file without mapping them", "[model-file]") {
  const auto path = std::filesystem::temp_directory_path() / ("nldr-test-empty-" + std::to_string(::getpid()) + ".nldr");
  { std::ofstream(path, std::ios::binary); }
  CHECK_THROWS_CONTAINING(nldr::load_model<double>(path.string()), nldr::io_error, "NLDRMODL");
  std::filesystem::remove(path);
  // /dev/null is a character device: read, not mapped, and empty.
  CHECK_THROWS_CONTAINING(nldr::load_model<double>("/dev/null"), nldr::io_error, "NLDRMODL");
}
