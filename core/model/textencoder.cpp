// TextEncoder: loading a Hugging Face folder as an encoder (BERT family) or as a
// Qwen3-Embedding-style decoder, and pooling its last hidden states.
#include "model/textencoder.h"

#include "data/jsonl.h"
#include "model/causallminternals.h"
#include "model/encoder.h"
#include "model/modelconfig.h"
#include "model/safetensors.h"
#include "model/transformer.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace rwb::model {

namespace fs = std::filesystem;

// The network of a TextEncoder: one of the two is set.
class TextEncoderInternals {
public:
    Encoder encoder{nullptr};
    Transformer decoder{nullptr};
    int64_t padToken = 0; // what padding positions hold (masked, so any valid id)
};

namespace {

// The model_types load() accepts, for messages.
constexpr const char *kRunnable = "bert, roberta, xlm-roberta, qwen3";

// Throws when the file holds layers beyond the config's: "PREFIXlayers.N." names with
// N ≥ numLayers (the weights and the config do not match; running the first layers only
// would give wrong vectors silently).
void checkLayerCount(const SafetensorsModel &weights, const std::string &layersPrefix, int64_t numLayers,
                     const std::string &source, const std::string &configPath)
{
    for (const std::string &name : weights.names()) {
        if (name.compare(0, layersPrefix.size(), layersPrefix) != 0)
            continue;
        int64_t index = -1;
        const char *digits = name.data() + layersPrefix.size();
        const auto parsed = std::from_chars(digits, name.data() + name.size(), index);
        if (parsed.ec != std::errc{} || parsed.ptr == digits || *parsed.ptr != '.')
            continue;
        if (index >= numLayers)
            throw data::InputException({source, 0, "holds " + name + " but " + configPath + " says num_hidden_layers " +
                                                       std::to_string(numLayers) +
                                                       ": the weights and the config do not match"});
    }
}

// The weights file that errors name: the index when there is one.
std::string weightsSource(const fs::path &dir)
{
    std::error_code ec;
    if (fs::exists(dir / "model.safetensors.index.json", ec))
        return (dir / "model.safetensors.index.json").string();
    return (dir / "model.safetensors").string();
}

SafetensorsModel openWeights(const fs::path &dir)
{
    std::error_code ec;
    if (!fs::exists(dir / "model.safetensors", ec) && !fs::exists(dir / "model.safetensors.index.json", ec)) {
        for (const char *other : {"pytorch_model.bin", "model.onnx", "onnx/model.onnx", "tf_model.h5"})
            if (fs::exists(dir / other, ec))
                throw data::InputException(
                    {dir.string(), 0, std::string("has ") + other +
                                          " but no model.safetensors: Reward Workbench reads safetensors weights only "
                                          "(download the model's model.safetensors, or convert the checkpoint)"});
        throw data::InputException({dir.string(), 0, "no model.safetensors (or model.safetensors.index.json) in this folder"});
    }
    return SafetensorsModel::open(dir.string());
}

} // namespace

std::string_view poolingName(Pooling p)
{
    switch (p) {
    case Pooling::Cls: return "cls";
    case Pooling::Mean: return "mean";
    case Pooling::LastToken: return "lasttoken";
    }
    return "cls";
}

std::optional<Pooling> parsePooling(std::string_view name)
{
    if (name == "cls")
        return Pooling::Cls;
    if (name == "mean")
        return Pooling::Mean;
    if (name == "lasttoken")
        return Pooling::LastToken;
    return std::nullopt;
}

TextEncoder::TextEncoder() : m_d(std::make_unique<TextEncoderInternals>()) {}
TextEncoder::~TextEncoder() = default;

std::unique_ptr<TextEncoder> TextEncoder::load(const std::string &folder, int threads)
{
    const fs::path dir(folder);
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw data::InputException({folder, 0, "not a folder"});
    const std::string configPath = (dir / "config.json").string();
    if (!fs::exists(configPath, ec))
        throw data::InputException({configPath, 0, "missing: an hf: folder is a Hugging Face model folder with config.json"});
    const std::string configText = data::readTextFile(configPath);
    const nlohmann::json j = util::parseJsonOrDiscarded(configText);
    if (j.is_discarded() || !j.is_object())
        throw data::InputException({configPath, 0, "not a JSON object"});
    const auto mt = j.find("model_type");
    if (mt == j.end() || !mt->is_string())
        throw data::InputException({configPath, 0, std::string("model_type missing: cannot tell which network this is (") +
                                                       kRunnable + ")"});
    const std::string modelType = mt->get<std::string>();
    if (!isEncoderModelType(modelType) && modelType != "qwen3")
        throw data::InputException({configPath, 0, "model_type \"" + modelType +
                                                       "\" is not an encoder Reward Workbench runs (" + kRunnable + ")"});

    // The whole config is checked before the weights are opened.
    std::optional<EncoderConfig> encoderConfig;
    std::optional<ModelConfig> decoderConfig;
    if (isEncoderModelType(modelType))
        encoderConfig = parseEncoderConfig(configText, configPath);
    else
        decoderConfig = parseModelConfig(configText, configPath);
    const SafetensorsModel weights = openWeights(dir);
    const std::string source = weightsSource(dir);
    if (threads > 0)
        applyThreads(threads);
    std::unique_ptr<TextEncoder> te(new TextEncoder);
    TextEncoderInternals &d = *te->m_d;
    TextEncoderInfo &info = te->m_info;
    info.modelType = modelType;

    if (encoderConfig) {
        const EncoderConfig &config = *encoderConfig;
        // Which prefix the checkpoint puts before BertModel's names.
        static constexpr std::string_view kProbe = "embeddings.word_embeddings.weight";
        std::string prefix;
        bool found = false;
        for (const char *p : {"", "bert.", "roberta.", "model."}) {
            if (weights.find(std::string(p) + std::string(kProbe))) {
                prefix = p;
                found = true;
                break;
            }
        }
        if (!found)
            throw data::InputException({source, 0, "tensor " + std::string(kProbe) +
                                                       " missing (also looked for it under bert., roberta., model.): "
                                                       "these are not the weights of a " + modelType + " encoder"});
        checkLayerCount(weights, prefix + "encoder.layer.", config.numLayers, source, configPath);
        d.encoder = Encoder(config, /*randomInit=*/false);
        for (auto &p : d.encoder->named_parameters()) {
            const std::string name = prefix + p.key();
            const TensorView *view = weights.find(name);
            // Checkpoints converted from TensorFlow may still say gamma / beta.
            if (!view && name.size() > 17 && name.compare(name.size() - 17, 17, ".LayerNorm.weight") == 0)
                view = weights.find(name.substr(0, name.size() - 6) + "gamma");
            if (!view && name.size() > 15 && name.compare(name.size() - 15, 15, ".LayerNorm.bias") == 0)
                view = weights.find(name.substr(0, name.size() - 4) + "beta");
            if (!view)
                weights.require(name); // throws, naming the file that should hold it
            copyStoredTensor(p.value(), *view, source, configPath);
        }
        d.encoder->eval();
        d.padToken = config.padTokenId;
        info.hiddenSize = config.hiddenSize;
        info.numLayers = config.numLayers;
        info.maxTokens = config.maxTokens();
        info.vocabSize = config.vocabSize;
    } else {
        ModelConfig config = *decoderConfig;
        // No logits are computed: the head (lm_head, absent from Qwen3-Embedding) is never needed.
        config.tieWordEmbeddings = true;
        const bool prefixed = weights.find("model.embed_tokens.weight") != nullptr;
        if (!prefixed && !weights.find("embed_tokens.weight"))
            throw data::InputException({source, 0, "tensor model.embed_tokens.weight missing (nor embed_tokens.weight): "
                                                   "these are not the weights of a qwen3 decoder"});
        checkLayerCount(weights, prefixed ? "model.layers." : "layers.", config.numLayers, source, configPath);
        d.decoder = Transformer(config, /*randomInit=*/false);
        for (auto &p : d.decoder->named_parameters()) {
            std::string name = p.key(); // "model.layers.0.…"
            if (!prefixed && name.compare(0, 6, "model.") == 0)
                name = name.substr(6);
            const TensorView *view = weights.find(name);
            if (!view)
                weights.require(name);
            copyStoredTensor(p.value(), *view, source, configPath);
        }
        d.decoder->eval();
        d.padToken = 0;
        info.causal = true;
        info.hiddenSize = config.hiddenSize;
        info.numLayers = config.numLayers;
        info.maxTokens = config.maxPositions > 0 ? config.maxPositions : INT32_MAX;
        info.vocabSize = config.vocabSize;
    }
    int64_t n = 0;
    for (const auto &p : d.encoder ? d.encoder->parameters() : d.decoder->parameters())
        n += p.numel();
    info.parameters = n;
    return te;
}

void TextEncoder::check(const std::vector<int32_t> &s, size_t index) const
{
    if (s.empty())
        throw std::invalid_argument("text encoder: sequence " + std::to_string(index) + " is empty");
    if (static_cast<int64_t>(s.size()) > m_info.maxTokens)
        throw std::invalid_argument("text encoder: sequence " + std::to_string(index) + " has " +
                                    std::to_string(s.size()) + " tokens, the model takes at most " +
                                    std::to_string(m_info.maxTokens));
    for (int32_t id : s)
        if (id < 0 || id >= m_info.vocabSize)
            throw std::invalid_argument("text encoder: sequence " + std::to_string(index) + " holds token id " +
                                        std::to_string(id) + ", outside the model's " +
                                        std::to_string(m_info.vocabSize) + " embeddings");
}

namespace {

// The last hidden states [B, T, H] of a padded batch, and where each row's tokens are.
struct Forward {
    torch::Tensor hidden;  // [B, T, H] fp32
    torch::Tensor mask;    // [B, T] fp32, 1 on real tokens
    torch::Tensor first;   // [B] int64: index of the first real token
    torch::Tensor last;    // [B] int64: index of the last real token
};

Forward runBatch(TextEncoderInternals &d, const std::vector<std::vector<int32_t>> &seqs)
{
    const int64_t b = static_cast<int64_t>(seqs.size());
    int64_t t = 0;
    for (const auto &s : seqs)
        t = std::max<int64_t>(t, static_cast<int64_t>(s.size()));
    const bool left = static_cast<bool>(d.decoder); // decoders are fed left-padded
    std::vector<int64_t> ids(static_cast<size_t>(b * t), d.padToken), mask(static_cast<size_t>(b * t), 0);
    std::vector<int64_t> first(static_cast<size_t>(b)), last(static_cast<size_t>(b));
    for (int64_t r = 0; r < b; ++r) {
        const auto &s = seqs[static_cast<size_t>(r)];
        const int64_t len = static_cast<int64_t>(s.size());
        const int64_t off = left ? t - len : 0;
        for (int64_t i = 0; i < len; ++i) {
            ids[static_cast<size_t>(r * t + off + i)] = s[static_cast<size_t>(i)];
            mask[static_cast<size_t>(r * t + off + i)] = 1;
        }
        first[static_cast<size_t>(r)] = off;
        last[static_cast<size_t>(r)] = off + len - 1;
    }
    const auto longs = torch::TensorOptions().dtype(torch::kLong);
    const torch::Tensor idsT = torch::from_blob(ids.data(), {b, t}, longs).clone();   // [B, T]
    const torch::Tensor maskT = torch::from_blob(mask.data(), {b, t}, longs).clone(); // [B, T]
    Forward f;
    if (d.encoder)
        f.hidden = d.encoder->forward(idsT, maskT);                                      // [B, T, H]
    else
        f.hidden = d.decoder->hidden(idsT, positionsFromMask(maskT), maskT, nullptr);    // [B, T, H]
    f.hidden = f.hidden.to(torch::kFloat32);
    f.mask = maskT.to(torch::kFloat32);
    f.first = torch::from_blob(first.data(), {b}, longs).clone();
    f.last = torch::from_blob(last.data(), {b}, longs).clone();
    return f;
}

std::vector<std::vector<float>> rowsOf(const torch::Tensor &m)
{
    const torch::Tensor c = m.contiguous();
    const int64_t rows = c.size(0), cols = c.size(1);
    const float *p = c.data_ptr<float>();
    std::vector<std::vector<float>> out(static_cast<size_t>(rows));
    for (int64_t r = 0; r < rows; ++r)
        out[static_cast<size_t>(r)].assign(p + r * cols, p + (r + 1) * cols);
    return out;
}

} // namespace

std::vector<std::vector<float>> TextEncoder::encode(const std::vector<std::vector<int32_t>> &sequences,
                                                    Pooling pooling) const
{
    if (sequences.empty())
        return {};
    for (size_t i = 0; i < sequences.size(); ++i)
        check(sequences[i], i);
    std::lock_guard<std::mutex> lock(m_mutex);
    torch::InferenceMode inference;
    const Forward f = runBatch(*m_d, sequences);
    const int64_t b = f.hidden.size(0);
    const torch::Tensor rows = torch::arange(b, torch::TensorOptions().dtype(torch::kLong));
    torch::Tensor pooled; // [B, H]
    switch (pooling) {
    case Pooling::Cls: pooled = f.hidden.index({rows, f.first}); break;
    case Pooling::LastToken: pooled = f.hidden.index({rows, f.last}); break;
    case Pooling::Mean: {
        const torch::Tensor m = f.mask.unsqueeze(-1);                                          // [B, T, 1]
        pooled = (f.hidden * m).sum(/*dim=*/1) / m.sum(/*dim=*/1).clamp_min(1e-9);             // [B, H]
        break;
    }
    }
    TORCH_CHECK(pooled.isfinite().all().item<bool>(), "text encoder: the model produced a non-finite vector");
    return rowsOf(pooled);
}

std::vector<std::vector<float>> TextEncoder::tokenStates(const std::vector<int32_t> &sequence) const
{
    check(sequence, 0);
    std::lock_guard<std::mutex> lock(m_mutex);
    torch::InferenceMode inference;
    const Forward f = runBatch(*m_d, {sequence});
    return rowsOf(f.hidden[0]);
}

} // namespace rwb::model
