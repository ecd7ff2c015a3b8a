#include "serve/chatengine.h"

#include "serve/apierror.h"
#include "tokenizer/promptformat.h"
#include "tokenizer/tokenizer.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <filesystem>
#include <future>
#include <mutex>
#include <random>
#include <sstream>

namespace rwb::serve {

namespace {

// SplitMix64's finalizer: spreads a seed and a choice index over 64 bits, so that the
// choices of one seeded request get unrelated streams.
uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// A seed for a request that names none: fresh for every call.
uint64_t freshSeed()
{
    static std::atomic<uint64_t> counter{std::random_device{}() ^ (uint64_t(std::random_device{}()) << 32)};
    return mix(counter.fetch_add(0x9e3779b97f4a7c15ULL));
}

std::string folderName(const std::string &folder)
{
    std::filesystem::path p(folder);
    while (!p.empty() && p.filename().empty())
        p = p.parent_path();
    const std::string name = p.filename().string();
    return name.empty() ? folder : name;
}

CompletionToken tokenOf(const tokenizer::Tokenizer &tokenizer, int32_t id, float logprob)
{
    CompletionToken t;
    t.id = id;
    t.bytes = tokenizer.decodeBytes({id}, /*skipSpecial=*/false, /*atStart=*/false);
    t.logprob = logprob;
    return t;
}

CompletionLogprob logprobOf(const tokenizer::Tokenizer &tokenizer, const model::SampledToken &t)
{
    CompletionLogprob lp;
    lp.token = tokenOf(tokenizer, t.id, t.logProb);
    for (const model::TokenLogProb &a : t.top)
        lp.top.push_back(tokenOf(tokenizer, a.id, a.logProb));
    return lp;
}

// The scheduler's exceptions as the ApiErrors the server answers with.
[[noreturn]] void rethrowAsApiError(const std::exception_ptr &error)
{
    try {
        std::rethrow_exception(error);
    } catch (const SchedulerCancelled &e) {
        throw ApiError(499, "invalid_request_error", "", "client_closed_request", std::string(e.what()));
    } catch (const SchedulerStopped &e) {
        throw ApiError(503, "server_error", "", "", std::string(e.what()));
    } catch (const SchedulerBusy &e) {
        throw ApiError(503, "server_error", "", "server_busy", std::string(e.what()));
    } catch (const std::invalid_argument &e) { // checked before; the scheduler's own words otherwise
        throw ApiError::invalid("", e.what());
    }
}

} // namespace

ChatEngine::ChatEngine(const std::string &folder, const ChatEngineOptions &options)
    : m_folder(folder), m_name(options.name.empty() ? folderName(folder) : options.name)
{
    m_tokenizer = tokenizer::loadTokenizer(folder);
    m_format = std::make_unique<tokenizer::PromptFormat>(tokenizer::PromptFormat::forModel(folder, *m_tokenizer));
    m_stopTokens = m_format->stopTokenIds(*m_tokenizer);
    std::unique_ptr<model::CausalLM> lm = model::CausalLM::load(folder, options.model);
    std::ostringstream d;
    d << model::familyName(lm->config().family) << ", " << lm->parameterCount() << " parameters, " << lm->dtypeName()
      << " on " << lm->deviceName() << ", " << m_format->name() << " prompts, context " << lm->config().maxPositions;
    m_description = d.str();
    m_scheduler = std::make_unique<GenerationScheduler>(std::move(lm), m_tokenizer, options.scheduler);
}

ChatEngine::~ChatEngine()
{
    shutdown();
}

int64_t ChatEngine::contextLength() const
{
    return m_scheduler->contextLength();
}

int ChatEngine::maxBatch() const
{
    return m_scheduler->options().maxBatch;
}

std::string ChatEngine::formatName() const
{
    return m_format->name();
}

std::string ChatEngine::description() const
{
    return m_description;
}

SchedulerStats ChatEngine::stats() const
{
    return m_scheduler->stats();
}

void ChatEngine::shutdown()
{
    if (m_scheduler)
        m_scheduler->shutdown();
}

std::vector<int32_t> ChatEngine::promptIds(const std::vector<llm::ChatMessage> &messages) const
{
    return m_format->chatPromptIds(messages, *m_tokenizer);
}

GenerationRequest ChatEngine::prepare(const llm::ChatRequest &request) const
{
    const llm::SamplingParams &s = request.sampling;
    if (request.messages.empty())
        throw ApiError::invalid("messages", "messages must hold at least one message");
    for (size_t i = 0; i < request.messages.size(); ++i) {
        const std::string &role = request.messages[i].role;
        if (role != "system" && role != "user" && role != "assistant")
            throw ApiError::invalid("messages[" + std::to_string(i) + "].role",
                                    "'messages[" + std::to_string(i) + "].role' is \"" + role +
                                        "\", not one of system, user, assistant");
    }
    if (s.n < 1 || s.n > maxBatch())
        throw ApiError::invalid("n", "n must be 1 to " + std::to_string(maxBatch()) +
                                         " (the server's --max-batch), not " + std::to_string(s.n));
    if (!(s.temperature >= 0.0 && s.temperature <= 2.0))
        throw ApiError::invalid("temperature", "temperature must be 0 to 2");
    if (!(s.topP > 0.0 && s.topP <= 1.0))
        throw ApiError::invalid("top_p", "top_p must be greater than 0 and at most 1");
    if (s.topLogprobs < 0 || s.topLogprobs > 20)
        throw ApiError::invalid("top_logprobs", "top_logprobs must be 0 to 20");

    GenerationRequest g;
    g.prompt = promptIds(request.messages);
    const int64_t promptTokens = static_cast<int64_t>(g.prompt.size());
    const int64_t context = contextLength();
    if (g.prompt.empty())
        throw ApiError::invalid("messages", "the messages render to no token");
    if (context > 0 && promptTokens >= context)
        throw ApiError(400, "invalid_request_error", "messages", "context_length_exceeded",
                       "This model's maximum context length is " + std::to_string(context) +
                           " tokens. However, your messages resulted in " + std::to_string(promptTokens) +
                           " tokens, which leaves no room for a completion.");
    int64_t maxTokens = s.maxTokens;
    if (maxTokens <= 0)
        maxTokens = context > 0 ? context - promptTokens : 4096;
    if (context > 0 && promptTokens + maxTokens > context)
        throw ApiError(400, "invalid_request_error", "max_tokens", "context_length_exceeded",
                       "This model's maximum context length is " + std::to_string(context) +
                           " tokens. However, you requested " + std::to_string(promptTokens + maxTokens) +
                           " tokens (" + std::to_string(promptTokens) + " in the messages, " +
                           std::to_string(maxTokens) + " in the completion). Please reduce the length of "
                           "the messages or the completion.");
    g.maxTokens = static_cast<int>(std::min<int64_t>(maxTokens, 1 << 30));
    g.stopTokens = m_stopTokens;
    g.stopStrings = s.stop;
    const int top = s.logprobs ? s.topLogprobs : 0;
    for (int i = 0; i < s.n; ++i) {
        model::RowSampling row;
        row.temperature = s.temperature;
        row.topP = s.topP;
        row.seed = s.seed ? mix(static_cast<uint64_t>(*s.seed) ^ mix(static_cast<uint64_t>(i))) : freshSeed();
        row.topLogprobs = top;
        g.choices.push_back(row);
    }
    return g;
}

ChatCompletion ChatEngine::complete(const llm::ChatRequest &request, const std::function<bool()> &clientGone)
{
    const llm::SamplingParams &s = request.sampling;
    GenerationRequest g = prepare(request);
    GenerationResult result;
    try {
        if (clientGone)
            g.cancelled = std::make_shared<std::atomic<bool>>(false);
        const auto cancelled = g.cancelled;
        std::future<GenerationResult> future = m_scheduler->submit(std::move(g));
        // A client that hangs up stops its generation (it would otherwise decode to its end).
        while (clientGone && future.wait_for(std::chrono::milliseconds(10)) != std::future_status::ready)
            if (!cancelled->load() && clientGone())
                cancelled->store(true);
        result = future.get();
    } catch (...) {
        rethrowAsApiError(std::current_exception());
    }

    ChatCompletion out;
    out.model = m_name;
    out.promptTokens = result.promptTokens;
    out.completionTokens = result.completionTokens;
    for (GeneratedChoice &c : result.choices) {
        CompletionChoice choice;
        choice.text = std::move(c.text);
        choice.finishReason = c.finishReason;
        if (s.logprobs) {
            const size_t n = c.tokens.size() - (c.endedByStopToken ? 1 : 0);
            for (size_t k = 0; k < n; ++k)
                choice.logprobs.push_back(logprobOf(*m_tokenizer, c.tokens[k]));
        }
        out.choices.push_back(std::move(choice));
    }
    return out;
}

// The pieces the scheduler thread has handed over and the reader has not taken yet.
struct ChatEngine::Stream::Pieces {
    std::mutex mutex;
    std::condition_variable ready;
    std::vector<GeneratedPiece> pieces;
};

std::unique_ptr<ChatEngine::Stream> ChatEngine::stream(const llm::ChatRequest &request)
{
    GenerationRequest g = prepare(request);
    std::unique_ptr<Stream> out(new Stream);
    out->m_tokenizer = m_tokenizer;
    out->m_pieces = std::make_shared<Stream::Pieces>();
    out->m_cancelled = std::make_shared<std::atomic<bool>>(false);
    out->m_logprobs = request.sampling.logprobs;
    g.cancelled = out->m_cancelled;
    g.onPiece = [pieces = out->m_pieces](GeneratedPiece piece) { // on the scheduler thread
        {
            std::lock_guard<std::mutex> lock(pieces->mutex);
            pieces->pieces.push_back(std::move(piece));
        }
        pieces->ready.notify_one();
    };
    try {
        out->m_future = m_scheduler->submit(std::move(g));
    } catch (...) {
        rethrowAsApiError(std::current_exception());
    }
    return out;
}

ChatEngine::Stream::~Stream()
{
    if (!m_over)
        cancel();
}

void ChatEngine::Stream::cancel()
{
    m_cancelled->store(true);
}

bool ChatEngine::Stream::next(std::vector<CompletionDelta> &out, std::chrono::milliseconds wait)
{
    if (m_over)
        return false;
    std::vector<GeneratedPiece> taken;
    const auto take = [&](bool waiting) {
        std::unique_lock<std::mutex> lock(m_pieces->mutex);
        if (waiting)
            m_pieces->ready.wait_for(lock, wait, [&] { return !m_pieces->pieces.empty(); });
        taken.swap(m_pieces->pieces);
    };
    take(/*waiting=*/true);
    // The pieces come before the future is set: one that is ready now had every piece
    // queued, and a second look takes those that came since the first.
    const bool finished = m_future.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
    if (finished && taken.empty())
        take(/*waiting=*/false);
    // A choice's pieces joined into one delta; the choices in the order of their first piece.
    std::vector<CompletionDelta> deltas;
    for (GeneratedPiece &p : taken) {
        auto it = std::find_if(deltas.begin(), deltas.end(),
                               [&](const CompletionDelta &d) { return d.choice == p.choice; });
        if (it == deltas.end()) {
            deltas.emplace_back();
            it = deltas.end() - 1;
            it->choice = p.choice;
        }
        it->text += p.text;
        if (m_logprobs && !p.stopToken)
            it->logprobs.push_back(logprobOf(*m_tokenizer, p.token));
        if (!p.finishReason.empty())
            it->finishReason = p.finishReason;
    }
    for (CompletionDelta &d : deltas)
        if (!d.text.empty() || !d.logprobs.empty() || !d.finishReason.empty())
            out.push_back(std::move(d));
    if (!finished || !taken.empty())
        return true;
    m_over = true;
    try {
        const GenerationResult result = m_future.get();
        m_promptTokens = result.promptTokens;
        m_completionTokens = result.completionTokens;
    } catch (...) {
        rethrowAsApiError(std::current_exception());
    }
    return false;
}

} // namespace rwb::serve
