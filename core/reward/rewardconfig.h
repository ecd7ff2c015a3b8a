#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rwb::reward {

class Registry;

struct RewardComponent {
    std::string reward;
    double weight = 0.0;
    // The component's own settings, a JSON object ("" when none): for judge rewards,
    // e.g. {"mode": "all_items"} for rubric_explicit (docs/config.md).
    std::string options{};
    // What the component is called in curves, the store and the views ("" = `reward`):
    // needed when a generic reward is listed twice (two `python` functions, two `regex`).
    std::string name{};

    const std::string &label() const { return name.empty() ? reward : name; }
};

// A reward config (JSON), for example
//   {"task": "<a task>", "thinking": false,
//    "components": [{"reward": "partial", "weight": 20}, {"reward": "marker", "weight": 80}]}
// with optional "name" and "description" (shown by the workbench) and "synonyms" (a
// synonym table for `domain`, relative to the config's folder). See docs/config.md.
struct RewardConfig {
    std::string name;
    std::string description;
    std::string task; // "": the registry's default task (Registry::defaultTask), set by parsing
    // A user's task described in JSON (tasks/user/usertask.h), when "task" gave one (an
    // object, or the path of a .json file) instead of a name: the description as a JSON
    // object's text, its file paths absolute; `task` is then its "name". What a run
    // store keeps, so that a run of it opens anywhere. "" for a task named.
    std::string taskDescription;
    bool thinking = false;
    std::vector<RewardComponent> components;
    std::string synonyms; // as written in the file; resolvedSynonyms() gives the path to open
    // The embedding backend of embedding-based rewards (semantic): "lexical" (model-free,
    // fitted on embedding_corpus), "http:URL" (an OpenAI-compatible /v1/embeddings) or
    // "hf:DIR"; embedding_options (a JSON object) configures it; see docs/config.md.
    std::string embedding = "lexical";
    std::string embeddingCorpus;  // passages JSONL the lexical backend is fitted on (relative to the file)
    std::string embeddingOptions; // a JSON object, "" when none
    // The LLM judge of judge rewards (coverage, consistency, rubric_*, likert_*): a JSON
    // object, "" when none; judge/judgeconfig.h reads it, docs/judges.md documents it.
    std::string judge;
    std::string baseDir;  // the folder of the file it was read from ("" when parsed from text)

    double weightSum() const;
    std::string resolvedSynonyms() const;
    std::string resolvedEmbeddingCorpus() const;
};

// What the process does with a task description (RewardConfig::taskDescription) when a
// config that carries one is read: the task catalog reads it, installs the task
// (tasks/catalog.cpp sets this), so that the registry the config is then checked against
// knows the task, and returns the description with its relative paths made absolute
// against `baseDir`. `source` names where it came from; throws data::InputException
// naming it and the field.
using TaskDescriptionHandler = std::string (*)(const std::string &descriptionJson, const std::string &baseDir,
                                               const std::string &source);
void setTaskDescriptionHandler(TaskDescriptionHandler handler);
// Whether a task's name in a config ("task", --task) is a description file instead: it
// ends with ".json".
bool isTaskDescriptionPath(const std::string &task);
// Reads a task description file (// comments allowed) and installs its task through the
// handler; returns the description as stored. Throws data::InputException naming the
// file (and the line of a JSON syntax error) or the field.
std::string installTaskDescriptionFile(const std::string &path);

// Parses and validates. Throws data::InputException naming `source` and, for JSON syntax
// errors, the line and column; for every other problem the field ("components[1].weight")
// and what is allowed: unknown reward names (listing the registered ones), negative or
// non-finite weights, an all-zero weight sum, a reward listed twice, an unknown key.
RewardConfig parseRewardConfig(std::string_view json, const std::string &source, const Registry &registry);
// The JSON alone: every key and type checked, nothing looked up in a registry (an empty
// "task" stays empty). parseRewardConfig is this, then validateRewardConfig. For a config
// that a registry known only later checks (an inline reward config of a GRPO config,
// which the trainer validates against its own catalog).
// `baseDir` resolves a task description's path ("task": "mytask.json"); "" = the folder
// of `source` when that is a file, else the working directory.
RewardConfig readRewardConfigJson(std::string_view json, const std::string &source, const std::string &baseDir = {});
RewardConfig loadRewardConfig(const std::string &path, const Registry &registry);

// Checks a config built in code (the same rules, without the JSON ones).
// Throws data::InputException naming `source`.
void validateRewardConfig(const RewardConfig &config, const std::string &source, const Registry &registry);

// Pretty-printed JSON (2-space indent, keys in the documented order), ending with a newline.
std::string toJson(const RewardConfig &config);

// The config with its file paths (synonyms, embedding_corpus, an hf: folder) made
// absolute against its folder, and no folder: what a run store records, so that the
// rollout browser rebuilds the rewards wherever the store and the config files are.
RewardConfig withAbsolutePaths(RewardConfig config);

} // namespace rwb::reward
