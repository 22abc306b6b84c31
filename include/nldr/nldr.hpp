// nldr: nonlinear dimensionality reduction. This header includes the whole public library:
// neighbor selectors, embedders, quality metrics, data sets and file I/O.
// Finer-grained headers (e.g. <nldr/neighbors/knn.hpp>) keep compile times down when only a part is used.
#pragma once

#include <nldr/core/correlation.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/precomputed.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>

#include <nldr/neighbors/components.hpp>
#include <nldr/neighbors/curvature.hpp>
#include <nldr/neighbors/curvature_adaptive.hpp>
#include <nldr/neighbors/epsilon_ball.hpp>
#include <nldr/neighbors/gaussian_pruned.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/join_components.hpp>
#include <nldr/neighbors/kdtree_box_index.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/neighbors/point_index.hpp>
#include <nldr/neighbors/selector.hpp>
#include <nldr/neighbors/shared_neighbors.hpp>
#include <nldr/neighbors/short_circuit_pruned.hpp>
#include <nldr/neighbors/shortest_paths.hpp>
#include <nldr/neighbors/spatial_index.hpp>
#include <nldr/neighbors/statistics.hpp>
// Not included here: <nldr/neighbors/rstar_box_index.hpp>, the R*-tree box index, which needs the
// optional Boost.Geometry (whose headers print deprecation notes); include it where you use it.

#include <nldr/embed/embedder.hpp>
#include <nldr/embed/embedding.hpp>
#include <nldr/embed/diffusion_maps.hpp>
#include <nldr/embed/isomap.hpp>
#include <nldr/embed/landmark_isomap.hpp>
#include <nldr/embed/laplacian_eigenmaps.hpp>
#include <nldr/embed/lle.hpp>
#include <nldr/embed/ltsa.hpp>
#include <nldr/embed/mds.hpp>
#include <nldr/embed/pca.hpp>
#include <nldr/embed/sammon.hpp>
#include <nldr/embed/smacof.hpp>
#include <nldr/embed/tsne.hpp>
#include <nldr/embed/umap.hpp>

#include <nldr/metrics/metrics.hpp>
#include <nldr/neighbors/intrinsic_dimension.hpp>
#include <nldr/registry/embedders.hpp>
#include <nldr/registry/model_file.hpp>
#include <nldr/registry/selectors.hpp>
#include <nldr/pipeline.hpp>
#include <nldr/tune/criteria.hpp>
#include <nldr/tune/sweep.hpp>

#include <nldr/datasets/registry.hpp>

#include <nldr/io/atomic_file.hpp>
#include <nldr/io/csv.hpp>
#include <nldr/io/json.hpp>
#include <nldr/io/matrix_file.hpp>
#include <nldr/io/svg.hpp>
