// Any bytes as what a client sends to `rwb serve`: the gate (serve/headgate.h) reads the
// head under its caps, cpp-httplib parses it, and the routes answer (the reward routes of
// every trainer with a company-extraction config and a store, /v1/embeddings with a
// lexical embedder, /v1/chat/completions with no chat model, /health). Each input is one
// connection on loopback: the bytes, then the write side shut, then every byte of the
// answer read. A crash or a sanitizer report anywhere in the server is the finding; the
// harness also aborts when the server stops answering /health.
#include "embed/lexicalembedder.h"
#include "serve/openaiserver.h"
#include "serve/rewardservice.h"
#include "task/catalog.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

#include <arpa/inet.h>
#include <poll.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef RWB_FUZZ_TEST_DATA
#error "RWB_FUZZ_TEST_DATA names tests/data"
#endif

namespace fs = std::filesystem;

namespace {

struct Served {
    fs::path folder; // the store's, removed at exit
    std::shared_ptr<rwb::serve::RewardService> rewards;
    std::unique_ptr<rwb::serve::OpenAiServer> http;
    Served() = default;
    Served(Served &&) = default;
    ~Served()
    {
        if (http)
            http->stop();
        http.reset();
        rewards.reset();
        std::error_code ec;
        if (!folder.empty())
            fs::remove_all(folder, ec);
    }
};

Served &served()
{
    static Served s = [] {
        const fs::path folder = fs::path(fs::exists("/dev/shm") ? "/dev/shm" : "/tmp") /
                                ("rwb-fuzz-serve-" + std::to_string(getpid()));
        fs::remove_all(folder);
        fs::create_directories(folder);
        rwb::serve::RewardServiceOptions o;
        o.configPath = RWB_FUZZ_TEST_DATA "/cli_config.json";
        o.dataPath = RWB_FUZZ_TEST_DATA "/cli_input.jsonl";
        o.storePath = (folder / "runs.db").string();
        o.stepGapSeconds = 0.5;
        Served r;
        r.folder = folder;
        r.rewards = std::make_shared<rwb::serve::RewardService>(o, rwb::task::Catalog::builtin());
        rwb::serve::ServerOptions so;
        so.port = 0;
        so.threads = 8;
        so.maxBodyBytes = 1 << 20;
        so.apiKey = ""; // the default: no key
        r.http = std::make_unique<rwb::serve::OpenAiServer>(so);
        r.http->start();
        auto embedder = std::make_shared<rwb::embed::LexicalEmbedder>(
            std::vector<std::string>{"Acme Corp", "Globex", "Initech Ltd"});
        r.http->setModels(nullptr, {rwb::serve::EmbeddingModel{"lexical", embedder}}, r.rewards);
        return r;
    }();
    return s;
}

// Sends `bytes` on a new connection, shuts the write side and reads until the server
// closes. Returns the answer's first bytes.
std::string exchange(std::string_view bytes)
{
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        abort();
    timeval tv{30, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(served().http->port()));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    // libFuzzer's timer signal may interrupt a call: connect() then goes on in the
    // background (wait until writable and read its result), send() and recv() are retried.
    if (connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) {
        int error = errno;
        if (error == EINTR) {
            pollfd p{fd, POLLOUT, 0};
            while (poll(&p, 1, 30'000) < 0 && errno == EINTR) {
            }
            socklen_t len = sizeof error;
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len);
        }
        if (error != 0) {
            fprintf(stderr, "connect: %s\n", strerror(error));
            abort();
        }
    }
    size_t sent = 0;
    while (sent < bytes.size()) {
        const ssize_t n = send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; // the server refused and closed: fine
        sent += static_cast<size_t>(n);
    }
    shutdown(fd, SHUT_WR);
    std::string answer;
    char buf[4096];
    for (;;) {
        const ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN) {
            fprintf(stderr, "the server held a connection 30 s after its client finished\n");
            abort();
        }
        if (n <= 0)
            break;
        if (answer.size() < 256)
            answer.append(buf, static_cast<size_t>(n));
    }
    close(fd);
    return answer;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    (void)exchange(std::string_view(reinterpret_cast<const char *>(data), size));
    static int inputs = 0;
    if (++inputs % 500 == 0) {
        const std::string health = exchange("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        if (health.rfind("HTTP/1.1 200", 0) != 0) {
            fprintf(stderr, "/health did not answer 200 after %d inputs: %s\n", inputs, health.c_str());
            abort();
        }
    }
    return 0;
}
