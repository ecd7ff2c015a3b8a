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
    Json j;
    try {
        j = Json::parse(text.begin(), text.end(), check, allowExceptions);
    } catch (const typename Json::out_of_range &e) {
        // A number beyond a double ("1e999") is out_of_range 406, not a parse_error: callers
        // that catch parse_error (bad syntax) would let it through and end the program.
        // Its message names the number ("number overflow parsing '1e999'"); the first place
        // it stands is the error's byte (1-based, as nlohmann counts).
        std::string what = e.what();
        if (const size_t cut = what.find("] "); cut != std::string::npos)
            what.erase(0, cut + 2);
        size_t byte = 0;
        if (const size_t open = what.find('\''), close = what.rfind('\'');
            open != std::string::npos && close > open + 1)
            if (const size_t at = text.find(std::string_view(what).substr(open + 1, close - open - 1));
                at != std::string_view::npos)
                byte = at + 1;
        throw Json::parse_error::create(e.id, byte, what, nullptr);
    }
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

// As Json::parse(text): throws Json::parse_error for bad syntax, for a number too large
// for a double (id 406, which nlohmann throws as out_of_range) and for a value nested
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
