#pragma once

// A new model folder with random weights: what `rwb model init` and the workbench's
// "new tiny model" job write. No libtorch in this header.

#include "model/modelconfig.h"

#include <cstdint>
#include <string>

namespace rwb::model {

struct InitModelOptions {
    std::string tokenizerDir;     // a folder with tokenizer.json or tokenizer.model
    std::string out;              // the new model folder (created)
    std::string shape = "tiny";   // "tiny" (the demo's policy) or "qwen3-0.6b"
    int layers = 0;               // decoder layers; 0: the shape's own count
    uint64_t seed = 0;
    std::string dtype = "float32";
};

struct InitModelResult {
    ModelConfig config;
    int64_t parameters = 0;
    std::string dtype;            // as saved ("float32" or "bfloat16")
};

// Writes OUT/config.json and OUT/model.safetensors in the Hugging Face layout and copies
// the tokenizer files (tokenizer.json or tokenizer.model, tokenizer_config.json,
// special_tokens_map.json). The vocabulary size, eos and bos come from the tokenizer.
// Throws std::invalid_argument for an unknown shape or a layer count below 0; tokenizer and file errors propagate
// (data::InputException naming the file, std::filesystem errors).
InitModelResult initModelFolder(const InitModelOptions &options);

} // namespace rwb::model
