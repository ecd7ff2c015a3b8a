#include "judge/verdict.h"
#include "text/utf8.h"
#include "util/boundedjson.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_map>
#include <vector>

using nlohmann::json;

namespace rwb::judge {

namespace {

using text::isAsciiSpace;

// A character of a code fence's info string ("json", "json5", "c++"); ASCII only, whatever
// the C locale.
bool isInfoChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'
           || c == '+';
}

// [begin, end) of `text` less surrounding white space (and a UTF-8 BOM at the start).
std::pair<size_t, size_t> trimmedRange(std::string_view text, size_t begin, size_t end)
{
    if (text.substr(begin, 3) == "\xEF\xBB\xBF")
        begin += 3;
    while (begin < end && isAsciiSpace(text[begin]))
        ++begin;
    while (end > begin && isAsciiSpace(text[end - 1]))
        --end;
    return {begin, end};
}

std::string_view trim(std::string_view s)
{
    const auto [b, e] = trimmedRange(s, 0, s.size());
    return s.substr(b, e - b);
}

// At most `maxBytes` of `text`, cut back to a UTF-8 character boundary, control characters
// shown as spaces, "…" appended when cut.
std::string preview(std::string_view text, size_t maxBytes)
{
    size_t n = text.size();
    if (n > maxBytes) {
        n = maxBytes;
        while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80)
            --n; // text[n] continues a character that starts before it
    }
    std::string out(text.substr(0, n));
    for (char &c : out)
        if (static_cast<unsigned char>(c) < 0x20)
            c = ' ';
    if (n < text.size())
        out += "…";
    return out;
}

// Parses `text` as JSON (bounded depth); nullopt when it is not valid JSON.
std::optional<json> tryParse(std::string_view text)
{
    // Without exceptions: a reply is tried at every '{' and '[' it holds, and unwinding a
    // parse_error for each costs far more than the parse (0.9 ms per reply, measured by
    // fuzz_judge_reply). Only the first failure's message is wanted: parseError().
    json j = util::parseJsonOrDiscarded(text);
    if (j.is_discarded())
        return std::nullopt;
    return j;
}

// The parser's message for text that tryParse() refused. Not swallowed: it becomes part
// of the extraction error.
std::string parseError(std::string_view text)
{
    try {
        (void)util::parseJson(text);
    } catch (const json::exception &e) {
        return e.what();
    }
    return "not valid JSON";
}

// Matches the brackets of a reply, string-aware, within a budget of bytes looked at.
class BracketMatcher {
public:
    BracketMatcher(std::string_view text, size_t budget) : m_text(text), m_budget(budget) {}

    // The end (one past the closing bracket) of the bracketed value starting at
    // text[open] ('{' or '['), matching only brackets of that kind outside JSON strings;
    // npos when it never closes, or when the budget runs out (exhausted() then).
    //
    // A scan from `open` passes every later bracket of its kind that stands outside a
    // string in it; a scan from such a bracket would see the same characters in the same
    // state, so its end is known too and kept: a run of brackets ("{{{{…", nested
    // arrays) is scanned once, not once per bracket. Brackets inside what a scan took
    // for a string are not kept, and "\"{" repeated defeats the memo: the budget bounds
    // that.
    size_t match(size_t open)
    {
        if (const auto known = m_known.find(open); known != m_known.end())
            return known->second;
        const char o = m_text[open];
        const char c = o == '{' ? '}' : ']';
        std::vector<size_t> opened; // the brackets of this kind not yet closed, innermost last
        bool inString = false;
        for (size_t i = open; i < m_text.size(); ++i) {
            if (m_budget == 0)
                return std::string::npos; // nothing kept: the scan did not finish
            --m_budget;
            const char ch = m_text[i];
            if (inString) {
                if (ch == '\\')
                    ++i; // skip the escaped character (\" included)
                else if (ch == '"')
                    inString = false;
            } else if (ch == '"') {
                inString = true;
            } else if (ch == o) {
                opened.push_back(i);
            } else if (ch == c) {
                m_known[opened.back()] = i + 1;
                opened.pop_back();
                if (opened.empty())
                    return i + 1;
            }
        }
        for (size_t at : opened)
            m_known[at] = std::string::npos;
        return std::string::npos;
    }

    bool exhausted() const { return m_budget == 0; }
    // Takes `bytes` from the budget (a parse of what was matched); false when not left.
    bool spend(size_t bytes)
    {
        if (bytes > m_budget) {
            m_budget = 0;
            return false;
        }
        m_budget -= bytes;
        return true;
    }

private:
    std::string_view m_text;
    size_t m_budget;
    std::unordered_map<size_t, size_t> m_known;
};

// Whether the '{' at text[open] looks like the start of a JSON object: the next
// non-space character is '"' or '}' (or there is none: the reply stops right there).
bool looksLikeObjectStart(std::string_view text, size_t open)
{
    size_t i = open + 1;
    while (i < text.size() && isAsciiSpace(text[i]))
        ++i;
    return i == text.size() || text[i] == '"' || text[i] == '}';
}

JsonExtract success(json value, JsonExtract::Form form, size_t begin, size_t end)
{
    JsonExtract r;
    r.value = std::move(value);
    r.form = form;
    r.begin = begin;
    r.end = end;
    return r;
}

JsonExtract failure(std::string error)
{
    JsonExtract r;
    r.error = std::move(error);
    return r;
}

// A path step: a key, or an index into an array.
struct Step {
    std::string key;
    size_t index = 0;
    bool isIndex = false;
};

std::vector<Step> parsePath(std::string_view path)
{
    const auto bad = [&](const char *why) {
        throw VerdictError("malformed field path \"" + std::string(path) + "\": " + why);
    };
    std::vector<Step> steps;
    size_t i = 0;
    for (;;) {
        // A key; only the first segment may be an index alone ("[2].met").
        const size_t keyEnd = std::min(path.find_first_of(".[", i), path.size());
        if (keyEnd > i)
            steps.push_back({std::string(path.substr(i, keyEnd - i)), 0, false});
        else if (i != 0 || keyEnd == path.size() || path[keyEnd] != '[')
            bad("empty key");
        i = keyEnd;
        while (i < path.size() && path[i] == '[') {
            const size_t close = path.find(']', i);
            if (close == std::string_view::npos)
                bad("unclosed index");
            size_t index = 0;
            const auto r = std::from_chars(path.data() + i + 1, path.data() + close, index);
            if (close == i + 1 || r.ec != std::errc() || r.ptr != path.data() + close)
                bad("index is not a number");
            steps.push_back({{}, index, true});
            i = close + 1;
        }
        if (i == path.size())
            return steps;
        if (path[i] != '.')
            bad("expected '.' or '[' after ']'");
        ++i;
    }
}

// "items[2]" style text of steps[0..n).
std::string pathPrefix(const std::vector<Step> &steps, size_t n)
{
    std::string out;
    for (size_t k = 0; k < n; ++k) {
        if (steps[k].isIndex) {
            out += '[' + std::to_string(steps[k].index) + ']';
        } else {
            if (!out.empty())
                out += '.';
            out += steps[k].key;
        }
    }
    return out.empty() ? "the reply" : out;
}

// The lower-cased, trimmed text of a string verdict with '_' and '-' as spaces and runs of
// spaces as one ("Not_Met" → "not met").
std::string normalizeWord(std::string_view s)
{
    std::string out;
    for (char c : trim(s)) {
        if (c == '_' || c == '-' || isAsciiSpace(c))
            c = ' ';
        else if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
        if (c == ' ' && !out.empty() && out.back() == ' ')
            continue;
        out += c;
    }
    return out;
}

// A decimal integer (optional '-'), the whole of `s`.
std::optional<int> parseInteger(std::string_view s)
{
    if (s.empty())
        return std::nullopt;
    int v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size())
        return std::nullopt;
    return v;
}

// A token's text trimmed of white space and quotes, read as an integer within [lo, hi].
std::optional<int> tokenScore(std::string_view token, int lo, int hi)
{
    size_t b = 0, e = token.size();
    const auto strip = [](char c) { return isAsciiSpace(c) || c == '"' || c == '\''; };
    while (b < e && strip(token[b]))
        ++b;
    while (e > b && strip(token[e - 1]))
        --e;
    const auto v = parseInteger(token.substr(b, e - b));
    if (!v || *v < lo || *v > hi)
        return std::nullopt;
    return v;
}

} // namespace

const char *toString(JsonExtract::Form form)
{
    switch (form) {
    case JsonExtract::Form::Bare:
        return "bare";
    case JsonExtract::Form::Fenced:
        return "fenced";
    case JsonExtract::Form::Embedded:
        return "embedded";
    }
    return "?";
}

JsonExtract extractJson(std::string_view reply)
{
    // The least the embedded search may scan (tens of milliseconds); 64 times the reply's
    // size when that is more.
    constexpr size_t kEmbeddedScanBytes = size_t(64) << 20;
    const auto [tb, te] = trimmedRange(reply, 0, reply.size());
    if (tb == te)
        return failure("the reply is empty");

    // 1. Bare. A reply that does not parse whole is tried in the other forms; the parser's
    // message for the whole reply is not the telling one then.
    if (const auto whole = tryParse(reply.substr(tb, te - tb))) {
        if (whole->is_object())
            return success(*whole, JsonExtract::Form::Bare, tb, te);
        return failure(std::string("the reply is a JSON ") + whole->type_name() + ", not an object");
    }

    // 2. Fenced. Remember the first broken block's error for the failure message.
    std::string fenceError;
    for (size_t open = reply.find("```"); open != std::string_view::npos;) {
        size_t contentBegin = open + 3;
        while (contentBegin < reply.size() && isInfoChar(reply[contentBegin]))
            ++contentBegin; // the info string ("json")
        const size_t close = reply.find("```", contentBegin);
        const size_t contentEnd = close == std::string_view::npos ? reply.size() : close;
        const auto [cb, ce] = trimmedRange(reply, contentBegin, contentEnd);
        if (cb < ce) {
            const auto block = tryParse(reply.substr(cb, ce - cb));
            if (block && block->is_object())
                return success(*block, JsonExtract::Form::Fenced, cb, ce);
            if (fenceError.empty())
                fenceError = "the fenced block at byte " + std::to_string(open)
                             + (block ? " holds a JSON " + std::string(block->type_name()) + ", not an object"
                                      : " is not valid JSON: " + parseError(reply.substr(cb, ce - cb)));
        }
        if (close == std::string_view::npos)
            break;
        open = reply.find("```", close + 3);
    }

    // 3. Embedded. Every '{' and '[' is a candidate, and each is matched and parsed on its
    // own. Matching is linear for runs of brackets (BracketMatcher keeps what a scan
    // passed), but a reply of brackets that each open a string (\"{ repeated) still costs
    // the square of its length (110 s for 200 KB of '{' through the eight readers before
    // the memo, found by fuzz_judge_reply): the bytes matched and parsed are bounded by a
    // budget far above what any reply with a findable object needs.
    const size_t budgetAtStart = std::max<size_t>(kEmbeddedScanBytes, 64 * reply.size());
    BracketMatcher brackets(reply, budgetAtStart);
    std::string embeddedError;
    std::string arrayNote;
    for (size_t i = 0; i < reply.size(); ++i) {
        const char ch = reply[i];
        if (ch != '{' && ch != '[')
            continue;
        const size_t end = brackets.match(i);
        if (brackets.exhausted() || (end != std::string_view::npos && !brackets.spend(end - i))) // the parse below
            return failure("no JSON object found before byte " + std::to_string(i) + ": the reply's "
                           + std::to_string(reply.size()) + " bytes hold so many brackets that never close that "
                           + std::to_string(budgetAtStart) + " bytes were scanned without finding one");
        if (ch == '[') {
            // Skip a whole JSON array; anything else in square brackets is prose.
            if (end != std::string_view::npos) {
                if (const auto array = tryParse(reply.substr(i, end - i)); array && array->is_array()) {
                    if (arrayNote.empty())
                        arrayNote = "the only JSON in the reply is an array at byte " + std::to_string(i)
                                    + ", not an object";
                    i = end - 1;
                }
            }
            continue;
        }
        if (end == std::string_view::npos) {
            if (looksLikeObjectStart(reply, i))
                return failure("a JSON object starts at byte " + std::to_string(i) + " but never closes (truncated?)");
            continue; // a '{' in prose
        }
        if (const auto object = tryParse(reply.substr(i, end - i)); object && object->is_object())
            return success(*object, JsonExtract::Form::Embedded, i, end);
        if (embeddedError.empty())
            embeddedError = "the {…} at byte " + std::to_string(i)
                            + " is not valid JSON: " + parseError(reply.substr(i, end - i));
        i = end - 1; // nothing inside a broken object is tried
    }

    if (!fenceError.empty())
        return failure(fenceError);
    if (!embeddedError.empty())
        return failure(embeddedError);
    if (!arrayNote.empty())
        return failure(arrayNote);
    return failure("no JSON object in the reply (" + std::to_string(reply.size()) + " bytes: \""
                   + preview(reply.substr(tb), 80) + "\")");
}

std::string formatNumber(double v)
{
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

// ---- Field readers ---------------------------------------------------------------------

std::string describeJson(const json &value)
{
    switch (value.type()) {
    case json::value_t::object:
        return "an object";
    case json::value_t::array:
        return "an array";
    case json::value_t::null:
        return "null";
    case json::value_t::string:
        return '"' + preview(value.get_ref<const std::string &>(), 60) + '"';
    case json::value_t::number_float:
        return formatNumber(value.get<double>());
    default:
        return value.dump(); // integers, booleans
    }
}

const json *findPath(const json &root, std::string_view path)
{
    const std::vector<Step> steps = parsePath(path);
    const json *at = &root;
    for (size_t k = 0; k < steps.size(); ++k) {
        const Step &s = steps[k];
        if (s.isIndex) {
            if (!at->is_array())
                throw VerdictError(pathPrefix(steps, k) + " is " + describeJson(*at) + ", not an array");
            if (s.index >= at->size())
                return nullptr;
            at = &(*at)[s.index];
        } else {
            if (!at->is_object())
                throw VerdictError(pathPrefix(steps, k) + " is " + describeJson(*at) + ", not an object");
            const auto it = at->find(s.key);
            if (it == at->end())
                return nullptr;
            at = &*it;
        }
    }
    return at;
}

const json &requirePath(const json &root, std::string_view path)
{
    if (const json *v = findPath(root, path))
        return *v;
    // Say which step is missing, and how long an array was when an index ran past it.
    const std::vector<Step> steps = parsePath(path);
    const json *at = &root;
    for (size_t k = 0; k < steps.size(); ++k) {
        const Step &s = steps[k];
        if (s.isIndex && s.index >= at->size())
            throw VerdictError(pathPrefix(steps, k + 1) + " is missing (" + pathPrefix(steps, k) + " has "
                               + std::to_string(at->size()) + (at->size() == 1 ? " element)" : " elements)"));
        if (!s.isIndex && !at->contains(s.key))
            throw VerdictError(pathPrefix(steps, k + 1) + " is missing");
        at = s.isIndex ? &(*at)[s.index] : &(*at)[s.key];
    }
    throw VerdictError(std::string(path) + " is missing"); // not reached
}

bool readBool(const json &root, std::string_view path)
{
    const json &v = requirePath(root, path);
    if (v.is_boolean())
        return v.get<bool>();
    if (v.is_string()) {
        const std::string w = normalizeWord(v.get_ref<const std::string &>());
        if (w == "true" || w == "yes" || w == "met" || w == "present")
            return true;
        if (w == "false" || w == "no" || w == "not met" || w == "absent")
            return false;
    }
    throw VerdictError(std::string(path) + " is " + describeJson(v)
                       + ", not a boolean (true/false, or one of the strings \"true\", \"false\", \"yes\", \"no\", "
                         "\"met\", \"not met\", \"present\", \"absent\")");
}

std::optional<double> numberIn(const json &v)
{
    if (v.is_number()) {
        const double x = v.get<double>();
        return std::isfinite(x) ? std::optional<double>(x) : std::nullopt;
    }
    if (!v.is_string())
        return std::nullopt;
    std::string_view s = trim(v.get_ref<const std::string &>());
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    double x = 0.0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), x);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size() || !std::isfinite(x))
        return std::nullopt;
    return x;
}

double readNumber(const json &root, std::string_view path, double lo, double hi)
{
    const json &v = requirePath(root, path);
    if (v.is_number() && !std::isfinite(v.get<double>()))
        throw VerdictError(std::string(path) + " is not a finite number");
    const std::optional<double> n = numberIn(v);
    if (!n)
        throw VerdictError(std::string(path) + " is " + describeJson(v) + ", not a number");
    const double x = *n;
    if (x < lo || x > hi)
        throw VerdictError(std::string(path) + " is " + formatNumber(x) + ", not within " + formatNumber(lo) + "–"
                           + formatNumber(hi));
    return x;
}

std::string readString(const json &root, std::string_view path)
{
    const json &v = requirePath(root, path);
    if (!v.is_string())
        throw VerdictError(std::string(path) + " is " + describeJson(v) + ", not a string");
    return v.get<std::string>();
}

// ---- G-Eval ------------------------------------------------------------------------------

std::optional<double> gevalScore(const std::vector<TokenLogprob> &tokens, int lo, int hi, std::string_view afterKey,
                                 GevalDetail *detail)
{
    if (detail)
        *detail = GevalDetail{};
    std::string sofar;
    for (size_t k = 0; k < tokens.size(); ++k) {
        const TokenLogprob &t = tokens[k];
        const bool keySeen = afterKey.empty() || sofar.find(afterKey) != std::string::npos;
        sofar += t.token;
        if (!keySeen)
            continue;
        const auto own = tokenScore(t.token, lo, hi);
        if (!own)
            continue;

        // The score token: weigh its alternatives.
        // Minimum probability of an alternative that counts (deepeval's 1 %).
        constexpr double kMinProbability = 0.01;
        std::vector<std::pair<int, double>> used;
        double sumP = 0.0, sumSP = 0.0;
        for (const TopLogprob &alt : t.top) {
            const double p = std::exp(alt.logprob);
            const auto s = tokenScore(alt.token, lo, hi);
            if (p < kMinProbability || !s)
                continue;
            sumP += p;
            sumSP += *s * p;
            auto it = used.begin();
            while (it != used.end() && it->first != *s)
                ++it;
            if (it == used.end())
                used.emplace_back(*s, p);
            else
                it->second += p;
        }
        if (detail)
            detail->position = static_cast<int>(k);
        if (sumP <= 0.0)
            return static_cast<double>(*own);
        if (detail)
            detail->used = std::move(used);
        return sumSP / sumP;
    }
    return std::nullopt;
}

} // namespace rwb::judge
