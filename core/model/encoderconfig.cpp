#include "model/encoderconfig.h"

#include "data/jsonl.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

namespace rwb::model {

namespace {

[[noreturn]] void fail(const std::string &source, const std::string &field, const std::string &what)
{
    throw data::InputException({source, 0, field + ": " + what});
}

int64_t intField(const nlohmann::json &j, const char *key, const std::string &source, int64_t fallback,
                 bool required)
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

} // namespace

bool isEncoderModelType(std::string_view t)
{
    return t == "bert" || t == "roberta" || t == "xlm-roberta";
}

int64_t EncoderConfig::maxTokens() const
{
    return family == EncoderFamily::Roberta ? maxPositions - padTokenId - 1 : maxPositions;
}

int64_t EncoderConfig::parameterCount() const
{
    const int64_t h = hiddenSize;
    const int64_t embeddings = (vocabSize + maxPositions + typeVocabSize) * h + 2 * h;
    const int64_t attention = 4 * (h * h + h) + 2 * h;
    const int64_t ffn = h * intermediateSize + intermediateSize + intermediateSize * h + h + 2 * h;
    return embeddings + numLayers * (attention + ffn);
}

EncoderConfig parseEncoderConfig(std::string_view text, const std::string &source)
{
    nlohmann::json j;
    try {
        j = util::parseJson(text);
    } catch (const nlohmann::json::parse_error &e) {
        throw data::InputException({source, 0, "not valid JSON (byte " + std::to_string(e.byte) + ")"});
    }
    if (!j.is_object())
        fail(source, "(top level)", "expected a JSON object");

    EncoderConfig c;
    auto mt = j.find("model_type");
    if (mt == j.end() || !mt->is_string())
        fail(source, "model_type", "missing");
    c.modelType = mt->get<std::string>();
    if (!isEncoderModelType(c.modelType))
        fail(source, "model_type", "\"" + c.modelType + "\" is not an encoder (bert, roberta, xlm-roberta)");
    c.family = c.modelType == "bert" ? EncoderFamily::Bert : EncoderFamily::Roberta;

    c.vocabSize = intField(j, "vocab_size", source, 0, true);
    c.hiddenSize = intField(j, "hidden_size", source, 0, true);
    c.intermediateSize = intField(j, "intermediate_size", source, 0, true);
    c.numLayers = intField(j, "num_hidden_layers", source, 0, true);
    c.numHeads = intField(j, "num_attention_heads", source, 0, true);
    c.maxPositions = intField(j, "max_position_embeddings", source, 512, false);
    c.typeVocabSize = intField(j, "type_vocab_size", source, 2, false);
    c.padTokenId = intField(j, "pad_token_id", source, c.family == EncoderFamily::Bert ? 0 : 1, false);
    for (auto [name, v] : {std::pair{"vocab_size", c.vocabSize}, {"hidden_size", c.hiddenSize},
                           {"intermediate_size", c.intermediateSize}, {"num_hidden_layers", c.numLayers},
                           {"num_attention_heads", c.numHeads}, {"max_position_embeddings", c.maxPositions},
                           {"type_vocab_size", c.typeVocabSize}})
        if (v <= 0)
            fail(source, name, "must be > 0");
    if (c.hiddenSize % c.numHeads != 0)
        fail(source, "num_attention_heads",
             "must divide hidden_size (" + std::to_string(c.hiddenSize) + " / " + std::to_string(c.numHeads) + ")");
    if (c.padTokenId < 0 || c.padTokenId >= c.vocabSize)
        fail(source, "pad_token_id", std::to_string(c.padTokenId) + " is not a token of the vocabulary");
    if (c.maxTokens() < 2)
        fail(source, "max_position_embeddings",
             std::to_string(c.maxPositions) + " leaves no room for tokens after the pad_token_id + 1 offset");

    if (auto it = j.find("layer_norm_eps"); it != j.end() && !it->is_null()) {
        if (!it->is_number() || !(it->get<double>() >= 0.0))
            fail(source, "layer_norm_eps", "must be a number ≥ 0");
        c.layerNormEps = it->get<double>();
    }
    const std::string act = j.value("hidden_act", std::string("gelu"));
    if (act == "gelu")
        c.activation = EncoderActivation::GeluErf;
    else if (act == "gelu_new" || act == "gelu_pytorch_tanh" || act == "gelu_fast")
        c.activation = EncoderActivation::GeluTanh;
    else if (act == "relu")
        c.activation = EncoderActivation::Relu;
    else
        fail(source, "hidden_act", "\"" + act + "\" is not supported (gelu, gelu_new, gelu_pytorch_tanh, relu)");
    if (auto it = j.find("position_embedding_type"); it != j.end() && it->is_string() && *it != "absolute")
        fail(source, "position_embedding_type",
             "\"" + it->get<std::string>() + "\" is not supported (only \"absolute\")");
    if (j.value("is_decoder", false))
        fail(source, "is_decoder", "a BERT-family decoder is not a text encoder");
    return c;
}

std::string toJson(const EncoderConfig &c)
{
    nlohmann::ordered_json j;
    j["architectures"] = {c.modelType == "bert" ? "BertModel" : c.modelType == "roberta" ? "RobertaModel" : "XLMRobertaModel"};
    j["model_type"] = c.modelType;
    j["vocab_size"] = c.vocabSize;
    j["hidden_size"] = c.hiddenSize;
    j["intermediate_size"] = c.intermediateSize;
    j["num_hidden_layers"] = c.numLayers;
    j["num_attention_heads"] = c.numHeads;
    j["max_position_embeddings"] = c.maxPositions;
    j["type_vocab_size"] = c.typeVocabSize;
    j["pad_token_id"] = c.padTokenId;
    j["layer_norm_eps"] = c.layerNormEps;
    j["hidden_act"] = c.activation == EncoderActivation::GeluErf    ? "gelu"
                      : c.activation == EncoderActivation::GeluTanh ? "gelu_pytorch_tanh"
                                                                    : "relu";
    j["position_embedding_type"] = "absolute";
    j["torch_dtype"] = "float32";
    return j.dump(2) + "\n";
}

} // namespace rwb::model
