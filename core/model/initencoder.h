#pragma once

// A new BERT encoder folder with random weights, laid out as sentence-transformers ships
// MiniLM (config.json, model.safetensors, tokenizer.json, modules.json, 1_Pooling,
// 2_Normalize): what `rwb bench embed --model hf:` measures when it is given no folder.
// Plain C++ (no libtorch): the weights are drawn with util::Rng and written with
// writeSafetensors.

#include <cstdint>
#include <string>
#include <vector>

namespace rwb::model {

struct RandomEncoderOptions {
    // sentence-transformers/all-MiniLM-L6-v2's shape.
    int64_t layers = 6;
    int64_t hidden = 384;
    int64_t heads = 12;
    int64_t intermediate = 1536;
    int64_t maxPositions = 512;
    // The WordPiece vocabulary after the five specials [PAD] [UNK] [CLS] [SEP] [MASK]
    // (ids 0–4): the rest in order, duplicates and specials skipped.
    std::vector<std::string> vocabulary;
    // "mean" (MiniLM), "cls" or "lasttoken": written to 1_Pooling/config.json.
    std::string pooling = "mean";
    uint64_t seed = 0;
};

struct RandomEncoderFolder {
    int64_t vocabSize = 0;
    int64_t parameters = 0;
};

// Writes the folder `out` (created). Weights: uniform with standard deviation 0.02
// (transformers' initializer_range), LayerNorms 1 and 0, biases 0. tokenizer.json is
// WordPiece with bert-base-uncased's normalizer (lower case, accents stripped, spaces
// around CJK ideographs) and [CLS] … [SEP]. Throws std::invalid_argument for a shape
// out of range (heads not dividing hidden, …) and std::runtime_error naming the file
// when writing fails.
RandomEncoderFolder writeRandomEncoderFolder(const RandomEncoderOptions &options, const std::string &out);

// Every character of `texts` once, and once more with "##" in front, in first-seen
// order: a vocabulary on which WordPiece tokenizes those texts character by character
// (about one token per character, which is what multilingual encoders give Japanese,
// within a factor of 2).
std::vector<std::string> characterVocabulary(const std::vector<std::string> &texts);

} // namespace rwb::model
