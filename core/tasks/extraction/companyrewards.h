#pragma once

// The five rewards of the first paper (§3.1) for extracting the sender's company.
// They are small and share their helpers, so they live in one file pair.

#include "tasks/extraction/extraction.h"
#include "reward/reward.h"
#include "reward/synonymtable.h"

#include <memory>

namespace rwb::reward {

// partial: 2·LCS(N(ans), N(gold)) / (|N(ans)| + |N(gold)|); 1 when both are empty, 0 when one is.
class PartialReward final : public ExtractionReward {
public:
    std::string_view name() const override { return "partial"; }
    double score(const ExtractionPrompt &prompt, const ExtractionAnswer &answer) const override;
    Explanation explain(const ExtractionPrompt &prompt, const ExtractionAnswer &answer) const override;
};

// marker: partial after stripping the legal-entity markers from both; when both become
// empty, partial of the unstripped strings.
class MarkerReward final : public ExtractionReward {
public:
    std::string_view name() const override { return "marker"; }
    double score(const ExtractionPrompt &prompt, const ExtractionAnswer &answer) const override;
    Explanation explain(const ExtractionPrompt &prompt, const ExtractionAnswer &answer) const override;
};

// exist: 1 when N(gold) and N(ans) are both 不明; otherwise 1 when N(ans) is non-empty
// and a substring of N(sender header + e-mail body), else 0.
class ExistReward final : public ExtractionReward {
public:
    std::string_view name() const override { return "exist"; }
    double score(const ExtractionPrompt &prompt, const ExtractionAnswer &answer) const override;
    Explanation explain(const ExtractionPrompt &prompt, const ExtractionAnswer &answer) const override;
};

// format: 1 when the completion has the thinking format (checkThinkingFormat), else 0.
class FormatReward final : public ExtractionReward {
public:
    std::string_view name() const override { return "format"; }
    double score(const ExtractionPrompt &prompt, const ExtractionAnswer &answer) const override;
    Explanation explain(const ExtractionPrompt &prompt, const ExtractionAnswer &answer) const override;
};

// domain: the best partial between the romanized candidates (the answer with markers
// stripped, then its synonyms) and the sender's domain; 0 when the answer is 不明 or
// empty, or the sender header has no '@' (or an empty domain, as in "x@.jp").
class DomainReward final : public ExtractionReward {
public:
    explicit DomainReward(std::shared_ptr<const SynonymTable> synonyms);
    std::string_view name() const override { return "domain"; }
    double score(const ExtractionPrompt &prompt, const ExtractionAnswer &answer) const override;
    Explanation explain(const ExtractionPrompt &prompt, const ExtractionAnswer &answer) const override;

private:
    std::shared_ptr<const SynonymTable> m_synonyms;
};

} // namespace rwb::reward
