#pragma once

#include <string>
#include <string_view>

namespace rwb::data {

// Checks one e-mail's gold against the first paper's rule (§2.4): the gold is the most
// detailed form of the sender's company name in the e-mail ("Sansan" and
// "Sansan 株式会社" both present: the gold is the latter).
//
// Returns "" when the gold obeys the rule, else a sentence saying why not:
//  - the gold does not occur verbatim in the sender header or the body;
//  - the gold's name occurs with more legal-entity marker text around it somewhere in
//    header + body than the gold has (compared after text::normalize, so "X" followed
//    by a line "株式会社…" counts as "X株式会社": after white space is removed, that is
//    what a reward sees).
// A gold of 不明 is not checked (that no sender company is stated cannot be checked
// from text) and returns "". Thread-safe.
std::string goldRuleViolation(std::string_view senderHeader, std::string_view emailText, std::string_view gold);

} // namespace rwb::data
