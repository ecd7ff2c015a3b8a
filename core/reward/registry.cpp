#include "reward/registry.h"

#include "data/extractionrecord.h"
#include "data/legalquestion.h"
#include "data/multihop.h"
#include "reward/companyrewards.h"
#include "reward/judgerewards.h"
#include "reward/legalrewards.h"
#include "reward/multihoprewards.h"

#include <algorithm>
#include <stdexcept>

namespace rwb::reward {

const Registry &Registry::builtin()
{
    static const Registry registry = [] {
        Registry r;
        const std::string task(data::kCompanyExtractionTask);
        r.add({"partial", task, "longest common substring ratio of the answer and the gold",
               [](const RewardOptions &) { return std::make_unique<PartialReward>(); }});
        r.add({"marker", task, "partial after removing legal-entity markers (株式会社, (株), …) from both",
               [](const RewardOptions &) { return std::make_unique<MarkerReward>(); }});
        r.add({"exist", task, "1 when the answer occurs in the sender header or the e-mail body",
               [](const RewardOptions &) { return std::make_unique<ExistReward>(); }});
        r.add({"format", task, "1 when the completion is <thinking>…</thinking><answer>…</answer>",
               [](const RewardOptions &) { return std::make_unique<FormatReward>(); }});
        r.add({"domain", task, "best partial between the romanized answer (or a synonym) and the sender's domain",
               [](const RewardOptions &o) {
                   return std::make_unique<DomainReward>(o.synonyms ? o.synonyms : SynonymTable::bundled());
               }});
        const std::string legal(data::kLegalQaTask);
        r.add({"xml_format", legal, "1 when the completion is <reasoning>…</reasoning><answer>…</answer><citation>…</citation>",
               [](const RewardOptions &) { return std::make_unique<XmlFormatReward>(); }});
        r.add({"non_hallucination", legal, "0.5 when the format holds and a cited law code is among the retrieved sections",
               [](const RewardOptions &) { return std::make_unique<NonHallucinationReward>(); }});
        r.add({"citation_f1", legal, "F1 of the cited law codes against the gold ones",
               [](const RewardOptions &) { return std::make_unique<CitationF1Reward>(); }});
        r.add({"semantic", legal, "cosine similarity of the answer and the reference answer (the config's embedding)",
               [](const RewardOptions &o) { return std::make_unique<SemanticReward>(o.embedder); }, true});
        // Judge rewards (judgerewards.h): the config's "judge" answers them.
        const auto judged = [](const std::string &name) {
            return [name](const RewardOptions &o) {
                return makeJudgeReward(name, o.judge, parseJudgeRewardOptions(name, o.componentOptions, o.baseDir));
            };
        };
        r.add({"coverage", legal, "an LLM judge's coverage of the reference answer's points: none 0, partial 0.5, full 1",
               judged("coverage"), false, true});
        r.add({"consistency", legal, "1 − an LLM judge's contradiction of the reference answer (NitiBench)",
               judged("consistency"), false, true});
        r.add({"rubric_explicit", legal, "Σ w·c / Σ w⁺ over the rubric's items, each judged met or not (Rubrics as Rewards)",
               judged("rubric_explicit"), false, true});
        r.add({"rubric_implicit", legal, "an LLM judge's 1–10 rating given the whole rubric, (r − 1) / 9",
               judged("rubric_implicit"), false, true});
        r.add({"likert_simple", legal, "an LLM judge's 1–10 rating of the answer alone, (r − 1) / 9",
               judged("likert_simple"), false, true});
        r.add({"likert_reference", legal, "an LLM judge's 1–10 rating against the reference answer, (r − 1) / 9",
               judged("likert_reference"), false, true});
        const std::string multihop(data::kMultihopTask);
        r.add({"answer_f1", multihop, "F1 of the answer's tokens against the gold answer's (the fourth paper's outcome reward)",
               [](const RewardOptions &) { return std::make_unique<AnswerF1Reward>(); }});
        r.add({"answer_em", multihop, "1 when the answer equals the gold answer after normalization",
               [](const RewardOptions &) { return std::make_unique<AnswerEmReward>(); }});
        r.add({"step_format", multihop, "1 when the completion follows the step format through a retrieval to an <answer>",
               [](const RewardOptions &) { return std::make_unique<StepFormatReward>(); }});
        return r;
    }();
    return registry;
}

void Registry::add(Entry entry)
{
    if (find(entry.name))
        throw std::invalid_argument("reward \"" + entry.name + "\" is registered twice");
    m_entries.push_back(std::move(entry));
}

const Registry::Entry *Registry::find(std::string_view name) const
{
    for (const Entry &e : m_entries)
        if (e.name == name)
            return &e;
    return nullptr;
}

std::vector<std::string> Registry::names(std::string_view task) const
{
    std::vector<std::string> out;
    for (const Entry &e : m_entries)
        if (e.task == task)
            out.push_back(e.name);
    return out;
}

std::vector<std::string> Registry::tasks() const
{
    std::vector<std::string> out;
    for (const Entry &e : m_entries)
        if (std::find(out.begin(), out.end(), e.task) == out.end())
            out.push_back(e.task);
    return out;
}

std::unique_ptr<Reward> Registry::create(std::string_view name, const RewardOptions &options) const
{
    const Entry *e = find(name);
    if (!e) {
        std::vector<std::string> all;
        for (const Entry &x : m_entries)
            all.push_back(x.name);
        throw std::invalid_argument("unknown reward \"" + std::string(name) + "\" (allowed: " + joinNames(all) + ")");
    }
    return e->make(options);
}

std::string joinNames(const std::vector<std::string> &names)
{
    std::string s;
    for (const std::string &n : names) {
        if (!s.empty())
            s += ", ";
        s += n;
    }
    return s;
}

} // namespace rwb::reward
