// All of nldr::metrics (quality measures of an embedding); see docs/metrics.md.
#pragma once

#include <nldr/metrics/coranking.hpp>
#include <nldr/metrics/geodesics.hpp>
#include <nldr/metrics/input.hpp>
#include <nldr/metrics/knn_error.hpp>
#include <nldr/metrics/konig.hpp>
#include <nldr/metrics/mrre.hpp>
#include <nldr/metrics/pairs.hpp>
#include <nldr/metrics/quality_report.hpp>
#include <nldr/metrics/ranks.hpp>
#include <nldr/metrics/residual_variance.hpp>
#include <nldr/metrics/spearman.hpp>
#include <nldr/metrics/stress.hpp>
#include <nldr/metrics/trustworthiness.hpp>
