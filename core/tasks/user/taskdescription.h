#pragma once

// A user's task described in JSON, no code (docs/your-task.md): how to read the user's
// records, what the reference is, how to find the answer in a reply, which generic reward
// components (reward/library/library.h) measure it and which failure categories the
// failure explorer groups predictions by. For example
//
//   {"name": "invoice_total",
//    "description": "the total of a generated invoice",
//    "records": "trl",                       // trl | verl | openrlhf | auto (the default)
//    "prompt": "prompt",                     // the column with the prompt (text or messages)
//    "reference": "solution",                // the column with the reference answer
//    "system": "Answer with \\boxed{...}.",  // optional: a system message first
//    "answer": {"extract": "boxed"},         // whole | boxed | tag | regex | json_field
//    "metrics": [{"reward": "numeric", "name": "accuracy"}],
//    "failures": [{"key": "no_answer", "name": "no answer", "when": "no_answer"},
//                 {"key": "wrong", "name": "wrong total", "when": "accuracy"}]}
//
// Read by parseTaskDescription, which checks every field and names it in its message; a
// description is what a reward config's "task" may be instead of a task's name
// (reward/rewardconfig.h), and what a run store keeps with a run of it.

#include <cstddef>
#include <string>
#include <vector>

namespace rwb::task {

// The record shapes a user's data comes in.
enum class RecordShape {
    Trl,      // TRL: "prompt" text (standard) or messages (conversational); other columns kept
    Verl,     // verl's parquet rows as JSONL: "prompt" messages, "reward_model": {"ground_truth"}, "data_source", "extra_info"
    OpenRlhf, // OpenRLHF: "input" (its --input_key) and "label" (--label_key)
};

// How a reply's answer is found (Completion::answer).
struct AnswerExtractor {
    enum class Kind { Whole, Boxed, Tag, Regex, JsonField };
    Kind kind = Kind::Whole;
    std::string tag = "answer"; // Tag: the last <tag>…</tag>
    std::string pattern;        // Regex: the last match; its group `group` (0 = the whole match)
    int group = 1;
    std::string field;          // JsonField: a dotted path into the reply's JSON object
};

// A component of the reward library measuring predictions (an evaluation metric, and what
// failure categories test).
struct TaskMetric {
    std::string name;    // the metric's name ("accuracy"; eval/<name> in the store)
    std::string reward;  // the library component ("exact_match")
    std::string options; // its options, a JSON object's text ("" none)
};

// A failure category: "when" names a metric that fell below `below` (1 by default), or
// "no_answer" (the extractor found none).
struct TaskFailure {
    std::string key;
    std::string name;
    std::string explanation;
    std::string when;
    double below = 1.0;
};

struct TaskDescription {
    std::string name;
    std::string description;
    RecordShape records = RecordShape::Trl;
    bool recordsAuto = true;  // "auto": the shape of each line decided by its fields
    std::string prompt;       // the prompt column ("" = the shape's own)
    std::string reference;    // the reference column ("" = the shape's own)
    std::string id;           // the id column ("" = "id" when there, else the line number)
    std::string system;       // a system message put first ("" none)
    std::string sftTarget;    // what SFT trains on: a column, or a template with {column}s ("" = the reference)
    AnswerExtractor answer;
    std::vector<TaskMetric> metrics; // at least one; the first is the headline
    std::vector<TaskFailure> failures;
    std::string baseDir;      // the folder relative paths in metric options resolve against

    // The description as JSON (the documented keys; base_dir absolute), what a run keeps.
    std::string toJson() const;
};

// Reads and checks a description. Throws data::InputException naming `source` and the
// field ("metrics[1].reward: unknown reward …"): a missing name, a name that is not
// lower_case_words, an unknown key, a record shape, an extractor or a metric reward that
// does not exist, bad metric options, a regex that does not compile, a failure whose
// "when" names no metric. `baseDir` resolves relative paths (a stored description's own
// "base_dir" wins).
TaskDescription parseTaskDescription(const std::string &json, const std::string &source, const std::string &baseDir);

} // namespace rwb::task
