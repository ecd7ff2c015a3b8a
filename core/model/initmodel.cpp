#include "model/initmodel.h"

#include "model/causallm.h"
#include "data/jsonl.h"
#include "tokenizer/promptformat.h"
#include "tokenizer/tokenizer.h"
#include "util/boundedjson.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
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
    // transformers' apply_chat_template (TRL's and verl's conversational paths) needs a
    // chat_template: the engine's own prompt format as Jinja, unless the tokenizer has one.
    const fs::path configPath = fs::path(options.out) / "tokenizer_config.json";
    nlohmann::ordered_json tokenizerConfig = nlohmann::ordered_json::object();
    if (fs::exists(configPath)) {
        try {
            tokenizerConfig = util::parseJson<nlohmann::ordered_json>(data::readTextFile(configPath.string()));
        } catch (const nlohmann::json::exception &e) {
            throw data::InputException({configPath.string(), 0, std::string("not valid JSON: ") + e.what()});
        }
    }
    if (!tokenizerConfig.contains("chat_template")) {
        tokenizerConfig["chat_template"] = tokenizer::PromptFormat::forModel(options.out, *tokenizer).chatTemplate();
        std::ofstream(configPath, std::ios::binary) << tokenizerConfig.dump(2) << "\n";
    }
    return {config, lm->parameterCount(), lm->dtypeName()};
}

} // namespace rwb::model
