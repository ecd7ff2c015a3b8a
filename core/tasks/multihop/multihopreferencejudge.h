#pragma once

// A reference judge for preference pairs of multi-hop steps: a judge backend (the judge
// client's interface, so that requests, caching and accounting are the same as an LLM
// judge's) that knows the gold chain of every question of a synthetic question set and
// answers the pair prompt (prm/pairjudge.h) the way a careful judge with that knowledge
// would. It stands in for the LLM judge (ProRAG used GPT-4o) where none can be reached —
// the demo's machines have no model hub — and gives the judge-label path real, checkable
// labels. It only reads the pair prompt; any other request is refused.
//
// Judged given the history, as the prompt asks: a hop step gets 1 point when its sub-query
// looks up what the history says to look up next (the question's entity, then the value
// the last sub-answer named, right or wrong), 1 when the value its sub-answer names is in a
// retrieved passage about that entity, and 2 when that value is the hop's gold value; an
// answer step 4 for the gold answer (exact match), 2 for a partial one (token F1 ≥ 0.5: a
// wrong city sharing 市 with the gold is not partly right), else
// 0. The step with more points wins; equal points are a tie. The reason says what each
// step did. docs/prm.md.

#include "tasks/multihop/multihop.h"
#include "judge/judgeclient.h"

#include <map>
#include <string>
#include <vector>

namespace rwb::prm {

class ReferencePairJudge : public judge::ChatBackend {
public:
    // Throws data::InputException naming the file for a question set it cannot read.
    explicit ReferencePairJudge(const std::string &questionsPath);
    explicit ReferencePairJudge(std::vector<data::MultihopQuestion> questions);

    std::string identity() const override { return "reference " + m_source; }
    std::string model() const override { return "reference"; }
    judge::ChatReply complete(const judge::ChatRequest &request, int &attempts) const override;

    // A step's worth after `history` (the steps before it, concatenated) of `question`.
    struct Worth {
        int points = 0;
        std::string why;
    };
    static Worth worth(const data::MultihopQuestion &question, const std::string &history, const std::string &step);
    // The value a sub-answer names: "XのRはVです。" → V ("" when it has no "は").
    static std::string namedValue(const std::string &subanswer);

private:
    std::string m_source;
    std::map<std::string, data::MultihopQuestion> m_byText; // question text → question
};

} // namespace rwb::prm
