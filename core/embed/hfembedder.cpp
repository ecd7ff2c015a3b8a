#include "embed/hfembedder.h"

#include "data/jsonl.h"
#include "model/textencoder.h"
#include "text/utf8.h"
#include "tokenizer/jsonfieldreader.h"
#include "tokenizer/sequencetemplate.h"
#include "tokenizer/tokenizer.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>
#include <utf8proc.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>

namespace rwb::embed {

namespace {

namespace fs = std::filesystem;
using tokenizer::JsonFieldReader;

// The sentence-transformers module types that run here (the class name at the end of "type").
constexpr const char *kModuleTypes = "Transformer, Pooling, Normalize";
// The default max_length never exceeds this (BGE-M3's and Qwen3-Embedding's own limits
// are 8192 and 32768 tokens; attention memory grows with the square of the length).
constexpr int kDefaultMaxLength = 8192;
// A batch holds at most this many (query, key) token pairs: B · T² ≤ 2^22, about 16 MiB of
// fp32 attention scores per head (BERT-base, 12 heads: ~200 MiB). A longer text runs alone.
constexpr size_t kMaxTokenPairsPerBatch = size_t(1) << 22;

bool endsWith(const std::string &s, std::string_view tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// "hf:" + the folder's own name, whatever the path looks like ("models/bge-m3/", ".").
std::string nameOf(const std::string &folder)
{
    std::error_code ec;
    fs::path p = fs::absolute(fs::path(folder), ec).lexically_normal();
    if (p.filename().empty())
        p = p.parent_path();
    return "hf:" + p.filename().string();
}

// Python's str.lower() as sentence-transformers' do_lower_case applies it (simple mapping).
std::string lowercased(const std::string &text)
{
    std::u32string s = text::decodeUtf8(text);
    for (char32_t &c : s)
        c = static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(c)));
    return text::encodeUtf8(s);
}

void normalize(std::vector<float> &v)
{
    double sq = 0.0;
    for (float x : v)
        sq += static_cast<double>(x) * x;
    if (sq == 0.0)
        return;
    const double inv = 1.0 / std::sqrt(sq);
    for (float &x : v)
        x = static_cast<float>(x * inv);
}

} // namespace

struct HfEmbedder::Impl {
    std::string folder;
    std::string name;
    Options options;
    std::unique_ptr<model::TextEncoder> model;
    std::unique_ptr<tokenizer::Tokenizer> tokenizer;
    tokenizer::SequenceTemplate sequenceTemplate;
    model::Pooling pooling = model::Pooling::Cls;
    std::string poolingSource;
    std::string queryPrefix;
    std::string documentPrefix;
    bool lowerCase = false;
    bool includePrompt = true; // the pooling config's include_prompt
    int maxLength = 0;

    void readModules(const fs::path &dir, fs::path &poolingDir, fs::path &modelDir);
    void readPooling(const fs::path &configPath);
    void readPrompts(const fs::path &dir);
    int readMaxSeqLength(const fs::path &dir, const fs::path &modelDir);
};

void HfEmbedder::Impl::readModules(const fs::path &dir, fs::path &poolingDir, fs::path &modelDir)
{
    const std::string path = (dir / "modules.json").string();
    const JsonFieldReader r(path);
    const nlohmann::json doc = r.parseFile();
    r.array(doc, "");
    for (size_t i = 0; i < doc.size(); ++i) {
        const std::string at = JsonFieldReader::index("", i);
        const nlohmann::json &m = r.object(doc[i], at);
        const std::string type = r.string(r.required(m, at, "type"), JsonFieldReader::join(at, "type"));
        const nlohmann::json *p = r.optional(m, "path");
        const std::string path = p ? r.string(*p, JsonFieldReader::join(at, "path")) : std::string();
        if (endsWith(type, "models.Pooling") || type == "Pooling") {
            poolingDir = dir / (path.empty() ? std::string("1_Pooling") : path);
        } else if ((endsWith(type, "models.Transformer") || type == "Transformer") && !path.empty()) {
            modelDir = dir / path; // older sentence-transformers folders: 0_Transformer/
        } else if (!(endsWith(type, "models.Transformer") || endsWith(type, "models.Normalize") ||
                     type == "Transformer" || type == "Normalize")) {
            r.fail(JsonFieldReader::join(at, "type"),
                   type + " is not supported (" + kModuleTypes +
                       "): vectors without it would not be the model's");
        }
    }
}

void HfEmbedder::Impl::readPooling(const fs::path &configPath)
{
    const JsonFieldReader r(configPath.string());
    const nlohmann::json doc = r.parseFile();
    r.object(doc, "");
    for (const char *unsupported : {"pooling_mode_max_tokens", "pooling_mode_mean_sqrt_len_tokens",
                                    "pooling_mode_weightedmean_tokens"})
        if (r.optionalBoolean(doc, "", unsupported, false))
            r.fail(unsupported, "this pooling is not supported (cls_token, mean_tokens or lasttoken)");
    std::vector<model::Pooling> modes;
    if (r.optionalBoolean(doc, "", "pooling_mode_cls_token", false))
        modes.push_back(model::Pooling::Cls);
    if (r.optionalBoolean(doc, "", "pooling_mode_mean_tokens", false))
        modes.push_back(model::Pooling::Mean);
    if (r.optionalBoolean(doc, "", "pooling_mode_lasttoken", false))
        modes.push_back(model::Pooling::LastToken);
    if (modes.empty())
        r.fail("pooling_mode_*", "none is true (pooling_mode_cls_token, pooling_mode_mean_tokens or "
                                 "pooling_mode_lasttoken)");
    if (modes.size() > 1)
        r.fail("pooling_mode_*", "more than one is true: concatenated poolings are not supported");
    includePrompt = r.optionalBoolean(doc, "", "include_prompt", true);
    pooling = modes[0];
    poolingSource = configPath.string();
}

void HfEmbedder::Impl::readPrompts(const fs::path &dir)
{
    const fs::path path = dir / "config_sentence_transformers.json";
    std::error_code ec;
    if (!fs::exists(path, ec))
        return;
    const JsonFieldReader r(path.string());
    const nlohmann::json doc = r.parseFile();
    r.object(doc, "");
    const nlohmann::json *prompts = r.optional(doc, "prompts");
    if (!prompts)
        return;
    r.object(*prompts, "prompts");
    auto prompt = [&](const char *key) -> std::optional<std::string> {
        if (const nlohmann::json *p = r.optional(*prompts, key))
            return r.string(*p, JsonFieldReader::join("prompts", key));
        return std::nullopt;
    };
    std::optional<std::string> fallback;
    if (const nlohmann::json *d = r.optional(doc, "default_prompt_name")) {
        const std::string name = r.string(*d, "default_prompt_name");
        fallback = prompt(name.c_str());
        if (!fallback)
            r.fail("default_prompt_name", "\"" + name + "\" is not one of the prompts");
    }
    queryPrefix = prompt("query").value_or(fallback.value_or(""));
    std::optional<std::string> doc1 = prompt("document");
    if (!doc1)
        doc1 = prompt("passage");
    if (!doc1)
        doc1 = prompt("corpus");
    documentPrefix = doc1.value_or(fallback.value_or(""));
}

int HfEmbedder::Impl::readMaxSeqLength(const fs::path &dir, const fs::path &modelDir)
{
    std::error_code ec;
    fs::path path = modelDir / "sentence_bert_config.json";
    if (!fs::exists(path, ec))
        path = dir / "sentence_bert_config.json";
    if (!fs::exists(path, ec))
        return 0;
    const JsonFieldReader r(path.string());
    const nlohmann::json doc = r.parseFile();
    r.object(doc, "");
    lowerCase = r.optionalBoolean(doc, "", "do_lower_case", false);
    const nlohmann::json *m = r.optional(doc, "max_seq_length");
    if (!m)
        return 0;
    const int32_t n = r.int32(*m, "max_seq_length");
    if (n < 1)
        r.fail("max_seq_length", "must be at least 1");
    return n;
}

HfEmbedder::HfEmbedder(const std::string &folder, const Options &options) : m_d(std::make_unique<Impl>())
{
    Impl &d = *m_d;
    d.folder = folder;
    d.name = nameOf(folder);
    d.options = options;
    if (options.batchSize < 1)
        throw std::invalid_argument(d.name + ": batch must be at least 1");
    if (options.maxLength < 0)
        throw std::invalid_argument(d.name + ": max_length must be 0 (the folder's) or more");
    if (options.threads < 0)
        throw std::invalid_argument(d.name + ": threads must be 0 (libtorch's setting) or more");
    std::optional<model::Pooling> poolingOption;
    if (!options.pooling.empty()) {
        poolingOption = model::parsePooling(options.pooling);
        if (!poolingOption)
            throw std::invalid_argument(d.name + ": pooling \"" + options.pooling +
                                        "\" is not cls, mean or lasttoken");
    }

    const fs::path dir(folder);
    std::error_code ec;
    // modules.json first: it may put the network in a subfolder, and refuses modules
    // that cannot be run before anything is loaded.
    fs::path poolingDir;
    fs::path modelDir = dir;
    if (fs::exists(dir / "modules.json", ec))
        d.readModules(dir, poolingDir, modelDir);
    // Pooling: the option, else modules.json's Pooling module, else 1_Pooling/. Settled
    // before the weights are loaded: a decoder without one is refused without loading it.
    if (poolingDir.empty() && fs::exists(dir / "1_Pooling", ec))
        poolingDir = dir / "1_Pooling";
    if (poolingOption) {
        d.pooling = *poolingOption;
        d.poolingSource = "option";
    } else if (!poolingDir.empty()) {
        const fs::path config = poolingDir / "config.json";
        if (!fs::exists(config, ec))
            throw data::InputException({config.string(), 0, "missing (modules.json or the folder names it)"});
        d.readPooling(config);
    } else {
        // No pooling config: fine for an encoder (CLS), not for a decoder. TextEncoder::load
        // reports a config.json that is missing or unreadable.
        std::string modelType;
        if (fs::exists(modelDir / "config.json", ec)) {
            const nlohmann::json c = util::parseJsonOrDiscarded(data::readTextFile((modelDir / "config.json").string()));
            if (c.is_object() && c.contains("model_type") && c["model_type"].is_string())
                modelType = c["model_type"].get<std::string>();
        }
        if (modelType == "qwen3")
            throw data::InputException(
                {folder, 0, "a " + modelType +
                                " decoder without a sentence-transformers pooling config (modules.json, "
                                "1_Pooling/config.json) is a language model, not an embedding model (Qwen3-Embedding "
                                "folders have one); to embed with it anyway, give the option \"pooling\": \"lasttoken\""});
        d.pooling = model::Pooling::Cls;
        d.poolingSource = "default (no pooling config: the first token, as BERT pre-trains it)";
    }

    d.model = model::TextEncoder::load(modelDir.string(), options.threads);
    const model::TextEncoderInfo &info = d.model->info();
    d.tokenizer = tokenizer::loadTokenizer(modelDir.string());
    const fs::path tokenizerJson = modelDir / "tokenizer.json";
    if (fs::exists(tokenizerJson, ec)) {
        const nlohmann::json doc = JsonFieldReader(tokenizerJson.string()).parseFile();
        d.sequenceTemplate = tokenizer::SequenceTemplate::fromTokenizerJson(doc, *d.tokenizer, tokenizerJson.string());
    }
    // Qwen3-Embedding pools the hidden state of an <|endoftext|> after the text; early
    // copies of its tokenizer.json did not add it.
    if (info.causal && d.sequenceTemplate.empty())
        if (auto eot = d.tokenizer->tokenToId("<|endoftext|>"))
            d.sequenceTemplate = tokenizer::SequenceTemplate({}, {*eot});

    d.readPrompts(dir);
    if (options.queryPrefix)
        d.queryPrefix = *options.queryPrefix;
    if (options.documentPrefix)
        d.documentPrefix = *options.documentPrefix;
    if (!d.includePrompt && (!d.queryPrefix.empty() || !d.documentPrefix.empty()))
        throw data::InputException({d.poolingSource, 0,
                                    "include_prompt: false (prompt tokens left out of the pooling) is not supported "
                                    "with a prompt; give the options query_prefix and document_prefix \"\" to run "
                                    "without prompts"});

    const int folderMax = d.readMaxSeqLength(dir, modelDir);
    const int modelMax = static_cast<int>(std::min<int64_t>(info.maxTokens, INT32_MAX));
    if (options.maxLength > modelMax)
        throw std::invalid_argument(d.name + ": max_length " + std::to_string(options.maxLength) +
                                    " exceeds the model's " + std::to_string(modelMax) + " positions");
    d.maxLength = options.maxLength > 0 ? options.maxLength
                                        : std::min({folderMax > 0 ? folderMax : modelMax, modelMax, kDefaultMaxLength});
    if (static_cast<size_t>(d.maxLength) <= d.sequenceTemplate.addedCount())
        throw std::invalid_argument(d.name + ": max_length " + std::to_string(d.maxLength) +
                                    " leaves no room for text besides the " +
                                    std::to_string(d.sequenceTemplate.addedCount()) + " special tokens");
}

HfEmbedder::~HfEmbedder() = default;

std::string HfEmbedder::name() const
{
    return m_d->name;
}

int HfEmbedder::dimension() const
{
    return static_cast<int>(m_d->model->info().hiddenSize);
}

const std::string &HfEmbedder::folder() const
{
    return m_d->folder;
}

std::string HfEmbedder::modelType() const
{
    return m_d->model->info().modelType;
}

std::string HfEmbedder::pooling() const
{
    return std::string(model::poolingName(m_d->pooling));
}

std::string HfEmbedder::poolingSource() const
{
    return m_d->poolingSource;
}

const std::string &HfEmbedder::prefix(EmbedRole role) const
{
    return role == EmbedRole::Query ? m_d->queryPrefix : m_d->documentPrefix;
}

int HfEmbedder::maxLength() const
{
    return m_d->maxLength;
}

std::vector<int32_t> HfEmbedder::tokenIds(const std::string &text, EmbedRole role) const
{
    if (text::trimmed(text).empty())
        return {};
    std::string input = prefix(role) + text;
    if (m_d->lowerCase)
        input = lowercased(input);
    return m_d->sequenceTemplate.apply(m_d->tokenizer->encode(input), static_cast<size_t>(m_d->maxLength));
}

std::vector<std::vector<float>> HfEmbedder::embed(const std::vector<std::string> &texts, EmbedRole role) const
{
    const size_t dim = static_cast<size_t>(dimension());
    std::vector<std::vector<float>> out(texts.size(), std::vector<float>(dim, 0.0f));
    try {
        std::vector<std::vector<int32_t>> ids(texts.size());
        std::vector<size_t> order;
        for (size_t i = 0; i < texts.size(); ++i) {
            ids[i] = tokenIds(texts[i], role);
            if (!ids[i].empty())
                order.push_back(i);
        }
        // Longest first, so that each batch pads little (the result does not depend on it).
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return ids[a].size() > ids[b].size(); });
        const size_t batch = static_cast<size_t>(m_d->options.batchSize);
        for (size_t from = 0, to = 0; from < order.size(); from = to) {
            // Up to `batch` texts, fewer when they are long (the first is the longest).
            const size_t longest = ids[order[from]].size();
            to = from + 1;
            while (to < order.size() && to - from < batch && (to - from + 1) * longest * longest <= kMaxTokenPairsPerBatch)
                ++to;
            std::vector<std::vector<int32_t>> sequences;
            for (size_t k = from; k < to; ++k)
                sequences.push_back(std::move(ids[order[k]]));
            std::vector<std::vector<float>> vectors = m_d->model->encode(sequences, m_d->pooling);
            for (size_t k = from; k < to; ++k) {
                normalize(vectors[k - from]);
                out[order[k]] = std::move(vectors[k - from]);
            }
        }
    } catch (const std::exception &e) {
        throw std::runtime_error(m_d->name + ": " + e.what());
    }
    return out;
}

} // namespace rwb::embed
