#pragma once

// Training the process reward model on a pair set's labels (ProRAG §3.2, eq. 4):
//   L = Σ_i w_i · ℓ_i / Σ_i w_i,  ℓ_i = −log σ(R(c_i, s_i⁺) − R(c_i, s_i⁻))
// over the pairs with a chosen label. Each pair's label comes from the first source in
// `sources` that labelled it (people's majority first, by default; prm/agreement.h
// resolveLabels) and weighs that source's weight. Ties are dropped, or with ties "equal"
// add ℓ = ½(−log σ(d) − log σ(−d)), whose minimum is at d = 0 (the two steps scored
// alike). Questions are split, not pairs (a held-out question's pairs are all held out):
// held-out pairwise accuracy is measured per label source — on every held-out pair that
// source labelled A or B, whatever label the pair would have trained with — before and
// after training.
// docs/prm.md. No libtorch in this header.

#include "model/causallm.h"
#include "prm/preference.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::train {

struct PrmTrainConfig {
    std::string model;            // the SFT policy's folder (or a PRM folder to go on training)
    std::string output;           // the PRM folder written
    std::string store;            // the run store holding the pairs
    std::string set;              // the pair set
    std::string task;             // whose prompts a new PRM reads (a task with steps; absent: the first such task)
    std::vector<prm::Source> sources{prm::Source::Human, prm::Source::Judge, prm::Source::Tree, prm::Source::Import};
    std::map<prm::Source, double> sourceWeights{
        {prm::Source::Human, 2.0}, {prm::Source::Judge, 1.0}, {prm::Source::Tree, 1.0}, {prm::Source::Import, 1.0}};
    std::string ties = "drop";    // "drop" or "equal"
    double holdout = 0.2;         // share of questions held out
    std::string heldOutSet;       // a second pair set, all of it held out (e.g. another knowledge base's)
    bool lora = false;            // true: LoRA adapters on the decoder (merged when saved), the head trained in full
    model::LoraOptions loraOptions;
    double learningRate = 1e-4;
    double weightDecay = 0.0;
    double maxGradNorm = 1.0;     // ≤ 0: no clipping
    std::string schedule = "cosine";
    double warmupRatio = 0.05;
    int epochs = 2;
    int batchSize = 8;            // pairs per optimizer step
    int maxLength = 2048;         // tokens of a step's whole input; longer pairs are skipped (counted)
    uint64_t seed = 1;            // the head's initialisation, the order of the pairs, the split
    std::string dtype = "float32";
    std::string precision = "auto";
    std::string device = "auto";
    int threads = 0;
    int limit = 0;                // > 0: the first N labelled pairs
    int evalEvery = 0;            // held-out accuracy every N steps (and at the last); 0: at each epoch's end
};

// Keys (docs/prm.md): model, output, store, set (required), task, sources (["human", "judge",
// "tree", "import"]), source_weights ({"human": 2, …}), ties, holdout, held_out_set, lora, lora_r,
// lora_alpha, lora_dropout, lora_target_modules, learning_rate, weight_decay,
// max_grad_norm, schedule, warmup_ratio, epochs, batch_size, max_length, seed, dtype,
// precision, device, threads, limit, eval_every. Relative paths resolve against the config's folder.
// Throws data::InputException naming `source` and the key.
PrmTrainConfig parsePrmTrainConfig(std::string_view json, const std::string &source);
PrmTrainConfig loadPrmTrainConfig(const std::string &path);

// Pairwise accuracy on a slice of pairs: the PRM scores the step a label prefers higher.
struct PairAccuracy {
    std::string source;   // "human", "judge", "tree", "import", or "training label"
    size_t pairs = 0;     // pairs this source labelled A or B
    size_t correct = 0;
    double accuracy() const { return pairs ? static_cast<double>(correct) / static_cast<double>(pairs) : 0.0; }
};

struct PrmTrainProgress {
    int step = 0;
    int totalSteps = 0;
    int epoch = 0;
    double loss = 0;          // the step's weighted mean
    double accuracy = 0;      // the step's pairs ranked right (ties not counted)
    double learningRate = 0;
    double gradNorm = 0;
    double elapsedSeconds = 0;
    // Held-out accuracy per label source, measured after this step (empty on the steps
    // eval_every skips, and when nothing is held out).
    std::vector<PairAccuracy> heldOut;
};

struct PrmTrainResult {
    size_t labelledPairs = 0;   // pairs with a label from the sources
    size_t trainPairs = 0;
    size_t heldOutPairs = 0;    // pairs of held-out questions that any source labelled A or B
    size_t droppedTies = 0;
    size_t skippedTooLong = 0;
    std::map<std::string, size_t> labelsBySource; // the labels trained on, by source
    int steps = 0;
    double finalLoss = 0;
    // Held out, per label source (each source's own labels) and for the training labels.
    std::vector<PairAccuracy> heldOutBefore, heldOutAfter;
    PairAccuracy trainAfter;
    double seconds = 0;
    std::string precision;
};

// Called on the training thread after every optimizer step; return false to stop (the
// model trained so far is still measured and saved).
using PrmTrainCallback = std::function<bool(const PrmTrainProgress &)>;

// Trains and writes config.output. Throws data::InputException for a bad store, set or
// model folder, or when no pair has a label to train on; std::runtime_error when the
// loss becomes NaN (nothing is written then).
PrmTrainResult runPrmTraining(const PrmTrainConfig &config, const PrmTrainCallback &callback = {});

// The held-out questions of a split: a fixed hash of (seed, question id) below `share`.
bool heldOut(const std::string &questionId, double share, uint64_t seed);

// Eq. 4 with weights and ties on given scores (first[i] the chosen step's, or either for
// a tie): the loss and its gradient with respect to each score. For tests.
struct RankingLoss {
    double loss = 0;
    std::vector<double> dFirst, dSecond;
};
RankingLoss rankingLoss(const std::vector<double> &first, const std::vector<double> &second,
                        const std::vector<double> &weights, const std::vector<bool> &ties);

} // namespace rwb::train
