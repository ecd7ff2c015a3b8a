#pragma once

// The prompts of each kind of LLM judge and the parsers of their replies. For each kind:
//   - a builder of the request's messages (one system and one user message),
//   - a parser of the reply text into a verdict, which throws VerdictError (verdict.h)
//     naming the field when the reply cannot be read (the caller records a parse failure,
//     and that completion's reward is None, never a silent 0),
//   - a JSON schema for response_format json_schema (servers that ignore it, or whose
//     grammar fails, still answer: the parser validates every reply itself).
// Kinds: one rubric item per call (HealthBench's style; binary or 0–10), all rubric items
// in one call, RaR-Implicit (one rating for the whole rubric), Simple-Likert and
// Reference-Likert ratings, and legal coverage + contradiction in one call (NitiBench).
//
// Prompts are English instructions; the texts judged may be Japanese and every prompt says
// so. The text is deterministic, a pure function of the arguments (no dates, no random
// examples, numbers written the same under any C locale), because a request's messages are
// part of its cache key: changing a prompt's wording invalidates cached verdicts, so do it
// on purpose. The inputs are inserted verbatim between <tag>…</tag> lines; they are not
// escaped (a response containing "</response>" can confuse a judge, as with any template).
//
// Every parser reads the reply with extractJson (bare, fenced or embedded JSON object) and
// reports where the object was, for a viewer to highlight. No Qt; all functions are pure
// and may be called from any thread.

#include "judge/chat.h"
#include "judge/rubric.h"
#include "judge/verdict.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::judge {

// Where in the reply the verdict's JSON object was (JsonExtract's form and byte range).
struct JsonLocation {
    JsonExtract::Form form = JsonExtract::Form::Bare;
    size_t begin = 0, end = 0;
};

// A response_format json_schema: copy into SamplingParams::schemaName and ::schema (with
// responseFormat = JsonSchema). The schema is JSON text, compact and deterministic, with
// properties in the order the prompt asks for them (strict servers generate them in that
// order, so explanations come before verdicts). It uses only keywords OpenAI's strict mode
// accepts: every property required, additionalProperties false, enums for bounded
// integers instead of minimum / maximum.
struct JudgeSchema {
    std::string name;   // json_schema.name
    std::string schema; // json_schema.schema
};

// The request a judge reward sends for `messages`: the client's sampling parameters
// (`sampling`), with the schema as json_schema when they ask for json_schema replies, and
// logprobs (at least the top 5) when the score is read by G-Eval (`geval`). Anything that
// means to hit the rewards' cache (rwb judge eval) builds its requests with it too.
ChatRequest rewardRequest(const SamplingParams &sampling, std::vector<ChatMessage> messages, const JudgeSchema &schema,
                          bool geval);

// The text of the key the score follows in each reply shape, for gevalScore's afterKey:
// gevalScore(tokens, 1, 10, kRatingKey) for the rating kinds, gevalScore(tokens, 0, 10,
// kItemScoreKey) / 10 for a continuous rubric item.
inline constexpr std::string_view kRatingKey = "\"rating\"";
inline constexpr std::string_view kItemScoreKey = "\"score\"";

// ---- One rubric item per call (explicit aggregation) -------------------------------------

enum class ItemMode {
    Binary,     // {"explanation": str, "criteria_met": bool} → c = 0 or 1
    Continuous, // {"explanation": str, "score": 0–10} → c = score / 10
};

// HealthBench's per-item grader, reworded: the question, the optional reference answer
// (empty = none; shown as facts to check against, not as the thing graded), the response,
// and the item as "[weight] criterion". For a pitfall the prompt adds that the criterion
// describes a mistake and that "met" (or a high score) means the response makes it, so the
// verdict keeps rubric.h's convention: c = the criterion as written is met.
std::vector<ChatMessage> rubricItemMessages(std::string_view question, std::string_view response,
                                            const RubricItem &item, ItemMode mode, std::string_view reference = {});

struct ItemVerdict {
    double c = 0.0;               // the verdict for explicitScore: 0 / 1, or score / 10
    std::optional<bool> met;      // Binary: criteria_met
    std::optional<double> score;  // Continuous: the 0–10 score as written
    std::string explanation;      // "" when the reply has none
    JsonLocation location;
};

// Binary: "criteria_met" read by readBool (true / false, or "yes", "met", "present", …).
// Continuous: "score" read by readNumber within 0–10 (numbers and numeric strings; a
// fraction such as 7.5 is accepted). "explanation" is optional: missing or null gives "",
// a non-string is kept as its JSON text. Throws VerdictError.
ItemVerdict parseRubricItemReply(std::string_view reply, ItemMode mode);

// "rubric_item_verdict" (Binary) or "rubric_item_score" (Continuous).
JudgeSchema rubricItemSchema(ItemMode mode);

// ---- All rubric items in one call --------------------------------------------------------

// The items numbered 1..k, each as "k. [Category, weight w] criterion", with a note on
// pitfalls when the rubric has any; asks for one {"id", "explanation", "met"} per item.
// Throws std::invalid_argument on an empty rubric.
std::vector<ChatMessage> rubricAllItemsMessages(std::string_view question, std::string_view response,
                                                const Rubric &rubric, std::string_view reference = {});

struct AllItemsVerdict {
    std::vector<bool> met;                 // met[i]: item i + 1, in rubric order
    std::vector<std::string> explanations; // "" where none was given (always, in the fallback form)
    bool usedFallback = false;             // the reply was the {"1": …} object form
    JsonLocation location;

    // 0 / 1 per item, for explicitScore.
    std::vector<std::optional<double>> verdicts() const;
};

// Strict form: {"items": [{"id": 1, "met": bool, "explanation": str}, …]}, ids integers
// (or numeric strings) 1..itemCount, "met" read by readBool, "explanation" optional as for
// a single item; entries in any order.
// Fallback form (RuscaRL's), used when there is no "items" key: an object whose every key
// is an id, {"1": true, "2": "PRESENT", "3": "absent", …}, values read by readBool.
// Every id must be answered exactly once. Throws VerdictError on an id out of range or not
// an integer ("items[4].id is 9, not within 1–5"), an id answered twice, and ids left
// unanswered ("no verdict for ids 2, 5 (the rubric has 5 items)"); std::invalid_argument
// when itemCount is 0.
AllItemsVerdict parseRubricAllItemsReply(std::string_view reply, size_t itemCount);

// "rubric_verdicts", ids as an enum of 1..itemCount.
JudgeSchema rubricAllItemsSchema(size_t itemCount);

// ---- One rating per call: RaR-Implicit, Simple-Likert, Reference-Likert -------------------

// RaR-Implicit: the question, the response and the rubric (items with category and
// weight; no reference answer, as in the paper); asks for one overall rating 1–10.
// Throws std::invalid_argument on an empty rubric.
std::vector<ChatMessage> rubricImplicitMessages(std::string_view question, std::string_view response,
                                                const Rubric &rubric);
// Simple-Likert: the question and the response; a 1–10 rating of overall quality.
std::vector<ChatMessage> likertSimpleMessages(std::string_view question, std::string_view response);
// Reference-Likert: the question, an expert's reference answer and the response; a 1–10
// rating of the response against the reference. Throws std::invalid_argument when the
// reference is empty.
std::vector<ChatMessage> likertReferenceMessages(std::string_view question, std::string_view reference,
                                                 std::string_view response);

struct RatingVerdict {
    double rating = 1.0; // as the judge wrote it, within 1–10
    double unit = 0.0;   // likertToUnit(rating): (rating − 1) / 9
    JsonLocation location;
};

// {"rating": 1–10}, read by readNumber: integers are asked for, but a number with a
// fraction within range (7.5, "7.5") is accepted as it is, not rounded. Outside 1–10 is a
// VerdictError ("rating is 0, not within 1–10"), not clamped: a judge that ignores the
// scale is not trusted with the rest either. Throws VerdictError.
RatingVerdict parseRatingReply(std::string_view reply);

// "rating", the rating as an enum of 1..10.
JudgeSchema ratingSchema();

// ---- Legal QA: coverage and contradiction (NitiBench) -----------------------------------

// The question, the reference answer and the student's answer (the completion judged).
// The judge first lists the atomic points of both answers, then grades coverage (how many
// reference points the student states: none, some, all) and contradiction (whether any
// student point conflicts with a reference point). Throws std::invalid_argument when the
// reference is empty.
std::vector<ChatMessage> legalCoverageMessages(std::string_view question, std::string_view reference,
                                               std::string_view answer);

struct LegalVerdict {
    double coverage = 0.0;      // 0 (no-coverage), 0.5 (partial-coverage), 1 (full-coverage)
    bool contradiction = false; // the consistency reward is 1 − contradiction
    std::vector<std::string> studentPoints, referencePoints;
    std::string pointThought, coverageThought, contradictionThought; // "" when missing
    // The reply was not exactly the shape asked for but the fallback rules read it.
    bool usedFallback = false;
    JsonLocation location;
};

// Strict shape: {"point_thought": str, "student_points": [str], "reference_points": [str],
// "coverage": {"thought": str, "score": "no-coverage"|"partial-coverage"|"full-coverage"},
// "contradiction": {"thought": str, "score": "no-contradiction"|"contradiction"}}.
// Fallback (each sets usedFallback):
//   - coverage.score: the labels with any ASCII case and ' ' or '_' for '-' ("Full
//     Coverage", "partial_coverage"); "none" / "no", "partial", "full"; the numbers (or
//     numeric strings) 0, 0.5, 1 and 0, 50, 100 (NitiBench's scale);
//   - contradiction.score: the labels likewise; JSON true / false; the strings "true",
//     "false", "yes", "no"; the numbers (or numeric strings) 0 and 1;
//   - "coverage" or "contradiction" given as the score itself instead of an object;
//   - student_point / reference_point for the plural keys (NitiBench's spellings vary);
//     a single string for a list; list elements that are not strings, kept as JSON text;
//   - a missing point list or thought ("" or empty).
// A missing or unreadable coverage or contradiction is a VerdictError ("coverage is
// missing"), not NitiBench's silent 0 and 0: the caller records a parse failure and the
// reward is None. Throws VerdictError.
LegalVerdict parseLegalReply(std::string_view reply);

// "legal_coverage_contradiction", the strict shape.
JudgeSchema legalSchema();

} // namespace rwb::judge
