#pragma once

#include "data/jsonl.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::data {

// One record of a CSV file and the line it starts on (1-based).
struct CsvRecord {
    size_t line = 0;
    std::vector<std::string> fields;
};

// Parses CSV as RFC 4180 writes it (and pandas' to_csv, and wandb's table export): fields
// separated by commas, records by CRLF or LF; a field in double quotes may hold commas,
// line breaks and "" for a quote. A UTF-8 BOM at the start is skipped, and so are empty
// lines. Throws InputException {source, line, reason} for an unterminated quoted field
// ("a quoted field opened here is never closed"), a quote inside an unquoted field or text
// after a closing quote (both with their column).
std::vector<CsvRecord> parseCsv(std::string_view text, const std::string &source);

} // namespace rwb::data
