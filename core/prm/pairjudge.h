#pragma once

// An LLM judge's label for a preference pair (ProRAG §3.2: a strong model compares sibling
// steps for logical validity): the request sent through the judge client, and the reply
// read as A, B or tie with a reason. LLM judges favour a position; with `bothOrders` the
// pair is asked twice, the second time with the steps swapped, and a verdict that follows
// the position instead of the step becomes a tie ("order-dependent"). docs/prm.md.

#include "judge/chat.h"
#include "prm/preference.h"

#include <functional>
#include <string>
#include <vector>

namespace rwb::judge {
class JudgeClient;
}

namespace rwb::prm {

struct PairJudgeOptions {
    bool bothOrders = false;
};

// The request comparing `first` and `second` (shown as Step A and Step B) after the pair's
// history: a system message with the criteria and a user message with the question, the
// history (its retrievals included) and the two steps. The reply asked for:
// {"choice": "A" | "B" | "tie", "reason": "…"}. `sampling`: the judge config's.
judge::ChatRequest pairJudgeRequest(const StepPair &pair, bool swapped, const judge::SamplingParams &sampling);

// Reads a reply: "A", "B" or "tie" (any case; "step A", "Step B", "equal" and "neither"
// read too) and the reason. Throws judge::VerdictError naming the field.
Label readPairVerdict(const std::string &reply);

// One pair's outcome.
struct JudgedPair {
    Label label;          // source Judge, annotator = the judge's model; Skip when it failed
    bool ok = false;
    std::string error;    // why not: the client's error, or what the reply lacked
    bool orderDependent = false; // bothOrders: the two orders disagreed (the label is a tie)
    bool cacheHit = false;
};

// Labels every pair through `client` (at most its concurrency at once; cached like the
// rewards' calls); `progress(done, total)` after each batch of `batch` pairs, on the
// calling thread; returning false stops (the pairs not reached are left out of the
// result). A failed call or an unreadable reply gives ok false with the error, not an
// exception.
std::vector<JudgedPair> judgePairs(const judge::JudgeClient &client, const std::vector<StepPair> &pairs,
                                   const PairJudgeOptions &options, size_t batch = 32,
                                   const std::function<bool(size_t done, size_t total)> &progress = {});

} // namespace rwb::prm
