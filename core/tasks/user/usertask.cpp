#include "tasks/user/usertask.h"

#include "data/jsonl.h"
#include "reward/library/library.h"
#include "reward/registry.h"
#include "reward/reward.h"
#include "task/catalog.h"
#include "text/regex.h"
#include "text/utf8.h"
#include "tokenizer/promptformat.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace rwb::task {

namespace {

using json = nlohmann::json;

[[noreturn]] void lineFail(const std::string &source, size_t lineNo, const std::string &what)
{
    throw data::InputException({source, lineNo, what});
}

// The value at a dotted path ("reward_model.ground_truth", "answers.0"): a key, or a
// list's index; a key that itself holds dots ("a.b") is found as it is first. Null when
// there is none. (The same reading as the python component's columns.)
const json *at(const json &record, std::string_view path)
{
    if (record.is_object())
        if (const auto whole = record.find(std::string(path)); whole != record.end())
            return &*whole;
    const json *cur = &record;
    while (!path.empty()) {
        const size_t dot = path.find('.');
        const std::string key(path.substr(0, dot));
        if (cur->is_object()) {
            const auto it = cur->find(key);
            if (it == cur->end())
                return nullptr;
            cur = &*it;
        } else if (cur->is_array() && !key.empty() &&
                   key.find_first_not_of("0123456789") == std::string::npos && key.size() < 10) {
            const size_t i = std::stoul(key);
            if (i >= cur->size())
                return nullptr;
            cur = &(*cur)[i];
        } else {
            return nullptr;
        }
        path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
    }
    return cur;
}

std::string asText(const json &v)
{
    return v.is_string() ? v.get<std::string>() : v.dump();
}

std::string columnsOf(const json &record)
{
    std::string out;
    for (auto it = record.begin(); it != record.end(); ++it)
        out += (out.empty() ? "" : ", ") + it.key();
    return out.empty() ? std::string("none") : out;
}

// The record's shape: the description's, or (auto) decided by its fields.
RecordShape shapeOf(const TaskDescription &d, const json &record, const std::string &source, size_t lineNo)
{
    if (!d.recordsAuto)
        return d.records;
    if (record.contains("reward_model"))
        return RecordShape::Verl;
    if (record.contains(d.prompt.empty() ? "prompt" : d.prompt))
        return RecordShape::Trl;
    if (record.contains("input"))
        return RecordShape::OpenRlhf;
    lineFail(source, lineNo,
             "prompt: the record has no prompt (TRL's and verl's \"prompt\", OpenRLHF's \"input\"; columns: " +
                 columnsOf(record) + "); name its column with the task description's \"prompt\"");
}

std::vector<UserExample::Message> messagesOf(const json &prompt, const std::string &field, const std::string &source,
                                             size_t lineNo, bool &conversational)
{
    std::vector<UserExample::Message> out;
    if (prompt.is_string()) {
        conversational = false;
        out.push_back({"user", prompt.get<std::string>()});
        return out;
    }
    if (!prompt.is_array() || prompt.empty())
        lineFail(source, lineNo, field + ": must be text or a non-empty list of {\"role\", \"content\"} messages, found " +
                                     std::string(prompt.type_name()));
    conversational = true;
    for (size_t i = 0; i < prompt.size(); ++i) {
        const json &m = prompt[i];
        const std::string f = field + "[" + std::to_string(i) + "]";
        if (!m.is_object())
            lineFail(source, lineNo, f + ": must be a {\"role\", \"content\"} message");
        const auto role = m.find("role");
        const auto content = m.find("content");
        if (role == m.end() || !role->is_string())
            lineFail(source, lineNo, f + ".role: missing or not text");
        if (content == m.end() || !content->is_string())
            lineFail(source, lineNo, f + ".content: missing or not text (only text messages are supported)");
        const std::string r = role->get<std::string>();
        if (r != "system" && r != "user" && r != "assistant")
            lineFail(source, lineNo, f + ".role: \"" + r + "\" (allowed: system, user, assistant)");
        out.push_back({r, content->get<std::string>()});
    }
    return out;
}

std::string trimmed(std::string_view s)
{
    return std::string(text::trimmedAscii(s));
}

// The content of the last \boxed{…} (braces balanced); none when there is none.
std::optional<std::string> lastBoxed(std::string_view s)
{
    static constexpr std::string_view kBoxed = "\\boxed{";
    const size_t start = s.rfind(kBoxed);
    if (start == std::string_view::npos)
        return std::nullopt;
    int depth = 1;
    for (size_t i = start + kBoxed.size(); i < s.size(); ++i) {
        if (s[i] == '{')
            ++depth;
        else if (s[i] == '}' && --depth == 0)
            return trimmed(s.substr(start + kBoxed.size(), i - start - kBoxed.size()));
    }
    return std::nullopt;
}

std::optional<std::string> lastTag(std::string_view s, const std::string &tag)
{
    const std::string open = "<" + tag + ">";
    const std::string close = "</" + tag + ">";
    const size_t end = s.rfind(close);
    if (end == std::string_view::npos)
        return std::nullopt;
    const size_t begin = s.substr(0, end).rfind(open);
    if (begin == std::string_view::npos)
        return std::nullopt;
    return trimmed(s.substr(begin + open.size(), end - begin - open.size()));
}

// The reply's JSON object: a ```json fenced block's, else from its first '{' to its last '}'.
json replyObject(std::string_view s)
{
    if (const size_t fence = s.find("```"); fence != std::string_view::npos) {
        size_t body = s.find('\n', fence);
        const size_t close = body == std::string_view::npos ? body : s.find("```", body);
        if (close != std::string_view::npos) {
            json j = util::parseJsonOrDiscarded(s.substr(body + 1, close - body - 1));
            if (j.is_object())
                return j;
        }
    }
    const size_t a = s.find('{');
    const size_t b = s.rfind('}');
    if (a == std::string_view::npos || b == std::string_view::npos || b < a)
        return json(json::value_t::discarded);
    json j = util::parseJsonOrDiscarded(s.substr(a, b - a + 1));
    return j.is_object() ? j : json(json::value_t::discarded);
}

// "{column}" placeholders filled from the record (a name of letters, digits, "_" and ".").
std::string fillTemplate(const std::string &tmpl, const json &record, const std::string &source, size_t lineNo)
{
    std::string out;
    for (size_t i = 0; i < tmpl.size(); ++i) {
        if (tmpl[i] == '{') {
            size_t j = i + 1;
            while (j < tmpl.size() && (std::isalnum(static_cast<unsigned char>(tmpl[j])) || tmpl[j] == '_' || tmpl[j] == '.'))
                ++j;
            if (j > i + 1 && j < tmpl.size() && tmpl[j] == '}') {
                const std::string name = tmpl.substr(i + 1, j - i - 1);
                const json *v = at(record, name);
                if (!v)
                    lineFail(source, lineNo, "sft_target: the column \"" + name + "\" is missing (columns: " +
                                                 columnsOf(record) + ")");
                out += asText(*v);
                i = j;
                continue;
            }
        }
        out += tmpl[i];
    }
    return out;
}

reward::Registry libraryRegistry()
{
    reward::Registry r;
    reward::addLibraryRewards(r);
    return r;
}

class UserMetricSet : public MetricSet {
public:
    explicit UserMetricSet(const UserTask &task)
        : m_task(task)
        , m_sums(task.taskDescription().metrics.size(), 0.0)
        , m_counts(task.taskDescription().metrics.size(), 0)
    {
    }
    void add(const Example &example, const Completion &completion) override
    {
        const std::vector<double> v = m_task.metricValues(example, completion);
        for (size_t i = 0; i < v.size(); ++i) {
            if (reward::isNone(v[i])) {
                ++m_none;
                continue;
            }
            m_sums[i] += v[i];
            ++m_counts[i];
        }
        ++m_n;
        m_right += correctOf(v) ? 1 : 0;
    }
    bool correct(const Example &example, const Completion &completion) const override
    {
        return correctOf(m_task.metricValues(example, completion));
    }
    std::vector<std::pair<std::string, double>> result() const override
    {
        std::vector<std::pair<std::string, double>> out;
        const auto &metrics = m_task.taskDescription().metrics;
        for (size_t i = 0; i < metrics.size(); ++i)
            out.emplace_back(metrics[i].name, m_counts[i] > 0 ? m_sums[i] / static_cast<double>(m_counts[i]) : 0.0);
        return out;
    }
    std::vector<std::pair<std::string, int64_t>> counts() const override
    {
        return {{"n", m_n}, {"n_correct", m_right}, {"n_none", m_none}};
    }

private:
    // The headline metric (the first) gives 1.
    static bool correctOf(const std::vector<double> &v) { return !v.empty() && !reward::isNone(v[0]) && v[0] >= 1.0 - 1e-12; }

    const UserTask &m_task;
    std::vector<double> m_sums;
    std::vector<int64_t> m_counts;
    int64_t m_n = 0;
    int64_t m_right = 0;
    int64_t m_none = 0;
};

} // namespace

// ---- UserExample

struct UserExampleColumns {
    json record;
};

UserExample::UserExample(std::string id, std::string recordJson, std::vector<Message> messages, bool conversational,
                         std::string reference, std::string sftTarget)
    : m_id(std::move(id))
    , m_record(std::move(recordJson))
    , m_messages(std::move(messages))
    , m_conversational(conversational)
    , m_reference(std::move(reference))
    , m_sftTarget(std::move(sftTarget))
{
}

std::optional<std::string> UserExample::column(std::string_view path) const
{
    // Parsed at each call: a record is small, and a reward asks a few columns of it.
    const json record = util::parseJsonOrDiscarded(m_record);
    if (record.is_discarded())
        return std::nullopt;
    const json *v = at(record, path);
    if (!v)
        return std::nullopt;
    return asText(*v);
}

std::string UserExample::promptJson() const
{
    if (!m_conversational) {
        for (const Message &m : m_messages)
            if (m.role == "user")
                return json(m.content).dump();
        return json("").dump();
    }
    json a = json::array();
    for (const Message &m : m_messages)
        a.push_back({{"role", m.role}, {"content", m.content}});
    return a.dump();
}

std::string UserExample::judgeQuestion() const
{
    for (auto it = m_messages.rbegin(); it != m_messages.rend(); ++it)
        if (it->role == "user")
            return it->content;
    return {};
}

// ---- UserCompletion

UserCompletion::UserCompletion(std::string text, std::string answer, bool found)
    : m_text(std::move(text))
    , m_answer(std::move(answer))
    , m_found(found)
{
}

std::string UserCompletion::detailsJson() const
{
    return json{{"answer_found", m_found}}.dump();
}

// ---- UserTask

UserTask::UserTask(TaskDescription description)
    : m_d(std::move(description))
{
    if (m_d.answer.kind == AnswerExtractor::Kind::Regex)
        m_regex = std::make_shared<const text::Regex>(m_d.answer.pattern); // checked by parseTaskDescription
    static const reward::Registry registry = libraryRegistry();
    for (size_t i = 0; i < m_d.metrics.size(); ++i) {
        const TaskMetric &m = m_d.metrics[i];
        const reward::Registry::Entry *e = registry.find(m.reward);
        const std::string field = "task " + m_d.name + ": metrics[" + std::to_string(i) + "]";
        if (!e)
            throw data::InputException({"", 0, field + ".reward: unknown reward \"" + m.reward +
                                                   "\" (allowed: " + reward::joinNames(registry.names("")) + ")"});
        reward::RewardOptions options;
        options.componentOptions = m.options;
        options.baseDir = m_d.baseDir;
        options.label = m.name;
        try {
            m_metrics.push_back(e->make(options));
        } catch (const std::invalid_argument &ex) {
            throw data::InputException({"", 0, field + ": " + ex.what()});
        }
    }
}

UserTask::~UserTask() = default;

std::string_view UserTask::description() const
{
    return m_d.description.empty() ? std::string_view("a task described in JSON (tasks/user)") : m_d.description;
}

Record UserTask::readLine(std::string_view line, const std::string &source, size_t lineNo, bool requireCompletion) const
{
    json record;
    try {
        record = util::parseJson(line);
    } catch (const json::exception &e) {
        lineFail(source, lineNo, std::string("not valid JSON (") + e.what() + ")");
    }
    if (!record.is_object())
        lineFail(source, lineNo, std::string("a record is a JSON object, found ") + record.type_name());
    const RecordShape shape = shapeOf(m_d, record, source, lineNo);

    // The prompt.
    const std::string promptColumn =
        !m_d.prompt.empty() ? m_d.prompt : (shape == RecordShape::OpenRlhf ? std::string("input") : std::string("prompt"));
    const json *prompt = at(record, promptColumn);
    if (!prompt)
        lineFail(source, lineNo, promptColumn + ": the prompt column is missing (columns: " + columnsOf(record) + ")");
    bool conversational = false;
    std::vector<UserExample::Message> messages = messagesOf(*prompt, promptColumn, source, lineNo, conversational);
    if (!m_d.system.empty() && messages.front().role != "system")
        messages.insert(messages.begin(), {"system", m_d.system});

    // The reference.
    std::string referenceColumn = m_d.reference;
    if (referenceColumn.empty()) {
        if (shape == RecordShape::Verl) {
            referenceColumn = "reward_model.ground_truth";
        } else if (shape == RecordShape::OpenRlhf) {
            referenceColumn = "label";
        } else {
            for (const char *c : {"solution", "answer", "ground_truth", "reference", "label"})
                if (record.contains(c)) {
                    referenceColumn = c;
                    break;
                }
            if (referenceColumn.empty())
                lineFail(source, lineNo,
                         "reference: the record has none of the columns solution, answer, ground_truth, reference, "
                         "label (columns: " + columnsOf(record) + "); name its column with the task description's \"reference\"");
        }
    }
    const json *reference = at(record, referenceColumn);
    if (!reference)
        lineFail(source, lineNo, referenceColumn + ": the reference column is missing (columns: " + columnsOf(record) + ")");
    // Copied now: erasing the completion below may free what `reference` points into.
    const std::string referenceText = asText(*reference);

    // The completion, when the line has one (samples to score).
    Record out;
    out.line = lineNo;
    if (auto c = record.find("completion"); c != record.end()) {
        if (c->is_string()) {
            out.completion = c->get<std::string>();
        } else if (c->is_array() && !c->empty() && c->back().is_object() && c->back().contains("content") &&
                   c->back()["content"].is_string()) {
            out.completion = c->back()["content"].get<std::string>(); // TRL's conversational completion
        } else {
            lineFail(source, lineNo, "completion: must be text or a list of messages");
        }
        out.hasCompletion = true;
        record.erase("completion");
    } else if (requireCompletion) {
        lineFail(source, lineNo, "completion: missing (a line to score needs the completion)");
    }
    if (auto k = record.find("kind"); k != record.end() && k->is_string())
        out.kind = k->get<std::string>();

    std::string id;
    if (!m_d.id.empty()) {
        const json *v = at(record, m_d.id);
        if (!v)
            lineFail(source, lineNo, m_d.id + ": the id column is missing (columns: " + columnsOf(record) + ")");
        id = asText(*v);
    } else if (const json *v = at(record, "id")) {
        id = asText(*v);
    } else if (const json *v = at(record, "extra_info.index")) {
        id = asText(*v);
    } else {
        id = "line-" + std::to_string(lineNo);
    }
    std::string sft = referenceText;
    if (!m_d.sftTarget.empty()) {
        if (const json *v = m_d.sftTarget.find('{') == std::string::npos ? at(record, m_d.sftTarget) : nullptr)
            sft = asText(*v);
        else if (m_d.sftTarget.find('{') != std::string::npos)
            sft = fillTemplate(m_d.sftTarget, record, source, lineNo);
        else
            lineFail(source, lineNo, m_d.sftTarget + ": the sft_target column is missing (columns: " + columnsOf(record) + ")");
    }
    out.example = std::make_shared<UserExample>(std::move(id), record.dump(), std::move(messages), conversational,
                                                referenceText, std::move(sft));
    return out;
}

std::string UserTask::prompt(const Example &example, const tokenizer::PromptFormat &format, bool) const
{
    const UserExample &e = as<UserExample>(example);
    std::vector<tokenizer::ChatMessage> messages;
    for (const UserExample::Message &m : e.messages())
        messages.push_back({m.role, m.content});
    return format.chatPrompt(messages);
}

std::string UserTask::sftTarget(const Example &example, bool) const
{
    return as<UserExample>(example).sftTarget();
}

std::optional<std::string> UserTask::extract(std::string_view s) const
{
    switch (m_d.answer.kind) {
    case AnswerExtractor::Kind::Whole: {
        std::string t = trimmed(s);
        if (t.empty())
            return std::nullopt;
        return t;
    }
    case AnswerExtractor::Kind::Boxed:
        return lastBoxed(s);
    case AnswerExtractor::Kind::Tag:
        return lastTag(s, m_d.answer.tag);
    case AnswerExtractor::Kind::Regex:
        try {
            std::optional<std::string> m = m_regex->lastMatch(s, m_d.answer.group);
            if (m)
                *m = trimmed(*m);
            return m;
        } catch (const text::RegexLimitError &) {
            return std::nullopt; // a reply the pattern cannot get through in time has no answer
        }
    case AnswerExtractor::Kind::JsonField: {
        const json o = replyObject(s);
        if (o.is_discarded())
            return std::nullopt;
        const json *v = at(o, m_d.answer.field);
        if (!v)
            return std::nullopt;
        return asText(*v);
    }
    }
    return std::nullopt;
}

std::unique_ptr<Completion> UserTask::parse(const Example &, std::string completion, bool) const
{
    std::optional<std::string> answer = extract(completion);
    const bool found = answer.has_value();
    return std::make_unique<UserCompletion>(std::move(completion), found ? std::move(*answer) : std::string(), found);
}

std::vector<double> UserTask::metricValues(const Example &example, const Completion &completion) const
{
    std::vector<double> out;
    out.reserve(m_metrics.size());
    for (const auto &m : m_metrics)
        out.push_back(m->score(example, completion));
    return out;
}

std::unique_ptr<MetricSet> UserTask::metrics() const
{
    return std::make_unique<UserMetricSet>(*this);
}

std::string UserTask::predictionLine(const Example &example, const std::string &completion) const
{
    json record = util::parseJsonOrDiscarded(as<UserExample>(example).recordJson());
    if (!record.is_object())
        record = json::object();
    record["completion"] = completion;
    // A completion cut inside a UTF-8 sequence is written with U+FFFD, not thrown on.
    return record.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::shared_ptr<const Example> UserTask::exampleFromStore(const std::string &metaJson, const std::string &,
                                                          const std::string &source) const
{
    return readLine(metaJson, source, 0, false).example;
}

std::vector<FailureCategory> UserTask::failureCategories() const
{
    std::vector<FailureCategory> out;
    out.push_back({"right", "right", "Every failure check passes."});
    for (const TaskFailure &f : m_d.failures)
        out.push_back({f.key, f.name,
                       f.explanation.empty() ? (f.when == "no_answer" ? std::string("The extractor found no answer in the reply.")
                                                                      : "The metric " + f.when + " gave less than " +
                                                                            std::to_string(f.below).substr(0, 4) + ".")
                                             : f.explanation});
    if (!headlineHasCategory())
        out.push_back({"other", "other", "The headline metric is below 1, and no failure listed above applies."});
    return out;
}

bool UserTask::headlineHasCategory() const
{
    const std::string &headline = m_d.metrics.front().name;
    return std::any_of(m_d.failures.begin(), m_d.failures.end(),
                       [&](const TaskFailure &f) { return f.when == headline && f.below >= 1.0; });
}

size_t UserTask::failureCategory(const Example &example, const Completion &completion) const
{
    const UserCompletion &c = as<UserCompletion>(completion);
    std::vector<double> values;
    for (size_t i = 0; i < m_d.failures.size(); ++i) {
        const TaskFailure &f = m_d.failures[i];
        if (f.when == "no_answer") {
            if (!c.answerFound())
                return i + 1;
            continue;
        }
        if (values.empty())
            values = metricValues(example, completion);
        for (size_t m = 0; m < m_d.metrics.size(); ++m)
            if (m_d.metrics[m].name == f.when && (reward::isNone(values[m]) || values[m] < f.below))
                return i + 1;
    }
    // Wrong by the headline metric (what correct() says), and none of the listed failures:
    // "other", never "right".
    if (!headlineHasCategory()) {
        if (values.empty())
            values = metricValues(example, completion);
        if (reward::isNone(values[0]) || values[0] < 1.0 - 1e-12)
            return m_d.failures.size() + 1;
    }
    return 0;
}

std::string installUserTask(const std::string &descriptionJson, const std::string &baseDir, const std::string &source)
{
    TaskDescription d = parseTaskDescription(descriptionJson, source, baseDir);
    const std::string stored = d.toJson();
    const Task *existing = Catalog::builtin().find(d.name);
    if (existing) {
        const auto *user = dynamic_cast<const UserTask *>(existing);
        if (!user)
            throw data::InputException({source, 0, "name: \"" + d.name + "\" is a built-in task's name; give yours another"});
        // The same description read from another folder is the same task.
        TaskDescription same = user->taskDescription();
        same.baseDir = d.baseDir;
        if (same.toJson() == stored)
            return stored;
    }
    std::shared_ptr<const Task> task;
    try {
        task = std::make_shared<UserTask>(std::move(d));
    } catch (const data::InputException &e) {
        throw data::InputException({source, 0, e.error().reason});
    }
    Catalog::install([&](Catalog &c) { c.addTask(task); });
    return stored;
}

const Task *findOrInstallTask(const std::string &name, const std::vector<std::string> &configJsons)
{
    if (const Task *t = Catalog::builtin().find(name); t || name.empty())
        return t;
    for (const std::string &text : configJsons) {
        const json config = util::parseJsonOrDiscarded(text);
        if (!config.is_object())
            continue;
        const json *description = nullptr;
        if (auto t = config.find("task"); t != config.end() && t->is_object())
            description = &*t;
        else if (auto r = config.find("reward_config"); r != config.end() && r->is_object())
            if (auto t2 = r->find("task"); t2 != r->end() && t2->is_object())
                description = &*t2;
        if (!description || description->value("name", std::string()) != name)
            continue;
        try {
            installUserTask(description->dump(), "", "the run's stored config");
        } catch (const data::InputException &) {
            continue;
        }
        return Catalog::builtin().find(name);
    }
    return nullptr;
}

} // namespace rwb::task
