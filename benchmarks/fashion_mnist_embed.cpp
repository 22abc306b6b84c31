// Fashion-MNIST end to end (docs/fashion-mnist.md): the training images embedded by a registry
// method on the HNSW neighbor graph, the test images placed by the model's transform, and the
// embedding judged by what it keeps of the classes and of the neighborhoods.
//
//   bench_fashion_mnist_embed --method M [--train 60000] [--test 10000] [--k 15] [--dims 2,10]
//                             [--pca P] [--ef 0] [--sample 5000] [--plot PREFIX] [--dir DIR]
//
// Stages, each timed: reading the IDX files (benchmarks/idx_reader.hpp; pixels / 255, float);
// with --pca P, PCA to P dimensions fit on the training images (randomized SVD) and applied to
// the test images; the kNN graph of the training images (ApproximateKNearest, k, ef; its
// estimated recall); then for each d of --dims: the fit of M on that graph, the transform of the
// test images, the 10-NN classification accuracy of the embedding (each test image gets the
// majority class of its 10 nearest training images in the embedding; ties: the smallest class),
// the same leave-one-out on the training images alone (comparable with an embedding that has no
// transform, benchmarks/fashion_mnist_spectral_sklearn.py) and the trustworthiness T(10) of a
// seeded sample of --sample training images (embedding against the 784 pixels). With --plot, PREFIX-d2.png (or .svg) shows the 2-D training embedding colored
// by class. Prints one JSON line per d, peak memory (VmHWM) included.
#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/embed/pca.hpp>
#include <nldr/io/plot.hpp>
#include <nldr/metrics/trustworthiness.hpp>
#if defined(NLDR_HAVE_HNSWLIB)
#include <nldr/neighbors/approximate_knn.hpp>
#endif
#include <nldr/neighbors/knn.hpp>
#include <nldr/neighbors/point_index.hpp>
#include <nldr/registry/embedders.hpp>

#include "idx_reader.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using Matrix = nldr::Matrix<float>;

const std::vector<std::string> class_names{"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                           "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};

std::map<std::string, std::string> parse(int argc, char** argv) {
  std::map<std::string, std::string> options;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg.size() < 3 || arg.rfind("--", 0) != 0 || a + 1 >= argc)
      throw std::runtime_error("expected --name value, got " + arg);
    options[arg.substr(2)] = argv[++a];
  }
  return options;
}

std::string option(const std::map<std::string, std::string>& options, const std::string& key, const std::string& fallback) {
  const auto found = options.find(key);
  return found == options.end() ? fallback : found->second;
}

/// Peak resident memory of this process so far (VmHWM), MiB.
double peak_rss_mib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  return 0;
}

/// The class most of `neighbors` have (ties: the smallest class).
template <class Indices>
int majority_class(const std::vector<int>& labels, const Indices& neighbors) {
  std::array<int, 10> votes{};
  for (const auto j : neighbors) ++votes[std::size_t(labels[std::size_t(j)])];
  return int(std::max_element(votes.begin(), votes.end()) - votes.begin());  // the first maximum
}

/// Fraction of test rows whose 10 nearest training rows (in the embedding) vote their class.
double knn_accuracy(const Matrix& train, const std::vector<int>& train_labels, const Matrix& test,
                    const std::vector<int>& test_labels) {
  const nldr::PointIndex<float> index(train);
  const auto lists = index.nearest(test, 10, "the test embedding");
  std::size_t correct = 0;
  for (std::size_t q = 0; q + 1 < lists.offsets.size(); ++q) {
    const std::span<const nldr::index_t> neighbors(lists.indices.data() + lists.offsets[q],
                                                   std::size_t(lists.offsets[q + 1] - lists.offsets[q]));
    correct += majority_class(train_labels, neighbors) == test_labels[q];
  }
  return double(correct) / double(test.rows());
}

/// Fraction of training rows whose 10 nearest other training rows (in the embedding) vote their
/// class: what an embedding without transform can be judged by (scikit-learn's SpectralEmbedding).
double leave_one_out_accuracy(const Matrix& Y, const std::vector<int>& labels) {
  const auto graph = nldr::KNearest{10}(Y);
  std::size_t correct = 0;
  for (nldr::index_t i = 0; i < graph.size(); ++i)
    correct += majority_class(labels, graph.neighbors(i)) == labels[std::size_t(i)];
  return double(correct) / double(Y.rows());
}

/// T(10) of a seeded sample of `sample` rows: the embedding against the images.
double sampled_trustworthiness(const Matrix& images, const Matrix& Y, nldr::index_t sample) {
  const auto n = nldr::index_t(images.rows());
  std::vector<nldr::index_t> rows(static_cast<std::size_t>(n));
  for (nldr::index_t i = 0; i < n; ++i) rows[i] = i;
  nldr::Random random(7);
  const nldr::index_t m = std::min(sample, n);
  for (nldr::index_t i = 0; i < m; ++i) std::swap(rows[i], rows[i + nldr::index_t(random.below(std::uint64_t(n - i)))]);
  rows.resize(std::size_t(m));
  std::sort(rows.begin(), rows.end());
  Matrix X_sample(m, images.cols()), Y_sample(m, Y.cols());
  for (nldr::index_t i = 0; i < m; ++i) X_sample.row(i) = images.row(rows[i]), Y_sample.row(i) = Y.row(rows[i]);
  return nldr::metrics::trustworthiness(X_sample, Y_sample, 10);
}

std::vector<nldr::index_t> parse_dims(const std::string& text) {
  std::vector<nldr::index_t> dims;
  std::stringstream list(text);
  for (std::string item; std::getline(list, item, ',');) dims.push_back(nldr::index_t(std::stol(item)));
  return dims;
}

}  // namespace

int main(int argc, char** argv) try {
#if !defined(NLDR_HAVE_HNSWLIB)
  throw std::runtime_error("built without hnswlib (apt-get install libhnswlib-dev, then reconfigure)");
#endif
  const auto options = parse(argc, argv);
  const std::string method_name = option(options, "method", "");
  if (method_name.empty())
    throw std::runtime_error("usage: bench_fashion_mnist_embed --method M [--train 60000] [--test 10000] [--k 15] "
                             "[--dims 2,10] [--pca P] [--ef 0] [--sample 5000] [--plot PREFIX] [--dir DIR]");
  const nldr::EmbedderInfo& method = nldr::find_embedder(method_name);
  const std::string dir = option(options, "dir", "/usr/share/datasets/fashion-mnist");
  const long n_train = std::stol(option(options, "train", "60000")), n_test = std::stol(option(options, "test", "10000"));
  const auto k = nldr::index_t(std::stol(option(options, "k", "15")));
  const auto pca_dim = nldr::index_t(std::stol(option(options, "pca", "0")));
  const auto sample = nldr::index_t(std::stol(option(options, "sample", "5000")));
  const std::string plot = option(options, "plot", "");

  nldr::StageTimes times;
  nldr::Stopwatch clock;
  const Matrix train_images = bench_idx::read_images<float>(dir + "/train-images-idx3-ubyte.gz", n_train);
  const Matrix test_images = bench_idx::read_images<float>(dir + "/t10k-images-idx3-ubyte.gz", n_test);
  const auto train_labels = bench_idx::read_labels(dir + "/train-labels-idx1-ubyte.gz", n_train);
  const auto test_labels = bench_idx::read_labels(dir + "/t10k-labels-idx1-ubyte.gz", n_test);
  times.add("read", clock.seconds());

  Matrix train = train_images, test = test_images;
  double explained = 1;
  if (pca_dim > 0) {
    clock.restart();
    const auto pca = nldr::Pca{{.dim = pca_dim, .algorithm = nldr::PcaAlgorithm::randomized, .seed = 1}}.fit(train_images);
    train = pca.coordinates;
    test = pca.transform(test_images);
    explained = double(pca.explained_variance_ratio.sum());
    times.add("pca", clock.seconds());
  }

  clock.restart();
#if defined(NLDR_HAVE_HNSWLIB)
  const auto graph = nldr::ApproximateKNearest{.k = k, .ef = nldr::index_t(std::stol(option(options, "ef", "0")))}(train);
#else
  const auto graph = nldr::KNearest{k}(train);
#endif
  times.add("graph", clock.seconds());
  const double recall = graph.selection().estimated_recall.value_or(-1);

  for (const nldr::index_t dim : parse_dims(option(options, "dims", "2,10"))) {
    nldr::StageTimes stages = times;
    clock.restart();
    const auto model = method.fit<float>({.points = &train, .graph = &graph}, {{"dim", std::to_string(dim)}});
    stages.add("fit", clock.seconds());
    clock.restart();
    const Matrix placed = model.transform(test);
    stages.add("transform", clock.seconds());
    const double accuracy = knn_accuracy(model.coordinates(), train_labels, placed, test_labels);
    const double trust = sampled_trustworthiness(train_images, model.coordinates(), sample);
    const double training_accuracy = leave_one_out_accuracy(model.coordinates(), train_labels);
    if (!plot.empty() && dim == 2) {
      nldr::Vector<double> classes(model.coordinates().rows());
      for (Eigen::Index i = 0; i < classes.size(); ++i) classes[i] = train_labels[std::size_t(i)];
      nldr::io::ScatterOptions scatter{.title = method_name + (pca_dim > 0 ? " on PCA-" + std::to_string(pca_dim) : "") +
                                                " of Fashion-MNIST (" + std::to_string(n_train) + " training images)",
                                       .color_label = "class",
                                       .category_names = class_names};
      nldr::io::write_scatter_plot(plot + "-d2" + (nldr::io::cairo_available ? ".png" : ".svg"), model.coordinates(),
                                   classes, scatter);
    }
    std::printf("{\"method\": \"%s\", \"pca\": %d, \"explained_variance\": %.4f, \"train\": %ld, \"test\": %ld, "
                "\"k\": %d, \"estimated_recall\": %.4f, \"dim\": %d, \"accuracy_10nn\": %.4f, \"training_accuracy_10nn\": %.4f, "
                "\"trustworthiness_10\": %.4f, "
                "\"peak_rss_mib\": %.0f, \"threads\": %d, \"seconds\": {",
                method_name.c_str(), int(pca_dim), explained, long(train.rows()), long(test.rows()), int(k), recall,
                int(dim), accuracy, training_accuracy, trust, peak_rss_mib(), nldr::max_threads());
    const char* separator = "";
    for (const auto& [stage, seconds] : stages.stages) {
      std::printf("%s\"%s\": %.3f", separator, stage.c_str(), seconds);
      separator = ", ";
    }
    std::printf("}}\n");
    std::fflush(stdout);
  }
  return 0;
} catch (const std::exception& e) {
  std::cerr << "bench_fashion_mnist_embed: " << e.what() << "\n";
  return 1;
}
