#include "mctssynthetic.h"

#include "tasks/multihop/multihopformat.h"
#include "util/rng.h"

#include <algorithm>
#include <string>
#include <vector>

namespace rwb::widgets {

namespace {

// Children sampled per expansion (ProRAG's width).
constexpr int kExpansions = 5;
// A node this deep is not expanded (ProRAG's depth limit).
constexpr int kMaxDepth = 10;
// The relations and entities the made-up steps look up.
const char *const kRelations[] = {"founder", "birthplace", "mayor", "head office", "capital", "employer"};
const char *const kKinds[] = {"Person", "Org", "City", "Country"};

std::string entity(util::Rng &rng)
{
    return std::string(rng.pick(kKinds)) + " " + std::to_string(rng.between(1, 60));
}

std::string passageId(const std::string &entityName)
{
    // "Org 12" → "kb-O012", as the multi-hop base names its passages.
    const std::string number = entityName.substr(entityName.find(' ') + 1);
    return "kb-" + std::string(1, entityName[0]) + std::string(3 - std::min<size_t>(3, number.size()), '0') + number;
}

// An answer: the gold year with a chance that grows with the branch's quality, else
// another year, with 年 (F1 against the gold 0.5: {year, 年} share 年) or, from worse
// branches more often, without it (F1 0).
std::string year(util::Rng &rng, double quality, const std::string &gold)
{
    if (rng.chance(0.3 * quality))
        return gold;
    const std::string other = std::to_string(rng.between(1950, 2020));
    return rng.chance(0.5 + 0.5 * quality) ? other + "年" : other;
}

} // namespace

mcts::SearchRecord syntheticSearchRecord(int nodes, uint64_t seed)
{
    util::Rng rng(seed);
    mcts::SearchRecord r;
    r.questionId = "synthetic-" + std::to_string(seed);
    r.question = "In which year was the employer of the founder of Org 3 founded?";
    r.goldAnswer = "1987年";
    r.goldPassages = {"kb-O003", "kb-P012", "kb-C004"};
    r.hops = 3;
    r.params.expansions = kExpansions;
    r.params.maxDepth = kMaxDepth;
    // Wider than ProRAG's 2.5: a search that found a right answer keeps going back to it,
    // and a tree of many thousand nodes would take far more iterations to grow.
    r.params.cPuct = 5.0;
    r.params.gamma = 0.99;
    mcts::SearchTree &t = r.tree;
    std::vector<double> quality{0.6}; // by node: how good the branch's answers tend to be

    const int limit = std::max(1, nodes);
    const int maxIterations = 20 * limit;
    for (int k = 1; static_cast<int>(t.nodes().size()) < limit && k <= maxIterations; ++k) {
        mcts::Iteration it;
        it.index = k;
        it.selected = t.selectPath(r.params.cPuct);
        it.backedUp = it.selected;
        const mcts::Node &leaf = t.node(it.selected.back());
        const int leafId = leaf.id;
        if (!leaf.terminal && leaf.depth < kMaxDepth) {
            const int count = std::min(kExpansions, limit - static_cast<int>(t.nodes().size()));
            std::vector<double> priors;
            double sum = 0;
            for (int c = 0; c < count; ++c) {
                priors.push_back(0.2 + rng.unit());
                sum += priors.back();
            }
            int evaluated = -1;
            for (int c = 0; c < count; ++c) {
                const std::string who = entity(rng), rel = rng.pick(kRelations), value = entity(rng);
                const bool isFinal = rng.chance(0.07 * (t.node(leafId).depth + 1));
                const double q = std::clamp(quality[static_cast<size_t>(leafId)] + (rng.unit() - 0.5) * 0.5, 0.0, 1.0);
                const std::string answer = year(rng, q, r.goldAnswer);
                std::string step, other = entity(rng);
                if (isFinal) {
                    step = "<step>So the answer is " + answer + ".</step><answer>" + answer + "</answer>";
                } else {
                    step = "<step>Look up the " + rel + " of " + who + ".</step><subquery>" + who + " " + rel +
                           "</subquery><retrieval>[" + passageId(who) + "] The " + rel + " of " + who + " is " + value +
                           ".\n[" + passageId(other) + "] " + other + " is listed in the base.</retrieval><subanswer>The " +
                           rel + " of " + who + " is " + value + ".</subanswer>";
                }
                const int id = t.addChild(leafId, std::move(step), priors[static_cast<size_t>(c)] / sum, k);
                quality.push_back(q);
                mcts::Node &n = t.detail(id);
                n.tokens = static_cast<int>(rng.between(12, 60));
                n.logProb = -0.4 * n.tokens * rng.unit();
                if (isFinal) {
                    n.answer = answer;
                    t.setTerminal(id, task::answerF1(answer, r.goldAnswer)); // the value is the answer's F1
                } else {
                    n.retrieved = {passageId(who), passageId(other)};
                }
                it.created.push_back(id);
                if (evaluated < 0 || n.prior > t.node(evaluated).prior)
                    evaluated = id;
            }
            if (evaluated >= 0) {
                it.expanded = leafId;
                it.backedUp.push_back(evaluated);
            }
        }
        const mcts::Node &last = t.node(it.backedUp.back());
        it.terminalDepth = last.depth;
        if (last.terminal) {
            it.value = last.terminalValue;
        } else {
            // A simulation from the evaluated node to an answer a hop or two further.
            const double q = quality[static_cast<size_t>(last.id)];
            it.terminalDepth += static_cast<int>(rng.between(1, 2));
            it.simulationAnswer = year(rng, q, r.goldAnswer);
            it.simulation = "<step>So the answer is " + it.simulationAnswer + ".</step><answer>" + it.simulationAnswer +
                            "</answer>";
            it.value = task::answerF1(it.simulationAnswer, r.goldAnswer);
        }
        it.seconds = 0.05 + 0.1 * rng.unit();
        t.backup(it.backedUp, it.value, r.params.gamma, it.terminalDepth);
        r.iterations.push_back(std::move(it));
    }
    r.params.simulations = static_cast<int>(r.iterations.size());
    return r;
}

} // namespace rwb::widgets
