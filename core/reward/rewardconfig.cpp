#include "reward/rewardconfig.h"

#include "judge/judgeconfig.h"

#include "data/jsonl.h"
#include "reward/registry.h"
#include "util/boundedjson.h"
#include "util/jsoncomments.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace rwb::reward {

namespace {

// Line and column (1-based) of a byte offset in `text`.
std::pair<size_t, size_t> lineColumn(std::string_view text, size_t byte)
{
    size_t line = 1;
    size_t col = 1;
    for (size_t i = 0; i < byte && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return {line, col};
}

[[noreturn]] void fail(const std::string &source, const std::string &field, const std::string &what)
{
    throw data::InputException({source, 0, field + ": " + what});
}

TaskDescriptionHandler &taskDescriptionHandler()
{
    static TaskDescriptionHandler handler = nullptr;
    return handler;
}


// A task description (an object) through the catalog's handler into `c`.
void readTaskDescription(const nlohmann::json &description, const std::string &source, const std::string &baseDir,
                         RewardConfig &c)
{
    if (!description.is_object())
        fail(source, "(top level)", std::string("a task description must be a JSON object, found ") +
                                        description.type_name());
    const TaskDescriptionHandler handler = taskDescriptionHandler();
    if (!handler)
        fail(source, "task", "a task description needs the task catalog, which this program does not have");
    c.taskDescription = handler(description.dump(), baseDir, source);
    const nlohmann::json normalized = util::parseJson(c.taskDescription);
    c.task = normalized.at("name").get<std::string>();
}

} // namespace

double RewardConfig::weightSum() const
{
    double s = 0.0;
    for (const RewardComponent &c : components)
        s += c.weight;
    return s;
}

std::string RewardConfig::resolvedEmbeddingCorpus() const
{
    if (embeddingCorpus.empty())
        return {};
    std::filesystem::path p(embeddingCorpus);
    if (p.is_relative() && !baseDir.empty())
        p = std::filesystem::path(baseDir) / p;
    return p.string();
}

RewardConfig withAbsolutePaths(RewardConfig config)
{
    namespace fs = std::filesystem;
    const auto absolute = [&](const std::string &path) {
        if (path.empty())
            return path;
        fs::path p(path);
        if (p.is_relative() && !config.baseDir.empty())
            p = fs::path(config.baseDir) / p;
        std::error_code ec;
        const fs::path a = fs::absolute(p, ec);
        return (ec ? p : a).lexically_normal().string();
    };
    config.synonyms = absolute(config.synonyms);
    config.embeddingCorpus = absolute(config.embeddingCorpus);
    if (config.embedding.rfind("hf:", 0) == 0)
        config.embedding = "hf:" + absolute(config.embedding.substr(3));
    if (!config.judge.empty())
        config.judge = judge::judgeWithAbsolutePaths(config.judge, config.baseDir);
    // The components' files: "file" (a python function's), every "…_file" (rubric_file,
    // schema_file, cache_file), "ca_cert", and a "python" interpreter given as a relative path.
    for (RewardComponent &c : config.components)
        if (!c.options.empty()) {
            nlohmann::json o = util::parseJsonOrDiscarded(c.options);
            if (!o.is_object())
                continue;
            bool changed = false;
            for (auto it = o.begin(); it != o.end(); ++it) {
                const std::string &k = it.key();
                const bool fileKey = k == "file" || k == "ca_cert" ||
                                     (k.size() > 5 && k.compare(k.size() - 5, 5, "_file") == 0);
                const bool interpreter = k == "python" && it->is_string() && it->get<std::string>().find('/') != std::string::npos;
                if ((fileKey || interpreter) && it->is_string()) {
                    *it = absolute(it->get<std::string>());
                    changed = true;
                }
            }
            if (changed)
                c.options = o.dump();
        }
    config.baseDir.clear();
    return config;
}

std::string RewardConfig::resolvedSynonyms() const
{
    if (synonyms.empty())
        return {};
    std::filesystem::path p(synonyms);
    if (p.is_relative() && !baseDir.empty())
        p = std::filesystem::path(baseDir) / p;
    return p.string();
}

void validateRewardConfig(const RewardConfig &c, const std::string &source, const Registry &registry)
{
    const std::string task = c.task.empty() ? registry.defaultTask() : c.task;
    const std::vector<std::string> tasks = registry.tasks();
    if (std::find(tasks.begin(), tasks.end(), task) == tasks.end())
        fail(source, "task", "unknown task \"" + task + "\" (allowed: " + joinNames(tasks) + ")");
    const std::vector<std::string> allowed = registry.names(task);
    if (c.components.empty())
        fail(source, "components", "at least one component is needed (allowed rewards: " + joinNames(allowed) + ")");
    for (size_t i = 0; i < c.components.size(); ++i) {
        const RewardComponent &comp = c.components[i];
        const std::string field = "components[" + std::to_string(i) + "]";
        const Registry::Entry *e = registry.find(comp.reward);
        if (!e || !Registry::serves(*e, task))
            fail(source, field + ".reward",
                 "unknown reward \"" + comp.reward + "\" (allowed: " + joinNames(allowed) + ")");
        // A name of its own must not be another reward's: views and stored values would
        // take the one for the other.
        if (!comp.name.empty() && comp.name != comp.reward && registry.find(comp.name))
            fail(source, field + ".name", "\"" + comp.name + "\" is the name of another reward; call it otherwise");
        if (!std::isfinite(comp.weight) || comp.weight < 0.0)
            fail(source, field + ".weight", "must be a finite number ≥ 0");
        for (size_t j = 0; j < i; ++j)
            if (c.components[j].label() == comp.label())
                fail(source, field + (comp.name.empty() ? ".reward" : ".name"),
                     "\"" + comp.label() + "\" is listed twice (also components[" + std::to_string(j) +
                         "]; give one a \"name\" of its own)");
    }
    if (!(c.weightSum() > 0.0))
        fail(source, "components", "the weights sum to 0; give at least one component a weight > 0");
}

void setTaskDescriptionHandler(TaskDescriptionHandler handler)
{
    taskDescriptionHandler() = handler;
}

bool isTaskDescriptionPath(const std::string &task)
{
    return task.size() > 5 && task.compare(task.size() - 5, 5, ".json") == 0;
}

std::string installTaskDescriptionFile(const std::string &path)
{
    namespace fs = std::filesystem;
    // A description file may explain itself with // comments (`rwb task init` writes them).
    const std::string text = util::withoutJsonComments(data::readTextFile(path));
    nlohmann::json d;
    try {
        d = util::parseJson(text);
    } catch (const nlohmann::json::parse_error &e) {
        const auto [line, col] = lineColumn(text, e.byte > 0 ? e.byte - 1 : 0);
        throw data::InputException({path, line, "column " + std::to_string(col) + ": not valid JSON"});
    }
    RewardConfig c;
    readTaskDescription(d, path, fs::absolute(path).parent_path().string(), c);
    return c.taskDescription;
}

RewardConfig readRewardConfigJson(std::string_view text, const std::string &source, const std::string &baseDir)
{
    nlohmann::json j;
    try {
        j = util::parseJson(text);
    } catch (const nlohmann::json::parse_error &e) {
        const auto [line, col] = lineColumn(text, e.byte > 0 ? e.byte - 1 : 0);
        throw data::InputException({source, line, "column " + std::to_string(col) + ": not valid JSON"});
    }
    if (!j.is_object())
        fail(source, "(top level)", std::string("expected a JSON object, found ") + j.type_name());

    static const char *const kKeys[] = {"name",      "description",      "task",
                                        "thinking",  "components",       "synonyms",
                                        "embedding", "embedding_corpus", "embedding_options",
                                        "judge"};
    for (auto it = j.begin(); it != j.end(); ++it) {
        bool known = false;
        for (const char *k : kKeys)
            known = known || it.key() == k;
        if (!known)
            fail(source, it.key(),
                 "unknown key (allowed: name, description, task, thinking, components, synonyms, embedding, "
                 "embedding_corpus, embedding_options, judge)");
    }

    RewardConfig c;
    auto str = [&](const char *key, std::string &out) {
        if (auto it = j.find(key); it != j.end()) {
            if (!it->is_string())
                fail(source, key, std::string("must be a string, found ") + it->type_name());
            out = it->get<std::string>();
        }
    };
    str("name", c.name);
    str("description", c.description);
    if (auto it = j.find("task"); it != j.end()) {
        namespace fs = std::filesystem;
        std::string dir = baseDir;
        if (dir.empty()) {
            std::error_code ec;
            dir = fs::is_regular_file(source, ec) ? fs::absolute(source).parent_path().string() : fs::current_path().string();
        }
        if (it->is_object()) {
            readTaskDescription(*it, source + ": task", dir, c);
        } else if (it->is_string() && isTaskDescriptionPath(it->get<std::string>())) {
            fs::path p(it->get<std::string>());
            if (p.is_relative())
                p = fs::path(dir) / p;
            if (!fs::exists(p))
                fail(source, "task", "the task description " + p.string() + " does not exist");
            c.taskDescription = installTaskDescriptionFile(p.string());
            c.task = util::parseJson(c.taskDescription).at("name").get<std::string>();
        } else {
            str("task", c.task);
        }
    }
    str("synonyms", c.synonyms);
    str("embedding", c.embedding);
    str("embedding_corpus", c.embeddingCorpus);
    if (auto it = j.find("embedding_options"); it != j.end()) {
        if (!it->is_object())
            fail(source, "embedding_options", std::string("must be an object, found ") + it->type_name());
        c.embeddingOptions = it->dump();
    }
    if (auto it = j.find("judge"); it != j.end()) {
        if (!it->is_object())
            fail(source, "judge", std::string("must be an object, found ") + it->type_name());
        c.judge = it->dump();
    }
    if (c.embedding != "lexical" && c.embedding.rfind("http:", 0) != 0 && c.embedding.rfind("hf:", 0) != 0)
        fail(source, "embedding", "\"" + c.embedding + "\" is not an embedding backend (allowed: lexical, http:URL, hf:DIR)");
    if (auto it = j.find("thinking"); it != j.end()) {
        if (!it->is_boolean())
            fail(source, "thinking", std::string("must be true or false, found ") + it->type_name());
        c.thinking = it->get<bool>();
    }
    auto comps = j.find("components");
    if (comps == j.end())
        fail(source, "components", "missing (a list of {\"reward\": name, \"weight\": number})");
    if (!comps->is_array())
        fail(source, "components", std::string("must be a list, found ") + comps->type_name());
    for (size_t i = 0; i < comps->size(); ++i) {
        const nlohmann::json &o = (*comps)[i];
        const std::string field = "components[" + std::to_string(i) + "]";
        if (!o.is_object())
            fail(source, field, std::string("must be an object {\"reward\", \"weight\"}, found ") + o.type_name());
        for (auto it = o.begin(); it != o.end(); ++it)
            if (it.key() != "reward" && it.key() != "weight" && it.key() != "options" && it.key() != "name")
                fail(source, field + "." + it.key(), "unknown key (allowed: reward, name, weight, options)");
        RewardComponent comp;
        auto r = o.find("reward");
        if (r == o.end() || !r->is_string())
            fail(source, field + ".reward", "missing or not a string");
        comp.reward = r->get<std::string>();
        auto w = o.find("weight");
        if (w == o.end())
            fail(source, field + ".weight", "missing");
        if (!w->is_number())
            fail(source, field + ".weight", std::string("must be a number, found ") + w->type_name());
        comp.weight = w->get<double>();
        if (auto n = o.find("name"); n != o.end()) {
            if (!n->is_string() || n->get<std::string>().empty())
                fail(source, field + ".name", "must be a non-empty string");
            comp.name = n->get<std::string>();
            // It names curves and stored values ("rewards/<name>/mean", "reward_metric/<name>/<metric>"):
            // letters, digits, "_" and "-" only.
            const bool plain = std::all_of(comp.name.begin(), comp.name.end(), [](char ch) {
                return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
                       ch == '-';
            });
            if (!plain || comp.name.size() > 64)
                fail(source, field + ".name", "\"" + comp.name + "\" must be letters, digits, \"_\" and \"-\" (64 at most)");
            for (const char *reserved : {"overlong", "reward", "reward_time", "rewards", "completions"})
                if (comp.name == reserved)
                    fail(source, field + ".name", "\"" + comp.name + "\" names one of GRPO's own metrics; call it otherwise");
        }
        if (auto opt = o.find("options"); opt != o.end()) {
            if (!opt->is_object())
                fail(source, field + ".options", std::string("must be an object, found ") + opt->type_name());
            comp.options = opt->dump();
        }
        c.components.push_back(std::move(comp));
    }
    return c;
}

RewardConfig parseRewardConfig(std::string_view text, const std::string &source, const Registry &registry)
{
    RewardConfig c = readRewardConfigJson(text, source);
    validateRewardConfig(c, source, registry);
    if (c.task.empty())
        c.task = registry.defaultTask();
    return c;
}

RewardConfig loadRewardConfig(const std::string &path, const Registry &registry)
{
    RewardConfig c = parseRewardConfig(data::readTextFile(path), path, registry);
    c.baseDir = std::filesystem::path(path).parent_path().string();
    return c;
}

std::string toJson(const RewardConfig &c)
{
    nlohmann::ordered_json j;
    if (!c.name.empty())
        j["name"] = c.name;
    if (!c.description.empty())
        j["description"] = c.description;
    if (!c.taskDescription.empty())
        j["task"] = util::parseJson<nlohmann::ordered_json>(c.taskDescription);
    else if (!c.task.empty()) // none: the default task, as when parsed
        j["task"] = c.task;
    j["thinking"] = c.thinking;
    j["components"] = nlohmann::ordered_json::array();
    for (const RewardComponent &comp : c.components) {
        nlohmann::ordered_json o;
        o["reward"] = comp.reward;
        if (!comp.name.empty() && comp.name != comp.reward)
            o["name"] = comp.name;
        // Whole weights stay integers in the file ("weight": 20, not 20.0).
        if (comp.weight == std::floor(comp.weight) && std::fabs(comp.weight) < 1e15)
            o["weight"] = static_cast<long long>(comp.weight);
        else
            o["weight"] = comp.weight;
        if (!comp.options.empty() && comp.options != "{}")
            o["options"] = util::parseJson<nlohmann::ordered_json>(comp.options);
        j["components"].push_back(std::move(o));
    }
    if (!c.synonyms.empty())
        j["synonyms"] = c.synonyms;
    if (c.embedding != "lexical")
        j["embedding"] = c.embedding;
    if (!c.embeddingCorpus.empty())
        j["embedding_corpus"] = c.embeddingCorpus;
    if (!c.embeddingOptions.empty() && c.embeddingOptions != "{}")
        j["embedding_options"] = util::parseJson<nlohmann::ordered_json>(c.embeddingOptions);
    if (!c.judge.empty())
        j["judge"] = util::parseJson<nlohmann::ordered_json>(c.judge);
    return j.dump(2) + "\n";
}

} // namespace rwb::reward
