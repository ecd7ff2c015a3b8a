#include "reward/judgerewards.h"

#include "judge/judgeclient.h"
#include "llm/chatjson.h"
#include "judge/judgeprompts.h"
#include "judge/rubric.h"
#include "judge/verdict.h"
#include "data/jsonl.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <stdexcept>

namespace rwb::reward {

namespace {

using json = nlohmann::json;
using judge::ChatChoice;
using judge::ChatMessage;
using judge::JudgeSchema;

// One request a reward makes for one completion.
struct Ask {
    std::string part;                   // "" or "items[3]"
    std::vector<ChatMessage> messages;
    JudgeSchema schema;
    size_t item = 0;                    // per_item: the rubric item
    const judge::Rubric *rubric = nullptr;
};

json span(const judge::JsonLocation &l)
{
    return {{"form", judge::toString(l.form)}, {"begin", l.begin}, {"end", l.end}};
}

std::string dumpVerdict(const json &j)
{
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

class JudgeReward : public Reward {
public:
    JudgeReward(std::string name, std::shared_ptr<const judge::JudgeClient> client, JudgeRewardOptions options)
        : m_name(std::move(name)), m_client(std::move(client)), m_options(std::move(options))
    {
        if (!m_client)
            throw std::invalid_argument(m_name + ": the reward config has no \"judge\"");
    }
    std::string_view name() const override { return m_name; }

    double score(const task::Example &example, const task::Completion &completion) const override
    {
        std::vector<double> out;
        scoreBatch({&example}, {&completion}, out, nullptr);
        return out.front();
    }

    Explanation explain(const task::Example &example, const task::Completion &completion) const override
    {
        ScoreLog log;
        std::vector<double> out;
        scoreBatch({&example}, {&completion}, out, &log);
        Explanation e;
        e.reward = m_name;
        e.value = out.front();
        e.decisions = log.take();
        e.answer = completion.answer();
        if (isNone(e.value)) {
            e.reason = Reason::JudgeFailed;
            for (const JudgeDecision &d : e.decisions)
                if (!d.error.empty()) {
                    e.detail = d.error;
                    break;
                }
        } else {
            e.reason = Reason::JudgeVerdict;
            e.detail = std::to_string(e.decisions.size()) + (e.decisions.size() == 1 ? " judge call" : " judge calls");
        }
        return e;
    }

    void scoreBatch(const std::vector<const task::Example *> &examples,
                    const std::vector<const task::Completion *> &completions, std::vector<double> &out,
                    ScoreLog *log) const override
    {
        const size_t n = examples.size();
        std::vector<std::vector<Ask>> asks(n);
        std::vector<judge::ChatRequest> requests;
        for (size_t i = 0; i < n; ++i) {
            const auto *judged = dynamic_cast<const task::JudgedExample *>(examples[i]);
            if (!judged)
                throw std::logic_error(m_name + ": the task's examples cannot be judged (not a task::JudgedExample)");
            try {
                asks[i] = makeAsks(*judged, *completions[i], examples[i]->id());
            } catch (const std::invalid_argument &e) { // checkExample() lets none through
                throw std::invalid_argument(m_name + ": " + e.what());
            }
            for (const Ask &a : asks[i])
                requests.push_back(request(a));
        }
        const std::vector<judge::JudgeCall> calls = m_client->run(requests);
        out.assign(n, kNone);
        size_t k = 0;
        for (size_t i = 0; i < n; ++i) {
            const auto &judged = dynamic_cast<const task::JudgedExample &>(*examples[i]);
            std::vector<double> values;
            bool failed = false;
            for (const Ask &a : asks[i]) {
                const judge::JudgeCall &call = calls[k++];
                JudgeDecision d;
                d.item = i;
                d.reward = m_name;
                d.part = a.part;
                d.backend = m_client->backend().identity();
                d.request = llm::requestJson(call.request, m_client->backend().model());
                d.latencySeconds = call.latencySeconds;
                d.cacheHit = call.cacheHit;
                d.attempts = call.attempts;
                d.cost = call.cost;
                if (!call.ok()) {
                    d.error = call.error;
                    failed = true;
                } else {
                    d.reply = call.reply->choices.front().content;
                    d.promptTokens = call.cacheHit ? 0 : call.reply->promptTokens;
                    d.completionTokens = call.cacheHit ? 0 : call.reply->completionTokens;
                    try {
                        ReadReply p = parse(a, call.reply->choices.front());
                        d.value = p.value;
                        d.verdict = std::move(p.verdict);
                        values.push_back(p.value);
                    } catch (const std::exception &e) { // VerdictError, or a rubric that does not add up
                        d.error = std::string("the reply could not be read: ") + e.what();
                        failed = true;
                        m_client->forget(call.key); // asked again next time, not read again from the cache
                    }
                }
                if (log)
                    log->add(std::move(d));
            }
            if (!failed)
                out[i] = aggregate(judged, asks[i], values);
        }
    }

    void checkExample(const task::Example &example) const override
    {
        const auto *judged = dynamic_cast<const task::JudgedExample *>(&example);
        if (!judged)
            throw std::invalid_argument("example " + example.id() + " cannot be judged (its task gives a judge nothing)");
        checkJudged(*judged, example.id());
    }

protected:
    // What checkExample() checks besides the type: the rubric or reference the reward needs.
    virtual void checkJudged(const task::JudgedExample &e, const std::string &id) const = 0;
    virtual std::vector<Ask> makeAsks(const task::JudgedExample &e, const task::Completion &c,
                                      const std::string &id) const = 0;
    virtual ReadReply parse(const Ask &ask, const ChatChoice &choice) const = 0;
    // The value from the parts' values (one part: its value).
    virtual double aggregate(const task::JudgedExample &, const std::vector<Ask> &, const std::vector<double> &values) const
    {
        return values.front();
    }

    // The rubric of an example: its own, else the component's rubric_file.
    const judge::Rubric &rubricOf(const task::JudgedExample &e, const std::string &id) const
    {
        if (const judge::Rubric *r = e.judgeRubric())
            return *r;
        if (m_options.rubric)
            return *m_options.rubric;
        throw std::invalid_argument("example " + id + " has no rubric, and the component has no rubric_file (options)");
    }

    judge::ChatRequest request(const Ask &a) const
    {
        return judge::rewardRequest(m_client->options().sampling, a.messages, a.schema, m_options.geval);
    }

    std::string m_name;
    std::shared_ptr<const judge::JudgeClient> m_client;
    JudgeRewardOptions m_options;
};

// coverage / consistency: one NitiBench-style call gives both grades.
class LegalJudgeReward final : public JudgeReward {
public:
    LegalJudgeReward(bool coverage, std::string name, std::shared_ptr<const judge::JudgeClient> client,
                     JudgeRewardOptions o)
        : JudgeReward(std::move(name), std::move(client), std::move(o)), m_coverage(coverage)
    {
    }

protected:
    void checkJudged(const task::JudgedExample &e, const std::string &id) const override
    {
        if (e.judgeReference().empty())
            throw std::invalid_argument("example " + id + " has no reference answer to judge against");
    }
    std::vector<Ask> makeAsks(const task::JudgedExample &e, const task::Completion &c, const std::string &id) const override
    {
        checkJudged(e, id);
        Ask a;
        a.messages = judge::legalCoverageMessages(e.judgeQuestion(), e.judgeReference(), c.answer());
        a.schema = judge::legalSchema();
        return {a};
    }
    ReadReply parse(const Ask &, const ChatChoice &choice) const override
    {
        return readLegalReply(m_coverage, choice.content);
    }

private:
    bool m_coverage;
};

class RubricExplicitReward final : public JudgeReward {
public:
    using JudgeReward::JudgeReward;

protected:
    void checkJudged(const task::JudgedExample &e, const std::string &id) const override { rubricOf(e, id); }
    judge::ItemMode itemMode() const
    {
        return m_options.verdicts == "continuous" ? judge::ItemMode::Continuous : judge::ItemMode::Binary;
    }
    std::vector<Ask> makeAsks(const task::JudgedExample &e, const task::Completion &c,
                              const std::string &id) const override
    {
        const judge::Rubric &rubric = rubricOf(e, id);
        std::vector<Ask> out;
        if (m_options.mode == "all_items") {
            Ask a;
            a.messages = judge::rubricAllItemsMessages(e.judgeQuestion(), c.answer(), rubric, e.judgeReference());
            a.schema = judge::rubricAllItemsSchema(rubric.items.size());
            a.rubric = &rubric;
            out.push_back(std::move(a));
            return out;
        }
        for (size_t k = 0; k < rubric.items.size(); ++k) {
            Ask a;
            a.part = "items[" + std::to_string(k) + "]";
            a.messages = judge::rubricItemMessages(e.judgeQuestion(), c.answer(), rubric.items[k], itemMode(),
                                                   e.judgeReference());
            a.schema = judge::rubricItemSchema(itemMode());
            a.item = k;
            a.rubric = &rubric;
            out.push_back(std::move(a));
        }
        return out;
    }
    ReadReply parse(const Ask &a, const ChatChoice &choice) const override
    {
        if (m_options.mode == "all_items")
            return readRubricAllItemsReply(*a.rubric, choice.content);
        return readRubricItemReply(*a.rubric, a.item, itemMode(), choice, m_options.geval);
    }
    double aggregate(const task::JudgedExample &, const std::vector<Ask> &asks,
                     const std::vector<double> &values) const override
    {
        if (m_options.mode == "all_items")
            return values.front();
        std::vector<std::optional<double>> c(values.begin(), values.end());
        return *judge::explicitScore(*asks.front().rubric, c);
    }
};

// rubric_implicit, likert_simple, likert_reference: one 1–10 rating.
class RatingReward final : public JudgeReward {
public:
    RatingReward(std::string kind, std::string name, std::shared_ptr<const judge::JudgeClient> client,
                 JudgeRewardOptions options)
        : JudgeReward(std::move(name), std::move(client), std::move(options)), m_kind(std::move(kind))
    {
    }

protected:
    void checkJudged(const task::JudgedExample &e, const std::string &id) const override
    {
        if (m_kind == "rubric_implicit")
            rubricOf(e, id);
        else if (m_kind == "likert_reference" && e.judgeReference().empty())
            throw std::invalid_argument("example " + id + " has no reference answer");
    }
    std::vector<Ask> makeAsks(const task::JudgedExample &e, const task::Completion &c,
                              const std::string &id) const override
    {
        checkJudged(e, id);
        Ask a;
        if (m_kind == "rubric_implicit")
            a.messages = judge::rubricImplicitMessages(e.judgeQuestion(), c.answer(), rubricOf(e, id));
        else if (m_kind == "likert_reference") {
            a.messages = judge::likertReferenceMessages(e.judgeQuestion(), e.judgeReference(), c.answer());
        } else
            a.messages = judge::likertSimpleMessages(e.judgeQuestion(), c.answer());
        a.schema = judge::ratingSchema();
        return {a};
    }
    ReadReply parse(const Ask &, const ChatChoice &choice) const override
    {
        return readRatingReply(choice, m_options.geval);
    }

private:
    std::string m_kind;
};

} // namespace

ReadReply readLegalReply(bool coverage, const std::string &content)
{
    const judge::LegalVerdict v = judge::parseLegalReply(content);
    ReadReply r;
    r.value = coverage ? v.coverage : (v.contradiction ? 0.0 : 1.0);
    r.verdict = dumpVerdict({{"coverage", v.coverage},
                             {"contradiction", v.contradiction},
                             {"student_points", v.studentPoints},
                             {"reference_points", v.referencePoints},
                             {"coverage_thought", v.coverageThought},
                             {"contradiction_thought", v.contradictionThought},
                             {"fallback", v.usedFallback},
                             {"span", span(v.location)}});
    return r;
}

ReadReply readRubricItemReply(const judge::Rubric &rubric, size_t item, judge::ItemMode mode,
                              const judge::ChatChoice &choice, bool geval)
{
    const judge::RubricItem &it = rubric.items.at(item);
    judge::ItemVerdict v = judge::parseRubricItemReply(choice.content, mode);
    if (geval && mode == judge::ItemMode::Continuous)
        if (const std::optional<double> g = judge::gevalScore(choice.logprobs, 0, 10, judge::kItemScoreKey, nullptr))
            v.c = *g / 10.0;
    json verdict = {{"criterion", it.criterion},
                    {"category", judge::toString(it.category)},
                    {"weight", it.weight},
                    {"c", v.c},
                    {"contribution", it.weight * v.c / rubric.positiveWeight()},
                    {"explanation", v.explanation},
                    {"span", span(v.location)}};
    if (v.met)
        verdict["met"] = *v.met;
    if (v.score)
        verdict["score"] = *v.score;
    return {v.c, dumpVerdict(verdict)};
}

ReadReply readRubricAllItemsReply(const judge::Rubric &rubric, const std::string &content)
{
    const judge::AllItemsVerdict v = judge::parseRubricAllItemsReply(content, rubric.items.size());
    const std::vector<std::optional<double>> c = v.verdicts();
    const std::vector<judge::ItemContribution> parts = judge::explicitBreakdown(rubric, c);
    json items = json::array();
    for (size_t k = 0; k < rubric.items.size(); ++k)
        items.push_back({{"criterion", rubric.items[k].criterion},
                         {"category", judge::toString(rubric.items[k].category)},
                         {"weight", rubric.items[k].weight},
                         {"c", *c[k]},
                         {"contribution", parts[k].contribution},
                         {"explanation", v.explanations[k]}});
    ReadReply r;
    r.value = *judge::explicitScore(rubric, c);
    r.verdict = dumpVerdict({{"items", std::move(items)}, {"score", r.value}, {"fallback", v.usedFallback},
                             {"span", span(v.location)}});
    return r;
}

ReadReply readRatingReply(const judge::ChatChoice &choice, bool geval)
{
    const judge::RatingVerdict v = judge::parseRatingReply(choice.content);
    double value = v.unit;
    json verdict = {{"rating", v.rating}, {"span", span(v.location)}};
    if (geval) {
        judge::GevalDetail detail;
        if (const std::optional<double> g = judge::gevalScore(choice.logprobs, 1, 10, judge::kRatingKey, &detail)) {
            value = judge::likertToUnit(*g);
            verdict["geval"] = *g;
            json used = json::array();
            for (const auto &[s, prob] : detail.used)
                used.push_back({s, prob});
            verdict["geval_used"] = std::move(used);
        } else {
            verdict["geval"] = nullptr; // no logprobs came back: the written rating counts
        }
    }
    verdict["unit"] = value;
    return {value, dumpVerdict(verdict)};
}

JudgeRewardOptions parseJudgeRewardOptions(const std::string &reward, const std::string &text,
                                           const std::string &baseDir)
{
    JudgeRewardOptions o;
    if (text.empty())
        return o;
    const json j = util::parseJsonOrDiscarded(text);
    if (!j.is_object())
        throw std::invalid_argument("options must be a JSON object");
    const bool rubricReward = reward == "rubric_explicit" || reward == "rubric_implicit";
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string &k = it.key();
        const bool known = (k == "geval" && reward != "coverage" && reward != "consistency") ||
                           ((k == "mode" || k == "verdicts") && reward == "rubric_explicit") ||
                           (k == "rubric_file" && rubricReward);
        if (!known)
            throw std::invalid_argument("options." + k + ": not an option of " + reward);
    }
    if (auto it = j.find("mode"); it != j.end()) {
        if (!it->is_string() || (*it != "per_item" && *it != "all_items"))
            throw std::invalid_argument("options.mode: must be \"per_item\" or \"all_items\"");
        o.mode = it->get<std::string>();
    }
    if (auto it = j.find("verdicts"); it != j.end()) {
        if (!it->is_string() || (*it != "binary" && *it != "continuous"))
            throw std::invalid_argument("options.verdicts: must be \"binary\" or \"continuous\"");
        o.verdicts = it->get<std::string>();
    }
    if (o.mode == "all_items" && o.verdicts == "continuous")
        throw std::invalid_argument("options.verdicts: \"continuous\" needs mode \"per_item\" (all_items asks met / not met)");
    if (auto it = j.find("geval"); it != j.end()) {
        if (!it->is_boolean())
            throw std::invalid_argument("options.geval: must be true or false");
        o.geval = it->get<bool>();
        if (o.geval && reward == "rubric_explicit" && o.verdicts != "continuous")
            throw std::invalid_argument("options.geval: needs \"verdicts\": \"continuous\" (a met / not met verdict "
                                        "has no score to weigh)");
    }
    if (auto it = j.find("rubric_file"); it != j.end()) {
        if (!it->is_string())
            throw std::invalid_argument("options.rubric_file: must be a string");
        std::filesystem::path p(it->get<std::string>());
        if (p.is_relative() && !baseDir.empty())
            p = std::filesystem::path(baseDir) / p;
        try {
            o.rubric = std::make_shared<judge::Rubric>(judge::parseRubricText(data::readTextFile(p.string()), p.string()));
        } catch (const std::exception &e) {
            throw std::invalid_argument(std::string("options.rubric_file: ") + e.what());
        }
    }
    return o;
}

std::unique_ptr<Reward> makeJudgeReward(const std::string &kind, std::shared_ptr<const judge::JudgeClient> client,
                                        JudgeRewardOptions options, const std::string &name)
{
    const std::string n = name.empty() ? kind : name;
    if (kind == "coverage" || kind == "consistency")
        return std::make_unique<LegalJudgeReward>(kind == "coverage", n, std::move(client), std::move(options));
    if (kind == "rubric_explicit")
        return std::make_unique<RubricExplicitReward>(n, std::move(client), std::move(options));
    if (kind == "rubric_implicit" || kind == "likert_simple" || kind == "likert_reference")
        return std::make_unique<RatingReward>(kind, n, std::move(client), std::move(options));
    throw std::invalid_argument("\"" + kind + "\" is not a judge reward");
}

} // namespace rwb::reward
