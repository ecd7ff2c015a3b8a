#include "model/initencoder.h"
#include "data/jsonl.h"

#include "model/encoderconfig.h"
#include "model/safetensors.h"
#include "text/utf8.h"
#include "util/rng.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

namespace rwb::model {

namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

// Standard deviation of the random weights (transformers' initializer_range).
constexpr double kInitStd = 0.02;
// The specials at ids 0–4, in bert-base-uncased's order of roles.
const char *const kSpecials[] = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"};

void writeText(const fs::path &path, const std::string &text)
{
    fs::create_directories(path.parent_path());
    data::writeFileAtomically(path.string(), text);
}

} // namespace

std::vector<std::string> characterVocabulary(const std::vector<std::string> &texts)
{
    std::vector<std::string> out;
    std::set<char32_t> seen;
    for (const std::string &t : texts)
        for (char32_t c : text::decodeUtf8(t)) {
            if (text::isWhiteSpace(c) || !seen.insert(c).second)
                continue;
            const std::string s = text::encodeUtf8(std::u32string(1, c));
            out.push_back(s);
            out.push_back("##" + s);
        }
    return out;
}

RandomEncoderFolder writeRandomEncoderFolder(const RandomEncoderOptions &o, const std::string &outDir)
{
    if (o.layers < 1 || o.hidden < 1 || o.heads < 1 || o.intermediate < 1 || o.maxPositions < 2)
        throw std::invalid_argument("random encoder: layers, hidden, heads, intermediate must be ≥ 1 and positions ≥ 2");
    if (o.hidden % o.heads != 0)
        throw std::invalid_argument("random encoder: heads (" + std::to_string(o.heads) + ") must divide hidden (" +
                                    std::to_string(o.hidden) + ")");
    if (o.pooling != "mean" && o.pooling != "cls" && o.pooling != "lasttoken")
        throw std::invalid_argument("random encoder: pooling must be mean, cls or lasttoken");

    // The vocabulary: the specials, then the given tokens.
    json vocab = json::object();
    std::vector<std::string> tokens(std::begin(kSpecials), std::end(kSpecials));
    std::set<std::string> seen(tokens.begin(), tokens.end());
    for (const std::string &t : o.vocabulary)
        if (!t.empty() && seen.insert(t).second)
            tokens.push_back(t);
    for (size_t i = 0; i < tokens.size(); ++i)
        vocab[tokens[i]] = i;

    EncoderConfig c;
    c.family = EncoderFamily::Bert;
    c.modelType = "bert";
    c.vocabSize = static_cast<int64_t>(tokens.size());
    c.hiddenSize = o.hidden;
    c.intermediateSize = o.intermediate;
    c.numLayers = o.layers;
    c.numHeads = o.heads;
    c.maxPositions = o.maxPositions;
    c.typeVocabSize = 2;
    c.padTokenId = 0;
    c.layerNormEps = 1e-12;
    c.activation = EncoderActivation::GeluErf;

    // Weights: uniform in [−a, a] has standard deviation a/√3.
    util::Rng rng(o.seed);
    const double a = kInitStd * std::sqrt(3.0);
    std::vector<std::pair<std::string, std::vector<int64_t>>> shapes;
    const int64_t h = o.hidden, f = o.intermediate;
    shapes.push_back({"embeddings.word_embeddings.weight", {c.vocabSize, h}});
    shapes.push_back({"embeddings.position_embeddings.weight", {c.maxPositions, h}});
    shapes.push_back({"embeddings.token_type_embeddings.weight", {2, h}});
    shapes.push_back({"embeddings.LayerNorm.weight", {h}});
    shapes.push_back({"embeddings.LayerNorm.bias", {h}});
    for (int64_t l = 0; l < o.layers; ++l) {
        const std::string p = "encoder.layer." + std::to_string(l) + ".";
        for (const char *m : {"attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"}) {
            shapes.push_back({p + m + ".weight", {h, h}});
            shapes.push_back({p + m + ".bias", {h}});
        }
        shapes.push_back({p + "attention.output.LayerNorm.weight", {h}});
        shapes.push_back({p + "attention.output.LayerNorm.bias", {h}});
        shapes.push_back({p + "intermediate.dense.weight", {f, h}});
        shapes.push_back({p + "intermediate.dense.bias", {f}});
        shapes.push_back({p + "output.dense.weight", {h, f}});
        shapes.push_back({p + "output.dense.bias", {h}});
        shapes.push_back({p + "output.LayerNorm.weight", {h}});
        shapes.push_back({p + "output.LayerNorm.bias", {h}});
    }
    std::vector<std::vector<float>> values;
    std::vector<TensorToWrite> tensors;
    int64_t parameters = 0;
    values.reserve(shapes.size());
    for (const auto &[name, shape] : shapes) {
        int64_t n = 1;
        for (int64_t d : shape)
            n *= d;
        parameters += n;
        std::vector<float> v(static_cast<size_t>(n), 0.0f);
        const bool norm = name.find("LayerNorm") != std::string::npos;
        const bool bias = name.size() >= 4 && name.compare(name.size() - 4, 4, "bias") == 0;
        if (norm && !bias)
            std::fill(v.begin(), v.end(), 1.0f);
        else if (!bias)
            for (float &x : v)
                x = static_cast<float>(a * (2.0 * rng.unit() - 1.0));
        values.push_back(std::move(v));
        tensors.push_back({name, DType::F32, shape, values.back().data(), values.back().size() * sizeof(float)});
    }

    const fs::path dir(outDir);
    fs::create_directories(dir);
    writeSafetensors((dir / "model.safetensors").string(), tensors, {{"format", "pt"}});
    writeText(dir / "config.json", toJson(c));

    json tok;
    tok["version"] = "1.0";
    tok["truncation"] = nullptr;
    tok["padding"] = nullptr;
    json added = json::array();
    for (int i = 0; i < 5; ++i)
        added.push_back({{"id", i}, {"content", kSpecials[i]}, {"single_word", false}, {"lstrip", false},
                         {"rstrip", false}, {"normalized", false}, {"special", true}});
    tok["added_tokens"] = added;
    tok["normalizer"] = {{"type", "BertNormalizer"}, {"clean_text", true}, {"handle_chinese_chars", true},
                         {"strip_accents", nullptr}, {"lowercase", true}};
    tok["pre_tokenizer"] = {{"type", "BertPreTokenizer"}};
    tok["post_processor"] = {{"type", "BertProcessing"}, {"sep", {"[SEP]", 3}}, {"cls", {"[CLS]", 2}}};
    tok["decoder"] = {{"type", "WordPiece"}, {"prefix", "##"}, {"cleanup", true}};
    tok["model"] = {{"type", "WordPiece"}, {"unk_token", "[UNK]"}, {"continuing_subword_prefix", "##"},
                    {"max_input_chars_per_word", 100}, {"vocab", vocab}};
    writeText(dir / "tokenizer.json", tok.dump() + "\n");

    writeText(dir / "modules.json",
              json::array({{{"idx", 0}, {"name", "0"}, {"path", ""}, {"type", "sentence_transformers.models.Transformer"}},
                           {{"idx", 1}, {"name", "1"}, {"path", "1_Pooling"}, {"type", "sentence_transformers.models.Pooling"}},
                           {{"idx", 2}, {"name", "2"}, {"path", "2_Normalize"}, {"type", "sentence_transformers.models.Normalize"}}})
                      .dump(2) +
                  "\n");
    writeText(dir / "1_Pooling" / "config.json",
              json{{"word_embedding_dimension", o.hidden},
                   {"pooling_mode_cls_token", o.pooling == "cls"},
                   {"pooling_mode_mean_tokens", o.pooling == "mean"},
                   {"pooling_mode_max_tokens", false},
                   {"pooling_mode_mean_sqrt_len_tokens", false},
                   {"pooling_mode_lasttoken", o.pooling == "lasttoken"}}
                      .dump(2) +
                  "\n");
    fs::create_directories(dir / "2_Normalize");
    writeText(dir / "sentence_bert_config.json",
              json{{"max_seq_length", std::min<int64_t>(256, o.maxPositions)}, {"do_lower_case", false}}.dump(2) + "\n");
    return {c.vocabSize, parameters};
}

} // namespace rwb::model
