#include "train/environmentrollout.h"

#include "model/batchdecoder.h"
#include "model/rowdraw.h"
#include "tokenizer/tokenizer.h"
#include "util/rng.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string_view>

namespace rwb::train {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// A row of the multi-step batch: what it has written and where it stands.
struct Row {
    int handle = -1;
    size_t prompt = 0;             // its prompt (and example)
    RolloutRow out;
    std::vector<int32_t> segment;  // the policy's tokens since the last reply
    bool finished = false;
};

class MultiStep {
public:
    MultiStep(model::CausalLM &lm, const tokenizer::Tokenizer &tok, const std::vector<const task::Example *> &examples,
              const RolloutOptions &o, RolloutStats &stats)
        : m_decoder(lm, o.sampling.vocabLimit), m_tok(tok), m_examples(examples), m_o(o), m_stats(stats)
    {
        for (const std::string &p : o.environment->pauses())
            m_longestPause = std::max(m_longestPause, p.size());
    }

    std::vector<RolloutRow> run(const std::vector<std::vector<int32_t>> &prompts, int g)
    {
        std::vector<Row> rows(prompts.size() * static_cast<size_t>(g));
        auto t0 = Clock::now();
        for (size_t b = 0; b < prompts.size(); ++b) {
            std::vector<model::RowSampling> samplings;
            for (int j = 0; j < g; ++j) {
                const uint64_t r = b * static_cast<size_t>(g) + static_cast<size_t>(j);
                model::RowSampling s;
                s.temperature = m_o.sampling.temperature;
                s.topP = m_o.sampling.topP;
                s.topK = m_o.sampling.topK;
                s.minP = m_o.sampling.minP;
                s.seed = model::rowSeed(m_o.sampling.seed, m_o.sampling.firstRow + r);
                s.logProbsAtTemperature = true;
                samplings.push_back(s);
            }
            const std::vector<model::SampledToken> first = m_decoder.add(prompts[b], samplings);
            for (int j = 0; j < g; ++j) {
                Row &row = rows[b * static_cast<size_t>(g) + static_cast<size_t>(j)];
                row.handle = first[static_cast<size_t>(j)].row;
                row.prompt = b;
            }
            m_stats.generationSeconds += since(t0);
            for (const model::SampledToken &t : first)
                take(rowOf(rows, t.row), t);
            t0 = Clock::now();
        }
        sweep(rows);
        while (m_decoder.rows() > 0) {
            t0 = Clock::now();
            const std::vector<model::SampledToken> tokens = m_decoder.step();
            m_stats.generationSeconds += since(t0);
            for (const model::SampledToken &t : tokens) {
                Row &row = rowOf(rows, t.row);
                if (!row.finished)
                    take(row, t);
            }
            sweep(rows);
        }
        std::vector<RolloutRow> out;
        out.reserve(rows.size());
        for (Row &r : rows)
            out.push_back(std::move(r.out));
        return out;
    }

private:
    static Row &rowOf(std::vector<Row> &rows, int handle)
    {
        for (Row &r : rows)
            if (r.handle == handle)
                return r;
        throw std::logic_error("environment rollout: a token for an unknown row");
    }

    // Rows that finished leave the decoder.
    void sweep(std::vector<Row> &rows)
    {
        std::vector<int> gone;
        for (Row &r : rows)
            if (r.finished && r.handle >= 0) {
                gone.push_back(r.handle);
                r.handle = -1;
            }
        if (!gone.empty())
            m_decoder.remove(gone);
    }

    void closeSegment(Row &r)
    {
        r.out.text += m_tok.decode(r.segment, /*skipSpecial=*/true);
        r.segment.clear();
    }

    void finish(Row &r, bool truncated)
    {
        closeSegment(r);
        r.out.truncated = truncated;
        r.finished = true;
    }

    // Whether the row's text now ends with a pause tag.
    bool paused(const Row &r) const
    {
        const size_t tail = std::min<size_t>(r.segment.size(), m_longestPause + 1);
        const std::string end = m_tok.decode(std::vector<int32_t>(r.segment.end() - static_cast<long>(tail), r.segment.end()),
                                             /*skipSpecial=*/true);
        for (const std::string &p : m_o.environment->pauses())
            if (end.size() >= p.size() && std::string_view(end).substr(end.size() - p.size()) == p)
                return true;
        return false;
    }

    // Takes a row's sampled token; a reply feeds the row and samples its next token.
    void take(Row &r, model::SampledToken t)
    {
        const std::vector<int32_t> &stops = m_o.sampling.stopTokens;
        const int64_t context = m_decoder.contextLength();
        for (;;) {
            r.out.tokens.push_back(t.id);
            r.out.logProbs.push_back(t.logProb);
            r.out.fromEnvironment.push_back(0);
            r.out.policyTokens += 1;
            if (std::find(stops.begin(), stops.end(), t.id) != stops.end()) {
                finish(r, false);
                return;
            }
            r.segment.push_back(t.id);
            if (paused(r)) {
                // No reply the policy could not go on from: out of turns or of tokens.
                if (r.out.turns >= m_o.maxTurns || r.out.policyTokens >= m_o.sampling.maxNewTokens) {
                    finish(r, true);
                    return;
                }
                closeSegment(r);
                const auto e0 = Clock::now();
                const task::EnvironmentReply reply = m_o.environment->respond(*m_examples[r.prompt], r.out.text);
                const std::vector<int32_t> ids = m_tok.encode(reply.text);
                m_stats.environmentSeconds += since(e0);
                if (context > 0 && m_decoder.length(r.handle) + static_cast<int64_t>(ids.size()) + 1 >= context) {
                    finish(r, true);
                    return;
                }
                r.out.text += reply.text;
                r.out.tokens.insert(r.out.tokens.end(), ids.begin(), ids.end());
                r.out.logProbs.insert(r.out.logProbs.end(), ids.size(), 0.0f);
                r.out.fromEnvironment.insert(r.out.fromEnvironment.end(), ids.size(), 1);
                r.out.turns += 1;
                m_stats.environmentTokens += static_cast<int64_t>(ids.size());
                const auto g0 = Clock::now();
                t = m_decoder.extend(r.handle, ids);
                m_stats.generationSeconds += since(g0);
                continue;
            }
            const int sinceTurn = static_cast<int>(r.segment.size());
            if (r.out.policyTokens >= m_o.sampling.maxNewTokens ||
                (m_o.maxTurnTokens > 0 && sinceTurn >= m_o.maxTurnTokens) ||
                (context > 0 && m_decoder.length(r.handle) + 1 >= context))
                finish(r, true);
            return;
        }
    }

    model::BatchDecoder m_decoder;
    const tokenizer::Tokenizer &m_tok;
    const std::vector<const task::Example *> &m_examples;
    const RolloutOptions &m_o;
    RolloutStats &m_stats;
    size_t m_longestPause = 0;
};

} // namespace

std::vector<RolloutRow> generateRollouts(model::CausalLM &lm, const tokenizer::Tokenizer &tokenizer,
                                         const std::vector<const task::Example *> &examples,
                                         const std::vector<std::vector<int32_t>> &prompts, int samplesPerPrompt,
                                         const RolloutOptions &options, RolloutStats *stats)
{
    RolloutStats local;
    RolloutStats &st = stats ? *stats : local;
    if (samplesPerPrompt < 1)
        throw std::invalid_argument("generateRollouts: samples per prompt must be ≥ 1");
    if (prompts.empty())
        return {};
    if (!options.environment) {
        const model::Generation g = lm.generate(prompts, samplesPerPrompt, options.sampling);
        st.generationSeconds += g.prefillSeconds + g.decodeSeconds;
        std::vector<RolloutRow> out(g.tokens.size());
        for (size_t r = 0; r < out.size(); ++r) {
            RolloutRow &row = out[r];
            row.tokens = g.tokens[r];
            row.logProbs = g.logProbs[r];
            row.truncated = g.truncated[r];
            row.policyTokens = static_cast<int>(row.tokens.size());
            std::vector<int32_t> text = row.tokens;
            if (!text.empty() && !row.truncated)
                text.pop_back();
            row.text = tokenizer.decode(text, /*skipSpecial=*/true);
        }
        return out;
    }
    if (examples.size() != prompts.size())
        throw std::invalid_argument("generateRollouts: " + std::to_string(prompts.size()) + " prompts but " +
                                    std::to_string(examples.size()) + " examples");
    if (options.sampling.maxNewTokens < 1)
        return std::vector<RolloutRow>(prompts.size() * static_cast<size_t>(samplesPerPrompt));
    MultiStep m(lm, tokenizer, examples, options, st);
    return m.run(prompts, samplesPerPrompt);
}

} // namespace rwb::train
