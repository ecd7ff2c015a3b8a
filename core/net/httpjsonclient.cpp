#include "net/httpjsonclient.h"

#include "util/sigpipeguard.h"
#include "util/duration.h"
#include "util/boundedjson.h"

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
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>

namespace rwb::net {

namespace {

using util::Clock;
using json = nlohmann::json;

// Idle connections kept for reuse between calls.
constexpr size_t kMaxIdleConnections = 8;
// The most bytes of a server's error text quoted in a message.
constexpr size_t kMaxQuoted = 300;

using util::secondsSince;

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

// At most kMaxQuoted bytes of `text` (cut at a UTF-8 character boundary), control
// characters and runs of white space as one space.
std::string quoteText(std::string_view text)
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
    const json j = util::parseJsonOrDiscarded(body);
    if (j.is_object()) {
        const auto error = j.find("error");
        if (error != j.end() && error->is_object()) {
            const auto message = error->find("message");
            if (message != error->end() && message->is_string())
                return quoteText(message->get<std::string>());
        }
        if (error != j.end() && error->is_string())
            return quoteText(error->get<std::string>());
        for (const char *key : {"message", "detail"}) {
            const auto it = j.find(key);
            if (it != j.end() && it->is_string())
                return quoteText(it->get<std::string>());
            if (it != j.end() && !it->is_null())
                return quoteText(it->dump());
        }
    }
    return quoteText(body);
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

} // namespace

std::string excerpt(const std::string &text)
{
    return quoteText(text);
}

std::string Url::text() const
{
    return (https ? "https://" : "http://") + hostPort + path + query;
}

std::string redacted(const std::string &url)
{
    // A query with a key in it is left out whole ("?…").
    const size_t query = url.find('?');
    if (query != std::string::npos) {
        std::string lower = url.substr(query);
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
        for (const char *name : {"key=", "token=", "sig="})
            if (lower.find(name) != std::string::npos)
                return redacted(url.substr(0, query)) + "?…";
    }
    const size_t sep = url.find("://");
    const size_t start = sep == std::string::npos ? 0 : sep + 3;
    const size_t end = url.find_first_of("/?#", start);
    const size_t at = url.rfind('@', end == std::string::npos ? std::string::npos : end - 1);
    if (at == std::string::npos || at < start)
        return url;
    return url.substr(0, start) + "…" + url.substr(at);
}

Url parseUrl(const std::string &url, const std::string &who)
{
    const auto bad = [&](const std::string &why) {
        return std::invalid_argument(who + ": URL \"" + redacted(url) + "\" " + why +
                                     " (expected http://host[:port][/path] or https://…)");
    };
    Url p;
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
    const size_t q = rest.find('?');
    if (q != std::string::npos) {
        p.query = rest.substr(q);
        rest.erase(q);
        // A key in the query would end up in messages, stores and cache keys.
        std::string lower = p.query;
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
        for (const char *name : {"key=", "api_key=", "apikey=", "api-key=", "token=", "access_token=", "sig="})
            for (size_t at = lower.find(name); at != std::string::npos; at = lower.find(name, at + 1))
                if (at > 0 && (lower[at - 1] == '?' || lower[at - 1] == '&'))
                    throw bad(std::string("has a key in its query (") + name + "…): give the key in api_key_env instead");
    }
    while (!rest.empty() && rest.back() == '/')
        rest.pop_back();
    p.path = rest;
    return p;
}

Url endpointUrl(Url base, const std::string &endpoint)
{
    const std::string &rest = base.path;
    const std::string tail = "/" + endpoint;
    const bool hasTail = rest.size() >= tail.size() && rest.compare(rest.size() - tail.size(), tail.size(), tail) == 0;
    const size_t lastSlash = rest.rfind('/');
    const std::string last = lastSlash == std::string::npos ? "" : rest.substr(lastSlash + 1);
    const bool version = last.size() >= 2 && last[0] == 'v' && last.find_first_not_of("0123456789", 1) == std::string::npos;
    if (!hasTail)
        base.path = rest + (version ? tail : "/v1" + tail);
    return base;
}

ClientOptions clientOptions(const EndpointOptions &server, const std::string &who, const std::string &endpoint)
{
    ClientOptions c;
    c.who = who;
    c.target = endpointUrl(parseUrl(server.url, who), endpoint);
    c.apiKeyEnv = server.apiKeyEnv;
    c.caCertPath = server.caCertPath;
    c.retry = server.retry;
    c.breaker = server.breaker;
    return c;
}

// One keep-alive connection (a cpp-httplib client), used by one thread at a time.
class JsonHttpClient::Connection {
public:
    explicit Connection(const ClientOptions &options)
    {
        const Url &target = options.target;
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
        // Headers and body go out in two writes: with Nagle's algorithm the body waits for
        // the server's delayed ACK of the headers (40 ms on Linux) on every request.
        client->set_tcp_nodelay(true);
    }
    std::unique_ptr<httplib::ClientImpl> client;
    int answered = 0; // responses this connection has carried
};

JsonHttpClient::JsonHttpClient(ClientOptions options) : m_options(std::move(options))
{
    m_endpoint = m_options.target.text();
    const RetryOptions &r = m_options.retry;
    const auto bad = [&](const std::string &what) {
        return std::invalid_argument(m_options.who + " " + m_endpoint + ": " + what);
    };
    if (m_options.target.host.empty())
        throw bad("no host");
    if (!(r.timeoutSeconds > 0.0) || !std::isfinite(r.timeoutSeconds))
        throw bad("timeout must be a positive number of seconds");
    if (!(r.deadlineSeconds > 0.0) || !std::isfinite(r.deadlineSeconds))
        throw bad("deadline must be a positive number of seconds");
    if (r.maxRetries < 0)
        throw bad("retries must be 0 or more, not " + std::to_string(r.maxRetries));
    if (!(r.backoffSeconds >= 0.0) || !(r.backoffMaxSeconds >= 0.0) || !std::isfinite(r.backoffSeconds) ||
        !std::isfinite(r.backoffMaxSeconds))
        throw bad("backoff must be 0 or more seconds");
    if (m_options.breaker.threshold < 0)
        throw bad("the circuit breaker's threshold must be 0 (none) or more, not " +
                  std::to_string(m_options.breaker.threshold));
    if (!(m_options.breaker.cooldownSeconds >= 0.0) || !std::isfinite(m_options.breaker.cooldownSeconds))
        throw bad("the circuit breaker's cooldown must be 0 or more seconds");
}

JsonHttpClient::~JsonHttpClient() = default;

ClientStats JsonHttpClient::stats() const
{
    std::lock_guard<std::mutex> lock(m_stateMutex);
    return m_stats;
}

std::shared_ptr<JsonHttpClient::Connection> JsonHttpClient::takeConnection() const
{
    {
        std::lock_guard<std::mutex> lock(m_poolMutex);
        if (!m_pool.empty()) {
            std::shared_ptr<Connection> c = std::move(m_pool.back());
            m_pool.pop_back();
            return c;
        }
    }
    return std::make_shared<Connection>(m_options);
}

void JsonHttpClient::cancel() const
{
    std::vector<std::shared_ptr<Connection>> busy;
    {
        std::lock_guard<std::mutex> lock(m_poolMutex);
        m_cancelled = true;
        busy = m_busy;
    }
    m_wake.notify_all();
    // Outside the lock: stop() may wait for a connect in progress. cpp-httplib's stop()
    // shuts the socket of a request in flight down, which ends its read at once.
    for (const std::shared_ptr<Connection> &c : busy)
        c->client->stop();
}

void JsonHttpClient::resume() const
{
    m_cancelled = false;
}

void JsonHttpClient::returnConnection(std::shared_ptr<Connection> connection) const
{
    std::lock_guard<std::mutex> lock(m_poolMutex);
    if (m_pool.size() < kMaxIdleConnections)
        m_pool.push_back(std::move(connection));
}

namespace {
double steadyNow()
{
    return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}
} // namespace

bool JsonHttpClient::admit(std::string &why, bool &trial) const
{
    const BreakerOptions &b = m_options.breaker;
    trial = false;
    std::lock_guard<std::mutex> lock(m_stateMutex);
    if (b.threshold == 0 || m_failuresInRow < b.threshold)
        return true;
    const double now = steadyNow();
    if (now >= m_openUntil && !m_trialInFlight) {
        m_trialInFlight = true; // half open: this call tries, the others wait for it
        trial = true;
        return true;
    }
    ++m_stats.failures;
    ++m_stats.breakerRefusals;
    why = "circuit breaker open after " + std::to_string(m_failuresInRow) + " failed calls in a row" +
          (now < m_openUntil ? "; the next try in " + seconds(m_openUntil - now)
                             : std::string("; a trial call is under way"));
    return false;
}

void JsonHttpClient::settle(bool serverAnswered, bool trial) const
{
    std::lock_guard<std::mutex> lock(m_stateMutex);
    if (trial)
        m_trialInFlight = false;
    if (serverAnswered) {
        m_failuresInRow = 0; // closes the breaker
        return;
    }
    ++m_failuresInRow;
    if (m_options.breaker.threshold > 0 && m_failuresInRow >= m_options.breaker.threshold)
        m_openUntil = steadyNow() + m_options.breaker.cooldownSeconds;
}

CallResult JsonHttpClient::post(const std::string &body, const Check &check) const
{
    if (m_cancelled.load()) {
        std::lock_guard<std::mutex> lock(m_stateMutex);
        ++m_stats.cancelled;
        throw CallError(m_options.who + " " + m_endpoint + ": cancelled (nothing sent)", 0, false, true);
    }
    std::string refused;
    bool trial = false;
    if (!admit(refused, trial))
        throw CallError(m_options.who + " " + m_endpoint + ": " + refused + " (nothing sent)", 0, true);
    // Settles the breaker however the call ends; an exception that is not a failure of the
    // server's (out of memory) still counts as one, so a trial can never stay in flight.
    struct Settlement {
        const JsonHttpClient *client;
        bool trial;
        bool done = false;
        void operator()(bool serverAnswered)
        {
            done = true;
            client->settle(serverAnswered, trial);
        }
        ~Settlement()
        {
            if (!done)
                client->settle(false, trial);
        }
    } settlement{this, trial};

    httplib::Headers headers{{"Accept", "application/json"}};
    bool keySent = false;
    if (!m_options.apiKeyEnv.empty()) {
        const char *key = std::getenv(m_options.apiKeyEnv.c_str());
        if (key && *key) {
            headers.emplace("Authorization", std::string("Bearer ") + key);
            keySent = true;
        }
    }
    const RetryOptions &r = m_options.retry;
    const std::string path = m_options.target.path + m_options.target.query;
    const Clock::time_point start = Clock::now();
    // `serverAnswered`: the server is up, whatever it said (a 4xx, an answer that is not
    // what was asked): only calls that found no working server count towards the breaker.
    const auto account = [&](bool ok, int attemptsMade, bool serverAnswered) {
        {
            std::lock_guard<std::mutex> lock(m_stateMutex);
            ++m_stats.calls;
            m_stats.requests += static_cast<uint64_t>(attemptsMade);
            m_stats.retries += static_cast<uint64_t>(std::max(0, attemptsMade - 1));
            m_stats.seconds += secondsSince(start);
            if (!ok)
                ++m_stats.failures;
        }
        settlement(serverAnswered);
    };
    const auto fail = [&](const std::string &what, int attemptsMade, bool transient) {
        account(false, attemptsMade, !transient);
        return CallError(m_options.who + " " + m_endpoint + ": " + what, attemptsMade, false);
    };
    // cancel() stopped the call: neither the server's failure nor its answer, so the
    // breaker only lets its trial go.
    const auto cancelled = [&](int attemptsMade) {
        {
            std::lock_guard<std::mutex> lock(m_stateMutex);
            m_stats.calls += attemptsMade > 0 ? 1 : 0;
            m_stats.requests += static_cast<uint64_t>(attemptsMade);
            m_stats.retries += static_cast<uint64_t>(std::max(0, attemptsMade - 1));
            m_stats.seconds += secondsSince(start);
            ++m_stats.cancelled;
            if (settlement.trial)
                m_trialInFlight = false;
        }
        settlement.done = true;
        return CallError(m_options.who + " " + m_endpoint + ": cancelled" +
                             (attemptsMade > 0 ? " after " + attempts(attemptsMade) : std::string(" (nothing sent)")),
                         attemptsMade, false, true);
    };

    const int maxAttempts = r.maxRetries + 1;
    for (int attempt = 1;; ++attempt) {
        const double left = r.deadlineSeconds - secondsSince(start);
        const double limit = std::min(r.timeoutSeconds, left);
        std::shared_ptr<Connection> connection = takeConnection();
        setTimeouts(*connection->client, limit);
        {
            std::lock_guard<std::mutex> lock(m_poolMutex);
            if (m_cancelled.load())
                throw cancelled(attempt - 1);
            m_busy.push_back(connection);
        }
        const Clock::time_point sentAt = Clock::now();
        // The response must be whole within the attempt's limit: cpp-httplib's timeouts
        // are per socket read, so a server that trickles a byte at a time would otherwise
        // hold the call for ever. The progress callback cancels it.
        httplib::Request req;
        req.method = "POST";
        req.path = path;
        req.headers = headers;
        req.set_header("Content-Type", "application/json");
        req.body = body;
        req.progress = [&](uint64_t, uint64_t) { return !m_cancelled.load() && secondsSince(sentAt) < limit; };
        // The body through a receiver of our own, which stops at maxReplyBytes (a chunked
        // body has no length to refuse it by).
        std::string reply;
        bool tooLarge = false;
        req.content_receiver = [&](const char *data, size_t n, uint64_t, uint64_t) {
            if (reply.size() + n > m_options.maxReplyBytes) {
                tooLarge = true;
                return false;
            }
            reply.append(data, n);
            return true;
        };
        httplib::Result res = [&] {
            const util::SigpipeGuard guard;
            return connection->client->send(req);
        }();
        if (res)
            res->body = std::move(reply);
        const double took = secondsSince(sentAt);
        {
            std::lock_guard<std::mutex> lock(m_poolMutex);
            m_busy.erase(std::find(m_busy.begin(), m_busy.end(), connection));
        }
        if (!res && m_cancelled.load())
            throw cancelled(attempt);
        if (res)
            ++connection->answered;
        // A keep-alive connection the server closed while it lay idle in the pool (its
        // keep-alive timeout ran out just as this request went: uvicorn's is 5 s, nginx's
        // 75 s): the request did not reach the server, so it goes again at once on a new
        // connection, neither counted as an attempt nor waited for. A new connection never
        // takes this path, so it happens at most once per pooled connection.
        if (!res && connection->answered > 0 &&
            (res.error() == httplib::Error::Read || res.error() == httplib::Error::Write) &&
            took < std::min(1.0, 0.9 * limit)) {
            {
                std::lock_guard<std::mutex> lock(m_stateMutex);
                ++m_stats.staleConnections;
            }
            --attempt;
            continue;
        }

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
                const int rc = getaddrinfo(m_options.target.host.c_str(), nullptr, &hints, &found);
                if (found)
                    freeaddrinfo(found);
                what = rc != 0 ? "host \"" + m_options.target.host + "\" not found (" + gai_strerror(rc) + ")"
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
            case httplib::Error::Canceled:
                if (tooLarge) {
                    what = "the answer is larger than " + std::to_string(m_options.maxReplyBytes >> 20) +
                           " MiB; it was cut off there";
                    retry = false;
                } else {
                    what = "the answer was not complete within " + seconds(limit) + " (timeout; a slow trickle)";
                }
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
                    if (check) {
                        try {
                            check(res->body, status);
                        } catch (const BadAnswer &) {
                            throw;
                        } catch (const std::exception &e) { // a check's own failure: the answer is not usable
                            throw BadAnswer(e.what());
                        }
                    }
                    account(true, attempt, true);
                    CallResult out;
                    out.body = std::move(res->body);
                    out.status = status;
                    out.attempts = attempt;
                    out.seconds = secondsSince(start);
                    return out;
                } catch (const BadAnswer &e) {
                    what = e.what();
                    retry = e.retry;
                }
            } else {
                what = "HTTP " + std::to_string(status) + (res->reason.empty() ? "" : " " + res->reason);
                const std::string message = serverMessage(res->body);
                if (!message.empty())
                    what += ": " + message;
                if (status >= 300 && status < 400)
                    what += res->has_header("Location") ? " (a redirect to " + res->get_header_value("Location") +
                                                              ", not followed: give that URL)"
                                                        : " (a redirect, not followed)";
                if ((status == 401 || status == 403) && !keySent)
                    what += m_options.apiKeyEnv.empty() ? " (no API key was sent: set api_key_env)"
                                                        : " (no API key was sent: environment variable " +
                                                              m_options.apiKeyEnv + " is unset or empty)";
                retry = status == 408 || status == 429 || status >= 500;
                if (status == 429 || status == 503)
                    wait = retryAfterSeconds(*res);
                returnConnection(std::move(connection));
            }
        }

        if (m_cancelled.load())
            throw cancelled(attempt);
        if (!retry)
            throw fail(what + " (not retried)", attempt, false);
        if (attempt >= maxAttempts)
            throw fail(what + "; gave up after " + attempts(attempt) + " in " + seconds(secondsSince(start)), attempt,
                       true);
        const double backoff = std::min(r.backoffMaxSeconds, r.backoffSeconds * std::ldexp(1.0, attempt - 1)) * jitter();
        const double pause = wait >= 0.0 ? wait : backoff;
        if (secondsSince(start) + pause >= r.deadlineSeconds)
            throw fail(what + "; gave up after " + attempts(attempt) + " in " + seconds(secondsSince(start)) +
                           ": the next one (in " + seconds(pause) + (wait >= 0.0 ? ", as Retry-After asks" : "") +
                           ") would start past the deadline of " + seconds(r.deadlineSeconds),
                       attempt, true);
        std::unique_lock<std::mutex> lock(m_poolMutex);
        if (m_wake.wait_for(lock, std::chrono::duration<double>(pause), [&] { return m_cancelled.load(); }))
            throw cancelled(attempt);
    }
}

} // namespace rwb::net
