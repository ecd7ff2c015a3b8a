#pragma once

#include "data/jsonl.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::data {

// The task name of the legal-QA task (the second paper), as configs and JSONL lines write it.
inline constexpr std::string_view kLegalQaTask = "legal_qa";

// One concrete fact of a legal section: a slot ("deadline") and its value as the
// section writes it ("30日以内"). In a question, lawCode names the section that states it.
struct LegalFact {
    int64_t lawCode = 0;
    std::string slot;
    std::string value;
};

// Every value each slot takes in a corpus: slot → values as written, sorted, no repeats.
// The reference grader (tasks/legalqa/legalgrader.h) uses it to recognise a wrong value.
using SlotUniverse = std::map<std::string, std::vector<std::string>>;

// A passage a retriever put in the question's prompt (`rwb retrieve annotate` writes them
// as "retrieved": [{"id", "title", "text", "score"}], the id being the law code).
struct RetrievedSection {
    int64_t lawCode = 0;
    std::string title;
    std::string text;
    double score = 0.0;
};

// One line of a legal-QA JSONL file:
// {"id", "task", "question", "reference_answer", "law_codes", "facts", "kind", "pattern",
//  "label", "statutes", "reasoning", "slot_values", "retrieved"} (+ "completion" when a
// model's output is to be scored).
struct LegalQuestion {
    std::string id;
    std::string task{kLegalQaTask};
    std::string question;
    std::string referenceAnswer;
    // The gold sections (law codes), in the order of the statute; never repeated.
    std::vector<int64_t> lawCodes;
    // The facts the reference answer states, each with the section that states it.
    std::vector<LegalFact> facts;
    std::string kind;    // "single" (one section) or "multi" (two or three); optional
    std::string pattern; // how the generator built it ("single", "special", "penalty", …); optional
    std::string label;   // what kind of completion a bundled sample is ("right", "bad_xml", …); optional
    std::vector<std::string> statutes; // statute ids of the gold sections ("S03"); optional
    std::string reasoning;             // a short reasoning for SFT targets; optional
    // A rubric for rubric rewards (judge/rubric.h: RaR or HealthBench items), as JSON
    // text; optional ("" when none). `rwb rubric generate` writes it.
    std::string rubric;
    // Every value the corpus has for each slot of the facts ("slot_values": {"deadline":
    // ["14日以内", …]}), so that a wrong value is recognised without the corpus; optional.
    SlotUniverse slotValues;
    // The sections in the prompt, best first ("retrieved"); optional (none: no context).
    std::vector<RetrievedSection> retrieved;
    bool hasCompletion = false;
    std::string completion; // a model's output to score; optional
    size_t line = 0;        // 1-based line in the file it came from
};

struct LegalQuestionReadOptions {
    // Report bad lines in LegalQuestionReadResult::skipped and go on, instead of throwing.
    bool skipInvalid = false;
    // Lines without "completion" are an error (for scoring).
    bool requireCompletion = false;
};

struct LegalQuestionReadResult {
    std::vector<LegalQuestion> questions;
    std::vector<InputError> skipped;
};

// Parses one line; throws InputException "source:lineNo: reason" naming the field on any
// problem: not JSON, not an object, "id" neither a string nor an integer, "task" other
// than legal_qa, "question" or "reference_answer" missing or not a string ("question" also
// when empty), "law_codes" missing, not an array of integers or repeating a code, "facts"
// not an array of {"law_code": integer, "slot": string, "value": string} objects or naming
// a law code that "law_codes" does not list, "kind" / "pattern" / "label" / "reasoning" /
// "completion" not strings, "statutes" not an array of strings. Unknown fields are ignored.
LegalQuestion parseLegalQuestionLine(std::string_view line, const std::string &source, size_t lineNo,
                                     bool requireCompletion = false);

// Parses JSONL text. Without skipInvalid the first bad line throws InputException.
LegalQuestionReadResult parseLegalQuestions(std::string_view text, const std::string &source,
                                            const LegalQuestionReadOptions &options = {});

// Reads and parses a file (see parseLegalQuestions); throws InputException (line 0) when
// the file cannot be read.
LegalQuestionReadResult readLegalQuestions(const std::string &path, const LegalQuestionReadOptions &options = {});

// The question as one compact JSON line (no newline), fields in the documented order;
// optional fields only when set, "completion" only when hasCompletion.
std::string toJsonLine(const LegalQuestion &question);

} // namespace rwb::data
