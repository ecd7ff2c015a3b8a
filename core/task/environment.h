#pragma once

// The environment of a multi-step task: the part of a rollout the policy does not write.
// Generation pauses when the policy's text ends with one of the environment's pause tags
// ("</subquery>"); the environment answers with text (the retriever's passages in a
// <retrieval> block), which is appended to the rollout and fed to the model with its KV
// cache kept; generation then resumes. The environment's tokens are marked: SFT, GRPO and
// the PRM put no loss and no gradient on them (Task::environmentSpans finds them again
// in a completion's text). A task that has an environment returns one from
// Task::environment(); GRPO, evaluation and the tree search drive it
// (train/environmentrollout.h, mcts/search.h). No libtorch, no Qt.

#include <string>
#include <string_view>
#include <vector>

namespace rwb::task {

class Example;

// How a run configures its tasks' environments (the GRPO config's retrieval_index,
// retrieval_top_k, max_turns, max_turn_tokens; `rwb eval run`'s flags of those names).
struct EnvironmentOptions {
    std::string index;     // the retrieval index (`rwb retrieve index`); "" = none given
    int topK = 2;          // passages per retrieval
    int maxTurns = 6;      // environment turns per rollout at most; the next pause ends the rollout
    int maxTurnTokens = 0; // > 0: policy tokens in one stretch (to the first turn, between two, after the last) at most; more end the rollout
    std::string source;    // where the options come from (a config file), for messages
};

// What the environment appends at a pause.
struct EnvironmentReply {
    std::string text;                 // appended verbatim ("<retrieval>…</retrieval>")
    std::vector<std::string> sources; // what it drew on (passage ids, best first), for views
};

// Thread-safe: a rollout's rows may be answered from several threads.
class Environment {
public:
    virtual ~Environment() = default;
    // The texts whose end pauses the policy's generation.
    virtual const std::vector<std::string> &pauses() const = 0;
    // The reply to `completion` (the rollout's text so far, ending with a pause) for
    // `example`. Throws std::runtime_error when the environment fails (an index that
    // cannot be read).
    virtual EnvironmentReply respond(const Example &example, std::string_view completion) const = 0;
};

} // namespace rwb::task
