// core/model TextEncoder and core/embed HfEmbedder ("hf:DIR"): Hugging Face encoder
// folders (BERT, XLM-RoBERTa) and Qwen3-Embedding-style decoder folders that this test
// writes itself (config.json, tokenizer.json, model.safetensors in float32, the
// sentence-transformers files), plus the WordPiece and Unigram tokenizer.json readers.
//
// Golden values: worked out by hand in the comments (a, b), or computed by the plain-C++
// double-precision reference encoder below (d), or taken from the decoder's own forward
// pass (g). Tolerance for float32 outputs of size ≤ ~3: kTol = 1e-5 absolute.
#include "data/jsonl.h"
#include "embed/embedderfactory.h"
#include "embed/hfembedder.h"
#include "model/causallm.h"
#include "model/causallminternals.h"
#include "model/initmodel.h"
#include "model/safetensors.h"
#include "model/textencoder.h"
#include "tokenizer/sequencetemplate.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/wordpiecetokenizer.h"
#include "util/rng.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <thread>

using namespace rwb;
using embed::EmbedRole;
using embed::HfEmbedder;
using json = nlohmann::json;
using Ids = std::vector<int32_t>;
namespace fs = std::filesystem;

namespace {

// Absolute tolerance for float32 components compared with golden values.
constexpr double kTol = 1e-5;

void writeText(const fs::path &path, const std::string &text)
{
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
}

void writeJson(const fs::path &path, const json &j)
{
    writeText(path, j.dump(2));
}

QString errorOf(const std::function<void()> &fn)
{
    try {
        fn();
    } catch (const std::exception &e) {
        return QString::fromStdString(e.what());
    }
    return "(no exception)";
}

// "" when |v − expected| ≤ kTol everywhere, else what differs.
QString compareVector(const std::vector<float> &v, const std::vector<double> &expected, double tol = kTol)
{
    if (v.size() != expected.size())
        return QString("size %1, expected %2").arg(v.size()).arg(expected.size());
    for (size_t i = 0; i < v.size(); ++i)
        if (!(std::abs(v[i] - expected[i]) <= tol))
            return QString("[%1] = %2, expected %3").arg(i).arg(v[i], 0, 'g', 9).arg(expected[i], 0, 'g', 9);
    return {};
}

std::vector<double> toDouble(const std::vector<float> &v)
{
    return std::vector<double>(v.begin(), v.end());
}

std::vector<double> unit(std::vector<double> v)
{
    double n = 0.0;
    for (double x : v)
        n += x * x;
    n = std::sqrt(n);
    for (double &x : v)
        x /= n;
    return v;
}

// The weights of a model folder: name → shape and float32 values, written as safetensors.
struct Weights {
    std::map<std::string, std::pair<std::vector<int64_t>, std::vector<float>>> tensors;

    void add(const std::string &name, std::vector<int64_t> shape, std::vector<float> values = {})
    {
        int64_t n = 1;
        for (int64_t d : shape)
            n *= d;
        if (values.empty())
            values.assign(static_cast<size_t>(n), 0.0f);
        QVERIFY2(static_cast<int64_t>(values.size()) == n, name.c_str());
        tensors[name] = {std::move(shape), std::move(values)};
    }
    const std::vector<float> &at(const std::string &name) const { return tensors.at(name).second; }
    void write(const fs::path &path, const std::string &prefix = {}) const
    {
        std::vector<model::TensorToWrite> out;
        for (const auto &[name, t] : tensors)
            out.push_back({prefix + name, model::DType::F32, t.first, t.second.data(), t.second.size() * sizeof(float)});
        model::writeSafetensors(path.string(), out, {{"format", "pt"}});
    }
};

// ---- tokenizer.json files

json addedToken(int id, const std::string &content, bool lstrip = false)
{
    return {{"id", id},          {"content", content}, {"single_word", false}, {"lstrip", lstrip},
            {"rstrip", false},   {"normalized", false}, {"special", true}};
}

// A BERT tokenizer.json (as tokenizers writes bert-base-uncased's) for `vocab` (id = index).
json wordPieceJson(const std::vector<std::string> &vocab, bool lowercase = true, int maxChars = 100)
{
    json added = json::array();
    json v = json::object();
    for (size_t i = 0; i < vocab.size(); ++i) {
        v[vocab[i]] = i;
        if (vocab[i].size() > 2 && vocab[i].front() == '[' && vocab[i].back() == ']')
            added.push_back(addedToken(static_cast<int>(i), vocab[i]));
    }
    auto id = [&](const std::string &t) { return static_cast<int>(std::find(vocab.begin(), vocab.end(), t) - vocab.begin()); };
    json j;
    j["version"] = "1.0";
    j["truncation"] = nullptr;
    j["padding"] = nullptr;
    j["added_tokens"] = added;
    j["normalizer"] = {{"type", "BertNormalizer"}, {"clean_text", true}, {"handle_chinese_chars", true},
                       {"strip_accents", nullptr}, {"lowercase", lowercase}};
    j["pre_tokenizer"] = {{"type", "BertPreTokenizer"}};
    j["post_processor"] = {
        {"type", "TemplateProcessing"},
        {"single", json::array({{{"SpecialToken", {{"id", "[CLS]"}, {"type_id", 0}}}},
                                {{"Sequence", {{"id", "A"}, {"type_id", 0}}}},
                                {{"SpecialToken", {{"id", "[SEP]"}, {"type_id", 0}}}}})},
        {"pair", json::array()},
        {"special_tokens",
         {{"[CLS]", {{"id", "[CLS]"}, {"ids", {id("[CLS]")}}, {"tokens", {"[CLS]"}}}},
          {"[SEP]", {{"id", "[SEP]"}, {"ids", {id("[SEP]")}}, {"tokens", {"[SEP]"}}}}}}};
    j["decoder"] = {{"type", "WordPiece"}, {"prefix", "##"}, {"cleanup", true}};
    j["model"] = {{"type", "WordPiece"}, {"unk_token", "[UNK]"}, {"continuing_subword_prefix", "##"},
                  {"max_input_chars_per_word", maxChars}, {"vocab", v}};
    return j;
}

// An XLM-RoBERTa tokenizer.json (as tokenizers writes xlm-roberta-base's, with a tiny
// vocabulary): Unigram pieces with scores, Precompiled + Replace normalizer, Metaspace.
json unigramJson()
{
    json j;
    j["version"] = "1.0";
    j["added_tokens"] = {addedToken(0, "<s>"), addedToken(1, "<pad>"), addedToken(2, "</s>"), addedToken(3, "<unk>"),
                         addedToken(11, "<mask>", /*lstrip=*/true)};
    // xlm-roberta-base's has a Precompiled map first (nmt_nfkc, 240 KB): null here, as the
    // converter writes it for a sentencepiece model without one.
    j["normalizer"] = {{"type", "Sequence"},
                       {"normalizers", json::array({{{"type", "Precompiled"}, {"precompiled_charsmap", nullptr}},
                                                    {{"type", "Replace"}, {"pattern", {{"Regex", " {2,}"}}}, {"content", " "}}})}};
    j["pre_tokenizer"] = {{"type", "Metaspace"}, {"replacement", "▁"}, {"prepend_scheme", "always"}, {"split", true}};
    j["post_processor"] = {{"type", "RobertaProcessing"}, {"sep", {"</s>", 2}}, {"cls", {"<s>", 0}},
                           {"trim_offsets", true}, {"add_prefix_space", true}};
    j["model"] = {{"type", "Unigram"},
                  {"unk_id", 3},
                  {"byte_fallback", false},
                  {"vocab", json::array({{"<s>", 0.0}, {"<pad>", 0.0}, {"</s>", 0.0}, {"<unk>", 0.0},
                                         {"▁hello", -1.0}, {"▁", -2.0}, {"h", -3.0}, {"e", -3.0}, {"l", -3.0},
                                         {"o", -3.0}, {"▁world", -1.5}, {"<mask>", 0.0}})}};
    return j;
}

json poolingConfig(const std::string &mode, int dim = 4)
{
    return {{"word_embedding_dimension", dim},
            {"pooling_mode_cls_token", mode == "cls"},
            {"pooling_mode_mean_tokens", mode == "mean"},
            {"pooling_mode_max_tokens", mode == "max"},
            {"pooling_mode_mean_sqrt_len_tokens", false},
            {"pooling_mode_weightedmean_tokens", false},
            {"pooling_mode_lasttoken", mode == "lasttoken"},
            {"include_prompt", true}};
}

json stModules(const std::string &poolingPath = "1_Pooling", const std::string &extraType = {},
               const std::string &transformerPath = "")
{
    json m = json::array({{{"idx", 0}, {"name", "0"}, {"path", transformerPath}, {"type", "sentence_transformers.models.Transformer"}},
                          {{"idx", 1}, {"name", "1"}, {"path", poolingPath}, {"type", "sentence_transformers.models.Pooling"}}});
    if (!extraType.empty())
        m.push_back({{"idx", 2}, {"name", "2"}, {"path", "2_Extra"}, {"type", extraType}});
    m.push_back({{"idx", 3}, {"name", "3"}, {"path", "3_Normalize"}, {"type", "sentence_transformers.models.Normalize"}});
    return m;
}

// ---- (a) the hand-worked BERT
//
// config: bert, vocab 8, hidden 4, 1 layer, 2 heads of 2, intermediate 2, 6 positions,
// layer_norm_eps 1 (so that an ignored eps is visible), gelu (erf).
// Tokens: [PAD] 0, [UNK] 1, [CLS] 2, [SEP] 3, hello 4, world 5, ##s 6, ! 7.
// "hello" → [CLS] hello [SEP] = [2, 4, 3] at positions 0, 1, 2, token type 0.
//
// Embeddings: word [CLS] = (3,−1,−1,−1), hello = (−1,3,−1,−1), [SEP] = (−1,−1,3,−1),
// world = (−1,−1,−1,3), others 0. Position rows 0–2 are 0, rows 3–5 (0,8,0,0): RoBERTa's
// offset would reach row 3. Token type row 0 is 0, row 1 (0,0,8,0). LayerNorm 1 / 0.
// Each word row has mean 0 and variance 3, so LN(x) = x / √(3 + 1) = x / 2:
//   h[CLS] = (1.5,−.5,−.5,−.5), h[hello] = (−.5,1.5,−.5,−.5), h[SEP] = (−.5,−.5,1.5,−.5).
// Attention: W_q = 0, b_q = (2,0,0,0): every query is q = (2,0 | 0,0).
//   W_k = e₀e₀ᵀ, b_k = (.5,0,0,0): k₀ = h₀ + .5 → 2 for [CLS], 0 for the others.
//   W_v = I, b_v = 0.  W_o (attention.output.dense) = I, b = 0.
//   head 0 scores q·k/√2: [CLS] 4/√2 = 2√2, others 0 → p = e^{2√2}/(e^{2√2}+2)
//     = 16.918828679/18.918828679 = 0.894285210, r = 1/(e^{2√2}+2) = 0.052857395 each;
//     out = p·h[CLS][0:2] + r·(h[hello] + h[SEP])[0:2] = (2p − .5, .5 − p)
//         = (1.288570420, −0.394285210).
//   head 1: q = 0 → uniform 1/3 over the three keys: mean of h[2:4] = (1/6, −1/2).
//   o = (1.288570420, −0.394285210, 0.166666667, −0.5) for every query.
// y = LN(h + o), eps 1:
//   [CLS]   x = (2.788570420, −0.894285210, −0.333333333, −1), mean 0.140237969, var 2.402078846
//           y = (1.435821046, −0.560877526, −0.256751618, −0.618191901)
//   hello   x = (0.788570420, 1.105714790, −1/3, −1), var 0.719223216
//           y = (0.494460526, 0.736335465, −0.361176299, −0.869619691)
//   [SEP]   x = (0.788570420, −0.894285210, 5/3, −1), var 1.280175093
//           y = (0.429352169, −0.685103407, 1.010863286, −0.755112049)
// Feed-forward: W_i = (e₀ᵀ; 0), b_i = (0, 1) → i = (gelu(y₀), gelu(1) = 0.841344746);
//   W_o2 = [[1,0],[−1,0],[0,1],[0,−1]], b = 0 → m = (i₀, −i₀, i₁, −i₁) (mean 0).
//   [CLS] gelu(1.435821046) = 1.327378314 (tanh-gelu would be 1.327148992)
//   hello gelu(0.494460526) = 0.340935235;  [SEP] gelu(0.429352169) = 0.286020041
// z = LN(y + m) with weight (1,2,1,1), bias (0,0,0,.5), eps 1 (y + m has mean 0):
//   [CLS] y+m = (2.763199360, −1.888255840, 0.584593128, −1.459536648), var 3.418194293
//         z = (1.314588457, −1.796670459, 0.278119411, −0.194372638)
//   hello y+m = (0.835395761, 0.395400229, 0.480168447, −1.710964437), var 1.003047115
//         z = (0.590264528, 0.558754881, 0.339272013, −0.708913981)
//   [SEP] y+m = (0.715372210, −0.971123448, 1.852208032, −1.596456795), var 1.858546761
//         z = (0.423115967, −1.148766561, 1.095511934, −0.444244620)
// Pooled and L2-normalized:
//   CLS       z[CLS]/|z[CLS]|             = (0.5837545, −0.7978272, 0.1235014, −0.0863129)
//   mean      (z₀+z₁+z₂)/3 = (0.775989651, −0.795560713, 0.570967786, −0.449177080)
//             → (0.5844527, −0.5991930, 0.4300362, −0.3383070)
//   lasttoken z[SEP]/|z[SEP]|             = (0.2486256, −0.6750224, 0.6437296, −0.2610409)
const std::vector<double> kHandCls{0.5837545, -0.7978272, 0.1235014, -0.0863129};
const std::vector<double> kHandMean{0.5844527, -0.5991930, 0.4300362, -0.3383070};
const std::vector<double> kHandLast{0.2486256, -0.6750224, 0.6437296, -0.2610409};

const std::vector<std::string> kHandVocab{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "hello", "world", "##s", "!"};

json handBertConfig()
{
    return {{"architectures", {"BertModel"}}, {"model_type", "bert"},       {"vocab_size", 8},
            {"hidden_size", 4},               {"num_hidden_layers", 1},     {"num_attention_heads", 2},
            {"intermediate_size", 2},         {"max_position_embeddings", 6}, {"type_vocab_size", 2},
            {"layer_norm_eps", 1.0},          {"hidden_act", "gelu"},       {"pad_token_id", 0},
            {"position_embedding_type", "absolute"}};
}

Weights handBertWeights()
{
    Weights w;
    std::vector<float> word(8 * 4, 0.0f);
    auto row = [&](std::vector<float> &t, int r, std::vector<float> v) { std::copy(v.begin(), v.end(), t.begin() + r * 4); };
    row(word, 2, {3, -1, -1, -1});
    row(word, 4, {-1, 3, -1, -1});
    row(word, 3, {-1, -1, 3, -1});
    row(word, 5, {-1, -1, -1, 3});
    w.add("embeddings.word_embeddings.weight", {8, 4}, word);
    std::vector<float> pos(6 * 4, 0.0f);
    for (int r = 3; r < 6; ++r)
        row(pos, r, {0, 8, 0, 0});
    w.add("embeddings.position_embeddings.weight", {6, 4}, pos);
    w.add("embeddings.token_type_embeddings.weight", {2, 4}, {0, 0, 0, 0, 0, 0, 8, 0});
    w.add("embeddings.LayerNorm.weight", {4}, {1, 1, 1, 1});
    w.add("embeddings.LayerNorm.bias", {4});
    const std::string l = "encoder.layer.0.";
    const std::vector<float> identity{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    w.add(l + "attention.self.query.weight", {4, 4});
    w.add(l + "attention.self.query.bias", {4}, {2, 0, 0, 0});
    w.add(l + "attention.self.key.weight", {4, 4}, {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    w.add(l + "attention.self.key.bias", {4}, {0.5f, 0, 0, 0});
    w.add(l + "attention.self.value.weight", {4, 4}, identity);
    w.add(l + "attention.self.value.bias", {4});
    w.add(l + "attention.output.dense.weight", {4, 4}, identity);
    w.add(l + "attention.output.dense.bias", {4});
    w.add(l + "attention.output.LayerNorm.weight", {4}, {1, 1, 1, 1});
    w.add(l + "attention.output.LayerNorm.bias", {4});
    w.add(l + "intermediate.dense.weight", {2, 4}, {1, 0, 0, 0, 0, 0, 0, 0});
    w.add(l + "intermediate.dense.bias", {2}, {0, 1});
    w.add(l + "output.dense.weight", {4, 2}, {1, 0, -1, 0, 0, 1, 0, -1});
    w.add(l + "output.dense.bias", {4});
    w.add(l + "output.LayerNorm.weight", {4}, {1, 2, 1, 1});
    w.add(l + "output.LayerNorm.bias", {4}, {0, 0, 0, 0.5f});
    // BertModel's pooler head: in the file, not used for sentence embeddings.
    w.add("pooler.dense.weight", {4, 4}, std::vector<float>(16, 5.0f));
    w.add("pooler.dense.bias", {4}, {1, 1, 1, 1});
    return w;
}

// Writes the hand BERT folder (no sentence-transformers files) and returns its path.
std::string writeHandBert(const fs::path &dir, const std::string &prefix = {})
{
    fs::create_directories(dir);
    writeJson(dir / "config.json", handBertConfig());
    writeJson(dir / "tokenizer.json", wordPieceJson(kHandVocab));
    handBertWeights().write(dir / "model.safetensors", prefix);
    return dir.string();
}

// ---- (b) the hand-worked XLM-RoBERTa
//
// config: xlm-roberta, vocab 12, hidden 4, 1 layer, 2 heads, intermediate 2, 6 positions,
// type_vocab_size 1, pad_token_id 1, layer_norm_eps absent (default 1e-12). Weights carry
// the "roberta." prefix (XLMRobertaForMaskedLM) and an lm_head that is ignored.
// Tokens (Unigram): <s> 0, <pad> 1, </s> 2, <unk> 3, ▁hello 4, ▁ 5, h 6, e 7, l 8, o 9,
// ▁world 10, <mask> 11. "hello" → <s> ▁hello </s> = [0, 4, 2].
// Every word embedding and every attention / feed-forward weight and bias is 0, so
// attention and feed-forward add 0 and the output is LN(LN(LN(position row))) — with
// eps 1e-12, the standardized row (x − mean)/std. Position rows:
//   0: (0,0,9,0)  1: (9,0,0,0)  2: (1,2,3,4)  3: (4,1,2,3)  4: (2,4,1,3)  5: (0,0,0,9)
// RoBERTa positions = cumsum(mask)·mask + pad: [0, 4, 2] → 2, 3, 4 (BERT's would be 0, 1,
// 2; an offset of pad instead of pad + 1 would be 1, 2, 3: both give other vectors).
//   CLS   = row 2 centred (−1.5,−.5,.5,1.5), unit: /√5 → (−0.6708204, −0.2236068, 0.2236068, 0.6708204)
//   last  = row 4 centred (−.5,1.5,−1.5,.5),  unit: /√5 → (−0.2236068, 0.6708204, −0.6708204, 0.2236068)
//   mean  = each standardized row is its centred row / √1.25 (all three have variance
//           1.25), so the mean points along the sum of the centred rows 2, 3, 4:
//           (−1.5+1.5−.5, −.5−1.5+1.5, .5−.5−1.5, 1.5+.5+.5) = (−.5, −.5, −1.5, 2.5), norm 3
//           → unit (−1/6, −1/6, −1/2, 5/6)
const std::vector<double> kXlmrCls{-0.6708204, -0.2236068, 0.2236068, 0.6708204};
const std::vector<double> kXlmrLast{-0.2236068, 0.6708204, -0.6708204, 0.2236068};
const std::vector<double> kXlmrMean{-1.0 / 6, -1.0 / 6, -0.5, 5.0 / 6};

std::string writeHandXlmr(const fs::path &dir)
{
    fs::create_directories(dir);
    writeJson(dir / "config.json", {{"architectures", {"XLMRobertaModel"}}, {"model_type", "xlm-roberta"},
                                    {"vocab_size", 12}, {"hidden_size", 4}, {"num_hidden_layers", 1},
                                    {"num_attention_heads", 2}, {"intermediate_size", 2},
                                    {"max_position_embeddings", 6}, {"type_vocab_size", 1}, {"pad_token_id", 1},
                                    {"bos_token_id", 0}, {"eos_token_id", 2}, {"hidden_act", "gelu"}});
    writeJson(dir / "tokenizer.json", unigramJson());
    Weights w;
    w.add("embeddings.word_embeddings.weight", {12, 4});
    w.add("embeddings.position_embeddings.weight", {6, 4},
          {0, 0, 9, 0, 9, 0, 0, 0, 1, 2, 3, 4, 4, 1, 2, 3, 2, 4, 1, 3, 0, 0, 0, 9});
    w.add("embeddings.token_type_embeddings.weight", {1, 4});
    w.add("embeddings.LayerNorm.weight", {4}, {1, 1, 1, 1});
    w.add("embeddings.LayerNorm.bias", {4});
    const std::string l = "encoder.layer.0.";
    for (const char *m : {"attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"}) {
        w.add(l + m + ".weight", {4, 4});
        w.add(l + m + ".bias", {4});
    }
    w.add(l + "intermediate.dense.weight", {2, 4});
    w.add(l + "intermediate.dense.bias", {2});
    w.add(l + "output.dense.weight", {4, 2});
    w.add(l + "output.dense.bias", {4});
    for (const char *m : {"attention.output.LayerNorm", "output.LayerNorm"}) {
        w.add(l + m + ".weight", {4}, {1, 1, 1, 1});
        w.add(l + m + ".bias", {4});
    }
    Weights all;
    for (const auto &[name, t] : w.tensors)
        all.add("roberta." + name, t.first, t.second);
    all.add("lm_head.dense.weight", {4, 4}, std::vector<float>(16, 3.0f));
    all.add("lm_head.bias", {12});
    all.write(dir / "model.safetensors");
    return dir.string();
}

// ---- (d) random encoders and the plain-C++ reference

struct RandomEncoder {
    bool roberta = false;
    int vocab = 16, hidden = 8, layers = 2, heads = 2, inter = 12, positions = 12, pad = 0;
    double eps = 1e-12;
    Weights w;
};

RandomEncoder makeRandomEncoder(bool roberta, uint64_t seed)
{
    RandomEncoder e;
    e.roberta = roberta;
    e.pad = roberta ? 1 : 0;
    e.eps = roberta ? 1e-5 : 1e-12;
    util::Rng rng(seed);
    auto draw = [&](std::vector<int64_t> shape, double scale, double center = 0.0) {
        int64_t n = 1;
        for (int64_t d : shape)
            n *= d;
        std::vector<float> v(static_cast<size_t>(n));
        for (float &x : v)
            x = static_cast<float>(center + scale * (2.0 * rng.unit() - 1.0));
        return v;
    };
    const int64_t h = e.hidden, i = e.inter;
    e.w.add("embeddings.word_embeddings.weight", {e.vocab, h}, draw({e.vocab, h}, 1.0));
    e.w.add("embeddings.position_embeddings.weight", {e.positions, h}, draw({e.positions, h}, 0.5));
    e.w.add("embeddings.token_type_embeddings.weight", {roberta ? 1 : 2, h}, draw({roberta ? 1 : 2, h}, 0.3));
    e.w.add("embeddings.LayerNorm.weight", {h}, draw({h}, 0.2, 1.0));
    e.w.add("embeddings.LayerNorm.bias", {h}, draw({h}, 0.2));
    for (int l = 0; l < e.layers; ++l) {
        const std::string p = "encoder.layer." + std::to_string(l) + ".";
        for (const char *m : {"attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"}) {
            e.w.add(p + m + ".weight", {h, h}, draw({h, h}, 0.6));
            e.w.add(p + m + ".bias", {h}, draw({h}, 0.2));
        }
        e.w.add(p + "intermediate.dense.weight", {i, h}, draw({i, h}, 0.6));
        e.w.add(p + "intermediate.dense.bias", {i}, draw({i}, 0.2));
        e.w.add(p + "output.dense.weight", {h, i}, draw({h, i}, 0.6));
        e.w.add(p + "output.dense.bias", {h}, draw({h}, 0.2));
        for (const char *m : {"attention.output.LayerNorm", "output.LayerNorm"}) {
            e.w.add(p + m + ".weight", {h}, draw({h}, 0.2, 1.0));
            e.w.add(p + m + ".bias", {h}, draw({h}, 0.2));
        }
    }
    return e;
}

json randomEncoderConfig(const RandomEncoder &e)
{
    return {{"model_type", e.roberta ? "xlm-roberta" : "bert"},
            {"vocab_size", e.vocab},
            {"hidden_size", e.hidden},
            {"num_hidden_layers", e.layers},
            {"num_attention_heads", e.heads},
            {"intermediate_size", e.inter},
            {"max_position_embeddings", e.positions},
            {"type_vocab_size", e.roberta ? 1 : 2},
            {"pad_token_id", e.pad},
            {"layer_norm_eps", e.eps},
            {"hidden_act", "gelu"}};
}

// The BERT vocabulary of the random folders: 5 specials and the words a … k (16 ids).
const std::vector<std::string> kLetterVocab{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "a", "b", "c",
                                            "d",     "e",     "f",     "g",     "h",      "i", "j", "k"};

std::string writeRandomEncoder(const fs::path &dir, const RandomEncoder &e)
{
    fs::create_directories(dir);
    writeJson(dir / "config.json", randomEncoderConfig(e));
    writeJson(dir / "tokenizer.json", e.roberta ? unigramJson() : wordPieceJson(kLetterVocab));
    Weights w = e.w;
    // What real checkpoints also hold, and the loader must leave alone.
    w.add("pooler.dense.weight", {e.hidden, e.hidden});
    w.add("pooler.dense.bias", {e.hidden});
    w.write(dir / "model.safetensors", e.roberta ? "roberta." : "");
    return dir.string();
}

// The encoder in double precision, one sequence at a time (no padding, no batching):
// plain loops over the weights as written, independent of libtorch.
using Matrix = std::vector<std::vector<double>>; // [T][n]

struct Reference {
    const RandomEncoder &e;

    const std::vector<float> &t(const std::string &name) const { return e.w.at(name); }

    Matrix linear(const Matrix &x, const std::string &name, int out) const
    {
        const std::vector<float> &w = t(name + ".weight");
        const std::vector<float> &b = t(name + ".bias");
        const size_t in = x.empty() ? 0 : x[0].size();
        Matrix y(x.size(), std::vector<double>(static_cast<size_t>(out)));
        for (size_t r = 0; r < x.size(); ++r)
            for (int o = 0; o < out; ++o) {
                double s = b[static_cast<size_t>(o)];
                for (size_t i = 0; i < in; ++i)
                    s += static_cast<double>(w[static_cast<size_t>(o) * in + i]) * x[r][i];
                y[r][static_cast<size_t>(o)] = s;
            }
        return y;
    }

    Matrix layerNorm(const Matrix &x, const std::string &name) const
    {
        const std::vector<float> &g = t(name + ".weight");
        const std::vector<float> &b = t(name + ".bias");
        Matrix y = x;
        for (auto &row : y) {
            double mean = 0.0, var = 0.0;
            for (double v : row)
                mean += v;
            mean /= static_cast<double>(row.size());
            for (double v : row)
                var += (v - mean) * (v - mean);
            var /= static_cast<double>(row.size());
            for (size_t i = 0; i < row.size(); ++i)
                row[i] = (row[i] - mean) / std::sqrt(var + e.eps) * g[i] + b[i];
        }
        return y;
    }

    Matrix forward(const Ids &ids) const
    {
        const int h = e.hidden, d = e.hidden / e.heads;
        const size_t n = ids.size();
        Matrix x(n, std::vector<double>(static_cast<size_t>(h)));
        const auto &word = t("embeddings.word_embeddings.weight");
        const auto &pos = t("embeddings.position_embeddings.weight");
        const auto &type = t("embeddings.token_type_embeddings.weight");
        for (size_t i = 0; i < n; ++i) {
            const size_t p = e.roberta ? static_cast<size_t>(e.pad) + 1 + i : i; // no padding here
            for (int k = 0; k < h; ++k)
                x[i][k] = static_cast<double>(word[static_cast<size_t>(ids[i]) * h + k]) + pos[p * h + k] + type[k];
        }
        x = layerNorm(x, "embeddings.LayerNorm");
        for (int l = 0; l < e.layers; ++l) {
            const std::string p = "encoder.layer." + std::to_string(l) + ".";
            const Matrix q = linear(x, p + "attention.self.query", h);
            const Matrix k = linear(x, p + "attention.self.key", h);
            const Matrix v = linear(x, p + "attention.self.value", h);
            Matrix ctx(n, std::vector<double>(static_cast<size_t>(h), 0.0));
            for (int head = 0; head < e.heads; ++head)
                for (size_t a = 0; a < n; ++a) {
                    std::vector<double> s(n);
                    double top = -1e300;
                    for (size_t b = 0; b < n; ++b) {
                        double dot = 0.0;
                        for (int c = 0; c < d; ++c)
                            dot += q[a][head * d + c] * k[b][head * d + c];
                        s[b] = dot / std::sqrt(static_cast<double>(d));
                        top = std::max(top, s[b]);
                    }
                    double z = 0.0;
                    for (double &v2 : s)
                        z += (v2 = std::exp(v2 - top));
                    for (size_t b = 0; b < n; ++b)
                        for (int c = 0; c < d; ++c)
                            ctx[a][head * d + c] += s[b] / z * v[b][head * d + c];
                }
            Matrix a = linear(ctx, p + "attention.output.dense", h);
            for (size_t i = 0; i < n; ++i)
                for (int c = 0; c < h; ++c)
                    a[i][c] += x[i][c];
            a = layerNorm(a, p + "attention.output.LayerNorm");
            Matrix mid = linear(a, p + "intermediate.dense", e.inter);
            for (auto &row : mid)
                for (double &m : row)
                    m = 0.5 * m * (1.0 + std::erf(m / std::sqrt(2.0)));
            Matrix out = linear(mid, p + "output.dense", h);
            for (size_t i = 0; i < n; ++i)
                for (int c = 0; c < h; ++c)
                    out[i][c] += a[i][c];
            x = layerNorm(out, p + "output.LayerNorm");
        }
        return x;
    }

    std::vector<double> pooled(const Ids &ids, model::Pooling pooling) const
    {
        const Matrix x = forward(ids);
        if (pooling == model::Pooling::Cls)
            return x.front();
        if (pooling == model::Pooling::LastToken)
            return x.back();
        std::vector<double> m(x[0].size(), 0.0);
        for (const auto &row : x)
            for (size_t i = 0; i < row.size(); ++i)
                m[i] += row[i] / static_cast<double>(x.size());
        return m;
    }
};

// ---- (g) a Qwen3 decoder folder

// `rwb model init`'s tiny Qwen3 (1 layer) on the test BPE tokenizer, in `dir`.
std::string writeTinyQwen3(const fs::path &dir)
{
    model::InitModelOptions o;
    o.tokenizerDir = RWB_TEST_DATA "/tokenizer/bpe_pairs";
    o.out = dir.string();
    o.layers = 1;
    o.seed = 11;
    model::initModelFolder(o);
    return dir.string();
}

// The folder's weights again, under their names without "model." (Qwen3-Embedding's
// layout: Qwen3Model without the causal-LM wrapper, and no lm_head).
void stripModelPrefix(const fs::path &from, const fs::path &to)
{
    fs::create_directories(to);
    for (const auto &entry : fs::directory_iterator(from))
        if (entry.is_regular_file() && entry.path().filename() != "model.safetensors")
            fs::copy_file(entry.path(), to / entry.path().filename(), fs::copy_options::overwrite_existing);
    const model::SafetensorsFile file = model::SafetensorsFile::open((from / "model.safetensors").string());
    std::vector<model::TensorToWrite> out;
    for (const model::TensorView &v : file.tensors()) {
        if (v.name.rfind("lm_head.", 0) == 0)
            continue;
        out.push_back({v.name.rfind("model.", 0) == 0 ? v.name.substr(6) : v.name, v.dtype, v.shape, v.data, v.bytes});
    }
    model::writeSafetensors((to / "model.safetensors").string(), out);
}

} // namespace

class TestHfEncoder : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void handBert();
    void handXlmRoberta();
    void pooling_data();
    void pooling();
    void randomEncoderMatchesReference_data();
    void randomEncoderMatchesReference();
    void paddingInvariance();
    void wordPiece_data();
    void wordPiece();
    void wordPieceNormalizer();
    void unigramJson();
    void prompts();
    void qwen3LastToken();
    void badFolders_data();
    void badFolders();
    void factory();
};

// (a) The hand-worked BERT: [CLS] pooling (no pooling config: the documented default).
void TestHfEncoder::handBert()
{
    QTemporaryDir tmp;
    const std::string dir = writeHandBert(fs::path(tmp.path().toStdString()) / "hand-bert");
    const HfEmbedder e(dir);
    QCOMPARE(QString::fromStdString(e.name()), QString("hf:hand-bert"));
    QCOMPARE(e.dimension(), 4);
    QCOMPARE(QString::fromStdString(e.modelType()), QString("bert"));
    QCOMPARE(QString::fromStdString(e.pooling()), QString("cls"));
    QVERIFY(QString::fromStdString(e.poolingSource()).startsWith("default"));
    QCOMPARE(e.maxLength(), 6); // BERT: every position
    QCOMPARE(e.tokenIds("hello", EmbedRole::Document), (Ids{2, 4, 3}));
    // The same, asked through the Embedder interface (what the server and the bench see).
    const embed::Embedder &any = e;
    QCOMPARE(any.tokenCount("hello", EmbedRole::Document), int64_t(3));
    QVERIFY(any.model().has_value());
    QCOMPARE(QString::fromStdString(any.model()->type), QString("bert"));
    QCOMPARE(QString::fromStdString(any.model()->pooling), QString("cls"));
    QCOMPARE(any.model()->maxLength, 6);
    QVERIFY(!any.pairwise());
    QVERIFY(any.state().empty());
    QVERIFY(std::abs(any.similarity("hello", "hello") - 1.0) < 1e-6); // the embeddings' cosine

    const auto v = e.embed({"hello"}, EmbedRole::Document);
    QCOMPARE(v.size(), size_t(1));
    const QString diff = compareVector(v[0], kHandCls);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));

    // The same text among others, a blank one (the zero vector) and a longer one.
    const auto batch = e.embed({"  ", "hello world", "hello"}, EmbedRole::Query);
    QCOMPARE(batch[0], std::vector<float>(4, 0.0f));
    QVERIFY2(compareVector(batch[2], kHandCls).isEmpty(), qPrintable(compareVector(batch[2], kHandCls)));

    // Weights under "bert." (BertForMaskedLM) give the same vector.
    const std::string prefixed = writeHandBert(fs::path(tmp.path().toStdString()) / "prefixed", "bert.");
    QVERIFY(compareVector(HfEmbedder(prefixed).embed({"hello"}, EmbedRole::Document)[0], kHandCls).isEmpty());

    // The test can fail: gelu's tanh approximation moves the vector by more than kTol.
    json config = handBertConfig();
    config["hidden_act"] = "gelu_pytorch_tanh";
    writeJson(fs::path(dir) / "config.json", config);
    QVERIFY(!compareVector(HfEmbedder(dir).embed({"hello"}, EmbedRole::Document)[0], kHandCls).isEmpty());
    // … and so does the default eps 1e-12 in place of config.json's 1.
    config = handBertConfig();
    config.erase("layer_norm_eps");
    writeJson(fs::path(dir) / "config.json", config);
    QVERIFY(!compareVector(HfEmbedder(dir).embed({"hello"}, EmbedRole::Document)[0], kHandCls).isEmpty());
}

// (b) The hand-worked XLM-RoBERTa: positions start at pad + 1.
void TestHfEncoder::handXlmRoberta()
{
    QTemporaryDir tmp;
    const std::string dir = writeHandXlmr(fs::path(tmp.path().toStdString()) / "hand-xlmr");
    const HfEmbedder cls(dir);
    QCOMPARE(QString::fromStdString(cls.modelType()), QString("xlm-roberta"));
    QCOMPARE(cls.maxLength(), 4); // 6 positions − (pad 1 + 1)
    QCOMPARE(cls.tokenIds("hello", EmbedRole::Document), (Ids{0, 4, 2}));
    QCOMPARE(cls.tokenIds("hello world hello", EmbedRole::Document), (Ids{0, 4, 10, 2})); // cut to 4
    QString diff = compareVector(cls.embed({"hello"}, EmbedRole::Document)[0], kXlmrCls);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));

    HfEmbedder::Options o;
    o.pooling = "lasttoken";
    diff = compareVector(HfEmbedder(dir, o).embed({"hello"}, EmbedRole::Document)[0], kXlmrLast);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    o.pooling = "mean";
    // In a batch with a longer text (right padding; padding positions get pad = 1).
    const auto v = HfEmbedder(dir, o).embed({"hello world", "hello"}, EmbedRole::Document);
    diff = compareVector(v[1], kXlmrMean);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));

    // What a wrong offset would have given is far from it (rows 0 and 1 are (0,0,9,0), (9,0,0,0)).
    QVERIFY(!compareVector(cls.embed({"hello"}, EmbedRole::Document)[0],
                           unit({-2.25, -2.25, 6.75, -2.25}), 0.1).isEmpty());
}

// (c) Which pooling the folder asks for.
void TestHfEncoder::pooling_data()
{
    QTest::addColumn<QString>("layout");
    QTest::addColumn<QString>("pooling");
    QTest::newRow("no config") << "none" << "cls";
    QTest::newRow("1_Pooling cls") << "cls" << "cls";
    QTest::newRow("1_Pooling mean") << "mean" << "mean";
    QTest::newRow("1_Pooling lasttoken") << "lasttoken" << "lasttoken";
    QTest::newRow("modules.json names the folder") << "modules" << "mean";
    QTest::newRow("option beats the file") << "option" << "lasttoken";
    QTest::newRow("0_Transformer subfolder") << "subfolder" << "mean";
}

void TestHfEncoder::pooling()
{
    QFETCH(QString, layout);
    QFETCH(QString, pooling);
    QTemporaryDir tmp;
    const fs::path dir = writeHandBert(fs::path(tmp.path().toStdString()) / "m");
    HfEmbedder::Options o;
    std::string source = "default";
    if (layout == "cls" || layout == "mean" || layout == "lasttoken") {
        writeJson(dir / "1_Pooling" / "config.json", poolingConfig(layout.toStdString()));
        source = (dir / "1_Pooling" / "config.json").string();
    } else if (layout == "modules") {
        // 1_Pooling says cls, but modules.json points at pool/, which says mean.
        writeJson(dir / "1_Pooling" / "config.json", poolingConfig("cls"));
        writeJson(dir / "pool" / "config.json", poolingConfig("mean"));
        writeJson(dir / "modules.json", stModules("pool"));
        source = (dir / "pool" / "config.json").string();
    } else if (layout == "subfolder") {
        // Older sentence-transformers folders: the network in 0_Transformer/.
        fs::create_directories(dir / "0_Transformer");
        for (const char *f : {"config.json", "tokenizer.json", "model.safetensors"})
            fs::rename(dir / f, dir / "0_Transformer" / f);
        writeJson(dir / "modules.json", stModules("1_Pooling", {}, "0_Transformer"));
        writeJson(dir / "1_Pooling" / "config.json", poolingConfig("mean"));
        source = (dir / "1_Pooling" / "config.json").string();
    } else if (layout == "option") {
        writeJson(dir / "1_Pooling" / "config.json", poolingConfig("cls"));
        o.pooling = "lasttoken";
        source = "option";
    }
    const HfEmbedder e(dir.string(), o);
    QCOMPARE(QString::fromStdString(e.pooling()), pooling);
    QVERIFY2(QString::fromStdString(e.poolingSource()).startsWith(QString::fromStdString(source)),
             qPrintable(QString::fromStdString(e.poolingSource())));
    const std::vector<double> &expected = pooling == "cls" ? kHandCls : pooling == "mean" ? kHandMean : kHandLast;
    const QString diff = compareVector(e.embed({"hello"}, EmbedRole::Document)[0], expected);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

// (d) Random 2-layer encoders against the double-precision reference.
void TestHfEncoder::randomEncoderMatchesReference_data()
{
    QTest::addColumn<bool>("roberta");
    QTest::newRow("bert") << false;
    QTest::newRow("xlm-roberta") << true;
}

void TestHfEncoder::randomEncoderMatchesReference()
{
    QFETCH(bool, roberta);
    QTemporaryDir tmp;
    const RandomEncoder e = makeRandomEncoder(roberta, roberta ? 7 : 5);
    const std::string dir = writeRandomEncoder(fs::path(tmp.path().toStdString()) / "random", e);
    const auto encoder = model::TextEncoder::load(dir);
    QCOMPARE(encoder->info().hiddenSize, int64_t(8));
    QCOMPARE(encoder->info().maxTokens, int64_t(roberta ? 10 : 12));
    const Reference ref{e};
    // Three lengths in one batch: padding (right) and masking are exercised.
    const std::vector<Ids> seqs{{2, 5, 6, 7, 3}, {2, 9, 3}, {2, 10, 11, 12, 13, 14, 15, 4, 8, 3}};
    for (model::Pooling p : {model::Pooling::Cls, model::Pooling::Mean, model::Pooling::LastToken}) {
        const auto got = encoder->encode(seqs, p);
        for (size_t i = 0; i < seqs.size(); ++i) {
            const QString diff = compareVector(got[i], ref.pooled(seqs[i], p));
            QVERIFY2(diff.isEmpty(), qPrintable(QString("%1 pooling, sequence %2: %3")
                                                    .arg(QString::fromStdString(std::string(model::poolingName(p))))
                                                    .arg(i)
                                                    .arg(diff)));
        }
    }
    // Every token's state, not just the pooled one.
    const Matrix expected = ref.forward(seqs[0]);
    const auto states = encoder->tokenStates(seqs[0]);
    QCOMPARE(states.size(), expected.size());
    for (size_t t = 0; t < states.size(); ++t)
        QVERIFY2(compareVector(states[t], expected[t]).isEmpty(), qPrintable(compareVector(states[t], expected[t])));

    // The embedder: the reference's mean vector of its own token ids, normalized.
    HfEmbedder::Options o;
    o.pooling = "mean";
    const HfEmbedder embedder(dir, o);
    const std::string text = roberta ? "hello world" : "a b c";
    const Ids ids = embedder.tokenIds(text, EmbedRole::Document);
    QCOMPARE(ids, roberta ? (Ids{0, 4, 10, 2}) : (Ids{2, 5, 6, 7, 3}));
    const QString diff = compareVector(embedder.embed({text}, EmbedRole::Document)[0],
                                       unit(ref.pooled(ids, model::Pooling::Mean)));
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    // Out-of-range input is refused, not run.
    QVERIFY(errorOf([&] { encoder->encode({{2, 16, 3}}, model::Pooling::Cls); }).contains("token id 16"));
    QVERIFY(errorOf([&] { encoder->encode({Ids(13, 5)}, model::Pooling::Cls); }).contains("at most"));
}

// (e) A text's vector does not depend on what it is batched with (padding), nor on the
// batch size, nor on other threads embedding at the same time.
void TestHfEncoder::paddingInvariance()
{
    QTemporaryDir tmp;
    const fs::path root(tmp.path().toStdString());
    const std::string bert = writeRandomEncoder(root / "bert", makeRandomEncoder(false, 5));
    const std::string xlmr = writeRandomEncoder(root / "xlmr", makeRandomEncoder(true, 7));
    const std::string qwen = writeTinyQwen3(root / "qwen");
    writeJson(fs::path(qwen) / "1_Pooling" / "config.json", poolingConfig("lasttoken", 256));
    struct Case {
        std::string dir, shortText, longText;
    };
    for (const Case &c : {Case{bert, "a b", "k j i h g f e d"}, Case{xlmr, "hello", "hello world world"},
                          Case{qwen, "Acme", "Acme Corporation sent the invoice on Monday"}}) {
        for (const char *pooling : {"cls", "mean", "lasttoken"}) {
            HfEmbedder::Options o;
            o.pooling = pooling;
            const HfEmbedder e(c.dir, o);
            QVERIFY(e.tokenIds(c.longText, EmbedRole::Document).size() > e.tokenIds(c.shortText, EmbedRole::Document).size() + 1);
            const std::vector<float> alone = e.embed({c.shortText}, EmbedRole::Document)[0];
            const auto batched = e.embed({c.longText, c.shortText}, EmbedRole::Document);
            const QString diff = compareVector(batched[1], toDouble(alone));
            QVERIFY2(diff.isEmpty(), qPrintable(QString::fromStdString(c.dir + " " + pooling + ": ") + diff));
            o.batchSize = 1;
            const auto single = HfEmbedder(c.dir, o).embed({c.longText, c.shortText}, EmbedRole::Document);
            QVERIFY(compareVector(single[0], toDouble(batched[0])).isEmpty());
            // Unit vectors.
            double norm = 0.0;
            for (float x : batched[0])
                norm += static_cast<double>(x) * x;
            QVERIFY(std::abs(norm - 1.0) < 1e-5);
        }
    }
    // Two threads at once on one embedder.
    const HfEmbedder shared(bert);
    const auto expected = shared.embed({"a b c", "d e"}, EmbedRole::Query);
    std::vector<std::vector<std::vector<float>>> got(2);
    std::thread t1([&] { for (int i = 0; i < 20; ++i) got[0] = shared.embed({"a b c", "d e"}, EmbedRole::Query); });
    std::thread t2([&] { for (int i = 0; i < 20; ++i) got[1] = shared.embed({"a b c", "d e"}, EmbedRole::Query); });
    t1.join();
    t2.join();
    for (const auto &g : got)
        for (size_t i = 0; i < expected.size(); ++i)
            QVERIFY(compareVector(g[i], toDouble(expected[i])).isEmpty());
}

// (f) WordPiece, worked out by hand. Vocabulary (id = position):
//   [PAD] [UNK] [CLS] [SEP] [MASK] un ##aff ##able play ##ing ##s cafe ! , 日 本 hello ##llo he naive
void TestHfEncoder::wordPiece_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("lowercase");
    QTest::addColumn<int>("maxChars");
    QTest::addColumn<QStringList>("tokens");
    // Greedy longest match: "un" (no longer prefix is an entry), then "##aff", "##able".
    QTest::newRow("subwords") << "unaffable" << true << 100 << QStringList{"un", "##aff", "##able"};
    // Lower case first; "!" is punctuation, a word of its own.
    QTest::newRow("lowercase, punctuation") << "Playing!" << true << 100 << QStringList{"play", "##ing", "!"};
    QTest::newRow("comma splits") << "plays,un" << true << 100 << QStringList{"play", "##s", ",", "un"};
    // é (U+00E9) → NFD e + U+0301 → the mark is dropped (strip_accents follows lowercase).
    QTest::newRow("accent") << "Café" << true << 100 << QStringList{"cafe"};
    QTest::newRow("diaeresis") << "naïve" << true << 100 << QStringList{"naive"};
    // CJK ideographs get spaces around them: 日, 本, 語; 語 is not in the vocabulary.
    QTest::newRow("CJK") << "日本語" << true << 100 << QStringList{"日", "本", "[UNK]"};
    // The longest match wins over he + ##llo.
    QTest::newRow("longest first") << "hello" << true << 100 << QStringList{"hello"};
    QTest::newRow("then ##s") << "hellos" << true << 100 << QStringList{"hello", "##s"};
    // "he" matches, but nothing covers "xllo": the whole word is [UNK], not he [UNK].
    QTest::newRow("uncovered rest") << "heXllo" << true << 100 << QStringList{"[UNK]"};
    // U+200B ZERO WIDTH SPACE is a format character (Cf): clean_text removes it.
    QTest::newRow("format character") << "play\u200Bing" << true << 100 << QStringList{"play", "##ing"};
    // Tab and newline are white space: "ing" alone is no word of the vocabulary.
    QTest::newRow("tab and newline") << "play\ting\n!" << true << 100 << QStringList{"play", "[UNK]", "!"};
    // 7 characters > max_input_chars_per_word 6: [UNK] although the pieces exist; 7 fits.
    QTest::newRow("too long") << "playing" << true << 6 << QStringList{"[UNK]"};
    QTest::newRow("just fits") << "playing" << true << 7 << QStringList{"play", "##ing"};
    // Cased: "P" has no entry; accents stay (strip_accents null follows lowercase false).
    QTest::newRow("cased") << "Playing" << false << 100 << QStringList{"[UNK]"};
    QTest::newRow("cased accent") << "café" << false << 100 << QStringList{"[UNK]"};
    // Added tokens are found in the raw text.
    QTest::newRow("added token") << "[CLS] hello[SEP]" << true << 100 << QStringList{"[CLS]", "hello", "[SEP]"};
    QTest::newRow("empty") << "" << true << 100 << QStringList{};
}

void TestHfEncoder::wordPiece()
{
    QFETCH(QString, text);
    QFETCH(bool, lowercase);
    QFETCH(int, maxChars);
    QFETCH(QStringList, tokens);
    const std::vector<std::string> vocab{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "un",  "##aff",
                                         "##able", "play", "##ing", "##s",  "cafe",   "!",   ",",
                                         "日",     "本",   "hello", "##llo", "he",    "naive"};
    QTemporaryDir tmp;
    writeJson(fs::path(tmp.path().toStdString()) / "tokenizer.json", wordPieceJson(vocab, lowercase, maxChars));
    const auto tok = tokenizer::loadTokenizer(tmp.path().toStdString());
    QCOMPARE(QString::fromStdString(tok->kind()), QString("WordPiece"));
    QStringList got;
    for (int32_t id : tok->encode(text.toStdString()))
        got << QString::fromStdString(tok->idToToken(id));
    QCOMPARE(got, tokens);
}

void TestHfEncoder::wordPieceNormalizer()
{
    const std::vector<std::string> vocab{"[UNK]", "x"};
    const auto tok = tokenizer::WordPieceTokenizer::fromJson(wordPieceJson(vocab), "tokenizer.json");
    // Accents stripped, lower case, spaces around each ideograph, NUL and U+FFFD removed.
    QCOMPARE(QString::fromStdString(tok->normalize("Ça 日本\xEF\xBF\xBD!")), QString("ca  日  本 !"));
    // İ: NFD is I + U+0307 (a nonspacing mark, stripped), then lower case: "i". Without
    // accent stripping, lower case alone gives "i" + U+0307 (Rust's full mapping).
    QCOMPARE(QString::fromStdString(tok->normalize("İ")), QString("i"));
    json keepAccents = wordPieceJson(vocab);
    keepAccents["normalizer"]["strip_accents"] = false;
    QCOMPARE(QString::fromStdString(tokenizer::WordPieceTokenizer::fromJson(keepAccents, "t.json")->normalize("İ")),
             QString("i\u0307"));
    const auto words = tok->preTokenize("ca  日  本 !a.b");
    QCOMPARE(words, (std::vector<std::string>{"ca", "日", "本", "!", "a", ".", "b"}));
    // ASCII symbols count as punctuation ($, +, <, =, >, ^, `, |, ~), as in BERT.
    QCOMPARE(tok->preTokenize("a$b+c"), (std::vector<std::string>{"a", "$", "b", "+", "c"}));
    // Decoding glues ## pieces.
    QTemporaryDir tmp;
    writeJson(fs::path(tmp.path().toStdString()) / "tokenizer.json",
              wordPieceJson({"[UNK]", "[CLS]", "[SEP]", "play", "##ing", "fair"}));
    const auto t = tokenizer::loadTokenizer(tmp.path().toStdString());
    QCOMPARE(t->decode(t->encode("playing fair"), /*skipSpecial=*/true), std::string("playing fair"));
    // The template of its post_processor: [CLS] … [SEP], cut to the maximum length.
    const json doc = wordPieceJson({"[UNK]", "[CLS]", "[SEP]", "play", "##ing", "fair"});
    const auto templ = tokenizer::SequenceTemplate::fromTokenizerJson(doc, *t, "tokenizer.json");
    QCOMPARE(templ.prefix(), (Ids{1}));
    QCOMPARE(templ.suffix(), (Ids{2}));
    QCOMPARE(templ.apply({3, 4, 5}, 4), (Ids{1, 3, 4, 2}));
    QCOMPARE(templ.apply({3, 4, 5}), (Ids{1, 3, 4, 5, 2}));
    // BertProcessing says the same with its ids written out.
    json bp = doc;
    bp["post_processor"] = {{"type", "BertProcessing"}, {"sep", {"[SEP]", 2}}, {"cls", {"[CLS]", 1}}};
    QCOMPARE(tokenizer::SequenceTemplate::fromTokenizerJson(bp, *t, "tokenizer.json").apply({3}), (Ids{1, 3, 2}));
    bp["post_processor"]["cls"] = {"[CLS]", 4};
    QVERIFY(errorOf([&] { tokenizer::SequenceTemplate::fromTokenizerJson(bp, *t, "tokenizer.json"); })
                .contains("post_processor.cls: \"[CLS]\" is token 1, not 4"));
}

// The Unigram tokenizer.json of the XLM-R folders, by hand (scores: ▁hello −1, ▁world −1.5,
// ▁ −2, h e l o −3 each; unknown characters cost min − 10 = −13).
void TestHfEncoder::unigramJson()
{
    QTemporaryDir tmp;
    writeJson(fs::path(tmp.path().toStdString()) / "tokenizer.json", ::unigramJson());
    const auto tok = tokenizer::loadTokenizer(tmp.path().toStdString());
    QCOMPARE(QString::fromStdString(tok->kind()), QString("unigram"));
    // "▁hello▁world": −1 − 1.5 beats every split into letters.
    QCOMPARE(tok->encode("hello world"), (Ids{4, 10}));
    // Runs of spaces are one space (Replace); the ends stay, as in tokenizers: " hello
    // world " → "▁hello▁world▁" (no "▁" put in front: it starts with one) → ▁hello ▁world ▁.
    QCOMPARE(tok->encode("  hello    world "), (Ids{4, 10, 5}));
    // "▁hel": only ▁ h e l (−2 −9).
    QCOMPARE(tok->encode("hel"), (Ids{5, 6, 7, 8}));
    // x has no piece: <unk>.
    QCOMPARE(tok->encode("hex"), (Ids{5, 6, 7, 3}));
    // Special tokens are never produced from text pieces, but are found as added tokens.
    QCOMPARE(tok->encode("<s>"), (Ids{0}));
    QCOMPARE(tok->encode("hello <mask>"), (Ids{4, 11}));
    QCOMPARE(tok->bosId(), std::optional<int32_t>(0));
    QCOMPARE(tok->eosId(), std::optional<int32_t>(2));
    QCOMPARE(tok->padId(), std::optional<int32_t>(1));
    QVERIFY(!tok->addsBos());
    QCOMPARE(tok->decode({0, 4, 10, 2}, /*skipSpecial=*/true), std::string("hello world"));

    // A map that is not one is refused, naming the field (tokenizers refuses it too).
    json bad = ::unigramJson();
    bad["normalizer"]["normalizers"][0]["precompiled_charsmap"] = "";
    writeJson(fs::path(tmp.path().toStdString()) / "tokenizer.json", bad);
    QVERIFY(errorOf([&] { tokenizer::loadTokenizer(tmp.path().toStdString()); })
                .contains("normalizer.normalizers[0].precompiled_charsmap: not a sentencepiece character map"));
    bad["normalizer"]["normalizers"][0]["precompiled_charsmap"] = "not base64!";
    writeJson(fs::path(tmp.path().toStdString()) / "tokenizer.json", bad);
    QVERIFY(errorOf([&] { tokenizer::loadTokenizer(tmp.path().toStdString()); })
                .contains("normalizer.normalizers[0].precompiled_charsmap: not base64"));
    bad = ::unigramJson();
    bad["decoder"] = {{"type", "ByteLevel"}};
    writeJson(fs::path(tmp.path().toStdString()) / "tokenizer.json", bad);
    QVERIFY(errorOf([&] { tokenizer::loadTokenizer(tmp.path().toStdString()); }).contains("decoder.type"));
    bad = ::unigramJson();
    bad["pre_tokenizer"]["replacement"] = "_";
    writeJson(fs::path(tmp.path().toStdString()) / "tokenizer.json", bad);
    QVERIFY(errorOf([&] { tokenizer::loadTokenizer(tmp.path().toStdString()); }).contains("pre_tokenizer.replacement"));
    bad = ::unigramJson();
    bad["model"]["vocab"][5] = {"▁", "high"};
    writeJson(fs::path(tmp.path().toStdString()) / "tokenizer.json", bad);
    QVERIFY(errorOf([&] { tokenizer::loadTokenizer(tmp.path().toStdString()); }).contains("model.vocab[5][1]"));
}

// Prompts from config_sentence_transformers.json, the options that replace them, and
// sentence_bert_config.json.
void TestHfEncoder::prompts()
{
    QTemporaryDir tmp;
    const fs::path dir = writeRandomEncoder(fs::path(tmp.path().toStdString()) / "e5ish", makeRandomEncoder(false, 5));
    writeJson(dir / "config_sentence_transformers.json",
              {{"prompts", {{"query", "a "}, {"passage", "b "}}}, {"default_prompt_name", nullptr}});
    writeJson(dir / "sentence_bert_config.json", {{"max_seq_length", 5}, {"do_lower_case", true}});
    {
        const HfEmbedder e(dir.string());
        QCOMPARE(e.prefix(EmbedRole::Query), std::string("a "));
        QCOMPARE(e.prefix(EmbedRole::Document), std::string("b "));
        QCOMPARE(e.maxLength(), 5);
        // [CLS] a c [SEP], [CLS] b c [SEP]; upper case lowered (do_lower_case), cut to 5.
        QCOMPARE(e.tokenIds("C", EmbedRole::Query), (Ids{2, 5, 7, 3}));
        QCOMPARE(e.tokenIds("c", EmbedRole::Document), (Ids{2, 6, 7, 3}));
        QCOMPARE(e.tokenIds("c d e f", EmbedRole::Document), (Ids{2, 6, 7, 8, 3}));
        const auto q = e.embed({"c"}, EmbedRole::Query)[0], d = e.embed({"c"}, EmbedRole::Document)[0];
        QVERIFY(q != d);
    }
    HfEmbedder::Options o;
    o.queryPrefix = "";
    o.maxLength = 12;
    const HfEmbedder plain(dir.string(), o);
    QCOMPARE(plain.tokenIds("c", EmbedRole::Query), (Ids{2, 7, 3}));
    QCOMPARE(plain.tokenIds("c", EmbedRole::Document), (Ids{2, 6, 7, 3}));
    QCOMPARE(plain.maxLength(), 12);
    o.maxLength = 13;
    QVERIFY(errorOf([&] { HfEmbedder(dir.string(), o); }).contains("max_length 13 exceeds the model's 12 positions"));
    // default_prompt_name: a role without its own prompt takes it.
    writeJson(dir / "config_sentence_transformers.json", {{"prompts", {{"query", "a "}}}, {"default_prompt_name", "query"}});
    QCOMPARE(HfEmbedder(dir.string()).prefix(EmbedRole::Document), std::string("a "));
    writeJson(dir / "config_sentence_transformers.json", {{"prompts", {{"query", "a "}}}, {"default_prompt_name", "q"}});
    QVERIFY(errorOf([&] { HfEmbedder(dir.string()); }).contains("default_prompt_name: \"q\" is not one of the prompts"));
}

// (g) Qwen3-Embedding's way: last-token pooling of the decoder's final hidden state.
void TestHfEncoder::qwen3LastToken()
{
    QTemporaryDir tmp;
    const fs::path dir = writeTinyQwen3(fs::path(tmp.path().toStdString()) / "qwen3-tiny");
    // A plain decoder is a language model: refused without a pooling config…
    const QString refused = errorOf([&] { HfEmbedder e(dir.string()); });
    QVERIFY2(refused.contains("qwen3-tiny: a qwen3 decoder without a sentence-transformers pooling config") &&
                 refused.contains("\"pooling\": \"lasttoken\""),
             qPrintable(refused));
    // … and accepted with one, as Qwen3-Embedding ships it.
    writeJson(dir / "modules.json", stModules());
    writeJson(dir / "1_Pooling" / "config.json", poolingConfig("lasttoken", 256));
    const std::string instruct = "Instruct: Given a question, find the sender\nQuery:";
    writeJson(dir / "config_sentence_transformers.json",
              {{"prompts", {{"query", instruct}, {"document", ""}}}, {"default_prompt_name", nullptr},
               {"similarity_fn_name", "cosine"}});
    const HfEmbedder e(dir.string());
    QCOMPARE(QString::fromStdString(e.modelType()), QString("qwen3"));
    QCOMPARE(QString::fromStdString(e.pooling()), QString("lasttoken"));
    QCOMPARE(e.dimension(), 256);

    // The ids: prompt + text, then <|endoftext|> (280): the test tokenizer's post_processor
    // (ByteLevel) adds nothing, so the embedder appends it as Qwen3-Embedding expects.
    const auto tok = tokenizer::loadTokenizer(dir.string());
    const std::string text = "Acme sent the invoice";
    Ids expected = tok->encode(instruct + text);
    expected.push_back(280);
    QCOMPARE(e.tokenIds(text, EmbedRole::Query), expected);
    Ids docIds = tok->encode(text);
    docIds.push_back(280);
    QCOMPARE(e.tokenIds(text, EmbedRole::Document), docIds);

    // The decoder's own forward pass: the final-norm hidden state at the last position.
    model::ModelOptions mo;
    mo.device = "cpu";
    mo.dtype = "float32";
    const auto lm = model::CausalLM::load(dir.string(), mo);
    auto lastState = [&](const Ids &ids) {
        torch::NoGradGuard noGrad;
        std::vector<int64_t> v(ids.begin(), ids.end());
        const torch::Tensor idsT = torch::tensor(v, torch::kLong).unsqueeze(0); // [1, T]
        const torch::Tensor mask = torch::ones_like(idsT);
        const torch::Tensor h = lm->internals().module->hidden(idsT, model::positionsFromMask(mask), mask, nullptr);
        const torch::Tensor last = h[0][static_cast<int64_t>(ids.size()) - 1].to(torch::kDouble);
        std::vector<double> out(last.data_ptr<double>(), last.data_ptr<double>() + last.numel());
        return unit(out);
    };
    const auto q = e.embed({text}, EmbedRole::Query)[0];
    QString diff = compareVector(q, lastState(expected));
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    // Left-padded in a batch with a longer text: the same.
    const auto batch = e.embed({"Acme Corporation sent the invoice on Monday", text}, EmbedRole::Query);
    diff = compareVector(batch[1], lastState(expected));
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    diff = compareVector(batch[0], lastState(e.tokenIds("Acme Corporation sent the invoice on Monday", EmbedRole::Query)));
    QVERIFY2(diff.isEmpty(), qPrintable(diff));

    // Qwen3-Embedding's layout: weights without "model.", no lm_head, and a tokenizer.json
    // whose TemplateProcessing appends <|endoftext|> itself (not twice).
    const fs::path bare = fs::path(tmp.path().toStdString()) / "qwen3-bare";
    stripModelPrefix(dir, bare);
    fs::create_directories(bare / "1_Pooling");
    fs::copy_file(dir / "1_Pooling" / "config.json", bare / "1_Pooling" / "config.json");
    json tj = json::parse(data::readTextFile((dir / "tokenizer.json").string()));
    tj["post_processor"] = {
        {"type", "TemplateProcessing"},
        {"single", json::array({{{"Sequence", {{"id", "A"}, {"type_id", 0}}}},
                                {{"SpecialToken", {{"id", "<|endoftext|>"}, {"type_id", 0}}}}})},
        {"pair", json::array()},
        {"special_tokens", {{"<|endoftext|>", {{"id", "<|endoftext|>"}, {"ids", {280}}, {"tokens", {"<|endoftext|>"}}}}}}};
    writeJson(bare / "tokenizer.json", tj);
    const HfEmbedder b(bare.string());
    QCOMPARE(b.tokenIds(text, EmbedRole::Query), expected);
    diff = compareVector(b.embed({text}, EmbedRole::Query)[0], toDouble(q));
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

// (h) Folders that cannot be run: the message names the file and the field.
void TestHfEncoder::badFolders_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("file");    // the path the message must name, relative to the folder
    QTest::addColumn<QString>("message"); // and what it must say
    QTest::newRow("not a folder") << "gone" << "" << ": not a folder";
    QTest::newRow("no config.json") << "no config" << "config.json" << ": missing";
    QTest::newRow("model_type t5") << "t5" << "config.json"
                                   << ": model_type \"t5\" is not an encoder Reward Workbench runs (bert, roberta, xlm-roberta, qwen3)";
    QTest::newRow("no model_type") << "no model_type" << "config.json" << ": model_type missing";
    QTest::newRow("relative positions") << "relative" << "config.json"
                                        << ": position_embedding_type: \"relative_key\" is not supported";
    QTest::newRow("heads do not divide") << "heads" << "config.json" << ": num_attention_heads: must divide hidden_size (4 / 3)";
    QTest::newRow("missing weight") << "no query" << "model.safetensors"
                                    << ": tensor encoder.layer.0.attention.self.query.weight missing";
    QTest::newRow("wrong shape") << "intermediate 3" << "model.safetensors"
                                 << ": tensor encoder.layer.0.intermediate.dense.weight has shape [2, 4]";
    QTest::newRow("more layers than config") << "extra layer" << "model.safetensors"
                                             << ": holds encoder.layer.1.attention.self.query.weight but";
    QTest::newRow("not an encoder's weights") << "decoder weights" << "model.safetensors"
                                              << ": tensor embeddings.word_embeddings.weight missing";
    QTest::newRow("pytorch_model.bin only") << "bin" << "" << ": has pytorch_model.bin but no model.safetensors";
    QTest::newRow("no tokenizer") << "no tokenizer" << "" << ": no tokenizer.json or tokenizer.model";
    QTest::newRow("Dense module") << "dense" << "modules.json"
                                  << ": [2].type: sentence_transformers.models.Dense is not supported";
    QTest::newRow("max pooling") << "max" << "1_Pooling/config.json"
                                 << ": pooling_mode_max_tokens: this pooling is not supported";
    QTest::newRow("pooling dir missing") << "modules path" << "pool/config.json" << ": missing";
    QTest::newRow("bad tokenizer.json") << "bad tokenizer" << "tokenizer.json"
                                        << ": model: unk_token: \"<unk>\" is not in the vocabulary";
}

void TestHfEncoder::badFolders()
{
    QFETCH(QString, change);
    QFETCH(QString, file);
    QFETCH(QString, message);
    QTemporaryDir tmp;
    const fs::path dir = writeHandBert(fs::path(tmp.path().toStdString()) / "m");
    const std::string c = change.toStdString();
    json config = handBertConfig();
    Weights w = handBertWeights();
    if (c == "gone")
        fs::remove_all(dir);
    else if (c == "no config")
        fs::remove(dir / "config.json");
    else if (c == "t5")
        config["model_type"] = "t5";
    else if (c == "no model_type")
        config.erase("model_type");
    else if (c == "relative")
        config["position_embedding_type"] = "relative_key";
    else if (c == "heads")
        config["num_attention_heads"] = 3;
    else if (c == "no query")
        w.tensors.erase("encoder.layer.0.attention.self.query.weight");
    else if (c == "intermediate 3")
        config["intermediate_size"] = 3;
    else if (c == "extra layer")
        w.add("encoder.layer.1.attention.self.query.weight", {4, 4});
    else if (c == "decoder weights") {
        w = Weights{};
        w.add("model.embed_tokens.weight", {8, 4});
    }
    else if (c == "bin") {
        fs::remove(dir / "model.safetensors");
        writeText(dir / "pytorch_model.bin", "PK");
    } else if (c == "no tokenizer")
        fs::remove(dir / "tokenizer.json");
    else if (c == "dense") {
        writeJson(dir / "modules.json", stModules("1_Pooling", "sentence_transformers.models.Dense"));
        writeJson(dir / "1_Pooling" / "config.json", poolingConfig("cls"));
    } else if (c == "max")
        writeJson(dir / "1_Pooling" / "config.json", poolingConfig("max"));
    else if (c == "modules path")
        writeJson(dir / "modules.json", stModules("pool"));
    else if (c == "bad tokenizer") {
        json tj = wordPieceJson(kHandVocab);
        tj["model"]["unk_token"] = "<unk>";
        writeJson(dir / "tokenizer.json", tj);
    }
    if (fs::exists(dir)) {
        if (fs::exists(dir / "config.json"))
            writeJson(dir / "config.json", config);
        if (fs::exists(dir / "model.safetensors"))
            w.write(dir / "model.safetensors");
    }
    const QString error = errorOf([&] { HfEmbedder e(dir.string()); });
    const QString where = QString::fromStdString((file.isEmpty() ? dir : dir / file.toStdString()).string());
    QVERIFY2(error.startsWith(where + message), qPrintable(error + "\n  expected: " + where + message));
}

void TestHfEncoder::factory()
{
    QTemporaryDir tmp;
    const fs::path root(tmp.path().toStdString());
    writeHandBert(root / "hand");
    embed::EmbedderContext ctx;
    ctx.source = "reward.json: embedding";
    ctx.baseDir = root.string();
    ctx.options = R"({"batch": 2, "pooling": "mean", "max_length": 5, "threads": 0})";
    // A relative DIR is found in baseDir (the reward config's folder).
    const auto e = embed::makeEmbedder("hf:hand", ctx);
    QCOMPARE(QString::fromStdString(e->name()), QString("hf:hand"));
    QCOMPARE(e->dimension(), 4);
    const auto *hf = dynamic_cast<const HfEmbedder *>(e.get());
    QVERIFY(hf);
    QCOMPARE(QString::fromStdString(hf->pooling()), QString("mean"));
    QCOMPARE(hf->maxLength(), 5);
    QVERIFY(compareVector(e->embed({"hello"}, EmbedRole::Document)[0], kHandMean).isEmpty());
    // An absolute DIR ignores it; a trailing slash does not change the name.
    ctx.options.clear();
    QCOMPARE(QString::fromStdString(embed::makeEmbedder("hf:" + (root / "hand").string() + "/", ctx)->name()),
             QString("hf:hand"));
    // A missing folder names itself; a bad option names the key.
    QString error = errorOf([&] { embed::makeEmbedder("hf:nothing", ctx); });
    QVERIFY2(error.startsWith(QString::fromStdString((root / "nothing").string()) + ": not a folder"), qPrintable(error));
    ctx.options = R"({"max_length": -1})";
    error = errorOf([&] { embed::makeEmbedder("hf:hand", ctx); });
    QVERIFY2(error.startsWith("reward.json: embedding: embedder option \"max_length\" must be an integer of at least 0"),
             qPrintable(error));
    ctx.options = R"({"max_length": 7})";
    error = errorOf([&] { embed::makeEmbedder("hf:hand", ctx); });
    QVERIFY2(error.contains("max_length 7 exceeds the model's 6 positions"), qPrintable(error));
    // A tokenizer with ids the model has no embedding for fails at embed(), naming the model.
    writeJson(root / "hand" / "config.json", [] {
        json c = handBertConfig();
        c["vocab_size"] = 6;
        return c;
    }());
    Weights w = handBertWeights();
    auto &word = w.tensors["embeddings.word_embeddings.weight"];
    word.first = {6, 4};
    word.second.resize(24);
    w.write(root / "hand" / "model.safetensors");
    ctx.options.clear();
    const auto small = embed::makeEmbedder("hf:hand", ctx);
    QVERIFY(small->embed({"hello world"}, EmbedRole::Document).size() == 1);
    error = errorOf([&] { small->embed({"hello", "hello !"}, EmbedRole::Document); });
    QVERIFY2(error.startsWith("hf:hand: text encoder: sequence") && error.contains("token id 7"), qPrintable(error));
}

QTEST_APPLESS_MAIN(TestHfEncoder)
#include "tst_hfencoder.moc"
