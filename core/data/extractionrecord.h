#pragma once

#include "data/jsonl.h"

#include <string>
#include <string_view>
#include <vector>

namespace rwb::data {

// The task name of the first paper's extraction task, as configs and JSONL lines write it.
inline constexpr std::string_view kCompanyExtractionTask = "company_extraction";

// One line of an extraction JSONL file: an e-mail, one candidate completion and the gold answer.
// {"id", "task", "sender_email", "email_text", "completion", "gold"} (+ optional "kind").
struct ExtractionRecord {
    std::string id;
    std::string task{kCompanyExtractionTask};
    std::string senderEmail;
    std::string emailText;
    std::string completion;
    std::string gold;
    std::string kind; // optional label of the bundled samples ("correct", "recipient", …)
    size_t line = 0;  // 1-based line in the file it came from
};

struct ExtractionReadOptions {
    // Report bad lines in ExtractionReadResult::skipped and go on, instead of throwing.
    bool skipInvalid = false;
    // Lines without "completion" are an error (true for scoring; a dataset of prompts may omit it).
    bool requireCompletion = true;
};

struct ExtractionReadResult {
    std::vector<ExtractionRecord> records;
    std::vector<InputError> skipped;
};

// Parses one line; throws InputException naming `source` and `lineNo` on any problem:
// not JSON, not an object, a required field missing or not a string, an unknown task.
// "id" may be a string or an integer. Unknown fields are ignored.
ExtractionRecord parseExtractionLine(std::string_view line, const std::string &source, size_t lineNo,
                                     bool requireCompletion = true);

// Parses JSONL text. Without skipInvalid the first bad line throws InputException.
ExtractionReadResult parseExtractionJsonl(std::string_view text, const std::string &source,
                                          const ExtractionReadOptions &options = {});

// Reads and parses a file (see parseExtractionJsonl).
ExtractionReadResult readExtractionJsonl(const std::string &path, const ExtractionReadOptions &options = {});

// The record as one compact JSON line (without a newline), fields in the documented order.
// Without `withCompletion` the line has no "completion" field: a dataset line of prompts
// and golds, as `rwb data synth` writes them.
std::string toJsonLine(const ExtractionRecord &record, bool withCompletion = true);

} // namespace rwb::data
