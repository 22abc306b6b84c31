// CSV input and output: read_csv / parse_csv (csv_read.hpp), write_csv / CsvWriter (csv_write.hpp).
#pragma once

#include <nldr/io/csv_read.hpp>
#include <nldr/io/csv_write.hpp>
