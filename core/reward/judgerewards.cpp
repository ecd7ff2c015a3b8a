#include "reward/judgerewards.h"

#include "reward/judgekind.h"

#include "judge/judgeclient.h"
#include "llm/chatjson.h"
#include "judge/judgeprompts.h"
#include "judge/rubric.h"
#include "data/jsonl.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace rwb::reward {

namespace {

using json = nlohmann::json;

// Any judge kind (judgekind.h) as a reward: its requests for a batch through the judge
// client, each reply read by the kind, a part that fails making the completion's value None.
class JudgeReward final : public Reward {
public:
    JudgeReward(std::shared_ptr<const JudgeKind> kind, std::string name, std::shared_ptr<const judge::JudgeClient> client,
                JudgeRewardOptions options)
        : m_kind(std::move(kind)), m_name(std::move(name)), m_client(std::move(client)), m_options(std::move(options))
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
        std::vector<std::vector<JudgeAsk>> asks(n);
        std::vector<judge::ChatRequest> requests;
        for (size_t i = 0; i < n; ++i) {
            const auto *judged = dynamic_cast<const task::JudgedExample *>(examples[i]);
            if (!judged)
                throw std::logic_error(m_name + ": the task's examples cannot be judged (not a task::JudgedExample)");
            try {
                asks[i] = m_kind->asks(*judged, *completions[i], m_options, examples[i]->id());
            } catch (const std::invalid_argument &e) { // checkExample() lets none through
                throw std::invalid_argument(m_name + ": " + e.what());
            }
            for (const JudgeAsk &a : asks[i])
                requests.push_back(request(a));
        }
        const std::vector<judge::JudgeCall> calls = m_client->run(requests);
        out.assign(n, kNone);
        size_t k = 0;
        for (size_t i = 0; i < n; ++i) {
            std::vector<double> values;
            bool failed = false;
            for (const JudgeAsk &a : asks[i]) {
                const judge::JudgeCall &call = calls[k++];
                JudgeDecision d;
                d.item = i;
                d.reward = m_name;
                d.part = a.part;
                d.backend = m_client->backend().identity();
                d.request = llm::requestJson(call.request, m_client->backend().model(),
                                             m_client->backend().tokenLimitField());
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
                        ReadReply p = m_kind->read(a, call.reply->choices.front(), m_options);
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
                out[i] = m_kind->aggregate(asks[i], values, m_options);
        }
    }

    void checkExample(const task::Example &example) const override
    {
        const auto *judged = dynamic_cast<const task::JudgedExample *>(&example);
        if (!judged)
            throw std::invalid_argument("example " + example.id() + " cannot be judged (its task gives a judge nothing)");
        m_kind->check(*judged, m_options, example.id());
    }

private:
    judge::ChatRequest request(const JudgeAsk &a) const
    {
        return judge::rewardRequest(m_client->options().sampling, a.messages, a.schema, m_options.geval);
    }

    std::shared_ptr<const JudgeKind> m_kind;
    std::string m_name;
    std::shared_ptr<const judge::JudgeClient> m_client;
    JudgeRewardOptions m_options;
};

} // namespace

JudgeRewardOptions parseJudgeRewardOptions(const std::string &reward, const std::string &text,
                                           const std::string &baseDir)
{
    JudgeRewardOptions o;
    if (text.empty())
        return o;
    const json j = util::parseJsonOrDiscarded(text);
    if (!j.is_object())
        throw std::invalid_argument("options must be a JSON object");
    // The keys the kind reads (none for a name that is not a kind).
    std::vector<std::string_view> keys;
    if (const std::shared_ptr<const JudgeKind> kind = findJudgeKind(reward))
        keys = kind->options();
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string &k = it.key();
        if (std::find(keys.begin(), keys.end(), std::string_view(k)) == keys.end())
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
    std::shared_ptr<const JudgeKind> k = findJudgeKind(kind);
    if (!k) {
        std::string names;
        for (const std::string &n : judgeKindNames())
            names += (names.empty() ? "" : ", ") + n;
        throw std::invalid_argument("\"" + kind + "\" is not a judge reward (kinds: " + names + ")");
    }
    return std::make_unique<JudgeReward>(std::move(k), name.empty() ? kind : name, std::move(client), std::move(options));
}

} // namespace rwb::reward
