// The main example: unroll a Swiss roll, print how good the result is, draw it.
// Usage: swiss_roll [picture.svg]
#include <nldr/nldr.hpp>

#include <cstdio>
#include <exception>
#include <string>

int main(int argc, char** argv) {
  const std::string picture = argc > 1 ? argv[1] : "swiss_roll.svg";
  try {
    // 2000 points on a rolled-up 2-D sheet in 3-D, with the sheet's true coordinates.
    const auto roll = nldr::datasets::generate<double>("swiss-roll", {.n = 2000, .seed = 1});

    // Step 1: neighbors. Step 2 and 3: the Isomap matrix and its eigenproblem.
    const auto graph = nldr::KNearest{.k = 10}(roll.points);
    const auto embedding = nldr::Isomap{{.dim = 2}}.fit(roll.points, graph);

    // How well are neighborhoods and distances kept? (docs/metrics.md explains each figure.)
    const auto quality = nldr::metrics::quality_report(roll.points, embedding.coordinates, {.k = 10}, roll.intrinsic);
    std::printf("Isomap of a %d-point Swiss roll, kNN graph with k = 10 (%lld edges)\n", int(roll.size()),
                static_cast<long long>(graph.num_edges()));
    std::printf("  trustworthiness          %.4f  (1 best)\n", quality.trustworthiness);
    std::printf("  continuity               %.4f  (1 best)\n", quality.continuity);
    std::printf("  R_NX(10)                 %.4f  (1 best, 0 random)\n", quality.r_nx);
    std::printf("  residual variance, truth %.4f  (0 best: distances in the embedding vs on the sheet)\n",
                *quality.residual_variance_truth);
    std::printf("  time                     %.3f s\n", embedding.times.total());

    nldr::io::write_scatter_svg(picture, embedding.coordinates, roll.parameter,
                                {.title = "Isomap unrolls the Swiss roll", .color_label = "roll angle t"});
    std::printf("picture: %s\n", picture.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "swiss_roll: %s\n", e.what());
    return 1;
  }
}
