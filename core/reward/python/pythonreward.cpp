#include "reward/python/pythonreward.h"

#include "reward/python/pythonworker.h"
#include "reward/registry.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <map>
#include <sstream>
#include <stdexcept>

namespace rwb::reward {

namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

// The longest a request may wait (a day): beyond it timeout_s is surely a mistake.
constexpr double kMaxTimeoutSeconds = 86400.0;
// How much of the function's printed output a batch keeps.
constexpr size_t kOutputKeep = 64 * 1024;
// Record fields a TRL function does not get as columns (as in TRL: its inputs "prompt",
// "completion" and "completion_ids" are not passed on as keyword columns).
constexpr const char *kNotColumns[] = {"prompt", "completion", "completion_ids"};

std::string resolve(const std::string &path, const std::string &baseDir)
{
    fs::path p(path);
    if (p.is_relative() && !baseDir.empty())
        p = fs::path(baseDir) / p;
    std::error_code ec;
    const fs::path abs = fs::absolute(p, ec);
    return (ec ? p : abs).lexically_normal().string();
}

std::string requireString(const json &value, const std::string &key)
{
    if (!value.is_string())
        throw std::invalid_argument("options." + key + ": must be a string, found " + value.type_name());
    return value.get<std::string>();
}

// A field by name or dotted path ("reward_model.ground_truth"; a number indexes a list);
// null when the record has none.
const json *findPath(const json &record, const std::string &path)
{
    if (!record.is_object())
        return nullptr;
    if (auto it = record.find(path); it != record.end())
        return &*it; // a field whose name has a dot
    const json *at = &record;
    size_t start = 0;
    while (true) {
        const size_t dot = path.find('.', start);
        const std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (at->is_object()) {
            auto it = at->find(part);
            if (it == at->end())
                return nullptr;
            at = &*it;
        } else if (at->is_array() && !part.empty() && part.find_first_not_of("0123456789") == std::string::npos &&
                   part.size() < 10) {
            const size_t index = std::stoul(part);
            if (index >= at->size())
                return nullptr;
            at = &(*at)[index];
        } else {
            return nullptr;
        }
        if (dot == std::string::npos)
            return at;
        start = dot + 1;
    }
}

// "0.75", "1", "-2.5e-07"
std::string formatValue(double v)
{
    std::ostringstream out;
    out << std::setprecision(6) << v;
    return out.str();
}

std::string firstLine(const std::string &text)
{
    return text.substr(0, text.find('\n'));
}

void appendCapped(std::string &to, const std::string &text, size_t keep)
{
    to += text;
    if (to.size() > keep)
        to = textTail(to, keep);
}

} // namespace

PythonRewardOptions parsePythonRewardOptions(const std::string &text, const std::string &baseDir)
{
    PythonRewardOptions o;
    const json j = text.empty() ? json::object() : util::parseJsonOrDiscarded(text);
    if (!j.is_object())
        throw std::invalid_argument("options must be a JSON object");
    static const char *const kKeys[] = {"file",      "function", "signature", "python",
                                        "timeout_s", "batch",    "env",       "columns"};
    for (auto it = j.begin(); it != j.end(); ++it)
        if (std::none_of(std::begin(kKeys), std::end(kKeys), [&](const char *k) { return it.key() == k; }))
            throw std::invalid_argument("options." + it.key() +
                                        ": not an option of python (allowed: file, function, signature, python, "
                                        "timeout_s, batch, env, columns)");

    if (auto it = j.find("signature"); it != j.end()) {
        o.signature = requireString(*it, "signature");
        if (o.signature != "trl" && o.signature != "verl")
            throw std::invalid_argument("options.signature: must be \"trl\" or \"verl\", found \"" + o.signature +
                                        "\"");
    }
    if (auto it = j.find("function"); it != j.end())
        o.function = requireString(*it, "function");
    if (o.function.empty())
        throw std::invalid_argument("options.function: missing: the name of the function in the file to call");

    if (auto it = j.find("python"); it != j.end()) {
        o.python = requireString(*it, "python");
        if (o.python.empty())
            throw std::invalid_argument("options.python: must not be empty");
        if (o.python.find('/') != std::string::npos)
            o.python = resolve(o.python, baseDir);
    } else if (const char *env = std::getenv("RWB_PYTHON"); env && *env) {
        o.python = env;
        // A relative path is the working directory's, not the file's folder the worker
        // starts in.
        if (o.python.find('/') != std::string::npos)
            o.python = fs::absolute(o.python).lexically_normal().string();
    } else {
        o.python = "python3";
    }

    if (auto it = j.find("timeout_s"); it != j.end()) {
        if (!it->is_number())
            throw std::invalid_argument(std::string("options.timeout_s: must be a number of seconds, found ") +
                                        it->type_name());
        o.timeoutSeconds = it->get<double>();
        if (!std::isfinite(o.timeoutSeconds) || o.timeoutSeconds <= 0.0 || o.timeoutSeconds > kMaxTimeoutSeconds)
            throw std::invalid_argument("options.timeout_s: must be > 0 and at most 86400 (a day)");
    }
    if (auto it = j.find("batch"); it != j.end()) {
        if (!it->is_number_integer() || it->get<long long>() < 0)
            throw std::invalid_argument("options.batch: must be a whole number ≥ 0 (0 = the whole batch)");
        o.batch = static_cast<size_t>(it->get<long long>());
    }
    if (auto it = j.find("env"); it != j.end()) {
        if (!it->is_object())
            throw std::invalid_argument(std::string("options.env: must be an object of strings, found ") +
                                        it->type_name());
        for (auto e = it->begin(); e != it->end(); ++e) {
            if (e.key().empty() || e.key().find('=') != std::string::npos || e.key().find('\0') != std::string::npos)
                throw std::invalid_argument("options.env." + e.key() + ": not a variable name");
            o.env.emplace_back(e.key(), requireString(e.value(), "env." + e.key()));
        }
        std::sort(o.env.begin(), o.env.end());
    }
    if (auto it = j.find("columns"); it != j.end()) {
        if (o.signature != "verl")
            throw std::invalid_argument("options.columns: only for \"signature\": \"verl\" (a TRL function gets every "
                                        "column as a keyword argument)");
        if (!it->is_object())
            throw std::invalid_argument(std::string("options.columns: must be an object, found ") + it->type_name());
        for (auto c = it->begin(); c != it->end(); ++c) {
            const std::string key = "columns." + c.key();
            const std::string column = requireString(c.value(), key);
            if (column.empty())
                throw std::invalid_argument("options." + key + ": must name a column");
            if (c.key() == "data_source") {
                o.dataSourceColumn = column;
                o.dataSourceExplicit = true;
            } else if (c.key() == "ground_truth") {
                o.groundTruthColumn = column;
            } else if (c.key() == "extra_info") {
                o.extraInfoColumn = column;
                o.extraInfoExplicit = true;
            } else {
                throw std::invalid_argument("options." + key + ": not a verl argument (allowed: data_source, "
                                            "ground_truth, extra_info)");
            }
        }
    }

    if (auto it = j.find("file"); it != j.end())
        o.file = requireString(*it, "file");
    if (o.file.empty())
        throw std::invalid_argument("options.file: missing: the Python file that defines the function");
    o.file = resolve(o.file, baseDir);
    std::error_code ec;
    if (!fs::is_regular_file(o.file, ec))
        throw std::invalid_argument("options.file: " + o.file + " does not exist");
    return o;
}

PythonReward::PythonReward(PythonRewardOptions options, std::string label)
    : m_options(std::move(options))
    , m_name(label.empty() ? "python" : std::move(label))
{
    PythonWorker::Key key;
    key.interpreter = m_options.python;
    key.file = m_options.file;
    {
        std::error_code ec;
        const auto time = fs::last_write_time(m_options.file, ec);
        const auto size = fs::file_size(m_options.file, ec);
        if (!ec)
            key.fileVersion = std::to_string(time.time_since_epoch().count()) + ":" + std::to_string(size);
    }
    key.workingDir = fs::path(m_options.file).parent_path().string();
    key.env = m_options.env;
    try {
        m_worker = PythonWorker::get(key, m_options.function,
                                     std::max(PythonWorker::kHelloSeconds, m_options.timeoutSeconds));
    } catch (const PythonWorkerError &e) {
        switch (e.kind()) {
        case PythonWorkerError::Kind::Start:
            throw std::invalid_argument("options.python: " + std::string(e.what()));
        case PythonWorkerError::Kind::Load:
            throw std::invalid_argument("options.file: " + std::string(e.what()));
        case PythonWorkerError::Kind::Function:
            throw std::invalid_argument("options.function: " + std::string(e.what()));
        }
        throw;
    }
}

PythonReward::~PythonReward() = default;

int PythonReward::workerPid() const
{
    return m_worker->pid();
}

PythonBatchResult PythonReward::lastBatch() const
{
    std::lock_guard<std::mutex> lock(m_lastMutex);
    return m_last;
}

void PythonReward::checkExample(const task::Example &example) const
{
    if (m_options.signature != "verl")
        return;
    std::vector<std::pair<const char *, std::string>> named;
    if (m_options.dataSourceExplicit)
        named.emplace_back("data_source", m_options.dataSourceColumn);
    if (!m_options.groundTruthColumn.empty())
        named.emplace_back("ground_truth", m_options.groundTruthColumn);
    if (m_options.extraInfoExplicit)
        named.emplace_back("extra_info", m_options.extraInfoColumn);
    if (named.empty())
        return;
    const auto *record = dynamic_cast<const task::RecordExample *>(&example);
    const json fields = record ? util::parseJsonOrDiscarded(record->recordJson()) : json();
    for (const auto &[argument, column] : named)
        if (!findPath(fields, column))
            throw std::invalid_argument(m_name + ": example \"" + example.id() + "\" has no column \"" + column +
                                        "\" (options.columns." + argument + ")");
}

PythonBatchResult PythonReward::run(const std::vector<const task::Example *> &examples,
                                    const std::vector<const task::Completion *> &completions) const
{
    if (examples.size() != completions.size())
        throw std::invalid_argument(m_name + ": " + std::to_string(examples.size()) + " examples but " +
                                    std::to_string(completions.size()) + " completions");
    const auto started = std::chrono::steady_clock::now();
    const size_t n = examples.size();
    const bool verl = m_options.signature == "verl";
    PythonBatchResult r;
    r.values.assign(n, kNone);
    r.errors.assign(n, {});
    r.extra.assign(n, "{}");
    std::vector<json> extra(n, json::object());
    std::map<std::string, std::pair<double, size_t>> metricSums;
    std::vector<std::string> metricOrder;
    const size_t step = m_options.batch > 0 ? m_options.batch : std::max<size_t>(n, 1);

    for (size_t begin = 0; begin < n; begin += step) {
        const size_t end = std::min(n, begin + step);
        const size_t count = end - begin;

        // ---- the request
        json prompts = json::array();
        json texts = json::array();
        std::map<std::string, json> columns; // name → one value per item
        auto column = [&](const std::string &name) -> json & {
            auto [it, added] = columns.try_emplace(name);
            if (added)
                it->second = json::array();
            it->second.get_ref<json::array_t &>().resize(count);
            return it->second;
        };
        for (size_t i = begin; i < end; ++i) {
            const size_t k = i - begin;
            const auto *record = dynamic_cast<const task::RecordExample *>(examples[i]);
            json prompt = "";
            json fields;
            if (record) {
                const std::string promptText = record->promptJson();
                prompt = util::parseJsonOrDiscarded(promptText);
                if (prompt.is_discarded())
                    prompt = promptText;
                fields = util::parseJsonOrDiscarded(record->recordJson());
            }
            const std::string &text = completions[i]->text();
            if (!verl && prompt.is_array()) { // conversational: the completion as TRL gives it
                json message = json::object();
                message["role"] = "assistant";
                message["content"] = text;
                texts.push_back(json::array({message}));
            } else {
                texts.push_back(text);
            }
            prompts.push_back(std::move(prompt));
            if (verl) {
                const json *source = findPath(fields, m_options.dataSourceColumn);
                column("data_source")[k] = source ? *source : json();
                if (m_options.groundTruthColumn.empty()) {
                    column("ground_truth")[k] = examples[i]->goldText();
                } else {
                    const json *truth = findPath(fields, m_options.groundTruthColumn);
                    column("ground_truth")[k] = truth ? *truth : json();
                }
                const json *info = findPath(fields, m_options.extraInfoColumn);
                column("extra_info")[k] = info ? *info : json();
            } else if (fields.is_object()) {
                for (auto it = fields.begin(); it != fields.end(); ++it)
                    if (std::none_of(std::begin(kNotColumns), std::end(kNotColumns),
                                     [&](const char *c) { return it.key() == c; }))
                        column(it.key())[k] = it.value();
            } else if (!record) {
                column("gold")[k] = examples[i]->goldText();
            }
        }
        // A column some records lack is null for them (column() sized it to every item).
        json columnsJson = json::object();
        for (auto &[name, values] : columns)
            columnsJson[name] = std::move(values);
        json request = json::object();
        request["function"] = m_options.function;
        request["signature"] = m_options.signature;
        request["prompts"] = std::move(prompts);
        request["completions"] = std::move(texts);
        request["columns"] = std::move(columnsJson);
        request["trainer_state"] = json::object();

        // ---- the reply
        PythonWorker::Outcome outcome = m_worker->call(std::move(request), m_options.timeoutSeconds);
        ++r.requests;
        appendCapped(r.output, outcome.output, kOutputKeep);
        const std::string where = n > step ? "items " + std::to_string(begin) + "–" + std::to_string(end - 1) + ": "
                                           : std::string();
        std::string failure = outcome.error;
        const json &reply = outcome.reply;
        const json rewards = failure.empty() ? reply.value("rewards", json()) : json();
        if (failure.empty() && (!rewards.is_array() || rewards.size() != count))
            failure = "the worker's reply has " + std::to_string(rewards.is_array() ? rewards.size() : 0) +
                      " rewards for " + std::to_string(count) + " items";
        if (!failure.empty()) {
            for (size_t i = begin; i < end; ++i)
                r.errors[i] = failure;
            r.error += (r.error.empty() ? "" : "\n") + where + failure;
            continue;
        }
        std::string batchError;
        bool wholeBatch = false; // the error is every item's, not a summary of some items' own
        if (auto it = reply.find("error"); it != reply.end() && it->is_object()) {
            batchError = it->value("message", std::string());
            if (auto tb = it->find("traceback"); tb != it->end() && tb->is_string() && !tb->get<std::string>().empty())
                batchError += "\n" + tb->get<std::string>();
            wholeBatch = it->value("whole_batch", true);
        }
        const json itemErrors = reply.value("item_errors", json::array());
        for (size_t k = 0; k < count; ++k) {
            const size_t i = begin + k;
            if (rewards[k].is_number() && std::isfinite(rewards[k].get<double>()))
                r.values[i] = rewards[k].get<double>();
            if (itemErrors.is_array() && k < itemErrors.size() && itemErrors[k].is_string())
                r.errors[i] = itemErrors[k].get<std::string>();
            else if (isNone(r.values[i]) && wholeBatch)
                r.errors[i] = batchError;
        }
        if (auto it = reply.find("extra"); it != reply.end() && it->is_object())
            for (auto e = it->begin(); e != it->end(); ++e)
                if (e.value().is_array())
                    for (size_t k = 0; k < count && k < e.value().size(); ++k)
                        extra[begin + k][e.key()] = e.value()[k];
        if (auto it = reply.find("metrics"); it != reply.end() && it->is_object())
            for (auto m = it->begin(); m != it->end(); ++m)
                if (m.value().is_number()) {
                    auto [slot, added] = metricSums.try_emplace(m.key(), 0.0, 0);
                    if (added)
                        metricOrder.push_back(m.key());
                    slot->second.first += m.value().get<double>();
                    slot->second.second += 1;
                }
        if (!batchError.empty())
            r.error += (r.error.empty() ? "" : "\n") + where + batchError;
    }

    for (size_t i = 0; i < n; ++i)
        r.extra[i] = extra[i].dump(-1, ' ', false, json::error_handler_t::replace);
    std::sort(metricOrder.begin(), metricOrder.end());
    for (const std::string &name : metricOrder) {
        const auto &[sum, calls] = metricSums[name];
        r.metrics.emplace_back(name, sum / static_cast<double>(calls));
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    {
        std::lock_guard<std::mutex> lock(m_lastMutex);
        m_last = r;
    }
    return r;
}

double PythonReward::score(const task::Example &example, const task::Completion &completion) const
{
    return run({&example}, {&completion}).values[0];
}

void PythonReward::scoreBatch(const std::vector<const task::Example *> &examples,
                              const std::vector<const task::Completion *> &completions, std::vector<double> &out,
                              ScoreLog *log) const
{
    PythonBatchResult r = run(examples, completions);
    if (log) // each item's error and extra values, the function's log_metric values
        logBatch(*log, m_name, r.errors, r.extra, r.metrics);
    out = std::move(r.values);
}

Explanation PythonReward::explain(const task::Example &example, const task::Completion &completion) const
{
    const PythonBatchResult r = run({&example}, {&completion});
    Explanation e;
    e.reward = m_name;
    e.value = r.values[0];
    e.reason = Reason::Library;
    const std::string who =
        m_name + " (" + fs::path(m_options.file).filename().string() + ":" + m_options.function + ")";
    if (isNone(e.value)) {
        const std::string why = r.errors[0].empty() ? "the function returned None" : firstLine(r.errors[0]);
        e.key = "python.none";
        e.args = {why};
        e.detail = who + " gave None: " + why;
        e.error = r.errors[0];
    } else {
        e.key = "python.value";
        e.args = {formatValue(e.value)};
        e.detail = who + " gave " + formatValue(e.value);
    }
    if (r.extra[0] != "{}")
        e.detail += "; extra values: " + r.extra[0];
    return e;
}

void addPythonRewards(Registry &registry)
{
    Registry::Entry e;
    e.name = "python";
    e.task = "";
    e.description = "a Python reward function (TRL's or verl's signature), run unchanged in a worker process";
    e.make = [](const RewardOptions &options) -> std::unique_ptr<Reward> {
        return std::make_unique<PythonReward>(parsePythonRewardOptions(options.componentOptions, options.baseDir),
                                              options.label);
    };
    registry.add(std::move(e));
}

} // namespace rwb::reward
