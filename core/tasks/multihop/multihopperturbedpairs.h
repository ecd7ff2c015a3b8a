#pragma once

// Preference pairs of multi-hop steps made at scale from gold chains (issue 44, the fourth
// paper's PRM): at every step of a question's gold trajectory, the gold step against the
// same step spoiled in one way a policy spoils it, each pair labelled by the reference
// judge (multihopreferencejudge.h) given the gold history. The kinds:
//
//   other_relation  the sub-answer names the value of another relation of the entity looked
//                   up (its passage states it, so the step is grounded but wrong: the
//                   founder's name where the representative's was asked)
//   wrong_value     the sub-answer names another entity's value for the same relation,
//                   which the passages do not state (a hallucination)
//   early_answer    an <answer> before the last hop, naming what is known so far
//   wrong_answer    the final <answer> names another value of the last relation
//
// A pair is kept only when the reference judge gives the gold step strictly more points
// (a spoiled value that happens to be right, or a partial answer, is dropped). Tree search
// makes a few hundred sibling pairs on this machine; this makes tens of thousands, so that
// a PRM's learnability can be told apart from the data's scarcity. docs/prm.md.

#include "prm/preference.h"
#include "tasks/multihop/multihop.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rwb::prm {

struct PerturbedPair {
    StepPair pair;      // step A the gold step, step B the spoiled one; origin "import"
    Label label;        // source import, annotator "perturbed gold", choice A, the judge's reason
    std::string kind;   // other_relation | wrong_value | early_answer | wrong_answer
    int goldPoints = 0; // the reference judge's points for each step
    int spoiledPoints = 0;
};

class PerturbedPairMaker {
public:
    // The values to spoil with come from every chain of `questions`: per entity, the values
    // of its relations; per relation, the values it takes.
    explicit PerturbedPairMaker(const std::vector<data::MultihopQuestion> &questions);

    // The pairs of `question`: at each step up to `perStep` of the kinds that apply, drawn
    // without repeats, deterministic for (seed, index). Throws std::invalid_argument naming the
    // question and hop when a hop has no retrieved passages (rwb retrieve annotate --chain
    // writes them).
    std::vector<PerturbedPair> pairs(const data::MultihopQuestion &question, uint64_t seed, uint64_t index,
                                     int perStep) const;

    // The gold step block of hop `hop` (its retrieval included) and the final one, as the
    // SFT target writes them (MultihopTask::sftTarget).
    static std::string goldHopBlock(const data::MultihopStep &step);
    static std::string goldFinalBlock(const data::MultihopQuestion &question);

private:
    const std::vector<std::string> &valuesOf(const std::string &relation) const; // empty when unknown

    std::map<std::string, std::map<std::string, std::string>> m_byEntity;   // entity → relation → value
    std::map<std::string, std::vector<std::string>> m_byRelation;           // relation → values, sorted, unique
};

} // namespace rwb::prm
