#pragma once

// The generic components that compare a completion with a reference or look for strings in
// it: exact_match, contains, regex, numeric, f1. docs/rewards.md defines each with an
// example; library.h registers them. Each is small, so the five share a file pair, as a
// task's rewards do (tasks/legalqa/legalrewards.h).

#include "reward/library/libraryreward.h"
#include "text/regex.h"

#include <optional>
#include <string>
#include <vector>

namespace rwb::reward {

// exact_match: 1 when the reply equals the reference in comparison form
// (library::comparisonForm), else 0. Options: column, target ("answer"), normalize (true),
// case_sensitive (false).
class ExactMatchReward : public LibraryReward {
public:
    explicit ExactMatchReward(const RewardOptions &options);

protected:
    Explanation evaluate(const task::Example &example, const task::Completion &completion) const override;

private:
    bool m_normalize = true;
    bool m_caseSensitive = false;
};

// contains: the share of the required strings (strings, or the column's value) found in
// the reply ("all"), or 1 when any is ("any"); 0 when any forbidden string occurs. Options:
// strings, column, forbidden, mode ("all"), case_sensitive (false), target ("text").
class ContainsReward : public LibraryReward {
public:
    explicit ContainsReward(const RewardOptions &options);

protected:
    Explanation evaluate(const task::Example &example, const task::Completion &completion) const override;

private:
    std::vector<std::string> m_strings;   // as compared (lower case unless case_sensitive)
    std::vector<std::string> m_forbidden; // the same
    bool m_any = false;
    bool m_caseSensitive = false;
};

// regex: 1 when the pattern (Python syntax, text::Regex) matches the reply (searched, or
// the whole of it with full), else 0; None when the match gives up backtracking. Options:
// pattern, target ("text"), full (false).
class RegexReward : public LibraryReward {
public:
    explicit RegexReward(const RewardOptions &options);

protected:
    Explanation evaluate(const task::Example &example, const task::Completion &completion) const override;

private:
    std::optional<text::Regex> m_regex; // always set; optional only to build it in the constructor body
    bool m_full = false;
};

// numeric: 1 when the reply's last number (library::lastNumber) is within tolerance
// (absolute) or relative·|reference| of the reference's last number, else 0; None when the
// reference has no number. Options: column, target ("answer"), tolerance (1e-6),
// relative (0).
class NumericReward : public LibraryReward {
public:
    explicit NumericReward(const RewardOptions &options);

protected:
    Explanation evaluate(const task::Example &example, const task::Completion &completion) const override;

private:
    double m_tolerance = 1e-6;
    double m_relative = 0.0;
};

// f1: F1 of the reply's units against the reference's (library::f1Tokens or f1Chars,
// multiset overlap). Options: column, target ("answer"), unit ("token" | "char").
class F1Reward : public LibraryReward {
public:
    explicit F1Reward(const RewardOptions &options);

protected:
    Explanation evaluate(const task::Example &example, const task::Completion &completion) const override;

private:
    bool m_chars = false;
};

} // namespace rwb::reward
