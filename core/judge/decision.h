#pragma once

// One call of an LLM judge made while scoring: what the judge decisions view shows and
// the run store keeps with its rollout (table judge_decisions, docs/store.md).

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

namespace rwb::judge {

struct Decision {
    size_t item = 0;            // index of the scored pair in its batch (not stored)
    std::string reward;         // the component ("coverage", "rubric_explicit")
    std::string part;           // what of the rubric it judged: "" (all), "items[3]"
    std::string backend;        // the judge's identity ("http http://…/chat/completions")
    std::string request;        // the request body as sent (JSON)
    std::string reply;          // the judge's raw reply text ("" when the call failed)
    std::string verdict;        // what was parsed, as JSON ("" when nothing was)
    std::string error;          // why there is no verdict (call or parse), "" when there is
    double value = std::numeric_limits<double>::quiet_NaN(); // what the verdict gave (NaN: None)
    double latencySeconds = 0.0;
    int64_t promptTokens = 0;   // 0 for a cache hit
    int64_t completionTokens = 0;
    double cost = 0.0;          // 0 for a cache hit
    bool cacheHit = false;
    int attempts = 0;           // HTTP attempts (0 for a cache hit)
};

} // namespace rwb::judge
