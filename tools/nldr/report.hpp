// JSON pieces shared by the tool's --json reports.
#pragma once

#include <nldr/nldr.hpp>

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace nldr_tool {

/// {"stage": seconds, ..., "total": seconds}: wall time per stage in the order they ran.
inline nldr::io::JsonValue times_json(const nldr::StageTimes& times) {
  nldr::io::JsonValue json = nldr::io::JsonValue::object();
  for (const auto& [stage, seconds] : times.stages) json[stage] = seconds;
  json["total"] = times.total();
  return json;
}

/// The graph's size, degrees, components and, for pruning selectors, what the selector did.
inline nldr::io::JsonValue graph_json(const nldr::NeighborGraph<double>& graph) {
  const nldr::GraphStatistics stats = nldr::graph_statistics(graph);
  const nldr::SelectionReport& selection = graph.selection();
  nldr::io::JsonValue json = nldr::io::JsonValue::object();
  json["selector"] = selection.selector;
  if (!selection.search.empty()) {
    json["search"] = selection.search;
    json["exact"] = selection.search != nldr::search_name(nldr::NeighborSearch::hnsw);
  }
  json["points"] = stats.points;
  json["edges"] = stats.edges;
  json["symmetric"] = stats.symmetric;
  json["min_degree"] = stats.min_degree;
  json["max_degree"] = stats.max_degree;
  json["mean_degree"] = stats.mean_degree;
  json["mean_edge_length"] = stats.mean_edge_length;
  json["components"] = stats.components.count();
  json["candidate_edges"] = selection.candidate_edges;
  json["pruned_edges"] = selection.pruned_edges;
  json["reconnected_edges"] = selection.reconnected_edges;
  json["joined_edges"] = selection.joined_edges;
  json["fallback_points"] = selection.fallback_points;
  if (selection.estimated_recall) json["estimated_recall"] = *selection.estimated_recall;
  return json;
}

/// The stderr line about the neighbor search ("" for a graph that names none): which search ran,
/// and for an approximate graph its estimated recall and how to get the exact one.
inline std::string search_note(const nldr::SelectionReport& selection) {
  if (selection.search.empty()) return "";
  if (selection.search != nldr::search_name(nldr::NeighborSearch::hnsw))
    return "nldr: neighbor search: " + selection.search + " (exact)";
  std::string note = "nldr: neighbor search: hnsw, approximate";
  if (selection.estimated_recall) {
    char recall[32];
    std::snprintf(recall, sizeof recall, " (estimated recall %.3f)", *selection.estimated_recall);
    note += recall;
  }
  return note + "; --selector knn --search exact gives the exact graph";
}

/// Every field of a quality report, under the names docs/metrics.md uses (QualityReport::visit).
inline nldr::io::JsonValue quality_json(const nldr::metrics::QualityReport& q) {
  nldr::io::JsonValue json = nldr::io::JsonValue::object();
  q.visit([&json]<class Value>(const char* name, const Value& value) {
    if constexpr (std::is_same_v<Value, std::optional<double>>) {
      json[name] = value ? nldr::io::JsonValue(*value) : nldr::io::JsonValue(nullptr);
    } else if constexpr (std::is_same_v<Value, std::vector<double>>) {
      nldr::io::JsonValue list = nldr::io::JsonValue::array();
      for (double x : value) list.push_back(x);
      json[name] = std::move(list);
    } else {
      json[name] = value;
    }
  });
  return json;
}

/// {"name": "value text", ...}: parameters as the registry resolved them (defaults included).
inline nldr::io::JsonValue parameters_json(const nldr::ParameterValues& values) {
  nldr::io::JsonValue json = nldr::io::JsonValue::object();
  for (const auto& [name, value] : values) json[name] = value;
  return json;
}

/// A model's method-specific results by name (numbers, counts, texts, short lists).
inline nldr::io::JsonValue results_json(const std::vector<std::pair<std::string, nldr::ResultValue>>& results) {
  nldr::io::JsonValue json = nldr::io::JsonValue::object();
  for (const auto& [name, value] : results)
    std::visit(
        [&, name = name](const auto& v) {
          using V = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<V, std::vector<double>>) {
            nldr::io::JsonValue list = nldr::io::JsonValue::array();
            for (double x : v) list.push_back(x);
            json[name] = std::move(list);
          } else if constexpr (std::is_same_v<V, double>) {
            if (std::isfinite(v)) json[name] = v;
            else json[name] = nullptr;  // NaN (undefined) has no JSON number
          } else {
            json[name] = v;
          }
        },
        value);
  return json;
}

/// Adds the run's resource figures: per-stage times and the process's peak resident memory.
inline void add_resources(nldr::io::JsonValue& json, const nldr::StageTimes& times) {
  json["times"] = times_json(times);
  json["peak_memory_bytes"] = nldr::peak_memory_bytes();
  json["threads"] = nldr::max_threads();
}

}  // namespace nldr_tool
