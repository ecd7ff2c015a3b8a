#include "store/externalrun.h"

#include "data/jsonl.h"
#include "store/runstore.h"
#include "util/boundedjson.h"
#include "util/durablefile.h"
#include "util/stats.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <unordered_map>

namespace rwb::store {

namespace {

// GRPO's epsilon (train/advantages.h, without its libtorch).
constexpr double kStdEpsilon = 1e-4;

} // namespace

std::string promptIdOf(const std::string &prompt)
{
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : prompt) {
        h ^= c;
        h *= 1099511628211ull;
    }
    char buf[24];
    std::snprintf(buf, sizeof buf, "p-%016llx", static_cast<unsigned long long>(h));
    return buf;
}

void writeExternalStep(RunStore &store, int64_t runId, int64_t step, std::vector<ExternalSample> samples,
                       const std::vector<Metric> &extra)
{
    // Groups in order of first appearance.
    std::vector<std::vector<size_t>> groups;
    std::unordered_map<std::string, size_t> groupOf;
    for (size_t i = 0; i < samples.size(); ++i) {
        ExternalSample &s = samples[i];
        if (s.promptId.empty())
            s.promptId = promptIdOf(s.prompt);
        const std::string &key = s.group.empty() ? s.promptId : s.group;
        auto [it, added] = groupOf.emplace(key, groups.size());
        if (added)
            groups.emplace_back();
        groups[it->second].push_back(i);
    }

    std::vector<Rollout> rollouts;
    std::vector<Prompt> prompts;
    std::unordered_map<std::string, bool> promptSeen;
    std::vector<double> lengths;
    std::vector<std::vector<double>> groupRewards;
    std::vector<std::string> componentNames;
    std::map<std::string, std::vector<double>> perComponent;
    double clipped = 0.0;
    for (size_t g = 0; g < groups.size(); ++g) {
        std::vector<double> rewards;
        for (size_t i : groups[g])
            rewards.push_back(samples[i].reward);
        const double mean = util::meanOf(rewards);
        const double sd = util::stdOf(rewards);
        groupRewards.push_back(rewards);
        int sampleIndex = 0;
        for (size_t i : groups[g]) {
            ExternalSample &s = samples[i];
            if (promptSeen.emplace(s.promptId, true).second)
                prompts.push_back({s.promptId, s.prompt, s.gold, s.metaJson.empty() ? "{}" : s.metaJson});
            Rollout r;
            r.promptId = s.promptId;
            r.groupIndex = static_cast<int>(g);
            r.sampleIndex = sampleIndex++;
            r.completion = std::move(s.completion);
            r.answer = std::move(s.answer);
            r.reward = s.reward;
            nlohmann::ordered_json comps = nlohmann::ordered_json::object();
            for (const auto &[name, value] : s.components) {
                comps[name] = value; // NaN is written as null
                if (!perComponent.count(name))
                    componentNames.push_back(name);
                perComponent[name].push_back(value);
            }
            r.rewardsJson = comps.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            if (s.advantage)
                r.advantage = *s.advantage;
            else if (std::isnan(s.reward) || rewards.size() < 2)
                r.advantage = 0.0;
            else
                r.advantage = (s.reward - mean) / (sd + kStdEpsilon);
            r.completionTokens = s.completionTokens;
            r.truncated = s.truncated;
            r.detailsJson = s.detailsJson.empty() ? "{}" : s.detailsJson;
            r.judgeDecisions = std::move(s.judgeDecisions);
            r.tokenIds = std::move(s.tokenIds);
            r.logprobsOld = std::move(s.logprobsOld);
            r.logprobsNew = std::move(s.logprobsNew);
            r.logprobsRef = std::move(s.logprobsRef);
            r.advantages = std::move(s.advantages);
            r.entropies = std::move(s.entropies);
            lengths.push_back(static_cast<double>(s.completionTokens));
            clipped += s.truncated ? 1.0 : 0.0;
            rollouts.push_back(std::move(r));
        }
    }

    std::vector<Metric> metrics;
    if (!samples.empty()) {
        const util::RewardStats rs = util::rewardStats(groupRewards);
        std::vector<double> totals;
        for (const ExternalSample &s : samples)
            totals.push_back(s.reward);
        // Means over the rows that have a reward; none when every row is None (as GRPO's).
        const double noneFrac = util::noneFraction(totals);
        if (noneFrac < 1.0) {
            metrics.push_back({"reward", rs.mean});
            metrics.push_back({"reward_std", rs.std});
            metrics.push_back({"group_reward_std", rs.groupStdMean});
        }
        for (const std::string &name : componentNames) {
            if (util::noneFraction(perComponent[name]) >= 1.0)
                continue;
            metrics.push_back({"rewards/" + name + "/mean", util::meanOf(perComponent[name])});
            metrics.push_back({"rewards/" + name + "/std", util::stdOf(perComponent[name])});
        }
        metrics.push_back({"frac_reward_zero_std", rs.fracZeroStd});
        // Grader failures apart from the policy's: the share of rollouts with a None total.
        metrics.push_back({"reward_none_frac", noneFrac});
        // Lengths only where the trainer told them: a curve of zeros would say the
        // completions were empty.
        if (*std::max_element(lengths.begin(), lengths.end()) > 0.0) {
            metrics.push_back({"completions/mean_length", util::meanOf(lengths)});
            metrics.push_back({"completions/min_length", *std::min_element(lengths.begin(), lengths.end())});
            metrics.push_back({"completions/max_length", *std::max_element(lengths.begin(), lengths.end())});
            metrics.push_back({"completions/clipped_ratio", clipped / static_cast<double>(lengths.size())});
        }
    }
    for (const Metric &m : extra)
        metrics.push_back(m);
    store.writeStep(runId, step, metrics, rollouts, prompts);
}

namespace {

nlohmann::json numberOrNull(double v)
{
    return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v);
}

double numberOr(const nlohmann::json &j, const char *key, double fallback)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<double>() : fallback;
}

nlohmann::json sampleJson(const ExternalSample &s)
{
    nlohmann::json decisions = nlohmann::json::array();
    for (const judge::Decision &d : s.judgeDecisions)
        decisions.push_back({{"item", d.item}, {"reward", d.reward}, {"part", d.part}, {"backend", d.backend},
                             {"request", d.request}, {"reply", d.reply}, {"verdict", d.verdict}, {"error", d.error},
                             {"value", numberOrNull(d.value)}, {"latency", d.latencySeconds},
                             {"prompt_tokens", d.promptTokens}, {"completion_tokens", d.completionTokens},
                             {"cost", d.cost}, {"cache_hit", d.cacheHit}, {"attempts", d.attempts}});
    nlohmann::json components = nlohmann::json::array();
    for (const auto &[name, value] : s.components)
        components.push_back({name, numberOrNull(value)});
    return {{"prompt_id", s.promptId}, {"prompt", s.prompt}, {"gold", s.gold}, {"meta", s.metaJson},
            {"group", s.group}, {"completion", s.completion}, {"answer", s.answer},
            {"reward", numberOrNull(s.reward)}, {"components", components},
            {"advantage", s.advantage ? nlohmann::json(*s.advantage) : nlohmann::json(nullptr)},
            {"completion_tokens", s.completionTokens}, {"truncated", s.truncated}, {"details", s.detailsJson},
            {"judge_decisions", decisions}};
}

// Throws nlohmann::json::exception for a field of the wrong type.
ExternalSample sampleFromJson(const nlohmann::json &j)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    ExternalSample s;
    s.promptId = j.at("prompt_id").get<std::string>();
    s.prompt = j.at("prompt").get<std::string>();
    s.gold = j.at("gold").get<std::string>();
    s.metaJson = j.at("meta").get<std::string>();
    s.group = j.at("group").get<std::string>();
    s.completion = j.at("completion").get<std::string>();
    s.answer = j.at("answer").get<std::string>();
    s.reward = numberOr(j, "reward", nan);
    for (const nlohmann::json &c : j.at("components"))
        s.components.emplace_back(c.at(0).get<std::string>(), c.at(1).is_null() ? nan : c.at(1).get<double>());
    if (j.at("advantage").is_number())
        s.advantage = j.at("advantage").get<double>();
    s.completionTokens = j.at("completion_tokens").get<int>();
    s.truncated = j.at("truncated").get<bool>();
    s.detailsJson = j.at("details").get<std::string>();
    for (const nlohmann::json &d : j.at("judge_decisions")) {
        judge::Decision x;
        x.item = d.at("item").get<size_t>();
        x.reward = d.at("reward").get<std::string>();
        x.part = d.at("part").get<std::string>();
        x.backend = d.at("backend").get<std::string>();
        x.request = d.at("request").get<std::string>();
        x.reply = d.at("reply").get<std::string>();
        x.verdict = d.at("verdict").get<std::string>();
        x.error = d.at("error").get<std::string>();
        x.value = numberOr(d, "value", nan);
        x.latencySeconds = d.at("latency").get<double>();
        x.promptTokens = d.at("prompt_tokens").get<int64_t>();
        x.completionTokens = d.at("completion_tokens").get<int64_t>();
        x.cost = d.at("cost").get<double>();
        x.cacheHit = d.at("cache_hit").get<bool>();
        x.attempts = d.at("attempts").get<int>();
        s.judgeDecisions.push_back(std::move(x));
    }
    return s;
}

constexpr std::string_view kPendingInfix = ".pending-run";

} // namespace

std::string PendingLog::pathFor(const std::string &storePath, int64_t runId)
{
    return storePath + std::string(kPendingInfix) + std::to_string(runId) + ".jsonl";
}

PendingLog::PendingLog(std::string path)
    : m_path(std::move(path))
{
    m_fd = ::open(m_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (m_fd < 0)
        throw std::runtime_error(m_path + ": cannot open: " + std::strerror(errno));
    // Held while the server lives: recovery leaves a locked file alone.
    if (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
        ::close(m_fd);
        m_fd = -1;
        throw std::runtime_error(m_path + ": in use by another server");
    }
    util::syncFolder(std::filesystem::path(m_path).parent_path().string());
}

PendingLog::~PendingLog()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

void PendingLog::append(const std::vector<ExternalSample> &samples, std::optional<int64_t> step)
{
    nlohmann::json line = {{"step", step ? nlohmann::json(*step) : nlohmann::json(nullptr)},
                           {"samples", nlohmann::json::array()}};
    for (const ExternalSample &s : samples)
        line["samples"].push_back(sampleJson(s));
    const std::string text = line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    util::writeAll(m_fd, text.data(), text.size(), m_path);
    if (::fdatasync(m_fd) != 0)
        throw std::runtime_error(m_path + ": fdatasync failed: " + std::strerror(errno));
}

void PendingLog::clear()
{
    if (::ftruncate(m_fd, 0) != 0 || ::fdatasync(m_fd) != 0)
        throw std::runtime_error(m_path + ": cannot empty: " + std::strerror(errno));
}

std::vector<PendingLog::Request> PendingLog::read(const std::string &path)
{
    const std::string text = data::readTextFile(path);
    std::vector<Request> out;
    size_t lineNumber = 0;
    for (size_t at = 0; at < text.size();) {
        const size_t nl = text.find('\n', at);
        ++lineNumber;
        if (nl == std::string::npos)
            break; // torn: the crash came while this request was written, before its answer
        const std::string_view line(text.data() + at, nl - at);
        at = nl + 1;
        try {
            const nlohmann::json j = util::parseJson(line);
            Request r;
            if (j.at("step").is_number_integer())
                r.step = j.at("step").get<int64_t>();
            for (const nlohmann::json &s : j.at("samples"))
                r.samples.push_back(sampleFromJson(s));
            out.push_back(std::move(r));
        } catch (const nlohmann::json::exception &e) {
            throw data::InputException({path, lineNumber, std::string("not a pending request: ") + e.what()});
        }
    }
    return out;
}

std::vector<std::string> recoverPendingExternalRuns(RunStore &store, const std::string &storePath)
{
    namespace fs = std::filesystem;
    std::vector<std::string> said;
    const fs::path storeFile = fs::absolute(storePath);
    const std::string prefix = storeFile.filename().string() + std::string(kPendingInfix);
    std::error_code ec;
    for (const fs::directory_entry &e : fs::directory_iterator(storeFile.parent_path(), ec)) {
        const std::string name = e.path().filename().string();
        if (name.rfind(prefix, 0) != 0 || name.size() <= prefix.size() + 6 || name.substr(name.size() - 6) != ".jsonl")
            continue;
        int64_t runId = 0;
        try {
            runId = std::stoll(name.substr(prefix.size(), name.size() - prefix.size() - 6));
        } catch (const std::exception &) {
            continue;
        }
        RunInfo run;
        try {
            run = store.run(runId);
        } catch (const std::exception &) {
            continue; // another store's file, or a run that is gone: leave it
        }
        // A file a live server holds is locked: not ours to recover.
        const int fd = ::open(e.path().c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        const bool live = ::flock(fd, LOCK_EX | LOCK_NB) != 0;
        struct Closer {
            int fd;
            ~Closer() { ::close(fd); }
        } closer{fd};
        if (live)
            continue;
        if (run.status == "running") {
            const std::vector<PendingLog::Request> requests = PendingLog::read(e.path().string());
            int64_t next = run.lastStep + 1;
            size_t rollouts = 0, steps = 0;
            for (size_t i = 0; i < requests.size();) {
                // As the server would have: one step per trainer step, or all when it sent none.
                size_t j = i + 1;
                while (j < requests.size() && requests[j].step == requests[i].step)
                    ++j;
                std::vector<ExternalSample> samples;
                for (size_t k = i; k < j; ++k)
                    for (const ExternalSample &s : requests[k].samples)
                        samples.push_back(s);
                const int64_t step = requests[i].step && *requests[i].step >= next ? *requests[i].step : next;
                rollouts += samples.size();
                writeExternalStep(store, runId, step, std::move(samples));
                next = step + 1;
                ++steps;
                i = j;
            }
            const std::string message = "the server stopped without finishing the run; " + std::to_string(rollouts) +
                                        " rollouts it had answered were recovered from " + e.path().string();
            store.finishRun(runId, RunStatus::Failed, message);
            said.push_back("run " + std::to_string(runId) + ": " + message + " (" + std::to_string(steps) +
                           (steps == 1 ? " step)" : " steps)"));
        }
        fs::remove(e.path(), ec);
    }
    return said;
}

} // namespace rwb::store
