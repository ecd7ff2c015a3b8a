#pragma once

#include "data/jsonl.h"

#include <string>
#include <string_view>
#include <vector>

namespace rwb::data {

// The task name of the first paper's extraction task, as configs and JSONL lines write it.
inline constexpr std::string_view kCompanyExtractionTask = "company_extraction";

// One line of an extraction JSONL file: an e-mail, one candidate completion and the gold answer.
// {"id", "task", "sender_email", "email_text", "completion", "gold"} (+ optional "kind",
// "recipient_company" and "other_companies").
struct ExtractionRecord {
    std::string id;
    std::string task{kCompanyExtractionTask};
    std::string senderEmail;
    std::string emailText;
    std::string completion;
    std::string gold;
    std::string kind; // optional label of the bundled samples ("correct", "recipient", …)
    // Optional, written by `rwb data synth`: the recipient's company ("" when the e-mail
    // names none) and every other company the e-mail names that is neither the sender's
    // nor the recipient's, each in its most detailed form. The failure analysis uses them
    // instead of guessing (tasks/extraction/emailfailures.h). partiesKnown is true when the line had
    // either field; toJsonLine writes both fields then, and neither otherwise.
    bool partiesKnown = false;
    std::string recipientCompany;
    std::vector<std::string> otherCompanies;
    // Optional "reasoning": a thinking trace that leads to the gold, for SFT in the paper's
    // thinking format (fig. 3: <thinking>reasoning</thinking><answer>gold</answer>);
    // `rwb data synth --reasoning templated` writes one. Written only when not empty.
    std::string reasoning;
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
// "id" may be a string or an integer. Unknown fields are ignored. "recipient_company"
// (a string), "other_companies" (an array of strings) and "reasoning" (a string) are
// optional; any of them of the wrong type is an error naming it.
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
