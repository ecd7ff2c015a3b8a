#include "tasks/multihop/multihopperturbedpairs.h"

#include "tasks/multihop/multihopreferencejudge.h"
#include "tasks/multihop/multihoptask.h"
#include "util/rng.h"

#include <algorithm>
#include <stdexcept>

namespace rwb::prm {

namespace {

// `text` with the last occurrence of `from` replaced by `to` (unchanged when absent).
std::string replaceLast(std::string text, const std::string &from, const std::string &to)
{
    const size_t at = text.rfind(from);
    if (from.empty() || at == std::string::npos)
        return text;
    return text.replace(at, from.size(), to);
}

// A value of `values` other than every one in `avoid`, drawn by `rng`; "" when none.
std::string otherValue(const std::vector<std::string> &values, const std::vector<std::string> &avoid, util::Rng &rng)
{
    std::vector<std::string> left;
    for (const std::string &v : values)
        if (std::find(avoid.begin(), avoid.end(), v) == avoid.end())
            left.push_back(v);
    return left.empty() ? std::string() : rng.pick(left);
}

} // namespace

PerturbedPairMaker::PerturbedPairMaker(const std::vector<data::MultihopQuestion> &questions)
{
    for (const data::MultihopQuestion &q : questions)
        for (const data::MultihopStep &s : q.chain) {
            m_byEntity[s.entity][s.relation] = s.value;
            m_byRelation[s.relation].push_back(s.value);
        }
    for (auto &[relation, values] : m_byRelation) {
        std::sort(values.begin(), values.end());
        values.erase(std::unique(values.begin(), values.end()), values.end());
    }
}

std::string PerturbedPairMaker::goldHopBlock(const data::MultihopStep &step)
{
    return "<step>" + task::goldHopStep(step) + "</step><subquery>" + step.subquery + "</subquery><retrieval>" +
           task::retrievalText(step.retrieved) + "</retrieval><subanswer>" + step.subanswer + "</subanswer>";
}

std::string PerturbedPairMaker::goldFinalBlock(const data::MultihopQuestion &question)
{
    return "<step>" + task::goldFinalStep(question) + "</step><answer>" + question.answer + "</answer>";
}

const std::vector<std::string> &PerturbedPairMaker::valuesOf(const std::string &relation) const
{
    static const std::vector<std::string> none;
    const auto it = m_byRelation.find(relation);
    return it == m_byRelation.end() ? none : it->second;
}

std::vector<PerturbedPair> PerturbedPairMaker::pairs(const data::MultihopQuestion &q, uint64_t seed, uint64_t index,
                                                     int perStep) const
{
    std::vector<PerturbedPair> out;
    std::vector<std::string> history;
    std::string historyText;
    for (size_t hop = 0; hop <= q.chain.size(); ++hop) {
        const bool last = hop == q.chain.size();
        if (!last && q.chain[hop].retrieved.empty())
            throw std::invalid_argument("question " + q.id + ", hop " + std::to_string(hop + 1) +
                                        ": no retrieved passages (run rwb retrieve annotate --chain first)");
        const std::string gold = last ? goldFinalBlock(q) : goldHopBlock(q.chain[hop]);
        util::Rng rng = util::Rng::forStream(seed, index, hop);

        // Every kind that applies here, with its spoiled step.
        std::vector<std::pair<std::string, std::string>> candidates;
        if (last) {
            const std::string wrong = otherValue(valuesOf(q.chain.back().relation), {q.answer}, rng);
            if (!wrong.empty())
                candidates.emplace_back("wrong_answer", "<step>" + task::goldFinalStep(q) + "</step><answer>" + wrong +
                                                            "</answer>");
        } else {
            const data::MultihopStep &s = q.chain[hop];
            // Another relation of the same entity: stated in the entity's passage.
            std::vector<std::string> others;
            if (const auto it = m_byEntity.find(s.entity); it != m_byEntity.end())
                for (const auto &[relation, value] : it->second)
                    if (relation != s.relation && value != s.value)
                        others.push_back(value);
            if (!others.empty()) {
                const std::string v = rng.pick(others);
                candidates.emplace_back("other_relation", replaceLast(gold, s.value + "です。", v + "です。"));
            }
            const std::string wrong = otherValue(valuesOf(s.relation), {s.value}, rng);
            if (!wrong.empty())
                candidates.emplace_back("wrong_value", replaceLast(gold, s.value + "です。", wrong + "です。"));
            // Answering now, with the value found last (the question's entity at the start).
            const std::string known = hop == 0 ? s.entity : q.chain[hop - 1].value;
            candidates.emplace_back("early_answer", "<step>" + std::to_string(hop) + "回の検索で答えが分かった。</step><answer>" +
                                                        known + "</answer>");
        }
        // Up to perStep of them, in a drawn order.
        for (size_t i = candidates.size(); i > 1; --i)
            std::swap(candidates[i - 1], candidates[static_cast<size_t>(rng.below(i))]);
        int made = 0;
        for (const auto &[kind, spoiled] : candidates) {
            if (made >= perStep)
                break;
            if (spoiled == gold)
                continue;
            const ReferencePairJudge::Worth good = ReferencePairJudge::worth(q, historyText, gold);
            const ReferencePairJudge::Worth bad = ReferencePairJudge::worth(q, historyText, spoiled);
            if (good.points <= bad.points)
                continue;
            PerturbedPair p;
            p.kind = kind;
            p.goldPoints = good.points;
            p.spoiledPoints = bad.points;
            p.pair.questionId = q.id;
            p.pair.question = q.question;
            p.pair.gold = q.answer;
            p.pair.history = history;
            p.pair.stepA = gold;
            p.pair.stepB = spoiled;
            p.pair.origin = "import";
            p.label.source = Source::Import;
            p.label.annotator = "perturbed gold";
            p.label.choice = Choice::A;
            p.label.reason = kind + ": A " + good.why + " (" + std::to_string(good.points) + " points); B " + bad.why +
                             " (" + std::to_string(bad.points) + ")";
            out.push_back(std::move(p));
            ++made;
        }
        if (!last) {
            history.push_back(gold);
            historyText += gold;
        }
    }
    return out;
}

} // namespace rwb::prm
