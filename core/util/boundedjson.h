#pragma once

// JSON from outside the program (HTTP bodies, imports, tree files, configs, judge
// replies, store columns) parsed with a bound on how deep it nests.
//
// nlohmann's parser is iterative, but much of what is done with a value afterwards is
// not: dump(), copies, comparisons and our own walks recurse once per level, so 200 KB
// of "[[[[…" parsed whole overflows a thread's stack later (a crash of `rwb serve` by
// one request). Here every array or object deeper than the bound is refused while
// parsing, before it is kept.
//
// Every parse of outside JSON goes through these functions; nothing else in the code
// calls json::parse on such text.

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace rwb::util {

// Deeper than any file or request of the project nests (the deepest, a rollout import's
// extra_info or a judge's JSON schema, stay under 20); far below what a stack takes.
inline constexpr int kMaxJsonDepth = 128;

// The id of the parse_error thrown for too deep a value (nlohmann's own are 101–116),
// whose message is tooDeepMessage(): "JSON nests deeper than 128 levels".
inline constexpr int kTooDeepErrorId = 199;
std::string tooDeepMessage(int maxDepth = kMaxJsonDepth);
// True for that error.
inline bool isTooDeep(const nlohmann::json::exception &e)
{
    return e.id == kTooDeepErrorId;
}

namespace detail {
template <class Json>
Json parseBounded(std::string_view text, int maxDepth, bool allowExceptions, bool *tooDeep)
{
    bool deep = false;
    typename Json::parser_callback_t check = [&deep, maxDepth](int depth, typename Json::parse_event_t event, Json &) {
        if (event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start)
            if (depth >= maxDepth)
                deep = true;
        return !deep;
    };
    Json j = Json::parse(text.begin(), text.end(), check, allowExceptions);
    if (tooDeep)
        *tooDeep = deep;
    if (deep) {
        if (allowExceptions)
            throw Json::parse_error::create(kTooDeepErrorId, 0, tooDeepMessage(maxDepth), nullptr);
        return Json(Json::value_t::discarded);
    }
    return j;
}
} // namespace detail

// As Json::parse(text): throws Json::parse_error for bad syntax and for a value nested
// deeper than `maxDepth` (isTooDeep()).
template <class Json = nlohmann::json>
Json parseJson(std::string_view text, int maxDepth = kMaxJsonDepth)
{
    return detail::parseBounded<Json>(text, maxDepth, true, nullptr);
}

// As Json::parse(text, nullptr, false): a discarded value for bad syntax or too deep a
// value; `tooDeep`, when given, says which.
template <class Json = nlohmann::json>
Json parseJsonOrDiscarded(std::string_view text, bool *tooDeep = nullptr, int maxDepth = kMaxJsonDepth)
{
    return detail::parseBounded<Json>(text, maxDepth, false, tooDeep);
}

} // namespace rwb::util
