#pragma once

// PRM-filtered rejection-sampling fine-tuning (ProRAG §3.3): sample N trajectories per
// training question from the SFT policy (retrieval in the loop), keep those whose answer
// is right, score their steps with the PRM, and fine-tune the policy on what passes — the
// same SFT code, retrieved tokens masked.
//
// Filtering, as the paper keeps (context, action) pairs whose score clears the threshold:
//   "step"        a kept trajectory's steps that score below the threshold stay in it as
//                 context only (no loss: the SFT line's "context_steps"); a trajectory
//                 none of whose steps clears is dropped;
//   "trajectory"  a trajectory is kept only when every step clears.
// The evaluation before and after is greedy decoding on held-out questions (answer EM
// and F1), as `rwb eval run` measures. docs/prm.md. No libtorch in this header.

#include "train/sft.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::train {

struct RftConfig {
    std::string policy;        // the SFT policy's folder
    std::string prm;           // the PRM folder (rwb prm train)
    std::string task;          // the task (one with steps, task::Steps); absent: the first such task
    std::string questions;     // training questions: the task's JSONL with gold answers
    std::string index;         // the BM25 index of their knowledge base
    std::string output;        // the fine-tuned policy
    std::string dataOutput;    // the kept trajectories as SFT lines; "": OUTPUT.rft.jsonl
    int samples = 4;           // N trajectories per question
    double temperature = 1.0;
    double topP = 1.0;
    int topK = 0;
    int maxCompletionLength = 256; // the policy's tokens (retrievals not counted)
    int maxTurns = 6;
    int maxTurnTokens = 0;
    int retrievalTopK = 2;
    std::string answer = "em"; // "em": right when the answer matches; "f1": when its F1 ≥ min_f1
    double minF1 = 1.0;
    double threshold = 0.0;    // on the PRM's raw score (ProRAG: R > 0)
    std::string filter = "step"; // "step" or "trajectory"
    bool dedupe = true;        // a question's identical kept trajectories count once
    int limit = 0;             // > 0: the first N questions
    int batch = 8;             // questions per generation call (× samples rows)
    uint64_t seed = 1;
    std::string device = "auto";
    int threads = 0;
    SftConfig sft;             // the fine-tuning ("sft": SFT's keys but model, output, train_data, task)
    // Held-out evaluation before and after ("" questions: none).
    std::string evalQuestions;
    std::string evalIndex;     // "": index
    int evalLimit = 0;
};

// Keys (docs/prm.md): policy, prm, questions, index, output (required), task, data_output,
// samples, temperature, top_p, top_k, max_completion_length, max_turns, max_turn_tokens,
// retrieval_top_k, answer, min_f1, threshold, filter, dedupe, limit, batch, seed, device,
// threads, sft (an object of SFT keys), eval_questions, eval_index, eval_limit. Relative
// paths resolve against the config's folder. Throws data::InputException naming `source`
// and the key.
RftConfig parseRftConfig(std::string_view json, const std::string &source);
RftConfig loadRftConfig(const std::string &path);

// Which steps of a right trajectory train (1) and which are context only (0), from their
// PRM scores; empty when the trajectory is dropped. For tests and the command.
std::vector<uint8_t> rftSteps(const std::vector<double> &scores, double threshold, const std::string &filter);

struct RftProgress {
    std::string phase;  // "before", "sampling", "training", "after"
    size_t done = 0, total = 0; // questions sampled, SFT steps, examples evaluated
    double elapsedSeconds = 0;
};

struct RftResult {
    size_t questions = 0;
    size_t sampled = 0;        // trajectories
    size_t right = 0;          // with a right answer
    size_t kept = 0;           // trajectories fine-tuned on (after dedupe)
    size_t duplicates = 0;     // right trajectories dropped as repeats
    size_t droppedByPrm = 0;   // right trajectories the PRM filter dropped
    size_t keptSteps = 0;      // steps with loss
    size_t contextSteps = 0;   // steps kept as context only
    size_t questionsKept = 0;  // questions with at least one kept trajectory
    double meanStepScore = 0;  // over the right trajectories' steps
    SftResult sft;
    bool evaluated = false;
    double emBefore = 0, f1Before = 0, emAfter = 0, f1After = 0;
    size_t evalExamples = 0;
    double seconds = 0;
};

// Called on the working thread; return false to stop (a stop while sampling trains on
// what was kept so far; while training, saves what was trained).
using RftCallback = std::function<bool(const RftProgress &)>;

// Throws data::InputException for bad inputs and when no trajectory is kept (nothing to
// fine-tune on: the message gives the counts).
RftResult runRft(const RftConfig &config, const RftCallback &callback = {});

} // namespace rwb::train
