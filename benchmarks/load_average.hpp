// The machine's 1- and 5-minute load averages ("0.52 1.31"), which a benchmark prints beside its timings so
// that a run on an idle machine can be told from one under load.
#pragma once

#include <fstream>
#include <string>

inline std::string load_average() {
  std::ifstream file("/proc/loadavg");
  std::string one, five;
  file >> one >> five;
  return one + " " + five;
}
