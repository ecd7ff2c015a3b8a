#pragma once

// A model's precision / recall / F1 on an extraction dataset (the first paper's §2.4):
// greedy generation for every line, B prompts at a time, the answer extracted from each
// completion and scored against the gold. `rwb eval run` and the workbench's evaluation
// job both call runEvaluation(). No libtorch in this header.

#include "eval/extractionmetrics.h"

#include <cstddef>
#include <functional>
#include <string>

namespace rwb::train {

struct EvaluationOptions {
    std::string model;    // model folder (Hugging Face layout, tokenizer beside it)
    std::string adapter;  // optional LoRA adapter folder (PEFT layout) loaded on top
    std::string data;     // extraction JSONL ("completion" not needed)
    bool thinking = false; // the paper's fig. 3 format; the answer is the first <answer>…</answer>
    int limit = 0;        // > 0: the first N lines only
    int batch = 8;        // prompts per generate call (≥ 1)
    int maxNewTokens = 0; // 0: 256 with thinking, else 48
    std::string output;   // optional: every prediction as an extraction line ("completion" =
                          // the model's output), written to OUTPUT.part and renamed at the end
    std::string dtype = "auto";
    std::string device = "auto";
    int threads = 0;
};

struct EvaluationProgress {
    size_t done = 0;  // examples generated and scored
    size_t total = 0;
};

struct EvaluationResult {
    eval::ExtractionMetrics metrics;
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

} // namespace rwb::train
