#include "serve/generationscheduler.h"

#include "model/causallm.h"
#include "text/utf8.h"
#include "tokenizer/tokenizer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

namespace rwb::serve {

namespace {

using Clock = std::chrono::steady_clock;

// The most alternatives a token may report (OpenAI's top_logprobs limit).
constexpr int kMaxTopLogprobs = 20;

double secondsBetween(Clock::time_point from, Clock::time_point to)
{
    return std::chrono::duration<double>(to - from).count();
}

// The UTF-8 replacement character as bytes: a U+FFFD that a client wrote, not one made of
// ill-formed bytes.
constexpr std::string_view kReplacementBytes = "\xEF\xBF\xBD";

// bytes[from, to) as UTF-8 (ill-formed sequences as U+FFFD).
std::string utf8Of(const std::string &bytes, size_t from, size_t to)
{
    return text::encodeUtf8(text::decodeUtf8(std::string_view(bytes).substr(from, to - from)));
}

} // namespace

size_t settledUtf8End(std::string_view bytes, size_t from, size_t limit)
{
    limit = std::min(limit, bytes.size());
    size_t end = from;
    while (end < limit) {
        const auto [c, length] = text::decodeCharAt(bytes, end);
        if (end + length > limit)
            break;
        // Ill-formed bytes at the very end may yet be the start of a character.
        if (end + length == bytes.size() && c == 0xFFFD && bytes.substr(end, length) != kReplacementBytes)
            break;
        end += length;
    }
    return end;
}

struct GenerationScheduler::Pending {
    GenerationRequest request;
    std::promise<GenerationResult> promise;
    Clock::time_point submitted;
};

struct GenerationScheduler::Active {
    struct Choice {
        int row = -1;
        GeneratedChoice out;
        std::string bytes;  // the text's raw bytes so far
        std::string text;   // the text of bytes[0, settled) (UTF-8)
        size_t settled = 0; // bytes whose text is known (settledUtf8End)
        bool done = false;
    };
    GenerationRequest request;
    std::promise<GenerationResult> promise;
    Clock::time_point submitted;
    double queueSeconds = 0.0;
    std::vector<Choice> choices;
    size_t open = 0;     // choices not done
    size_t longestStop = 0;
};

GenerationScheduler::GenerationScheduler(std::unique_ptr<model::CausalLM> model,
                                         std::shared_ptr<const tokenizer::Tokenizer> tokenizer,
                                         const SchedulerOptions &options)
    : m_model(std::move(model)), m_tokenizer(std::move(tokenizer)), m_options(options)
{
    if (!m_model || !m_tokenizer)
        throw std::invalid_argument("scheduler: no model or no tokenizer");
    if (m_options.maxBatch < 1)
        throw std::invalid_argument("scheduler: the batch must hold at least 1 row, not " +
                                    std::to_string(m_options.maxBatch));
    if (m_options.prefillTokensPerStep < 1)
        throw std::invalid_argument("scheduler: prefill tokens per step must be at least 1");
    if (m_options.maxQueued < 0)
        throw std::invalid_argument("scheduler: the queue bound must be 0 (none) or more, not " +
                                    std::to_string(m_options.maxQueued));
    m_context = std::max<int64_t>(0, m_model->config().maxPositions);
    m_vocab = m_model->config().vocabSize;
    m_thread = std::thread([this] { run(); });
}

GenerationScheduler::~GenerationScheduler()
{
    shutdown();
}

void GenerationScheduler::shutdown()
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

SchedulerStats GenerationScheduler::stats() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    SchedulerStats s = m_stats;
    s.queued = static_cast<int>(m_queue.size());
    return s;
}

std::future<GenerationResult> GenerationScheduler::submit(GenerationRequest request)
{
    const auto bad = [](const std::string &what) { return std::invalid_argument("scheduler: " + what); };
    if (request.prompt.empty())
        throw bad("an empty prompt");
    if (request.choices.empty() || static_cast<int>(request.choices.size()) > m_options.maxBatch)
        throw bad(std::to_string(request.choices.size()) + " choices; a request may have 1 to " +
                  std::to_string(m_options.maxBatch) + " (the batch's rows)");
    if (request.maxTokens < 1)
        throw bad("max tokens must be at least 1");
    const int64_t promptTokens = static_cast<int64_t>(request.prompt.size());
    if (m_context > 0 && promptTokens + request.maxTokens > m_context)
        throw bad("a prompt of " + std::to_string(promptTokens) + " tokens and " + std::to_string(request.maxTokens) +
                  " new ones exceed the context of " + std::to_string(m_context));
    for (int32_t id : request.prompt)
        if (id < 0 || id >= m_vocab)
            throw bad("token id " + std::to_string(id) + " is outside the vocabulary (" + std::to_string(m_vocab) + ")");
    for (const model::RowSampling &s : request.choices) {
        if (!(s.temperature >= 0.0) || !std::isfinite(s.temperature))
            throw bad("temperature must be a finite number ≥ 0");
        if (!(s.topP > 0.0 && s.topP <= 1.0))
            throw bad("top_p must be in (0, 1]");
        if (s.topLogprobs < 0 || s.topLogprobs > kMaxTopLogprobs)
            throw bad("top_logprobs must be 0 to 20");
    }
    auto pending = std::make_unique<Pending>();
    pending->request = std::move(request);
    pending->submitted = Clock::now();
    std::future<GenerationResult> future = pending->promise.get_future();
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_stopping)
            throw SchedulerStopped();
        if (m_options.maxQueued > 0 && static_cast<int>(m_queue.size()) >= m_options.maxQueued)
            throw SchedulerBusy(static_cast<int>(m_queue.size()));
        m_queue.push_back(std::move(pending));
        ++m_stats.submitted;
    }
    m_wake.notify_one();
    return future;
}

// Under m_mutex: moves the requests that fit into the batch out of the queue.
void GenerationScheduler::admit(std::vector<std::unique_ptr<Pending>> &admitted)
{
    int rows = m_decoder->rows();
    int64_t tokens = 0;
    while (!m_queue.empty()) {
        const Pending &next = *m_queue.front();
        const int n = static_cast<int>(next.request.choices.size());
        if (rows + n > m_options.maxBatch)
            break;
        if (!admitted.empty() && tokens + static_cast<int64_t>(next.request.prompt.size()) > m_options.prefillTokensPerStep)
            break;
        rows += n;
        tokens += static_cast<int64_t>(next.request.prompt.size());
        admitted.push_back(std::move(m_queue.front()));
        m_queue.pop_front();
    }
}

void GenerationScheduler::accept(Active &request, size_t index, const model::SampledToken &token)
{
    Active::Choice &c = request.choices[index];
    if (c.done)
        return;
    c.out.tokens.push_back(token);
    const GenerationRequest &r = request.request;
    GeneratedPiece piece;
    // The text is settled piece by piece, streamed or not, so that a stream's pieces join
    // to exactly the text a plain request gets.
    const auto settle = [&](size_t end) {
        piece.text = utf8Of(c.bytes, c.settled, end);
        c.text += piece.text;
        c.settled = end;
    };
    const auto finish = [&](const char *reason) {
        c.done = true;
        c.out.finishReason = reason;
        settle(c.bytes.size()); // bytes that are not UTF-8 → U+FFFD
        c.out.text = c.text;
        piece.finishReason = reason;
        --request.open;
    };
    const auto emit = [&] {
        if (!r.onPiece)
            return;
        piece.choice = index;
        piece.token = token;
        r.onPiece(std::move(piece));
    };
    if (std::find(r.stopTokens.begin(), r.stopTokens.end(), token.id) != r.stopTokens.end()) {
        c.out.endedByStopToken = true;
        piece.stopToken = true;
        finish("stop");
        return emit();
    }
    const size_t before = c.bytes.size();
    c.bytes += m_tokenizer->decodeBytes({token.id}, /*skipSpecial=*/true, /*atStart=*/c.bytes.empty());
    if (!r.stopStrings.empty() && c.bytes.size() > before) {
        // A stop string may start in earlier bytes and end in this token's.
        const size_t from = before >= request.longestStop ? before - request.longestStop + 1 : 0;
        size_t cut = std::string::npos;
        for (const std::string &stop : r.stopStrings)
            if (!stop.empty())
                cut = std::min(cut, c.bytes.find(stop, from));
        if (cut != std::string::npos) {
            // Bytes that could begin a stop string were held back: cut ≥ c.settled.
            c.bytes.resize(std::max(cut, c.settled));
            finish("stop");
            return emit();
        }
    }
    if (static_cast<int>(c.out.tokens.size()) >= r.maxTokens ||
        (m_context > 0 && m_decoder->length(c.row) >= m_context)) {
        finish("length");
        return emit();
    }
    // The last longestStop − 1 bytes may be the start of a stop string that the next
    // tokens complete: they wait.
    const size_t held = request.longestStop > 0 ? request.longestStop - 1 : 0;
    const size_t limit = c.bytes.size() > held ? c.bytes.size() - held : 0;
    settle(std::max(c.settled, settledUtf8End(c.bytes, c.settled, limit)));
    emit();
}

// Removes the rows of finished choices and answers the requests that are complete.
void GenerationScheduler::finishDone()
{
    std::vector<int> rows;
    for (const auto &a : m_active)
        for (Active::Choice &c : a->choices)
            if (c.done && c.row >= 0) {
                rows.push_back(c.row);
                c.row = -1;
            }
    if (!rows.empty())
        m_decoder->remove(rows);
    const Clock::time_point now = Clock::now();
    uint64_t completed = 0;
    for (auto it = m_active.begin(); it != m_active.end();) {
        Active &a = **it;
        if (a.open > 0) {
            ++it;
            continue;
        }
        GenerationResult result;
        result.promptTokens = static_cast<int64_t>(a.request.prompt.size());
        for (Active::Choice &c : a.choices) {
            result.completionTokens += static_cast<int64_t>(c.out.tokens.size());
            result.choices.push_back(std::move(c.out));
        }
        result.queueSeconds = a.queueSeconds;
        result.totalSeconds = secondsBetween(a.submitted, now);
        a.promise.set_value(std::move(result));
        ++completed;
        it = m_active.erase(it);
    }
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stats.completed += completed;
}

// Answers the requests whose client went away with SchedulerCancelled, in the queue and
// in the batch, and takes their rows out.
void GenerationScheduler::dropCancelled()
{
    const auto isCancelled = [](const GenerationRequest &r) { return r.cancelled && r.cancelled->load(); };
    uint64_t dropped = 0;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        for (auto it = m_queue.begin(); it != m_queue.end();) {
            if (isCancelled((*it)->request)) {
                (*it)->promise.set_exception(std::make_exception_ptr(SchedulerCancelled()));
                it = m_queue.erase(it);
                ++dropped;
            } else {
                ++it;
            }
        }
    }
    std::vector<int> rows;
    for (auto it = m_active.begin(); it != m_active.end();) {
        if (!isCancelled((*it)->request)) {
            ++it;
            continue;
        }
        for (const Active::Choice &c : (*it)->choices)
            if (c.row >= 0)
                rows.push_back(c.row);
        (*it)->promise.set_exception(std::make_exception_ptr(SchedulerCancelled()));
        it = m_active.erase(it);
        ++dropped;
    }
    if (!rows.empty())
        m_decoder->remove(rows);
    if (dropped > 0) {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stats.cancelled += dropped;
    }
}

// Fails every running request with `error` and empties the batch.
void GenerationScheduler::failAll(const std::exception_ptr &error)
{
    std::vector<int> rows;
    for (const auto &a : m_active) {
        for (const Active::Choice &c : a->choices)
            if (c.row >= 0)
                rows.push_back(c.row);
        a->promise.set_exception(error);
    }
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stats.failed += m_active.size();
    }
    m_active.clear();
    try {
        m_decoder->remove(rows);
    } catch (...) { // a decoder that cannot even drop rows: start a new one
        m_decoder = std::make_unique<model::BatchDecoder>(*m_model, m_tokenizer->vocabSize());
    }
}

void GenerationScheduler::run()
{
    model::useCpuThreads(m_options.threads);
    m_decoder = std::make_unique<model::BatchDecoder>(*m_model, m_tokenizer->vocabSize());
    for (;;) {
        std::vector<std::unique_ptr<Pending>> admitted;
        int stepRows = 0;
        double prefillSeconds = 0.0, decodeSeconds = 0.0;
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_wake.wait(lock, [&] { return m_stopping || !m_queue.empty() || !m_active.empty(); });
            if (m_stopping)
                break;
            admit(admitted);
        }
        try {
            // New requests: one prefill each (its choices share it), and their first tokens.
            for (std::unique_ptr<Pending> &p : admitted) {
                auto a = std::make_unique<Active>();
                a->request = std::move(p->request);
                a->promise = std::move(p->promise);
                a->submitted = p->submitted;
                a->queueSeconds = secondsBetween(a->submitted, Clock::now());
                for (const std::string &s : a->request.stopStrings)
                    a->longestStop = std::max(a->longestStop, s.size());
                std::vector<model::SampledToken> first;
                try {
                    const Clock::time_point t0 = Clock::now();
                    first = m_decoder->add(a->request.prompt, a->request.choices);
                    prefillSeconds += secondsBetween(t0, Clock::now());
                } catch (...) {
                    a->promise.set_exception(std::current_exception());
                    std::lock_guard<std::mutex> lock(m_mutex);
                    ++m_stats.failed;
                    continue;
                }
                a->choices.resize(first.size());
                a->open = first.size();
                for (size_t i = 0; i < first.size(); ++i) {
                    a->choices[i].row = first[i].row;
                    accept(*a, i, first[i]);
                }
                m_active.push_back(std::move(a));
            }
            finishDone();
            dropCancelled();
            // One decode step for every running row.
            if (m_decoder->rows() > 0) {
                stepRows = m_decoder->rows();
                const Clock::time_point t0 = Clock::now();
                const std::vector<model::SampledToken> tokens = m_decoder->step();
                decodeSeconds += secondsBetween(t0, Clock::now());
                std::unordered_map<int, std::pair<Active *, size_t>> byRow;
                for (const auto &a : m_active)
                    for (size_t i = 0; i < a->choices.size(); ++i)
                        if (a->choices[i].row >= 0)
                            byRow[a->choices[i].row] = {a.get(), i};
                for (const model::SampledToken &t : tokens) {
                    const auto it = byRow.find(t.row);
                    if (it != byRow.end())
                        accept(*it->second.first, it->second.second, t);
                }
                finishDone();
            }
        } catch (...) {
            failAll(std::current_exception());
        }
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stats.steps = m_decoder->steps();
        m_stats.decodedTokens = m_decoder->decodedTokens();
        m_stats.prefilledTokens = m_decoder->prefilledTokens();
        m_stats.activeRows = m_decoder->rows();
        m_stats.peakRows = std::max(m_stats.peakRows, stepRows);
        m_stats.prefillSeconds += prefillSeconds;
        m_stats.decodeSeconds += decodeSeconds;
    }
    failAll(std::make_exception_ptr(SchedulerStopped()));
    std::lock_guard<std::mutex> lock(m_mutex);
    for (std::unique_ptr<Pending> &p : m_queue)
        p->promise.set_exception(std::make_exception_ptr(SchedulerStopped()));
    m_stats.failed += m_queue.size();
    m_queue.clear();
}

} // namespace rwb::serve
