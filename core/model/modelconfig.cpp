#include "model/modelconfig.h"

#include "data/jsonl.h"
#include "util/boundedjson.h"

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace rwb::model {

namespace {

[[noreturn]] void fail(const std::string &source, const std::string &field, const std::string &what)
{
    throw data::InputException({source, 0, field + ": " + what});
}

int64_t intField(const nlohmann::json &j, const char *key, const std::string &source, int64_t fallback = -1,
                 bool required = true)
{
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) {
        if (required)
            fail(source, key, "missing");
        return fallback;
    }
    if (!it->is_number_integer())
        fail(source, key, std::string("must be an integer, found ") + it->type_name());
    return it->get<int64_t>();
}

double numField(const nlohmann::json &j, const char *key, const std::string &source, double fallback)
{
    auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return fallback;
    if (!it->is_number())
        fail(source, key, std::string("must be a number, found ") + it->type_name());
    return it->get<double>();
}

// eos_token_id may be a list; the first one is kept.
int64_t tokenId(const nlohmann::json &j, const char *key)
{
    auto it = j.find(key);
    if (it == j.end())
        return -1;
    if (it->is_number_integer())
        return it->get<int64_t>();
    if (it->is_array() && !it->empty() && (*it)[0].is_number_integer())
        return (*it)[0].get<int64_t>();
    return -1;
}

} // namespace

std::string_view familyName(Family f)
{
    switch (f) {
    case Family::Qwen3: return "qwen3";
    case Family::Qwen2: return "qwen2";
    case Family::Llama: return "llama";
    }
    return "qwen3";
}

int64_t ModelConfig::parameterCount() const
{
    const int64_t q = numHeads * headDim;
    const int64_t kv = numKvHeads * headDim;
    int64_t attn = hiddenSize * q + 2 * hiddenSize * kv + q * hiddenSize;
    if (qkvBias || attentionBias)
        attn += q + 2 * kv + (attentionBias ? hiddenSize : 0);
    if (qkNorm)
        attn += 2 * headDim;
    const int64_t mlp = 3 * hiddenSize * intermediateSize;
    const int64_t layer = attn + mlp + 2 * hiddenSize;
    const int64_t embed = vocabSize * hiddenSize;
    return numLayers * layer + hiddenSize + embed * (tieWordEmbeddings ? 1 : 2);
}

ModelConfig parseModelConfig(std::string_view text, const std::string &source)
{
    nlohmann::json j;
    try {
        j = util::parseJson(text);
    } catch (const nlohmann::json::parse_error &e) {
        throw data::InputException({source, 0, "not valid JSON (byte " + std::to_string(e.byte) + ")"});
    }
    if (!j.is_object())
        fail(source, "(top level)", "expected a JSON object");

    ModelConfig c;
    const std::string modelType = j.value("model_type", std::string());
    if (modelType == "qwen3") {
        c.family = Family::Qwen3;
        c.qkNorm = true;
    } else if (modelType == "qwen2") {
        c.family = Family::Qwen2;
        c.qkvBias = true;
    } else if (modelType == "llama" || modelType == "mistral") {
        c.family = Family::Llama;
        c.attentionBias = j.value("attention_bias", false);
    } else {
        fail(source, "model_type",
             "\"" + modelType + "\" is not supported (supported: qwen3, qwen2, llama)");
    }
    c.vocabSize = intField(j, "vocab_size", source);
    c.hiddenSize = intField(j, "hidden_size", source);
    c.intermediateSize = intField(j, "intermediate_size", source);
    c.numLayers = intField(j, "num_hidden_layers", source);
    c.numHeads = intField(j, "num_attention_heads", source);
    c.numKvHeads = intField(j, "num_key_value_heads", source, c.numHeads, false);
    c.headDim = intField(j, "head_dim", source, -1, false);
    for (auto [name, v] : {std::pair{"vocab_size", c.vocabSize}, {"hidden_size", c.hiddenSize},
                           {"intermediate_size", c.intermediateSize}, {"num_hidden_layers", c.numLayers},
                           {"num_attention_heads", c.numHeads}, {"num_key_value_heads", c.numKvHeads}})
        if (v <= 0)
            fail(source, name, "must be > 0");
    if (c.numHeads % c.numKvHeads != 0)
        fail(source, "num_key_value_heads",
             "must divide num_attention_heads (" + std::to_string(c.numHeads) + " / " + std::to_string(c.numKvHeads) + ")");
    if (c.headDim <= 0) {
        if (c.hiddenSize % c.numHeads != 0)
            fail(source, "hidden_size", "must be a multiple of num_attention_heads when head_dim is absent");
        c.headDim = c.hiddenSize / c.numHeads;
    }
    if (c.headDim % 2 != 0)
        fail(source, "head_dim", "must be even for rotary embeddings");
    c.rmsNormEps = numField(j, "rms_norm_eps", source, 1e-6);
    c.maxPositions = intField(j, "max_position_embeddings", source, 32768, false);
    c.tieWordEmbeddings = j.value("tie_word_embeddings", c.family != Family::Llama);
    // transformers ≥ 4.56 writes "dtype"; earlier versions "torch_dtype".
    for (const char *key : {"torch_dtype", "dtype"})
        if (auto it = j.find(key); it != j.end() && it->is_string())
            c.torchDtype = it->get<std::string>();
    c.bosTokenId = tokenId(j, "bos_token_id");
    c.eosTokenId = tokenId(j, "eos_token_id");

    // RoPE: rope_theta at the top level or in rope_parameters; scaling in rope_scaling or rope_parameters.
    const nlohmann::json *rope = nullptr;
    if (auto it = j.find("rope_scaling"); it != j.end() && it->is_object())
        rope = &*it;
    if (auto it = j.find("rope_parameters"); it != j.end() && it->is_object())
        rope = &*it;
    c.ropeTheta = numField(j, "rope_theta", source, 10000.0);
    if (rope) {
        c.ropeTheta = numField(*rope, "rope_theta", source, c.ropeTheta);
        std::string type = rope->value("rope_type", rope->value("type", std::string("default")));
        RopeScaling &s = c.ropeScaling;
        if (type == "default")
            s.type = RopeScaling::Type::Default;
        else if (type == "linear")
            s.type = RopeScaling::Type::Linear;
        else if (type == "llama3")
            s.type = RopeScaling::Type::Llama3;
        else if (type == "yarn")
            s.type = RopeScaling::Type::Yarn;
        else
            fail(source, "rope_scaling.rope_type", "\"" + type + "\" is not supported (default, linear, llama3, yarn)");
        s.factor = numField(*rope, "factor", source, 1.0);
        s.lowFreqFactor = numField(*rope, "low_freq_factor", source, 1.0);
        s.highFreqFactor = numField(*rope, "high_freq_factor", source, 4.0);
        s.originalMaxPositions = static_cast<int64_t>(
            numField(*rope, "original_max_position_embeddings", source, static_cast<double>(c.maxPositions)));
        s.betaFast = numField(*rope, "beta_fast", source, 32.0);
        s.betaSlow = numField(*rope, "beta_slow", source, 1.0);
        s.attentionFactor = numField(*rope, "attention_factor", source, 0.0);
        if (s.type != RopeScaling::Type::Default && !(s.factor > 0.0))
            fail(source, "rope_scaling.factor", "must be > 0");
    }
    if (!(c.ropeTheta > 0.0))
        fail(source, "rope_theta", "must be > 0");
    return c;
}

ModelConfig loadModelConfig(const std::string &folder)
{
    const std::string path = (std::filesystem::path(folder) / "config.json").string();
    return parseModelConfig(data::readTextFile(path), path);
}

std::string toJson(const ModelConfig &c)
{
    nlohmann::ordered_json j;
    switch (c.family) {
    case Family::Qwen3: j["architectures"] = {"Qwen3ForCausalLM"}; break;
    case Family::Qwen2: j["architectures"] = {"Qwen2ForCausalLM"}; break;
    case Family::Llama: j["architectures"] = {"LlamaForCausalLM"}; break;
    }
    j["model_type"] = familyName(c.family);
    j["vocab_size"] = c.vocabSize;
    j["hidden_size"] = c.hiddenSize;
    j["intermediate_size"] = c.intermediateSize;
    j["num_hidden_layers"] = c.numLayers;
    j["num_attention_heads"] = c.numHeads;
    j["num_key_value_heads"] = c.numKvHeads;
    j["head_dim"] = c.headDim;
    j["hidden_act"] = "silu";
    j["rms_norm_eps"] = c.rmsNormEps;
    j["rope_theta"] = c.ropeTheta;
    j["max_position_embeddings"] = c.maxPositions;
    j["tie_word_embeddings"] = c.tieWordEmbeddings;
    if (c.family == Family::Llama)
        j["attention_bias"] = c.attentionBias;
    j["torch_dtype"] = c.torchDtype;
    if (c.bosTokenId >= 0)
        j["bos_token_id"] = c.bosTokenId;
    if (c.eosTokenId >= 0)
        j["eos_token_id"] = c.eosTokenId;
    const RopeScaling &s = c.ropeScaling;
    if (s.type != RopeScaling::Type::Default) {
        nlohmann::ordered_json r;
        r["rope_type"] = s.type == RopeScaling::Type::Linear ? "linear" : s.type == RopeScaling::Type::Llama3 ? "llama3" : "yarn";
        r["factor"] = s.factor;
        if (s.type == RopeScaling::Type::Llama3) {
            r["low_freq_factor"] = s.lowFreqFactor;
            r["high_freq_factor"] = s.highFreqFactor;
        }
        if (s.type != RopeScaling::Type::Linear)
            r["original_max_position_embeddings"] = s.originalMaxPositions;
        if (s.type == RopeScaling::Type::Yarn) {
            r["beta_fast"] = s.betaFast;
            r["beta_slow"] = s.betaSlow;
            if (s.attentionFactor > 0)
                r["attention_factor"] = s.attentionFactor;
        }
        j["rope_scaling"] = r;
    }
    return j.dump(2) + "\n";
}

} // namespace rwb::model

namespace rwb::model {

ModelConfig tinyDefaultConfig(int64_t vocabSize)
{
    ModelConfig c;
    c.family = Family::Qwen3;
    c.qkNorm = true;
    c.vocabSize = vocabSize;
    c.hiddenSize = 256;
    c.intermediateSize = 768;
    c.numLayers = 4;
    c.numHeads = 4;
    c.numKvHeads = 2;
    c.headDim = 64;
    c.rmsNormEps = 1e-6;
    c.ropeTheta = 10000.0;
    c.maxPositions = 2048;
    c.tieWordEmbeddings = true;
    c.torchDtype = "float32";
    return c;
}

ModelConfig qwen3_0_6bConfig()
{
    ModelConfig c;
    c.family = Family::Qwen3;
    c.qkNorm = true;
    c.vocabSize = 151936;
    c.hiddenSize = 1024;
    c.intermediateSize = 3072;
    c.numLayers = 28;
    c.numHeads = 16;
    c.numKvHeads = 8;
    c.headDim = 128;
    c.rmsNormEps = 1e-6;
    c.ropeTheta = 1000000.0;
    c.maxPositions = 40960;
    c.tieWordEmbeddings = true;
    c.torchDtype = "bfloat16";
    c.eosTokenId = 151645;
    return c;
}

} // namespace rwb::model
