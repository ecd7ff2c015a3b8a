#include "embed/httpembedder.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

// Debian's libcpp-httplib is a compiled library built with TLS, and its classes change
// layout without this macro: every file that includes httplib.h must get pkg-config
// cpp-httplib's flags (CMake: PkgConfig::HTTPLIB).
#ifndef CPPHTTPLIB_OPENSSL_SUPPORT
#error "compile with the flags of pkg-config cpp-httplib (CPPHTTPLIB_OPENSSL_SUPPORT)"
#endif

#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <stdexcept>
#include <thread>

namespace rwb::embed {

namespace {

using Clock = std::chrono::steady_clock;
using json = nlohmann::json;

// Idle connections kept for reuse between embed() calls.
constexpr size_t kMaxIdleConnections = 8;
// The most bytes of a server's error text quoted in a message.
constexpr size_t kMaxQuoted = 300;
// The text sent to learn the dimension when dimension() is asked before any embed().
constexpr const char *kProbeText = "dimension probe";

double secondsSince(Clock::time_point t)
{
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// "0.25 s", "12 s".
std::string seconds(double s)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, s < 10.0 ? "%.2g s" : "%.0f s", s);
    return buf;
}

std::string attempts(int n)
{
    return std::to_string(n) + (n == 1 ? " attempt" : " attempts");
}

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

// At most kMaxQuoted bytes of `text` (cut at a UTF-8 character boundary), control
// characters and runs of white space as one space.
std::string excerpt(std::string_view text)
{
    std::string out;
    bool space = false;
    for (char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == 0x7F || c == ' ') {
            space = !out.empty();
            continue;
        }
        if (space) {
            out += ' ';
            space = false;
        }
        out += ch;
        if (out.size() >= kMaxQuoted) {
            while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80)
                out.pop_back(); // continuation bytes of a cut character
            if (!out.empty() && static_cast<unsigned char>(out.back()) >= 0xC0)
                out.pop_back(); // its lead byte
            out += "…";
            break;
        }
    }
    return out;
}

// The server's own words from an error body: OpenAI, vLLM, llama.cpp and Ollama send
// {"error": {"message"}}, TEI {"error": "…"}, older vLLM {"message"}, FastAPI
// {"detail"}; anything else is quoted as text.
std::string serverMessage(const std::string &body)
{
    const json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (j.is_object()) {
        const auto error = j.find("error");
        if (error != j.end() && error->is_object()) {
            const auto message = error->find("message");
            if (message != error->end() && message->is_string())
                return excerpt(message->get<std::string>());
        }
        if (error != j.end() && error->is_string())
            return excerpt(error->get<std::string>());
        for (const char *key : {"message", "detail"}) {
            const auto it = j.find(key);
            if (it != j.end() && it->is_string())
                return excerpt(it->get<std::string>());
            if (it != j.end() && !it->is_null())
                return excerpt(it->dump());
        }
    }
    return excerpt(body);
}

// Retry-After as delta-seconds ("1", "2.5"); -1 when absent or an HTTP date.
double retryAfterSeconds(const httplib::Response &res)
{
    if (!res.has_header("Retry-After"))
        return -1.0;
    const std::string value = res.get_header_value("Retry-After");
    char *end = nullptr;
    const double s = std::strtod(value.c_str(), &end);
    if (end == value.c_str() || !std::isfinite(s) || s < 0.0)
        return -1.0;
    while (*end == ' ')
        ++end;
    return *end == '\0' ? s : -1.0;
}

// Decodes standard base64 (padding optional). False on any other character.
bool decodeBase64(const std::string &text, std::string &out)
{
    static const auto table = [] {
        std::array<int8_t, 256> t{};
        t.fill(-1);
        const char *alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < 64; ++i)
            t[static_cast<unsigned char>(alphabet[i])] = static_cast<int8_t>(i);
        return t;
    }();
    size_t n = text.size();
    while (n > 0 && text[n - 1] == '=')
        --n;
    if (text.size() - n > 2 || n % 4 == 1)
        return false;
    out.clear();
    out.reserve(n * 3 / 4);
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; ++i) {
        const int v = table[static_cast<unsigned char>(text[i])];
        if (v < 0)
            return false;
        acc = (acc << 6) | static_cast<uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((acc >> bits) & 0xFF);
        }
    }
    return true;
}

// A problem with a 2xx answer; the caller adds the URL.
struct BadAnswer : std::runtime_error {
    using std::runtime_error::runtime_error;
};

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
        if (!decodeBase64(embedding.get_ref<const std::string &>(), bytes))
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

// Blocks SIGPIPE on this thread while it lives, and swallows one raised meanwhile: a
// write to a socket the server has closed (OpenSSL writes without MSG_NOSIGNAL) must
// fail with EPIPE, not kill the process. The process's signal handlers are untouched
// (libpq does the same).
class SigpipeGuard {
public:
    SigpipeGuard()
    {
        sigset_t pipe;
        sigemptyset(&pipe);
        sigaddset(&pipe, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &pipe, &m_old);
        sigset_t pending;
        sigpending(&pending);
        m_wasPending = sigismember(&pending, SIGPIPE) == 1;
    }
    ~SigpipeGuard()
    {
        sigset_t pending;
        sigpending(&pending);
        if (!m_wasPending && sigismember(&pending, SIGPIPE) == 1) {
            sigset_t pipe;
            sigemptyset(&pipe);
            sigaddset(&pipe, SIGPIPE);
            const timespec zero{0, 0};
            sigtimedwait(&pipe, nullptr, &zero);
        }
        pthread_sigmask(SIG_SETMASK, &m_old, nullptr);
    }
    SigpipeGuard(const SigpipeGuard &) = delete;
    SigpipeGuard &operator=(const SigpipeGuard &) = delete;

private:
    sigset_t m_old;
    bool m_wasPending = false;
};

double jitter()
{
    thread_local std::mt19937_64 rng{std::random_device{}()};
    return std::uniform_real_distribution<double>(0.5, 1.0)(rng);
}

void setTimeouts(httplib::ClientImpl &client, double s)
{
    const auto us = std::chrono::microseconds(std::max<int64_t>(1000, static_cast<int64_t>(s * 1e6)));
    client.set_connection_timeout(us);
    client.set_read_timeout(us);
    client.set_write_timeout(us);
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
    const json answer = json::parse(body, nullptr, /*allow_exceptions=*/false);
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

// The parts of the endpoint URL.
struct HttpEmbedder::Target {
    bool https = false;
    std::string host; // an IPv6 address without its brackets
    int port = 0;
    std::string path; // "/v1/embeddings", query string included
};

// One keep-alive connection (a cpp-httplib client), used by one thread at a time.
class HttpEmbedder::Connection {
public:
    Connection(const Target &target, const Options &options)
    {
        if (target.https) {
            // Verifies the certificate chain (the system's store, or caCertPath) and that
            // it names the host (DNS or IP subjectAltName).
            auto ssl = std::make_unique<httplib::SSLClient>(target.host, target.port);
            ssl->enable_server_certificate_verification(true);
            if (!options.caCertPath.empty())
                ssl->set_ca_cert_path(options.caCertPath);
            client = std::move(ssl);
        } else {
            client = std::make_unique<httplib::ClientImpl>(target.host, target.port);
        }
        client->set_keep_alive(true);
        client->set_follow_location(false);
    }
    std::unique_ptr<httplib::ClientImpl> client;
};

namespace {

// Splits http(s)://host[:port][/path][?query] and resolves the path (the rules at
// HttpEmbedderOptions::url). Throws std::invalid_argument naming the URL.
struct ParsedUrl {
    bool https = false;
    std::string host;
    int port = 0;
    std::string hostPort; // as written back into the endpoint URL
    std::string path;
};

// `url` with a user:password@ part shown as "…@", for messages.
std::string redacted(const std::string &url)
{
    const size_t sep = url.find("://");
    const size_t start = sep == std::string::npos ? 0 : sep + 3;
    const size_t end = url.find_first_of("/?#", start);
    const size_t at = url.rfind('@', end == std::string::npos ? std::string::npos : end - 1);
    if (at == std::string::npos || at < start)
        return url;
    return url.substr(0, start) + "…" + url.substr(at);
}

ParsedUrl parseUrl(const std::string &url)
{
    const auto bad = [&](const std::string &why) {
        return std::invalid_argument("http embedder: URL \"" + redacted(url) + "\" " + why +
                                     " (expected http://host[:port][/path] or https://…)");
    };
    ParsedUrl p;
    const size_t sep = url.find("://");
    if (sep == std::string::npos)
        throw bad("has no scheme");
    std::string scheme = url.substr(0, sep);
    std::transform(scheme.begin(), scheme.end(), scheme.begin(), [](unsigned char c) { return std::tolower(c); });
    if (scheme == "https")
        p.https = true;
    else if (scheme != "http")
        throw bad("has scheme \"" + scheme + "\"");
    if (url.find('#') != std::string::npos)
        throw bad("has a fragment (#)");
    const size_t authorityEnd = url.find_first_of("/?", sep + 3);
    const std::string authority = url.substr(sep + 3, authorityEnd == std::string::npos ? std::string::npos
                                                                                         : authorityEnd - sep - 3);
    std::string rest = authorityEnd == std::string::npos ? "" : url.substr(authorityEnd);
    if (authority.find('@') != std::string::npos)
        throw bad("has a user name or password: give the key in api_key_env instead");
    std::string portText;
    bool hasPort = false;
    if (!authority.empty() && authority[0] == '[') {
        const size_t close = authority.find(']');
        if (close == std::string::npos)
            throw bad("has an unclosed [");
        p.host = authority.substr(1, close - 1);
        if (close + 1 < authority.size()) {
            if (authority[close + 1] != ':')
                throw bad("has something after ]");
            hasPort = true;
            portText = authority.substr(close + 2);
        }
        if (p.host.empty() || p.host.find_first_not_of("0123456789abcdefABCDEF:.") != std::string::npos)
            throw bad("has a bad IPv6 address");
    } else {
        const size_t colon = authority.find(':');
        p.host = authority.substr(0, colon);
        if (colon != std::string::npos) {
            hasPort = true;
            portText = authority.substr(colon + 1);
        }
        if (p.host.empty())
            throw bad("has no host");
        for (unsigned char c : p.host)
            if (!std::isalnum(c) && c != '.' && c != '-' && c != '_')
                throw bad("has a bad host name");
    }
    if (hasPort) {
        if (portText.empty() || portText.size() > 5 || portText.find_first_not_of("0123456789") != std::string::npos)
            throw bad("has a bad port");
        p.port = std::stoi(portText);
        if (p.port < 1 || p.port > 65535)
            throw bad("has a port out of range");
    } else {
        p.port = p.https ? 443 : 80;
    }
    p.hostPort = authority;
    std::transform(p.hostPort.begin(), p.hostPort.end(), p.hostPort.begin(),
                   [](unsigned char c) { return std::tolower(c); });

    std::string query;
    const size_t q = rest.find('?');
    if (q != std::string::npos) {
        query = rest.substr(q);
        rest.erase(q);
    }
    while (!rest.empty() && rest.back() == '/')
        rest.pop_back();
    const auto endsWith = [&](const std::string &tail) {
        return rest.size() >= tail.size() && rest.compare(rest.size() - tail.size(), tail.size(), tail) == 0;
    };
    const size_t lastSlash = rest.rfind('/');
    const std::string last = lastSlash == std::string::npos ? "" : rest.substr(lastSlash + 1);
    const bool version = last.size() >= 2 && last[0] == 'v' && last.find_first_not_of("0123456789", 1) == std::string::npos;
    if (endsWith("/embeddings"))
        p.path = rest;
    else if (version)
        p.path = rest + "/embeddings";
    else
        p.path = rest + "/v1/embeddings";
    p.path += query;
    return p;
}

} // namespace

std::string HttpEmbedder::endpointUrl(const std::string &url)
{
    const ParsedUrl p = parseUrl(url);
    return (p.https ? "https://" : "http://") + p.hostPort + p.path;
}

HttpEmbedder::HttpEmbedder(const Options &options) : m_options(options), m_target(std::make_unique<Target>())
{
    const ParsedUrl p = parseUrl(options.url);
    m_endpoint = (p.https ? "https://" : "http://") + p.hostPort + p.path;
    m_target->https = p.https;
    m_target->host = p.host;
    m_target->port = p.port;
    m_target->path = p.path;

    const auto bad = [&](const std::string &what) {
        return std::invalid_argument("http embedder " + m_endpoint + ": " + what);
    };
    if (options.batchSize < 1)
        throw bad("batch size must be at least 1, not " + std::to_string(options.batchSize));
    if (!(options.timeoutSeconds > 0.0) || !std::isfinite(options.timeoutSeconds))
        throw bad("timeout must be a positive number of seconds");
    if (!(options.deadlineSeconds > 0.0) || !std::isfinite(options.deadlineSeconds))
        throw bad("deadline must be a positive number of seconds");
    if (options.maxRetries < 0)
        throw bad("retries must be 0 or more, not " + std::to_string(options.maxRetries));
    if (!(options.backoffSeconds >= 0.0) || !(options.backoffMaxSeconds >= 0.0) ||
        !std::isfinite(options.backoffSeconds) || !std::isfinite(options.backoffMaxSeconds))
        throw bad("backoff must be 0 or more seconds");
    if (options.encodingFormat != "float" && options.encodingFormat != "base64")
        throw bad("encoding format must be \"float\" or \"base64\", not \"" + options.encodingFormat + "\"");
    if (options.dimensions < 0)
        throw bad("dimensions must be 0 (the model's own) or more, not " + std::to_string(options.dimensions));
    if (options.model.find('#') != std::string::npos)
        throw bad("the model name may not contain #");
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

std::unique_ptr<HttpEmbedder::Connection> HttpEmbedder::takeConnection() const
{
    {
        std::lock_guard<std::mutex> lock(m_poolMutex);
        if (!m_pool.empty()) {
            std::unique_ptr<Connection> c = std::move(m_pool.back());
            m_pool.pop_back();
            return c;
        }
    }
    return std::make_unique<Connection>(*m_target, m_options);
}

void HttpEmbedder::returnConnection(std::unique_ptr<Connection> connection) const
{
    std::lock_guard<std::mutex> lock(m_poolMutex);
    if (m_pool.size() < kMaxIdleConnections)
        m_pool.push_back(std::move(connection));
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

    httplib::Headers headers{{"Accept", "application/json"}};
    bool keySent = false;
    if (!m_options.apiKeyEnv.empty()) {
        const char *key = std::getenv(m_options.apiKeyEnv.c_str());
        if (key && *key) {
            headers.emplace("Authorization", std::string("Bearer ") + key);
            keySent = true;
        }
    }

    const Clock::time_point start = Clock::now();
    const auto account = [&](bool ok, int attemptsMade, uint64_t tokens) {
        std::lock_guard<std::mutex> lock(m_statsMutex);
        m_stats.requests += static_cast<uint64_t>(attemptsMade);
        m_stats.retries += static_cast<uint64_t>(attemptsMade - 1);
        m_stats.seconds += secondsSince(start);
        if (ok) {
            m_stats.texts += inputs.size();
            m_stats.promptTokens += tokens;
        } else {
            ++m_stats.failures;
        }
    };
    const auto fail = [&](const std::string &what, int attemptsMade) {
        account(false, attemptsMade, 0);
        return std::runtime_error("http embedder " + m_endpoint + ": " + what);
    };

    const int maxAttempts = m_options.maxRetries + 1;
    for (int attempt = 1;; ++attempt) {
        const double left = m_options.deadlineSeconds - secondsSince(start);
        const double limit = std::min(m_options.timeoutSeconds, left);
        std::unique_ptr<Connection> connection = takeConnection();
        setTimeouts(*connection->client, limit);
        const Clock::time_point sentAt = Clock::now();
        httplib::Result res = [&] {
            const SigpipeGuard guard;
            return connection->client->Post(m_target->path.c_str(), headers, body, "application/json");
        }();
        const double took = secondsSince(sentAt);

        std::string what;     // what went wrong with this attempt
        bool retry = true;    // whether another attempt may help
        double wait = -1.0;   // Retry-After, when the server gave one
        if (!res) {
            const httplib::Error error = res.error();
            switch (error) {
            case httplib::Error::Connection: {
                addrinfo hints{};
                hints.ai_socktype = SOCK_STREAM;
                addrinfo *found = nullptr;
                const int rc = getaddrinfo(m_target->host.c_str(), nullptr, &hints, &found);
                if (found)
                    freeaddrinfo(found);
                what = rc != 0 ? "host \"" + m_target->host + "\" not found (" + gai_strerror(rc) + ")"
                               : "could not connect (connection refused or host unreachable)";
                break;
            }
            case httplib::Error::ConnectionTimeout:
                what = "no connection within " + seconds(limit) + " (timeout)";
                break;
            case httplib::Error::Read:
                what = took >= 0.9 * limit ? "no answer within " + seconds(limit) + " (timeout)"
                                           : "the connection was closed before a complete response";
                break;
            case httplib::Error::Write:
                what = took >= 0.9 * limit ? "could not send the request within " + seconds(limit) + " (timeout)"
                                           : "the connection was closed while sending the request";
                break;
            case httplib::Error::SSLConnection:
                what = "the TLS handshake failed (is it an https server?)";
                retry = false;
                break;
            case httplib::Error::SSLServerVerification:
                what = "the server's TLS certificate could not be verified (for a private CA, set ca_cert)";
                retry = false;
                break;
            case httplib::Error::SSLLoadingCerts:
                what = "cannot load the CA certificates" +
                       (m_options.caCertPath.empty() ? std::string() : " from " + m_options.caCertPath);
                retry = false;
                break;
            default:
                what = "request failed (" + httplib::to_string(error) + ")";
                break;
            }
            // connection is dropped: its socket is in an unknown state
        } else {
            const int status = res->status;
            if (status >= 200 && status < 300) {
                returnConnection(std::move(connection));
                try {
                    Answer answer = parseAnswer(res->body, status, inputs.size());
                    // One length within the answer, and the same as before.
                    for (size_t i = 1; i < answer.vectors.size(); ++i)
                        if (answer.vectors[i].size() != answer.vectors[0].size())
                            throw BadAnswer("data[" + std::to_string(answer.from[i]) + "].embedding has " +
                                            std::to_string(answer.vectors[i].size()) + " values, but data[" +
                                            std::to_string(answer.from[0]) + "].embedding has " +
                                            std::to_string(answer.vectors[0].size()));
                    checkDimension(static_cast<int>(answer.vectors[0].size()),
                                   "data[" + std::to_string(answer.from[0]) + "].embedding");
                    for (std::vector<float> &v : answer.vectors)
                        normalize(v);
                    account(true, attempt, answer.promptTokens);
                    return std::move(answer.vectors);
                } catch (const BadAnswer &e) {
                    throw fail(std::string(e.what()) + " (in the answer to " + std::to_string(inputs.size()) +
                                   " texts; not retried)",
                               attempt);
                }
            }
            what = "HTTP " + std::to_string(status) + (res->reason.empty() ? "" : " " + res->reason);
            const std::string message = serverMessage(res->body);
            if (!message.empty())
                what += ": " + message;
            if (status >= 300 && status < 400)
                what += res->has_header("Location") ? " (a redirect to " + res->get_header_value("Location") +
                                                          ", not followed: give that URL)"
                                                    : " (a redirect, not followed)";
            if ((status == 401 || status == 403) && !keySent)
                what += m_options.apiKeyEnv.empty()
                            ? " (no API key was sent: set api_key_env)"
                            : " (no API key was sent: environment variable " + m_options.apiKeyEnv + " is unset or empty)";
            retry = status == 408 || status == 429 || status >= 500;
            if (status == 429 || status == 503)
                wait = retryAfterSeconds(*res);
            returnConnection(std::move(connection));
        }

        if (!retry)
            throw fail(what + " (not retried)", attempt);
        if (attempt >= maxAttempts)
            throw fail(what + "; gave up after " + attempts(attempt) + " in " + seconds(secondsSince(start)), attempt);
        const double backoff =
            std::min(m_options.backoffMaxSeconds, m_options.backoffSeconds * std::ldexp(1.0, attempt - 1)) * jitter();
        const double pause = wait >= 0.0 ? wait : backoff;
        if (secondsSince(start) + pause >= m_options.deadlineSeconds)
            throw fail(what + "; gave up after " + attempts(attempt) + " in " + seconds(secondsSince(start)) +
                           ": the next one (in " + seconds(pause) + (wait >= 0.0 ? ", as Retry-After asks" : "") +
                           ") would start past the deadline of " + seconds(m_options.deadlineSeconds),
                       attempt);
        std::this_thread::sleep_for(std::chrono::duration<double>(pause));
    }
}

} // namespace rwb::embed
