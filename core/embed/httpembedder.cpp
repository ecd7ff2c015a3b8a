#include "embed/httpembedder.h"

#include "net/httpjsonclient.h"
#include "util/base64.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace rwb::embed {

namespace {

using json = nlohmann::json;
using net::BadAnswer;
using net::excerpt;

// The text sent to learn the dimension when dimension() is asked before any embed().
constexpr const char *kProbeText = "dimension probe";

// True when `text` has nothing but white space: ASCII, U+00A0, U+1680, U+2000–U+200B,
// U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF.
bool isBlank(const std::string &text)
{
    const auto *s = reinterpret_cast<const unsigned char *>(text.data());
    const size_t n = text.size();
    size_t i = 0;
    while (i < n) {
        const unsigned char c = s[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            ++i;
        } else if (c == 0xC2 && i + 1 < n && s[i + 1] == 0xA0) {
            i += 2;
        } else if (c == 0xE1 && i + 2 < n && s[i + 1] == 0x9A && s[i + 2] == 0x80) {
            i += 3;
        } else if (c == 0xE2 && i + 2 < n &&
                   ((s[i + 1] == 0x80 && (s[i + 2] <= 0x8B || s[i + 2] == 0xA8 || s[i + 2] == 0xA9 || s[i + 2] == 0xAF)) ||
                    (s[i + 1] == 0x81 && s[i + 2] == 0x9F))) {
            i += 3;
        } else if (c == 0xE3 && i + 2 < n && s[i + 1] == 0x80 && s[i + 2] == 0x80) {
            i += 3;
        } else if (c == 0xEF && i + 2 < n && s[i + 1] == 0xBB && s[i + 2] == 0xBF) {
            i += 3;
        } else {
            return false;
        }
    }
    return true;
}

// One entry's "embedding" as floats; `field` is "data[i].embedding".
std::vector<float> readVector(const json &embedding, const std::string &field)
{
    std::vector<float> v;
    if (embedding.is_array()) {
        v.reserve(embedding.size());
        for (size_t k = 0; k < embedding.size(); ++k) {
            const json &x = embedding[k];
            if (!x.is_number())
                throw BadAnswer(field + "[" + std::to_string(k) + "] is " + std::string(x.type_name()) +
                                ", not a number");
            v.push_back(static_cast<float>(x.get<double>()));
        }
    } else if (embedding.is_string()) {
        std::string bytes;
        if (!util::decodeBase64(embedding.get_ref<const std::string &>(), bytes))
            throw BadAnswer(field + " is a string but not valid base64");
        if (bytes.size() % 4 != 0)
            throw BadAnswer(field + " decodes to " + std::to_string(bytes.size()) +
                            " bytes, not a whole number of float32 values");
        v.resize(bytes.size() / 4);
        for (size_t k = 0; k < v.size(); ++k) {
            const auto *b = reinterpret_cast<const unsigned char *>(bytes.data() + 4 * k);
            const uint32_t u = uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
            std::memcpy(&v[k], &u, 4);
        }
    } else {
        throw BadAnswer(field + " is " + std::string(embedding.type_name()) +
                        ", not an array of numbers or a base64 string");
    }
    if (v.empty())
        throw BadAnswer(field + " is empty");
    for (size_t k = 0; k < v.size(); ++k)
        if (!std::isfinite(v[k]))
            throw BadAnswer(field + "[" + std::to_string(k) + "] is not a finite float32 (" + std::to_string(v[k]) + ")");
    return v;
}

// L2-normalizes in place (in double); a zero vector stays zero.
void normalize(std::vector<float> &v)
{
    double norm2 = 0.0;
    for (float x : v)
        norm2 += static_cast<double>(x) * x;
    if (norm2 <= 0.0)
        return;
    const double inv = 1.0 / std::sqrt(norm2);
    for (float &x : v)
        x = static_cast<float>(x * inv);
}

// A 2xx answer's vectors in input order (not normalized yet).
struct Answer {
    std::vector<std::vector<float>> vectors;
    std::vector<size_t> from; // vectors[i] came from data[from[i]]
    uint64_t promptTokens = 0;
};

// Reads {"data": [{"index", "embedding"}], "usage": {"prompt_tokens"}} for `n` texts.
// Throws BadAnswer naming the field.
Answer parseAnswer(const std::string &body, int status, size_t n)
{
    const json answer = util::parseJsonOrDiscarded(body);
    if (answer.is_discarded())
        throw BadAnswer("the answer is not JSON (HTTP " + std::to_string(status) + ", " + std::to_string(body.size()) +
                        " bytes: \"" + excerpt(body) + "\")");
    if (!answer.is_object())
        throw BadAnswer("the answer is a JSON " + std::string(answer.type_name()) + ", not an object with \"data\"");
    Answer out;
    const auto usage = answer.find("usage");
    if (usage != answer.end() && usage->is_object()) {
        const auto tokens = usage->find("prompt_tokens");
        if (tokens != usage->end() && tokens->is_number_unsigned())
            out.promptTokens = tokens->get<uint64_t>();
    }
    const auto data = answer.find("data");
    if (data == answer.end())
        throw BadAnswer("the answer has no \"data\" (HTTP " + std::to_string(status) + ": \"" + excerpt(body) + "\")");
    if (!data->is_array())
        throw BadAnswer("\"data\" is " + std::string(data->type_name()) + ", not an array");
    if (data->size() != n)
        throw BadAnswer("\"data\" has " + std::to_string(data->size()) + " entries for " + std::to_string(n) +
                        " texts");
    out.vectors.resize(n);
    out.from.resize(n);
    for (size_t j = 0; j < n; ++j) {
        const json &entry = (*data)[j];
        const std::string field = "data[" + std::to_string(j) + "]";
        if (!entry.is_object())
            throw BadAnswer(field + " is " + std::string(entry.type_name()) + ", not an object");
        size_t index = j; // no "index": array order
        const auto idx = entry.find("index");
        if (idx != entry.end()) {
            if (!idx->is_number_unsigned() || idx->get<uint64_t>() >= n)
                throw BadAnswer(field + ".index is " + idx->dump() + ", not 0 to " + std::to_string(n - 1));
            index = idx->get<size_t>();
        }
        if (!out.vectors[index].empty())
            throw BadAnswer(field + ".index " + std::to_string(index) + " repeats data[" +
                            std::to_string(out.from[index]) + "].index");
        const auto embedding = entry.find("embedding");
        if (embedding == entry.end())
            throw BadAnswer(field + " has no \"embedding\"");
        out.vectors[index] = readVector(*embedding, field + ".embedding");
        out.from[index] = j;
    }
    return out;
}

} // namespace

std::string HttpEmbedder::endpointUrl(const std::string &url)
{
    return net::endpointUrl(net::parseUrl(url, "http embedder"), "embeddings").text();
}

HttpEmbedder::HttpEmbedder(const Options &options) : m_options(options)
{
    net::ClientOptions client = net::clientOptions(options.server, "http embedder", "embeddings");
    m_endpoint = client.target.text();

    const auto bad = [&](const std::string &what) {
        return std::invalid_argument("http embedder " + m_endpoint + ": " + what);
    };
    if (options.batchSize < 1)
        throw bad("batch size must be at least 1, not " + std::to_string(options.batchSize));
    if (options.encodingFormat != "float" && options.encodingFormat != "base64")
        throw bad("encoding format must be \"float\" or \"base64\", not \"" + options.encodingFormat + "\"");
    if (options.dimensions < 0)
        throw bad("dimensions must be 0 (the model's own) or more, not " + std::to_string(options.dimensions));
    if (options.model.find('#') != std::string::npos)
        throw bad("the model name may not contain #");
    m_client = std::make_unique<net::JsonHttpClient>(std::move(client)); // checks the timeouts and retries
    m_dimension = options.dimensions;
}

HttpEmbedder::~HttpEmbedder() = default;

std::string HttpEmbedder::name() const
{
    return "http:" + m_endpoint + "#" + m_options.model;
}

HttpEmbedderStats HttpEmbedder::stats() const
{
    std::lock_guard<std::mutex> lock(m_statsMutex);
    return m_stats;
}

int HttpEmbedder::dimension() const
{
    int d = m_dimension.load();
    if (d > 0)
        return d;
    std::lock_guard<std::mutex> lock(m_probeMutex);
    d = m_dimension.load();
    if (d > 0)
        return d;
    try {
        embedBatch({m_options.documentPrefix + kProbeText});
    } catch (const std::runtime_error &e) {
        throw std::runtime_error(std::string(e.what()) + " (while learning the dimension)");
    }
    return m_dimension.load();
}

std::vector<std::vector<float>> HttpEmbedder::embed(const std::vector<std::string> &texts, EmbedRole role) const
{
    const std::string &prefix = role == EmbedRole::Query ? m_options.queryPrefix : m_options.documentPrefix;
    std::vector<size_t> sent; // positions of the texts sent
    sent.reserve(texts.size());
    for (size_t i = 0; i < texts.size(); ++i)
        if (!isBlank(texts[i]))
            sent.push_back(i);

    std::vector<std::vector<float>> out(texts.size());
    const size_t batch = static_cast<size_t>(m_options.batchSize);
    std::vector<std::string> inputs;
    for (size_t start = 0; start < sent.size(); start += batch) {
        const size_t end = std::min(sent.size(), start + batch);
        inputs.clear();
        for (size_t k = start; k < end; ++k)
            inputs.push_back(prefix + texts[sent[k]]);
        std::vector<std::vector<float>> vectors = embedBatch(inputs);
        for (size_t k = start; k < end; ++k)
            out[sent[k]] = std::move(vectors[k - start]);
    }
    if (sent.size() < texts.size()) {
        const size_t d = static_cast<size_t>(dimension());
        for (std::vector<float> &v : out)
            if (v.empty())
                v.assign(d, 0.0f);
    }
    return out;
}

void HttpEmbedder::checkDimension(int n, const std::string &field) const
{
    int expected = 0;
    if (m_dimension.compare_exchange_strong(expected, n) || expected == n)
        return;
    throw BadAnswer(field + " has " + std::to_string(n) + " values, expected " + std::to_string(expected) +
                    (m_options.dimensions > 0 ? " (the dimensions option)" : " (as in the first response)"));
}

std::vector<std::vector<float>> HttpEmbedder::embedBatch(const std::vector<std::string> &inputs) const
{
    json request = json::object();
    if (!m_options.model.empty())
        request["model"] = m_options.model;
    request["input"] = inputs;
    request["encoding_format"] = m_options.encodingFormat;
    if (m_options.dimensions > 0)
        request["dimensions"] = m_options.dimensions;
    // Invalid UTF-8 in a text becomes U+FFFD rather than an exception.
    const std::string body = request.dump(-1, ' ', false, json::error_handler_t::replace);

    Answer answer;
    const auto check = [&](const std::string &reply, int status) {
        try {
            answer = parseAnswer(reply, status, inputs.size());
            // One length within the answer, and the same as before.
            for (size_t i = 1; i < answer.vectors.size(); ++i)
                if (answer.vectors[i].size() != answer.vectors[0].size())
                    throw BadAnswer("data[" + std::to_string(answer.from[i]) + "].embedding has " +
                                    std::to_string(answer.vectors[i].size()) + " values, but data[" +
                                    std::to_string(answer.from[0]) + "].embedding has " +
                                    std::to_string(answer.vectors[0].size()));
            checkDimension(static_cast<int>(answer.vectors[0].size()),
                           "data[" + std::to_string(answer.from[0]) + "].embedding");
        } catch (const BadAnswer &e) {
            throw BadAnswer(std::string(e.what()) + " (in the answer to " + std::to_string(inputs.size()) + " texts)");
        }
    };
    const auto account = [&](bool ok, int attemptsMade, double seconds) {
        std::lock_guard<std::mutex> lock(m_statsMutex);
        m_stats.requests += static_cast<uint64_t>(attemptsMade);
        m_stats.retries += static_cast<uint64_t>(std::max(0, attemptsMade - 1));
        m_stats.seconds += seconds;
        if (ok) {
            m_stats.texts += inputs.size();
            m_stats.promptTokens += answer.promptTokens;
        } else {
            ++m_stats.failures;
        }
    };
    const auto start = std::chrono::steady_clock::now();
    try {
        const net::CallResult result = m_client->post(body, check);
        account(true, result.attempts, result.seconds);
    } catch (const net::CallError &e) {
        account(false, e.attempts, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        throw std::runtime_error(e.what());
    }
    for (std::vector<float> &v : answer.vectors)
        normalize(v);
    return std::move(answer.vectors);
}

} // namespace rwb::embed
