#pragma once

// The built-in judge kinds (reward/judgekind.h), one file each; judgekind.cpp registers
// them. Internal to core/reward, with the verdict JSON helpers they share.

#include "judge/verdict.h"
#include "reward/judgekind.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

namespace rwb::reward::judgekinds {

// coverage (true) or consistency (false): one NitiBench-style call gives both grades.
std::shared_ptr<const JudgeKind> legal(bool coverage);
// rubric_explicit: Σ w·c / Σ w⁺ over the rubric's items, per item or all in one call.
std::shared_ptr<const JudgeKind> rubricExplicit();
// rubric_implicit, likert_simple, likert_reference: one 1–10 rating.
std::shared_ptr<const JudgeKind> rating(std::string name);

// Where in the reply a verdict's JSON was read, as a verdict keeps it.
inline nlohmann::json span(const judge::JsonLocation &l)
{
    return {{"form", judge::toString(l.form)}, {"begin", l.begin}, {"end", l.end}};
}

inline std::string dumpVerdict(const nlohmann::json &j)
{
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace rwb::reward::judgekinds
