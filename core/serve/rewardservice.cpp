#include "serve/rewardservice.h"

#include "data/jsonl.h"
#include "data/messagetext.h"
#include "reward/compositereward.h"
#include "reward/rewardconfig.h"
#include "serve/apierror.h"
#include "store/runstore.h"
#include "task/catalog.h"
#include "task/task.h"
#include "store/externalrun.h"
#include "util/boundedjson.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace rwb::serve {

namespace {

using json = nlohmann::json;

// End-of-turn and padding markers a trainer's decoded text may end with (OpenRLHF keeps
// special tokens): the task parses the completion without them.
constexpr const char *kEndMarkers[] = {"<|im_end|>", "<|endoftext|>", "<|eot_id|>", "<|end_of_text|>",
                                       "</s>",       "<eos>",         "<|end|>",    "<pad>"};

std::string withoutEndMarkers(std::string s)
{
    for (bool again = true; again;) {
        again = false;
        while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
            s.pop_back();
        for (const char *m : kEndMarkers) {
            const std::string_view marker(m);
            if (s.size() >= marker.size() && s.compare(s.size() - marker.size(), marker.size(), marker) == 0) {
                s.resize(s.size() - marker.size());
                again = true;
            }
        }
    }
    return s;
}

std::string index(const std::string &field, size_t i)
{
    return field + "[" + std::to_string(i) + "]";
}

const json &arrayField(const json &body, const std::string &field, size_t n = SIZE_MAX)
{
    auto it = body.find(field);
    if (it == body.end())
        throw ApiError::invalid(field, "Missing required field '" + field + "'.", "missing_field");
    if (!it->is_array())
        throw ApiError::invalid(field, "'" + field + "' must be an array.");
    if (n != SIZE_MAX && it->size() != n)
        throw ApiError::invalid(field, "'" + field + "' has " + std::to_string(it->size()) + " entries; expected " +
                                           std::to_string(n) + ", one per completion.");
    return *it;
}

// A message list's text (TRL's conversational form): the messages' texts, one per line;
// a message of tool calls only is its calls (data/messagetext.h).
std::string textOf(const json &v, const std::string &field)
{
    if (v.is_string())
        return v.get<std::string>();
    if (v.is_array()) {
        std::string out;
        for (size_t i = 0; i < v.size(); ++i) {
            std::string text;
            try {
                text = data::messageText(v[i]);
            } catch (const std::invalid_argument &e) {
                throw ApiError::invalid(index(field, i), std::string("Expected a message {\"role\", \"content\"}: ") +
                                                             e.what() + ".");
            }
            if (!text.empty())
                out += (out.empty() ? "" : "\n") + text;
        }
        return out;
    }
    throw ApiError::invalid(field, "Expected a string or a list of messages.");
}

std::optional<int64_t> stepField(const json &v, const std::string &field)
{
    if (v.is_null())
        return std::nullopt;
    if (!v.is_number_integer() || v.get<int64_t>() < 0)
        throw ApiError::invalid(field, "'" + field + "' must be a non-negative integer (the trainer's step).");
    return v.get<int64_t>();
}

double orZero(double v)
{
    return std::isnan(v) ? 0.0 : v;
}

json numberOrNull(double v)
{
    return std::isnan(v) ? json(nullptr) : json(v);
}

} // namespace

// One rollout of a request: where it came from (for messages), its example, what the
// trainer sent.
struct RewardService::Item {
    std::string field;
    std::shared_ptr<const task::Example> example;
    std::string prompt;
    std::string completion;
    std::string group;
};

RewardService::RewardService(RewardServiceOptions options, const task::Catalog &catalog)
    : m_options(std::move(options))
{
    m_config = std::make_unique<reward::RewardConfig>(reward::loadRewardConfig(m_options.configPath, catalog.rewards()));
    if (m_options.noCache && !m_config->judge.empty()) {
        json judge = util::parseJson(m_config->judge);
        judge.erase("cache");
        m_config->judge = judge.dump();
    }
    m_reward = std::make_unique<reward::CompositeReward>(*m_config, m_options.configPath, catalog.rewards());
    m_task = &catalog.get(m_config->task, m_options.configPath, "task");
    if (!m_options.dataPath.empty()) {
        task::ReadOptions ro;
        for (task::Record &r : m_task->read(m_options.dataPath, ro))
            m_byId.emplace(r.example->id(), std::move(r.example));
    }
    if (!m_options.storePath.empty()) {
        m_store = std::make_unique<store::RunStore>(m_options.storePath);
        // What a server that crashed on this store had answered but not written.
        for (const std::string &line : store::recoverPendingExternalRuns(*m_store, m_options.storePath))
            if (m_options.log)
                m_options.log(line);
        json cfg = {{"served", {{"reward_config", m_options.configPath}, {"data", m_options.dataPath}}}};
        m_runId = m_store->beginRun(m_options.runName, store::RunKind::External, cfg.dump(), m_config->task);
        m_pendingLog = std::make_unique<store::PendingLog>(store::PendingLog::pathFor(m_options.storePath, m_runId));
        m_store->recordRewardConfig(m_runId, 0, reward::toJson(*m_config));
        m_lastRequest = std::chrono::steady_clock::now();
        m_flusher = std::thread([this] { flusherLoop(); });
    }
}

RewardService::~RewardService()
{
    {
        std::lock_guard lock(m_storeMutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    if (m_flusher.joinable())
        m_flusher.join();
    if (m_store) {
        try {
            std::lock_guard lock(m_storeMutex);
            writePendingLocked();
            m_store->finishRun(m_runId, store::RunStatus::Finished);
            // Emptied once its step is in the store; else it keeps what a store that failed
            // did not take, for the next server on this store to recover.
            const std::string path = m_pendingLog->path();
            m_pendingLog.reset();
            std::error_code ec;
            if (std::filesystem::file_size(path, ec) == 0 && !ec)
                std::filesystem::remove(path, ec);
        } catch (const std::exception &) {
            // the rollouts already written stay; nothing else to do on the way out
        }
    }
}

const std::string &RewardService::configName() const
{
    return m_config->name.empty() ? m_options.configPath : m_config->name;
}

const std::string &RewardService::taskName() const
{
    return m_config->task;
}

std::vector<std::string> RewardService::componentNames() const
{
    std::vector<std::string> out;
    for (size_t c = 0; c < m_reward->size(); ++c)
        out.push_back(m_reward->componentName(c));
    return out;
}

// A record of the config's task: a JSON object (or its text), or the id of a record of
// the service's dataset.
std::shared_ptr<const task::Example> RewardService::example(const std::string &recordOrId, const std::string &field) const
{
    const json parsed = util::parseJsonOrDiscarded(recordOrId);
    if (parsed.is_object()) {
        try {
            return m_task->readLine(recordOrId, field, 1, false).example;
        } catch (const data::InputException &e) {
            throw ApiError::invalid(field, "Not a " + std::string(m_task->name()) + " record: " + e.error().reason + ".");
        }
    }
    if (auto it = m_byId.find(recordOrId); it != m_byId.end())
        return it->second;
    throw ApiError::invalid(field, "Neither a " + std::string(m_task->name()) + " record (a JSON object) nor the id of " +
                                       (m_options.dataPath.empty() ? std::string("a record (rwb serve has no --reward-data)")
                                                                   : "a record of " + m_options.dataPath) +
                                       ": '" + recordOrId.substr(0, 80) + "'.");
}

std::string RewardService::handle(RewardProtocol protocol, const std::string &body)
{
    bool tooDeep = false;
    const json req = util::parseJsonOrDiscarded(body, &tooDeep);
    if (tooDeep)
        throw ApiError::invalid("", "The request body nests JSON deeper than " + std::to_string(util::kMaxJsonDepth) +
                                        " levels.", "invalid_json");
    if (req.is_discarded() || !req.is_object())
        throw ApiError::invalid("", "The request body is not a JSON object.", "invalid_json");
    std::optional<int64_t> step = stepField(req.value("step", json()), "step");
    auto recordText = [](const json &v) { return v.is_string() ? v.get<std::string>() : v.dump(); };
    std::vector<Item> items;
    bool single = false;

    if (protocol == RewardProtocol::OpenRlhf) {
        // {"query": [prompt + response], "prompts": [prompt], "labels": [record or id]}
        const json &query = arrayField(req, "query");
        const json &prompts = arrayField(req, "prompts", query.size());
        const json &labels = arrayField(req, "labels", query.size());
        for (size_t i = 0; i < query.size(); ++i) {
            if (!query[i].is_string() || !prompts[i].is_string())
                throw ApiError::invalid(index(query[i].is_string() ? "prompts" : "query", i), "Expected a string.");
            Item it;
            it.field = index("labels", i);
            it.prompt = prompts[i].get<std::string>();
            const std::string q = query[i].get<std::string>();
            // The response is what follows the prompt; where the decoded texts differ, what
            // follows their common prefix.
            size_t k = 0;
            while (k < q.size() && k < it.prompt.size() && q[k] == it.prompt[k])
                ++k;
            it.completion = withoutEndMarkers(q.substr(k));
            it.example = example(recordText(labels[i]), it.field);
            items.push_back(std::move(it));
        }
    } else if (protocol == RewardProtocol::Verl) {
        // compute_score(data_source, solution_str, ground_truth, extra_info), one or a batch.
        single = req.contains("solution_str");
        const json batch = single ? json{{"solution_strs", json::array({req["solution_str"]})},
                                         {"ground_truths", json::array({req.value("ground_truth", json())})},
                                         {"extra_infos", json::array({req.value("extra_info", json())})}}
                                  : req;
        const std::string solutions = single ? "solution_str" : "solution_strs";
        const json &sols = arrayField(batch, "solution_strs");
        const json &truths = arrayField(batch, "ground_truths", sols.size());
        const json empty = json::array();
        const json &extras = batch.contains("extra_infos") && !batch["extra_infos"].is_null()
                                 ? arrayField(batch, "extra_infos", sols.size())
                                 : empty;
        for (size_t i = 0; i < sols.size(); ++i) {
            const std::string field = single ? std::string() : "[" + std::to_string(i) + "]";
            if (!sols[i].is_string())
                throw ApiError::invalid(single ? solutions : index(solutions, i), "Expected a string.");
            const json extra = i < extras.size() && extras[i].is_object() ? extras[i] : json::object();
            Item it;
            it.completion = withoutEndMarkers(sols[i].get<std::string>());
            if (extra.contains("record")) {
                it.field = (single ? "extra_info" : "extra_infos" + field) + ".record";
                it.example = example(recordText(extra["record"]), it.field);
            } else {
                it.field = single ? "ground_truth" : "ground_truths" + field;
                it.example = example(recordText(truths[i]), it.field);
            }
            if (extra.contains("uid"))
                it.group = recordText(extra["uid"]);
            if (extra.contains("group"))
                it.group = recordText(extra["group"]);
            if (extra.contains("prompt") && extra["prompt"].is_string())
                it.prompt = extra["prompt"].get<std::string>();
            if (!step && extra.contains("step"))
                step = stepField(extra["step"], (single ? "extra_info" : "extra_infos" + field) + ".step");
            items.push_back(std::move(it));
        }
    } else {
        // TRL: reward_func(prompts, completions, completion_ids, **dataset_columns)
        const json &completions = arrayField(req, "completions");
        const size_t n = completions.size();
        const json &prompts = arrayField(req, "prompts", n);
        std::vector<std::string> columns;
        for (auto it = req.begin(); it != req.end(); ++it)
            if (it.key() != "prompts" && it.key() != "completions" && it.key() != "completion_ids" &&
                it.key() != "step" && it.key() != "group" && it.key() != "record") {
                arrayField(req, it.key(), n);
                columns.push_back(it.key());
            }
        const json *records = req.contains("record") ? &arrayField(req, "record", n) : nullptr;
        const json *groups = req.contains("group") ? &arrayField(req, "group", n) : nullptr;
        for (size_t i = 0; i < n; ++i) {
            Item it;
            it.prompt = textOf(prompts[i], index("prompts", i));
            it.completion = withoutEndMarkers(textOf(completions[i], index("completions", i)));
            if (records) {
                it.field = index("record", i);
                it.example = example(recordText((*records)[i]), it.field);
            } else {
                // The dataset's columns, as TRL passes them: one record per row.
                json row = json::object();
                for (const std::string &c : columns)
                    row[c] = req[c][i];
                it.field = "row " + std::to_string(i) + " of the dataset columns";
                it.example = example(row.dump(), it.field);
            }
            if (groups)
                it.group = recordText((*groups)[i]);
            items.push_back(std::move(it));
        }
    }

    const std::vector<RewardOutcome> outcomes = score(items, step);
    const std::vector<std::string> names = componentNames();
    json out;
    if (protocol == RewardProtocol::OpenRlhf) {
        json rewards = json::array(), scores = json::array(), extra = json::object();
        for (const std::string &n : names)
            extra[n] = json::array();
        extra["reward_none"] = json::array();
        for (const RewardOutcome &o : outcomes) {
            rewards.push_back(orZero(o.total));
            scores.push_back(std::clamp(orZero(o.total), 0.0, 1.0));
            for (size_t c = 0; c < names.size(); ++c)
                extra[names[c]].push_back(orZero(o.components[c]));
            extra["reward_none"].push_back(std::isnan(o.total) ? 1.0 : 0.0);
        }
        out = {{"rewards", rewards}, {"scores", scores}, {"extra_logs", extra}};
    } else if (protocol == RewardProtocol::Verl) {
        out = json::array();
        for (const RewardOutcome &o : outcomes) {
            json r = {{"score", orZero(o.total)}};
            for (size_t c = 0; c < names.size(); ++c)
                r[names[c]] = orZero(o.components[c]);
            r["reward_none"] = std::isnan(o.total) ? 1 : 0;
            out.push_back(std::move(r));
        }
        if (single)
            out = out[0];
    } else {
        json rewards = json::array(), comps = json::object();
        for (const std::string &n : names)
            comps[n] = json::array();
        for (const RewardOutcome &o : outcomes) {
            rewards.push_back(numberOrNull(o.total));
            for (size_t c = 0; c < names.size(); ++c)
                comps[names[c]].push_back(numberOrNull(o.components[c]));
        }
        out = {{"rewards", rewards}, {"components", comps}};
    }
    return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::vector<RewardOutcome> RewardService::score(std::vector<Item> &items, std::optional<int64_t> step)
{
    std::vector<std::unique_ptr<task::Completion>> parsed;
    std::vector<const task::Example *> examples;
    std::vector<const task::Completion *> completions;
    for (Item &it : items) {
        parsed.push_back(m_task->parse(*it.example, it.completion, m_config->thinking));
        examples.push_back(it.example.get());
        completions.push_back(parsed.back().get());
    }
    try {
        m_reward->checkExamples(examples, "the request");
    } catch (const data::InputException &e) {
        throw ApiError::invalid("", e.error().reason);
    }
    std::vector<std::vector<double>> components;
    reward::ScoreLog scoreLog;
    const std::vector<double> totals =
        examples.empty() ? std::vector<double>{} : m_reward->scoreBatch(examples, completions, components, &scoreLog);
    std::vector<RewardOutcome> outcomes(items.size());
    for (size_t i = 0; i < items.size(); ++i)
        outcomes[i] = {totals[i], components[i]};
    if (m_store) {
        std::vector<store::ExternalSample> samples(items.size());
        for (reward::JudgeDecision &d : scoreLog.take())
            if (d.item < samples.size())
                samples[d.item].judgeDecisions.push_back(std::move(d));
        const std::vector<std::string> names = componentNames();
        for (size_t i = 0; i < items.size(); ++i) {
            store::ExternalSample &s = samples[i];
            const task::Example &e = *items[i].example;
            s.promptId = e.id();
            s.prompt = items[i].prompt;
            s.gold = e.goldText();
            s.metaJson = e.metaJson();
            s.group = items[i].group;
            s.completion = parsed[i]->text();
            s.answer = parsed[i]->answer();
            s.reward = totals[i];
            for (size_t c = 0; c < names.size(); ++c)
                s.components.emplace_back(names[c], components[i][c]);
            s.completionTokens = 0; // the trainer's tokens are not sent
            s.detailsJson = parsed[i]->detailsJson();
        }
        std::lock_guard lock(m_storeMutex);
        const auto now = std::chrono::steady_clock::now();
        const bool byCount = m_options.stepRollouts > 0;
        const bool gap = !byCount &&
                         std::chrono::duration<double>(now - m_lastRequest).count() >= m_options.stepGapSeconds;
        // A new step: the trainer says so, or (when it sends no steps) it paused.
        if (!m_pending.empty() && (step ? step != m_pendingStep : (m_pendingStep.has_value() || gap)))
            writePendingLocked();
        m_lastRequest = now;
        m_pendingStep = step;
        // On the disk before the answer goes out: a crash loses nothing answered. A disk
        // that refuses costs the log, never the trainer's rewards.
        try {
            m_pendingLog->append(samples, step);
        } catch (const std::exception &e) {
            if (m_options.log)
                m_options.log("run " + std::to_string(m_runId) + ": " + e.what());
        }
        for (store::ExternalSample &s : samples)
            m_pending.push_back(std::move(s));
        // Or (told its size) the step is full.
        if (!step && byCount && m_pending.size() >= static_cast<size_t>(m_options.stepRollouts))
            writePendingLocked();
    }
    return outcomes;
}

// Writes the held step. The trainer's step number when it sent one and it is not taken
// (a trainer resumed from a checkpoint goes back), else the next free one. A store that
// fails loses that step's log, never the trainer's rewards.
void RewardService::writePendingLocked()
{
    if (m_pending.empty())
        return;
    const int64_t step = m_pendingStep && *m_pendingStep >= m_nextStep ? *m_pendingStep : m_nextStep;
    const size_t n = m_pending.size();
    try {
        store::writeExternalStep(*m_store, m_runId, step, std::move(m_pending));
        m_pendingLog->clear();
        if (m_options.log)
            m_options.log("run " + std::to_string(m_runId) + ": step " + std::to_string(step) + " logged (" +
                          std::to_string(n) + " rollouts)");
    } catch (const std::exception &e) {
        if (m_options.log)
            m_options.log("run " + std::to_string(m_runId) + ": step " + std::to_string(step) + " (" +
                          std::to_string(n) + " rollouts) not logged to " + m_options.storePath + ": " + e.what());
    }
    m_nextStep = step + 1;
    m_pending.clear();
}

void RewardService::flush()
{
    if (!m_store)
        return;
    std::lock_guard lock(m_storeMutex);
    writePendingLocked();
}

// Without step numbers, a step is complete once the trainer pauses: write it then, so
// that the workbench shows it while the trainer updates its policy.
void RewardService::flusherLoop()
{
    std::unique_lock lock(m_storeMutex);
    while (!m_stopping) {
        m_wake.wait_for(lock, std::chrono::milliseconds(250));
        if (m_stopping)
            break;
        const double idle = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_lastRequest).count();
        if (!m_pending.empty() && !m_pendingStep && m_options.stepRollouts <= 0 && idle >= m_options.stepGapSeconds)
            writePendingLocked();
    }
}

} // namespace rwb::serve
