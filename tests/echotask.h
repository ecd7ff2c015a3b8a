#pragma once

// The "echo" task, defined in the tests only: the model is shown a word and should repeat
// it. Its records, prompt, parsing, gold, metric, failure categories and rewards (one
// rule, one LLM judge) are all this file's, so that a test can show a task the engine and
// the workbench know nothing of going through them (tst_task: the trainers; tst_tasktour:
// every view and the CLI's generic commands).

#include "data/jsonl.h"
#include "engine/job.h"
#include "reward/judgerewards.h"
#include "reward/reward.h"
#include "task/catalog.h"
#include "task/task.h"

#include "loopbackserver.h"

#include <QByteArray>
#include <QFile>
#include <QString>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>
#include <string>

namespace rwbtest {

using namespace rwb;

// A record: {"id": "w1", "word": "きらめき"}.
class EchoExample : public task::Example, public task::JudgedExample {
public:
    EchoExample(std::string id, std::string word) : m_id(std::move(id)), m_word(std::move(word)) {}
    // What a judge sees: "Repeat: <word>", and the word as the reference.
    std::string judgeQuestion() const override { return "Repeat: " + m_word; }
    std::string judgeReference() const override { return m_word; }
    const std::string &id() const override { return m_id; }
    std::string goldText() const override { return m_word; }
    std::string metaJson() const override { return nlohmann::json{{"echo_word", m_word}}.dump(); }
    const std::string &word() const { return m_word; }

private:
    std::string m_id, m_word;
};

// The answer is the completion's first line; details: how many lines there were.
class EchoCompletion : public task::Completion {
public:
    explicit EchoCompletion(std::string text) : m_text(std::move(text))
    {
        m_answer = m_text.substr(0, m_text.find('\n'));
        m_lines = 1 + static_cast<int>(std::count(m_text.begin(), m_text.end(), '\n'));
    }
    const std::string &text() const override { return m_text; }
    const std::string &answer() const override { return m_answer; }
    std::string detailsJson() const override { return nlohmann::json{{"lines", m_lines}}.dump(); }

private:
    std::string m_text, m_answer;
    int m_lines = 0;
};

// "exact": the share of answers equal to their word.
class EchoMetrics : public task::MetricSet {
public:
    void add(const task::Example &e, const task::Completion &c) override
    {
        ++m_n;
        m_right += correct(e, c) ? 1 : 0;
    }
    bool correct(const task::Example &e, const task::Completion &c) const override
    {
        return c.answer() == e.goldText();
    }
    std::vector<std::pair<std::string, double>> result() const override
    {
        return {{"exact", m_n ? static_cast<double>(m_right) / m_n : 0.0}};
    }

private:
    int m_n = 0, m_right = 0;
};

// The share of the word's bytes that occur in the answer — this file's reward.
inline double echoOverlap(const std::string &answer, const std::string &word)
{
    if (word.empty())
        return 0.0;
    int found = 0;
    for (char ch : word)
        found += answer.find(ch) != std::string::npos ? 1 : 0;
    return static_cast<double>(found) / static_cast<double>(word.size());
}

class EchoOverlap : public reward::TaskReward<EchoExample, EchoCompletion> {
public:
    std::string_view name() const override { return "echo_overlap"; }
    double score(const EchoExample &e, const EchoCompletion &c) const override { return echoOverlap(c.answer(), e.word()); }
    reward::Explanation explain(const EchoExample &e, const EchoCompletion &c) const override
    {
        reward::Explanation x;
        x.reward = "echo_overlap";
        x.value = score(e, c);
        x.detail = "bytes of the word in the answer";
        return x;
    }
};

class EchoTask : public task::Task {
public:
    std::string_view name() const override { return "echo"; }
    std::string_view description() const override { return "repeat a word (tst_task)"; }
    // Files are read line by line by Task::read's default.
    // {"id", "word"} and, in a file of completions, "completion".
    task::Record readLine(std::string_view line, const std::string &source, size_t lineNo,
                          bool requireCompletion) const override
    {
        const auto j = nlohmann::json::parse(line, nullptr, false);
        if (!j.is_object() || !j.contains("id") || !j.contains("word"))
            throw data::InputException({source, lineNo, "expected {\"id\", \"word\"}"});
        task::Record r;
        r.line = lineNo;
        r.example = std::make_shared<const EchoExample>(j.at("id").get<std::string>(), j.at("word").get<std::string>());
        if (const auto c = j.find("completion"); c != j.end() && c->is_string()) {
            r.hasCompletion = true;
            r.completion = c->get<std::string>();
        } else if (requireCompletion) {
            throw data::InputException({source, lineNo, "missing field \"completion\""});
        }
        return r;
    }
    std::string prompt(const task::Example &e, const tokenizer::PromptFormat &, bool) const override
    {
        return "単語: " + e.goldText() + "\n答え: ";
    }
    std::string sftTarget(const task::Example &e, bool) const override { return e.goldText(); }
    std::unique_ptr<task::Completion> parse(const task::Example &, std::string completion, bool) const override
    {
        return std::make_unique<EchoCompletion>(std::move(completion));
    }
    std::unique_ptr<task::MetricSet> metrics() const override { return std::make_unique<EchoMetrics>(); }
    std::string predictionLine(const task::Example &e, const std::string &completion) const override
    {
        return nlohmann::json{{"id", e.id()}, {"task", "echo"}, {"word", e.goldText()}, {"completion", completion}}.dump();
    }
    std::string_view headlineMetric() const override { return "exact"; }
    std::shared_ptr<const task::Example> exampleFromStore(const std::string &, const std::string &gold,
                                                          const std::string &) const override
    {
        return std::make_shared<const EchoExample>("", gold);
    }
    std::vector<task::FailureCategory> failureCategories() const override
    {
        return {{"echoed", "echoed", "the completion is the word"}, {"other", "other", "anything else"}};
    }
    size_t failureCategory(const task::Example &e, const task::Completion &c) const override
    {
        return c.answer() == task::as<EchoExample>(e).word() ? 0 : 1;
    }
};

// Adds the echo task and its two rewards to `c`.
inline void addEcho(task::Catalog &c)
{
    c.addTask(std::make_shared<EchoTask>());
    c.rewards().add({"echo_overlap", "echo", "bytes of the word in the answer",
                     [](const reward::RewardOptions &) { return std::make_unique<EchoOverlap>(); }});
    // A judge reward of this task: the built-in Reference-Likert, through the config's judge.
    c.rewards().add({"echo_judge", "echo", "an LLM judge's rating against the word",
                     [](const reward::RewardOptions &o) {
                         return reward::makeJudgeReward("likert_reference", o.judge, {}, "echo_judge");
                     },
                     false, true});
}

// The built-in catalog and the echo task.
inline task::Catalog echoCatalog()
{
    task::Catalog c = task::Catalog::builtin();
    addEcho(c);
    return c;
}


// What a run of it reports: its errors and how many steps it finished.
class RecordingSink : public engine::EventSink {
public:
    std::vector<std::string> errors;
    int steps = 0;
    void error(const std::string &m) override { errors.push_back(m); }
    void step(const engine::StepReport &) override { ++steps; }
};

// The echo judge, scripted for a loopback server: what a likert_reference request asks
// about (its <response> and <reference_answer>), and the reply that rates 10 an answer
// holding the word and 3 one that does not.
struct EchoJudgeRequest {
    std::string response;
    std::string word;
};

inline EchoJudgeRequest readEchoJudgeRequest(const rwbtest::SeenRequest &req)
{
    const std::string user = req.body["messages"].back()["content"].get<std::string>();
    const size_t open = user.find("<response>\n"), close = user.find("\n</response>");
    const size_t ref = user.find("<reference_answer>\n"), refEnd = user.find("\n</reference_answer>");
    return {user.substr(open + 11, close - open - 11), user.substr(ref + 19, refEnd - ref - 19)};
}

inline void answerEchoJudge(const EchoJudgeRequest &r, httplib::Response &res)
{
    const int rating = r.response.find(r.word) != std::string::npos ? 10 : 3;
    res.set_content(nlohmann::json{{"choices", {{{"index", 0},
                                                 {"message", {{"role", "assistant"},
                                                              {"content", "{\"rating\": " + std::to_string(rating) + "}"}}}}}},
                                   {"usage", {{"prompt_tokens", 40}, {"completion_tokens", 5}}}}
                        .dump(),
                    "application/json");
}

inline bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

} // namespace rwbtest
