#pragma once

// The rewards of the third paper (GRPO for legal QA, §3) on the legal-QA task
// (tasks/legalqa/legalqatask.h). Citation rewards: xml_format f1, non_hallucination f2, citation_f1
// f3; answer reward: semantic, the cosine similarity of the answer and the reference
// answer under an embedding backend (embed/embedder.h).

#include "reward/reward.h"
#include "tasks/legalqa/legalqatask.h"

#include <memory>

namespace rwb::embed {
class Embedder;
}

namespace rwb::reward {

using LegalQaReward = TaskReward<task::LegalQaExample, task::LegalQaCompletion>;

// xml_format: 1 when the completion has the D.2 format exactly (eval::parseLegalOutput's
// rules), else 0.
class XmlFormatReward final : public LegalQaReward {
public:
    std::string_view name() const override { return "xml_format"; }
    double score(const task::LegalQaExample &e, const task::LegalQaCompletion &c) const override;
    Explanation explain(const task::LegalQaExample &e, const task::LegalQaCompletion &c) const override;
};

// non_hallucination: 0.5 when the format holds and at least one cited code is among the
// sections in the prompt, else 0 (the paper's f2).
class NonHallucinationReward final : public LegalQaReward {
public:
    std::string_view name() const override { return "non_hallucination"; }
    double score(const task::LegalQaExample &e, const task::LegalQaCompletion &c) const override;
    Explanation explain(const task::LegalQaExample &e, const task::LegalQaCompletion &c) const override;
};

// citation_f1: F1 of the cited set against the gold set (eval::scoreCitations: citing
// nothing when nothing is due is 1, either side empty alone is 0). Read leniently: a
// citation block counts even when the format around it is broken (xml_format says so).
class CitationF1Reward final : public LegalQaReward {
public:
    std::string_view name() const override { return "citation_f1"; }
    double score(const task::LegalQaExample &e, const task::LegalQaCompletion &c) const override;
    Explanation explain(const task::LegalQaExample &e, const task::LegalQaCompletion &c) const override;
};

// semantic: max(0, cosine(embed(answer), embed(reference answer))) — an empty answer 0.
// The reference is a judged example's (task::JudgedExample::judgeReference: the legal
// answer, a user's record's reference), else the gold: the reward scores every task's
// completions (registered with anyTask).
class SemanticReward final : public Reward {
public:
    explicit SemanticReward(std::shared_ptr<const embed::Embedder> embedder, std::string name = "semantic");
    std::string_view name() const override { return m_name; }
    double score(const task::Example &e, const task::Completion &c) const override;
    Explanation explain(const task::Example &e, const task::Completion &c) const override;
    void scoreBatch(const std::vector<const task::Example *> &examples,
                    const std::vector<const task::Completion *> &completions, std::vector<double> &out, ScoreLog *log = nullptr) const override;

private:
    std::shared_ptr<const embed::Embedder> m_embedder;
    std::string m_name;
};

} // namespace rwb::reward
