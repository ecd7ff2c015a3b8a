#pragma once

// A model's metrics on a task's dataset (for extraction, the first paper's precision /
// recall / F1 of §2.4): greedy generation for every line, B prompts at a time, each
// completion parsed by the task and scored with the task's metrics. `rwb eval run` and the
// workbench's evaluation job both call runEvaluation(). No libtorch in this header.

#include "task/environment.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace rwb::task {
class Catalog;
}

namespace rwb::train {

struct EvaluationOptions {
    std::string model;    // model folder (Hugging Face layout, tokenizer beside it)
    std::string adapter;  // optional LoRA adapter folder (PEFT layout) loaded on top
    std::string data;     // the task's JSONL ("completion" not needed)
    std::string task; // the task's name; "" the catalog's default task (task/catalog.h)
    bool thinking = false; // the paper's fig. 3 format; the answer is the first <answer>…</answer>
    int limit = 0;        // > 0: the first N lines only
    int batch = 8;        // prompts per generate call (≥ 1)
    int maxNewTokens = 0; // 0: 256 with thinking, else 48
    std::string output;   // optional: every prediction as its dataset line with "completion" =
                          // the model's output, written to OUTPUT.part and renamed at the end
    std::string dtype = "auto";
    std::string device = "auto";
    int threads = 0;
    // A multi-step task's environment (its retrieval index; task/environment.h);
    // maxNewTokens then counts the policy's tokens only.
    task::EnvironmentOptions environment;
};

struct EvaluationProgress {
    size_t done = 0;  // examples generated and scored
    size_t total = 0;
};

struct EvaluationResult {
    std::vector<std::pair<std::string, double>> metrics; // the task's, in its order ("precision", "recall", "f1")
    std::vector<std::pair<std::string, int64_t>> counts; // behind them ("n_output", "n_exist", "n_tp")
    size_t examples = 0;            // examples scored (fewer than asked when stopped)
    double meanOutputTokens = 0.0;  // generated tokens per example, the stop token included
    double secondsPerSample = 0.0;  // wall time (generation and scoring) per example
    bool stopped = false;           // the callback asked to stop; no output file was written
};

// Called on the evaluating thread after every batch; return false to stop (the result
// then covers the examples done so far, and OUTPUT.part is removed).
using EvaluationCallback = std::function<bool(const EvaluationProgress &)>;

// Throws data::InputException naming the file for a dataset that cannot be read or holds
// no example, an output that cannot be written, or batch < 1; model and tokenizer
// loading errors propagate as thrown by model::CausalLM::load and tokenizer::loadTokenizer.
EvaluationResult runEvaluation(const EvaluationOptions &options, const EvaluationCallback &callback = {});
// The same with the tasks of `catalog`.
EvaluationResult runEvaluation(const EvaluationOptions &options, const task::Catalog &catalog,
                               const EvaluationCallback &callback = {});

} // namespace rwb::train
