#include "eval/failureanalysis.h"

#include "data/jsonl.h"
#include "store/runstore.h"
#include "util/boundedjson.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace rwb::eval {

FailureCounts countFailures(const std::vector<AnalyzedPrediction> &predictions, size_t categories)
{
    FailureCounts c;
    c.counts.assign(categories, 0);
    for (const AnalyzedPrediction &p : predictions)
        if (p.category < categories)
            ++c.counts[p.category];
    c.total = predictions.size();
    return c;
}

task::FailureCategory graderFailureCategory()
{
    return {kGraderFailureKey, "grader failure (no reward)",
            "The grader gave no reward (a judge that failed or timed out, a Python reward that raised or timed out, "
            "a remote reward that failed): the policy's answer was not judged."};
}

std::set<std::string> weightlessComponents(const std::string &rewardConfigJson)
{
    std::set<std::string> out;
    const nlohmann::json c = util::parseJsonOrDiscarded(rewardConfigJson);
    if (!c.is_object() || !c.contains("components") || !c["components"].is_array())
        return out;
    for (const nlohmann::json &k : c["components"]) {
        if (!k.is_object() || !k.contains("weight") || !k["weight"].is_number() || k["weight"].get<double>() != 0.0)
            continue;
        const char *key = k.contains("name") && k["name"].is_string() ? "name" : "reward";
        if (k.contains(key) && k[key].is_string())
            out.insert(k[key].get<std::string>());
    }
    return out;
}

std::string graderErrorOf(const std::string &rewardsJson, const std::string &detailsJson,
                          const std::vector<std::string> &judgeErrors, const std::set<std::string> &weightless)
{
    // A grader failed when a component is None (null) or the details name its error.
    std::vector<std::string> parts;
    const auto add = [&](std::string part) {
        if (std::find(parts.begin(), parts.end(), part) == parts.end())
            parts.push_back(std::move(part));
    };
    bool failed = false;
    if (const nlohmann::json d = util::parseJsonOrDiscarded(detailsJson.empty() ? "{}" : detailsJson); d.is_object())
        if (const auto errors = d.find("reward_errors"); errors != d.end() && errors->is_object())
            for (auto it = errors->begin(); it != errors->end(); ++it) {
                if (weightless.count(it.key()))
                    continue; // its failure leaves the total standing
                failed = true;
                add(it.key() + ": " + (it->is_string() ? it->get<std::string>() : it->dump()));
            }
    std::vector<std::string> none; // the None components
    if (const nlohmann::json r = util::parseJsonOrDiscarded(rewardsJson.empty() ? "{}" : rewardsJson); r.is_object())
        for (auto it = r.begin(); it != r.end(); ++it)
            if (it->is_null() && !weightless.count(it.key()))
                none.push_back(it.key());
    if (!failed && none.empty())
        return {};
    for (const std::string &e : judgeErrors)
        if (!e.empty())
            add("judge: " + e);
    if (parts.empty()) // only the None values were stored
        for (const std::string &component : none)
            add(component + ": no reward");
    std::string out;
    for (const std::string &p : parts)
        out += (out.empty() ? "" : "; ") + p;
    return out;
}

size_t FailureData::graderCategory() const
{
    for (size_t i = 0; i < categories.size(); ++i)
        if (categories[i].key == kGraderFailureKey)
            return i;
    return kNoCategory;
}

FailureComparison compareFailures(const std::vector<AnalyzedPrediction> &a, const std::vector<AnalyzedPrediction> &b,
                                  size_t categories, size_t graderCategory)
{
    FailureComparison c;
    c.transitions.assign(categories, std::vector<size_t>(categories, 0));
    std::map<std::string, size_t> at;
    for (const AnalyzedPrediction &p : a)
        at[p.exampleId] = p.category;
    std::map<std::string, bool> inB;
    for (const AnalyzedPrediction &p : b) {
        inB[p.exampleId] = true;
        auto it = at.find(p.exampleId);
        if (it == at.end()) {
            ++c.onlyB;
            continue;
        }
        ++c.joined;
        const size_t ca = it->second, cb = p.category;
        if (ca < categories && cb < categories)
            ++c.transitions[ca][cb];
        if (ca == graderCategory || cb == graderCategory)
            continue; // not judged: neither fixed nor broke
        if (ca != 0 && cb == 0)
            ++c.fixed;
        if (ca == 0 && cb != 0)
            ++c.broke;
    }
    for (const auto &[id, cat] : at)
        if (!inB.count(id))
            ++c.onlyA;
    return c;
}

bool FailureData::thinkingFor(const std::string &completion) const
{
    return thinking == 1 || (thinking < 0 && completion.find("<answer>") != std::string::npos);
}

void addCheckpoint(FailureData &data, const task::Task &task, int64_t step,
                   const std::vector<std::pair<std::string, std::string>> &predictions,
                   const std::vector<std::string> &graderErrors)
{
    std::vector<AnalyzedPrediction> &out = data.checkpoints[step];
    for (size_t i = 0; i < predictions.size(); ++i) {
        const auto &[id, completion] = predictions[i];
        const auto example = data.examples.find(id);
        if (example == data.examples.end()) {
            ++data.withoutExample;
            continue;
        }
        const auto parsed = task.parse(*example->second, completion, data.thinkingFor(completion));
        AnalyzedPrediction a;
        a.exampleId = id;
        a.completion = completion;
        a.answer = parsed->answer();
        a.category = task.failureCategory(*example->second, *parsed);
        a.detailsJson = task.failureDetailsJson(*example->second, *parsed);
        if (i < graderErrors.size() && !graderErrors[i].empty()) {
            if (data.graderCategory() == kNoCategory)
                data.categories.push_back(graderFailureCategory());
            a.category = data.graderCategory();
            a.graderError = graderErrors[i];
        }
        out.push_back(std::move(a));
    }
    std::sort(out.begin(), out.end(),
              [](const AnalyzedPrediction &x, const AnalyzedPrediction &y) { return x.exampleId < y.exampleId; });
}

FailureData loadRunFailures(const std::string &storePath, int64_t runId, const task::Catalog &catalog)
{
    const store::RunStore st(storePath, store::RunStore::OpenMode::ReadOnly);
    return loadRunFailures(st, storePath, runId, catalog);
}

FailureData loadRunFailures(const store::RunStore &st, const std::string &storePath, int64_t runId,
                            const task::Catalog &catalog)
{
    namespace fs = std::filesystem;
    store::RunInfo run;
    try {
        run = st.run(runId);
    } catch (const std::exception &) {
        throw data::InputException({storePath, 0, "no run " + std::to_string(runId)});
    }
    nlohmann::json config;
    try {
        config = util::parseJson(run.configJson);
    } catch (const nlohmann::json::exception &) {
        throw data::InputException({storePath, 0, "run " + std::to_string(runId) + ": its config is not valid JSON"});
    }
    const fs::path base = fs::path(storePath).parent_path();
    const auto resolve = [&](const std::string &p) {
        const fs::path path(p);
        return (path.is_relative() ? base / path : path).lexically_normal().string();
    };
    auto evalData = config.is_object() ? config.find("eval_data") : config.end();
    if (!config.is_object() || evalData == config.end() || !evalData->is_string() || evalData->get<std::string>().empty())
        throw data::InputException(
            {storePath, 0, "run " + std::to_string(runId) + ": its config has no \"eval_data\" (the examples evaluated)"});
    // Thinking mode cannot change during a run: the reward config the store recorded says
    // it (the file the run config names may have changed since); else that file.
    int thinking = -1;
    if (const auto versions = st.rewardConfigs(runId); !versions.empty()) {
        const auto rcj = util::parseJsonOrDiscarded(versions.back().configJson);
        if (auto t = rcj.is_object() ? rcj.find("thinking") : rcj.end(); rcj.is_object() && t != rcj.end() && t->is_boolean())
            thinking = t->get<bool>() ? 1 : 0;
    } else if (auto rc = config.find("reward_config"); rc != config.end()) {
        try {
            const nlohmann::json rcj =
                rc->is_object() ? *rc : util::parseJson(data::readTextFile(resolve(rc->get<std::string>())));
            if (auto t = rcj.find("thinking"); t != rcj.end() && t->is_boolean())
                thinking = t->get<bool>() ? 1 : 0;
        } catch (const std::exception &) {
            // Unreadable: decide per completion.
        }
    }
    FailureData data;
    data.examplesPath = resolve(evalData->get<std::string>());
    const task::Task &task = catalog.get(run.task, storePath + ": run " + std::to_string(runId), "task");
    data.task = task.name();
    data.categories = task.failureCategories();
    data.thinking = thinking;
    for (const task::Record &r : task.read(data.examplesPath, task::ReadOptions{}))
        data.examples.emplace(r.example->id(), r.example);
    std::map<int64_t, std::vector<std::pair<std::string, std::string>>> byStep;
    std::map<int64_t, std::vector<std::string>> errorsByStep;
    // The evaluations' failed judge calls, by (checkpoint step, example id): their errors
    // tell why a prediction has no reward.
    std::map<std::pair<int64_t, std::string>, std::vector<std::string>> judgeErrorsOf;
    store::JudgeDecisionFilter failed;
    failed.evaluation = true;
    failed.failuresOnly = true;
    for (const store::StoredJudgeDecision &d : st.judgeDecisions(runId, failed))
        judgeErrorsOf[{d.step, d.exampleId}].push_back(d.decision.error);
    // Components of weight 0 in the config in force at each checkpoint: their graders'
    // failures leave the total standing, so the prediction keeps its task's category.
    const std::vector<store::RewardConfigVersion> versions = st.rewardConfigs(runId);
    const auto weightlessAt = [&](int64_t step) {
        const store::RewardConfigVersion *inForce = nullptr;
        for (const auto &v : versions)
            if (v.step <= step)
                inForce = &v;
        return inForce ? weightlessComponents(inForce->configJson) : std::set<std::string>{};
    };
    for (const store::StoredEvalPrediction &sp : st.evalPredictions(runId)) {
        byStep[sp.checkpointStep].emplace_back(sp.prediction.exampleId, sp.prediction.prediction);
        std::vector<std::string> judgeErrors;
        for (const judge::Decision &d : sp.prediction.judgeDecisions)
            judgeErrors.push_back(d.error);
        if (const auto it = judgeErrorsOf.find({sp.checkpointStep, sp.prediction.exampleId}); it != judgeErrorsOf.end())
            judgeErrors.insert(judgeErrors.end(), it->second.begin(), it->second.end());
        errorsByStep[sp.checkpointStep].push_back(
            graderErrorOf(sp.prediction.rewardsJson, sp.prediction.detailsJson, judgeErrors,
                          weightlessAt(sp.checkpointStep)));
    }
    for (const auto &[step, predictions] : byStep)
        addCheckpoint(data, task, step, predictions, errorsByStep[step]);
    return data;
}

FailureData loadPredictionFailures(const std::string &first, const std::string &second, const task::Catalog &catalog)
{
    FailureData data;
    data.examplesPath = first;
    const task::Task &task = catalog.get(task::taskOfJsonl(data::readTextFile(first)), first, "task");
    data.task = task.name();
    data.categories = task.failureCategories();
    int64_t step = 0;
    for (const std::string &file : {first, second}) {
        if (file.empty())
            continue;
        task::ReadOptions o;
        o.requireCompletion = true;
        std::vector<std::pair<std::string, std::string>> predictions;
        for (const task::Record &r : task.read(file, o)) {
            data.examples.emplace(r.example->id(), r.example);
            predictions.emplace_back(r.example->id(), r.completion);
        }
        addCheckpoint(data, task, step++, predictions);
    }
    return data;
}

void addPredictionsFile(FailureData &data, const std::string &path, int64_t key, const task::Catalog &catalog)
{
    const task::Task &task = catalog.get(data.task, path, "task");
    const std::string named = task::taskOfJsonl(data::readTextFile(path));
    if (!named.empty() && named != data.task)
        throw data::InputException({path, 1, "predictions of task \"" + named + "\", not of \"" + data.task + "\""});
    task::ReadOptions o;
    o.requireCompletion = true;
    const std::vector<task::Record> records = task.read(path, o); // throws before any change
    data.checkpoints.erase(key);
    std::vector<std::pair<std::string, std::string>> predictions;
    for (const task::Record &r : records) {
        data.examples.emplace(r.example->id(), r.example); // the examples already there win
        predictions.emplace_back(r.example->id(), r.completion);
    }
    addCheckpoint(data, task, key, predictions);
}

std::string FailureData::goldOf(const std::string &id) const
{
    if (const auto e = examples.find(id); e != examples.end())
        return e->second->goldText();
    return {};
}

} // namespace rwb::eval
