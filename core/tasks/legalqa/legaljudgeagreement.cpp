#include "tasks/legalqa/legaljudgeagreement.h"

#include "tasks/chat/chatrecord.h"
#include "data/jsonfields.h"
#include "judge/judgeclient.h"
#include "judge/judgeprompts.h"
#include "judge/verdict.h"
#include "util/duration.h"
#include "util/boundedjson.h"

#include <algorithm>
#include <cmath>

namespace rwb::judge {

int coverageLabel(double coverage)
{
    if (std::isnan(coverage))
        return -1;
    return coverage <= 0.0 ? 0 : coverage < 1.0 ? 1 : 2;
}

int consistencyLabel(double consistency)
{
    if (std::isnan(consistency))
        return -1;
    return consistency < 0.5 ? 0 : 1;
}

LabelledRequest labelledRequestOf(data::ChatRecord r, const std::string &path)
{
    namespace jf = data::jsonfields;
    const size_t lineNo = r.lineNumber;
    const jf::Place place{path, lineNo};
    LabelledRequest q;
    q.id = r.id;
    q.kind = r.label;
    q.messages = std::move(r.messages);
    q.line = lineNo;
    const nlohmann::json &coverage = jf::require(r.line, "coverage", place);
    if (!coverage.is_number() || coverage.get<double>() < 0.0 || coverage.get<double>() > 1.0)
        jf::fail(place, "field \"coverage\" must be a number within 0–1 (the reference grader's), not " +
                            coverage.dump());
    q.coverage = coverage.get<double>();
    const nlohmann::json &contradiction = jf::require(r.line, "contradiction", place);
    if (!contradiction.is_boolean())
        jf::fail(place, std::string("field \"contradiction\" must be true or false, not ") + contradiction.dump());
    q.contradiction = contradiction.get<bool>();
    if (const auto facts = r.line.find("facts"); facts != r.line.end()) {
        if (!facts->is_number_integer() || facts->get<int64_t>() < 0 || facts->get<int64_t>() > 1000)
            jf::fail(place, "field \"facts\" must be a whole number of facts, not " + facts->dump());
        q.facts = facts->get<int>();
    } else {
        // Lines written before "facts" existed: the target's reference points.
        const nlohmann::json target = util::parseJsonOrDiscarded(r.completion);
        if (target.is_object() && target.contains("reference_points") && target["reference_points"].is_array())
            q.facts = static_cast<int>(target["reference_points"].size());
    }
    return q;
}

std::vector<LabelledRequest> readLabelledRequests(const std::string &path, size_t limit)
{
    const std::string text = data::readTextFile(path);
    std::vector<LabelledRequest> out;
    data::forEachLine(text, [&](size_t lineNo, std::string_view line) {
        if (limit > 0 && out.size() >= limit)
            return false;
        out.push_back(labelledRequestOf(data::parseChatLine(line, path, lineNo, false), path));
        return true;
    });
    if (out.empty())
        throw data::InputException({path, 0, "no labelled request"});
    return out;
}

void countAgreementItem(LegalAgreement &a, const AgreementItem &item)
{
    ++a.requests;
    bool coverageAgreed = false, consistencyAgreed = false;
    if (item.ok) {
        const int refCoverage = coverageLabel(item.referenceCoverage);
        const int judgedCoverage = coverageLabel(item.judgedCoverage);
        const int refConsistency = consistencyLabel(item.referenceContradiction ? 0.0 : 1.0);
        const int judgedConsistency = consistencyLabel(item.judgedContradiction ? 0.0 : 1.0);
        a.coverage.add(refCoverage, judgedCoverage);
        a.consistency.add(refConsistency, judgedConsistency);
        coverageAgreed = refCoverage == judgedCoverage;
        consistencyAgreed = refConsistency == judgedConsistency;
    } else {
        ++a.failed;
    }
    a.byKind[item.kind].add(coverageAgreed, consistencyAgreed);
    a.byFacts[item.facts].add(coverageAgreed, consistencyAgreed);
}

LegalAgreement measureLegalAgreement(const JudgeClient &client, const std::vector<LabelledRequest> &requests,
                                     size_t batch, const std::function<void(size_t, size_t)> &progress)
{
    const util::Clock::time_point start = util::Clock::now();
    LegalAgreement a;
    batch = std::max<size_t>(batch, 1);
    for (size_t from = 0; from < requests.size(); from += batch) {
        const size_t to = std::min(requests.size(), from + batch);
        std::vector<ChatRequest> chat;
        for (size_t i = from; i < to; ++i)
            chat.push_back(rewardRequest(client.options().sampling, requests[i].messages, legalSchema(), false));
        const std::vector<JudgeCall> calls = client.run(chat);
        for (size_t i = from; i < to; ++i) {
            const LabelledRequest &q = requests[i];
            const JudgeCall &call = calls[i - from];
            AgreementItem item;
            item.id = q.id;
            item.kind = q.kind;
            item.referenceCoverage = q.coverage;
            item.referenceContradiction = q.contradiction;
            item.facts = q.facts;
            if (call.cacheHit)
                ++a.cacheHits;
            if (!call.ok()) {
                item.error = call.error;
            } else {
                item.reply = call.reply->choices.front().content;
                if (!call.cacheHit) {
                    a.promptTokens += call.reply->promptTokens;
                    a.completionTokens += call.reply->completionTokens;
                }
                try {
                    const LegalVerdict v = parseLegalReply(item.reply);
                    item.judgedCoverage = v.coverage;
                    item.judgedContradiction = v.contradiction;
                    item.ok = true;
                } catch (const std::exception &e) {
                    item.error = std::string("the reply could not be read: ") + e.what();
                }
            }
            countAgreementItem(a, item);
            a.items.push_back(std::move(item));
        }
        if (progress)
            progress(to, requests.size());
    }
    a.seconds = util::secondsSince(start);
    return a;
}

} // namespace rwb::judge
