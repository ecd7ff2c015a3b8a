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

// Parses and validates. Throws data::InputException naming `source` and, for JSON syntax
// errors, the line and column; for every other problem the field ("components[1].weight")
// and what is allowed: unknown reward names (listing the registered ones), negative or
// non-finite weights, an all-zero weight sum, a reward listed twice, an unknown key.
RewardConfig parseRewardConfig(std::string_view json, const std::string &source, const Registry &registry);
// The JSON alone: every key and type checked, nothing looked up in a registry (an empty
// "task" stays empty). parseRewardConfig is this, then validateRewardConfig. For a config
// that a registry known only later checks (an inline reward config of a GRPO config,
// which the trainer validates against its own catalog).
RewardConfig readRewardConfigJson(std::string_view json, const std::string &source);
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
