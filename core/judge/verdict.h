#pragma once

// Reading a chat judge's reply: finding the JSON object in it (judges wrap it in a code
// fence, put a sentence before it, or add a note after it), reading typed fields out of
// that object with messages that name the field, and the G-Eval probability-weighted
// score from the logprobs of the score token. judgeprompts.h builds on these for each
// kind of judge. No Qt; every function here is pure and may be called from any thread.

#include "judge/chat.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rwb::judge {

// A judge's reply that cannot be read as the verdict asked for: no JSON object, a missing
// field, a field of the wrong type or out of range. The message names the field by its
// path ("coverage.score", "items[2].met") and says what was found; it does not say which
// judge or which example: the caller adds that and records a parse failure (the reward
// of that completion is then None, never a silent 0).
class VerdictError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Where in a reply the JSON object was found.
struct JsonExtract {
    nlohmann::json value; // the object; null when !ok()
    enum class Form {
        Bare,     // the whole reply, less surrounding white space, is the object
        Fenced,   // the object is the whole content of a ``` code fence
        Embedded, // the object is a {...} with other text around it
    } form = Form::Bare;
    // The byte range [begin, end) of the object's text within the reply, for a viewer to
    // highlight (for Fenced, the text between the fences less surrounding white space).
    size_t begin = 0, end = 0;
    std::string error; // empty on success; else one English sentence on what was found

    bool ok() const { return error.empty(); }
};

// "bare", "fenced", "embedded" (for logs and stored verdicts).
const char *toString(JsonExtract::Form form);

// Finds the JSON object in a judge's reply. Tried in this order, the first that succeeds
// wins:
//  1. Bare: the whole reply, trimmed of white space (and a UTF-8 BOM), parses as a JSON
//     object. When it parses as JSON that is not an object (an array, a number), that is
//     an error: a judge told to answer with an object answered with something else.
//  2. Fenced: the first ``` code fence whose content, trimmed, parses as a JSON object.
//     The fence may carry any info string (```json, ```JSON, none) and may be written on
//     one line (```json {"a": 1}```); a fence left open at the end of the reply (the
//     closing ``` cut off by max_tokens) runs to the end. A fence that does not parse is
//     skipped, and the next one tried.
//  3. Embedded: the first top-level {...} in the reply that parses as a JSON object.
//     Braces are matched string-aware (braces inside JSON strings, with \" escapes, do not
//     count). A {...} that balances but does not parse is skipped whole (nothing inside it
//     is tried, so a fragment of a broken object is never returned). A [...] that parses as
//     a JSON array is skipped whole too (its elements are not the verdict object). A '{'
//     that never closes ends the search when it is followed by '"' or '}' (it looks like
//     JSON: the reply was cut off) and is skipped as prose otherwise ("{weight}" in a
//     sentence never closes the same way only by accident).
// On failure, `error` gives the most telling of, in this order: "a JSON object starts at
// byte N but never closes (truncated?)"; "the fenced block at byte N is not valid JSON:
// <parser>" (or "… holds a JSON array, not an object"); "the {…} at byte N is not valid
// JSON: <parser>"; "the reply is a JSON array, not an object" (bare) or "the only JSON in
// the reply is an array at byte N, not an object"; "no JSON object in the reply (412
// bytes: "<first 80 bytes>")"; "the reply is empty". The embedded search scans at most
// 64 times the reply's size (64 MiB at least): a reply of brackets that never close gives
// up there with "no JSON object found before byte N: … bytes were scanned without
// finding one". Never throws.
JsonExtract extractJson(std::string_view reply);

// ---- Field readers --------------------------------------------------------------------
//
// Each reader walks `path` from `root` and converts the value found there. A path is
// keys separated by '.', each optionally followed by indexes: "rating", "coverage.score",
// "items[2].met", "1" (the key "1", as in {"1": true}). Keys cannot contain '.' or '['.
// Every failure throws VerdictError naming the path:
//   "coverage.score is missing", "items[5] is missing (items has 3 elements)",
//   "coverage is \"full\", not an object", "criteria_met is 3, not a boolean (…)".

// The value at `path`, or nullptr when a key on the way is absent or an index is past the
// end. Throws VerdictError when a step meets a value of the wrong kind (a key looked up in
// a string) or the path itself is malformed.
const nlohmann::json *findPath(const nlohmann::json &root, std::string_view path);

// The value at `path`; throws VerdictError when it is absent.
const nlohmann::json &requirePath(const nlohmann::json &root, std::string_view path);

// A boolean. Accepted: JSON true and false; and strings, compared after trimming white
// space, lower-casing ASCII letters and reading '_' and '-' as a space (runs of spaces
// count as one): "true", "yes", "met", "present" → true; "false", "no", "not met",
// "absent" → false. Nothing else: no numbers, no null.
bool readBool(const nlohmann::json &root, std::string_view path);

// A finite number within [lo, hi]. Accepted: JSON numbers, and strings that hold exactly
// one decimal number after trimming white space ("7", " 7.5 ", "+3", "1e1"; not "7/10",
// "7 points", "nan", "inf"). Out of range: "coverage.score is 7, not within 0–1".
double readNumber(const nlohmann::json &root, std::string_view path, double lo, double hi);

// The number in a JSON number or a numeric string as readNumber reads it, else nullopt
// (also for a non-finite number).
std::optional<double> numberIn(const nlohmann::json &v);

// A JSON string, as it is (no trimming). Numbers and other kinds are refused.
std::string readString(const nlohmann::json &root, std::string_view path);

// The shortest text that reads back as `v` ("7", "0.5", "-2"), the same under any C locale
// (a Qt application takes LC_NUMERIC from the environment, where printf would write "0,5"):
// for messages, and for numbers in prompts, which are cache keys.
std::string formatNumber(double v);

// A short description of a JSON value for messages: strings quoted and cut to 60 bytes
// (at a UTF-8 boundary), numbers and booleans as written, "null", "an object", "an array".
std::string describeJson(const nlohmann::json &value);

// ---- G-Eval ---------------------------------------------------------------------------

// What gevalScore used, for a viewer.
struct GevalDetail {
    int position = -1; // index in `tokens` of the score token; -1 when none was found
    // (score, p) of each alternative that counted, in the order first met; alternatives
    // whose text reads as the same integer (" 7", "7") are merged with their p summed.
    // Empty when the token's own integer was used (no usable alternatives).
    std::vector<std::pair<int, double>> used;
};

// The probability-weighted score of G-Eval, deepeval's convention
// (deepeval/metrics/g_eval/utils.py, calculate_weighted_summed_score):
//  1. The score token is the first generated token whose text, trimmed of white space and
//     quotes (' and "), is a decimal integer (optional '-') within [lo, hi]. When
//     `afterKey` is not empty, only a token k such that the concatenated text of
//     tokens[0..k) already contains `afterKey` is considered (pass "\"rating\"" so that a
//     digit in an explanation written before the rating is not taken for it).
//  2. Its top alternatives (TokenLogprob::top) are read as p = exp(logprob); those with
//     p < 0.01 and those whose trimmed text is not an integer within [lo, hi] are dropped.
//  3. Score = Σ s·p / Σ p over the alternatives kept (the p are renormalized).
// No alternatives, or none kept (a server whose top list misses the sampled token): the
// token's own integer. No score token: nullopt.
// A tokenizer that splits "10" into "1" and "0" makes 10 read as 1; with lo = 1, hi = 10
// this is G-Eval's known limitation, not corrected here.
std::optional<double> gevalScore(const std::vector<TokenLogprob> &tokens, int lo, int hi,
                                 std::string_view afterKey = {}, GevalDetail *detail = nullptr);

} // namespace rwb::judge
