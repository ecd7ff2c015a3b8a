#pragma once

// The generic components that judge a reply's form rather than compare it with a
// reference: tag_format, length, language, repetition. docs/rewards.md defines each with
// an example; library.h registers them.

#include "reward/library/libraryreward.h"
#include "reward/library/scripts.h"

#include <optional>
#include <string>
#include <vector>

namespace rwb::reward {

// tag_format: 1 when each tag's <tag>…</tag> occurs exactly once and the blocks follow in
// the listed order (with exact, nothing but white space outside them), else 0; with
// partial, the share of the checks passed. Reads the whole completion. Options: tags
// (["think", "answer"]), exact (false), partial (false).
class TagFormatReward : public LibraryReward {
public:
    explicit TagFormatReward(const RewardOptions &options);

protected:
    Explanation evaluate(const task::Example &example, const task::Completion &completion) const override;

private:
    std::vector<std::string> m_tags;
    bool m_exact = false;
    bool m_partial = false;
};

// length: 1 when the reply's length (words, or code points) is within [min, max]; above
// max, max(0, 1 − (len − max) / slack); below min, len / min. Options: unit ("words" |
// "chars"), min, max (at least one), slack (max), target ("text").
class LengthReward : public LibraryReward {
public:
    explicit LengthReward(const RewardOptions &options);

protected:
    Explanation evaluate(const task::Example &example, const task::Completion &completion) const override;

private:
    bool m_chars = false;
    std::optional<int64_t> m_min;
    std::optional<int64_t> m_max;
    double m_slack = 0.0;
};

// language: the share of the reply's letters written in the scripts of the language
// (library::scriptOf; script identification, not language identification); 0 without
// letters. Options: language (en, ja, zh, ko, ru, ar, hi, th, el, he; required), target
// ("text").
class LanguageReward : public LibraryReward {
public:
    explicit LanguageReward(const RewardOptions &options);

protected:
    Explanation evaluate(const task::Example &example, const task::Completion &completion) const override;

private:
    std::string m_language;
    std::vector<library::Script> m_scripts;
};

// repetition: distinct n-grams / n-grams of the reply's words or non-white-space code
// points; 1 when it has fewer than n units. Options: n (3), unit ("words" | "chars"),
// target ("text").
class RepetitionReward : public LibraryReward {
public:
    explicit RepetitionReward(const RewardOptions &options);

protected:
    Explanation evaluate(const task::Example &example, const task::Completion &completion) const override;

private:
    size_t m_n = 3;
    bool m_chars = false;
};

} // namespace rwb::reward
