#include "model/initmodel.h"

#include "model/causallm.h"
#include "tokenizer/tokenizer.h"

#include <filesystem>
#include <stdexcept>

namespace rwb::model {

namespace fs = std::filesystem;

InitModelResult initModelFolder(const InitModelOptions &options)
{
    const auto tokenizer = tokenizer::loadTokenizer(options.tokenizerDir);
    ModelConfig config;
    if (options.shape == "tiny") {
        config = tinyDefaultConfig(tokenizer->vocabSize());
    } else if (options.shape == "qwen3-0.6b") {
        config = qwen3_0_6bConfig();
        if (tokenizer->vocabSize() > config.vocabSize)
            config.vocabSize = tokenizer->vocabSize();
    } else {
        throw std::invalid_argument("--shape must be tiny or qwen3-0.6b");
    }
    if (options.layers < 0)
        throw std::invalid_argument("--layers must be at least 1");
    if (options.layers > 0)
        config.numLayers = options.layers;
    config.eosTokenId = tokenizer->eosId().value_or(-1);
    config.bosTokenId = tokenizer->bosId().value_or(-1);
    ModelOptions o;
    o.seed = options.seed;
    o.dtype = options.dtype;
    o.device = "cpu";
    auto lm = CausalLM::random(config, o);
    fs::create_directories(options.out);
    lm->save(options.out);
    for (const char *f : {"tokenizer.json", "tokenizer.model", "tokenizer_config.json", "special_tokens_map.json"}) {
        const fs::path from = fs::path(options.tokenizerDir) / f;
        if (fs::exists(from))
            fs::copy_file(from, fs::path(options.out) / f, fs::copy_options::overwrite_existing);
    }
    return {config, lm->parameterCount(), lm->dtypeName()};
}

} // namespace rwb::model
