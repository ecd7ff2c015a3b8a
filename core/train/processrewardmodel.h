#pragma once

// The process reward model (ProRAG §3.2, eq. 4): a causal LM (the SFT policy's weights to
// start from) with a scalar head on the final hidden state, read at the last token of a
// step: R(c, s) = w · h_end(prompt(question) + history + s) + b. One forward over a whole
// trajectory scores every step at once (attention is causal: the state at a step's last
// token has seen only the context and that step).
//
// A PRM folder is a model folder (config.json, model.safetensors with any LoRA merged,
// the tokenizer) plus prm_head.safetensors ("score.weight" [1, H], "score.bias" [1]) and
// prm.json ({"format": "rwb-prm", "version": 1, "base", "task", "trained": {…}}). Its
// "task" is the task (one that declares process steps, task::Steps) whose prompt the PRM
// reads before the steps.
// docs/prm.md. No libtorch in this header.

#include "mcts/searchrecord.h"
#include "model/causallm.h"
#include "task/catalog.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rwb::tokenizer {
class PromptFormat;
class Tokenizer;
}

namespace rwb::train {

// A scoring input: tokens and the indexes of the tokens to read the score at (each step's
// last token), ascending.
struct PrmInput {
    std::vector<int32_t> tokens;
    std::vector<int64_t> ends;
};

class ProcessRewardModel {
public:
    // A new PRM on a causal LM folder: its weights and a head drawn from N(0, 0.02²)
    // (bias 0) with `seed`, reading `task`'s prompts (a task with steps, which must
    // outlive the PRM). Throws data::InputException naming the folder, std::invalid_argument
    // for a task without steps.
    static std::unique_ptr<ProcessRewardModel> fromPolicy(const std::string &folder, const model::ModelOptions &options,
                                                          uint64_t seed, const task::Task &task);
    // A PRM folder; its prm.json's "task" found in `catalog` (which must outlive the PRM;
    // none named: the catalog's first task with steps). Throws data::InputException naming
    // the folder and file when it is not one (no prm_head.safetensors, a head whose size
    // is not the model's hidden size, a task the catalog lacks or that has no steps).
    static std::unique_ptr<ProcessRewardModel> load(const std::string &folder, const model::ModelOptions &options = {},
                                                    const task::Catalog &catalog = task::Catalog::builtin());
    ~ProcessRewardModel();

    // Writes the PRM folder (merging LoRA adapters first). `meta` goes into prm.json's
    // "trained" (any JSON object text; "{}" for none).
    void save(const std::string &folder, const std::string &base, const std::string &metaJson = "{}");

    model::CausalLM &lm();
    const tokenizer::Tokenizer &tokenizer() const;
    const tokenizer::PromptFormat &format() const;
    int32_t padToken() const;

    // The task whose prompts it reads.
    const task::Task &task() const;
    // The tokens of a question's prompt (the policy's: the task's prompt of
    // Steps::questionExample in the model's chat format) followed by each step's tokens,
    // and where each step ends.
    PrmInput input(const std::string &question, const std::vector<std::string> &steps) const;

    // R at each input's ends (no gradient), `batch` inputs per forward.
    std::vector<std::vector<double>> score(const std::vector<PrmInput> &inputs, int batch = 8) const;

    struct Internals;
    Internals &internals();

private:
    ProcessRewardModel();
    // The decoder and tokenizer of a folder, the head zero.
    static std::unique_ptr<ProcessRewardModel> withDecoder(const std::string &folder, const model::ModelOptions &options);
    std::unique_ptr<Internals> m_d;
};

// The folder is a PRM folder (it holds prm_head.safetensors).
bool isPrmFolder(const std::string &folder);

// The PRM's score R of every step of a search tree (node id → R; the root has none): one
// forward per leaf's path, which scores every node on it (a node shared by several paths
// gets the same score from each: attention is causal).
std::map<int, double> scoreTree(const ProcessRewardModel &prm, const mcts::SearchRecord &record, int batch = 8);

} // namespace rwb::train
