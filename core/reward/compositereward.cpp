#include "reward/compositereward.h"

#include "judge/judgeclient.h"
#include "judge/judgeconfig.h"

#include "data/jsonl.h"
#include "reward/registry.h"
#include "embed/embedderfactory.h"
#include "retrieval/corpus.h"

#include <chrono>
#include <cmath>
#include <stdexcept>

namespace rwb::reward {

namespace {

// The config's embedding backend (embed/embedderfactory.h). lexical: fitted on
// embedding_corpus's passages (none: every n-gram weighs alike, a plain TF cosine).
std::shared_ptr<const embed::Embedder> makeEmbedder(const RewardConfig &c, const std::string &source)
{
    embed::EmbedderContext ctx;
    ctx.source = source + ": embedding";
    ctx.options = c.embeddingOptions;
    ctx.baseDir = c.baseDir; // hf:DIR relative to the config's folder, like embedding_corpus
    if (c.embedding == "lexical" && !c.embeddingCorpus.empty()) {
        const retrieval::Corpus corpus = retrieval::Corpus::readJsonl(c.resolvedEmbeddingCorpus());
        for (const retrieval::Passage &p : corpus.passages())
            ctx.corpusTexts.push_back(retrieval::Corpus::embeddingText(p));
    }
    try {
        return embed::makeEmbedder(c.embedding, ctx);
    } catch (const std::invalid_argument &e) {
        throw data::InputException({source, 0, e.what()});
    }
}

} // namespace

CompositeReward::CompositeReward(RewardConfig config, const std::string &source, const Registry &registry)
    : m_config(std::move(config))
{
    validateRewardConfig(m_config, source, registry);
    if (m_config.task.empty())
        m_config.task = registry.defaultTask();
    RewardOptions options;
    if (!m_config.synonyms.empty())
        options.synonyms = std::make_shared<const SynonymTable>(SynonymTable::load(m_config.resolvedSynonyms()));
    for (const RewardComponent &c : m_config.components) {
        const Registry::Entry *e = registry.find(c.reward);
        if (e && e->needsEmbedder && !options.embedder)
            options.embedder = makeEmbedder(m_config, source);
        if (e && e->needsJudge && !options.judge) {
            if (m_config.judge.empty())
                throw data::InputException({source, 0, "judge: missing; the reward \"" + c.reward +
                                                           "\" needs an LLM judge (see docs/judges.md)"});
            try {
                options.judge = std::make_shared<const judge::JudgeClient>(
                    judge::parseJudgeOptions(m_config.judge, source, m_config.baseDir));
            } catch (const std::invalid_argument &ex) {
                throw data::InputException({source, 0, ex.what()});
            } catch (const data::InputException &) {
                throw;
            } catch (const std::runtime_error &ex) { // the cache file
                throw data::InputException({source, 0, ex.what()});
            }
        }
    }
    options.baseDir = m_config.baseDir;
    for (size_t i = 0; i < m_config.components.size(); ++i) {
        const RewardComponent &c = m_config.components[i];
        options.componentOptions = c.options;
        options.label = c.label();
        try {
            m_components.push_back(registry.create(c.reward, options));
        } catch (const std::invalid_argument &ex) {
            throw data::InputException({source, 0, "components[" + std::to_string(i) + "]: " + ex.what()});
        }
    }
}

CompositeReward::~CompositeReward() = default;
CompositeReward::CompositeReward(CompositeReward &&) noexcept = default;
CompositeReward &CompositeReward::operator=(CompositeReward &&) noexcept = default;

void CompositeReward::setWeights(const std::vector<double> &weights)
{
    if (weights.size() != m_components.size())
        throw std::invalid_argument("expected " + std::to_string(m_components.size()) + " weights, got " +
                                    std::to_string(weights.size()));
    double sum = 0.0;
    for (double w : weights) {
        if (!std::isfinite(w) || w < 0.0)
            throw std::invalid_argument("weights must be finite and ≥ 0");
        sum += w;
    }
    if (!(sum > 0.0))
        throw std::invalid_argument("the weights sum to 0");
    for (size_t i = 0; i < weights.size(); ++i)
        m_config.components[i].weight = weights[i];
}

double CompositeReward::combine(const std::vector<double> &values) const
{
    double num = 0.0;
    double den = 0.0;
    for (size_t i = 0; i < m_components.size() && i < values.size(); ++i) {
        const double w = m_config.components[i].weight;
        if (w == 0.0)
            continue; // a component weighed 0 counts for nothing, None or not
        if (isNone(values[i]))
            return kNone;
        num += w * values[i];
        den += w;
    }
    return den > 0.0 ? num / den : 0.0;
}

double CompositeReward::score(const task::Example &prompt, const task::Completion &answer,
                              std::vector<double> &components) const
{
    components.resize(m_components.size());
    for (size_t i = 0; i < m_components.size(); ++i)
        components[i] = m_components[i]->score(prompt, answer);
    return combine(components);
}

std::vector<double> CompositeReward::scoreBatch(const std::vector<const task::Example *> &examples,
                                               const std::vector<const task::Completion *> &completions,
                                               std::vector<std::vector<double>> &components, ScoreLog *log) const
{
    const size_t n = examples.size();
    components.assign(n, std::vector<double>(m_components.size(), 0.0));
    std::vector<double> values;
    for (size_t c = 0; c < m_components.size(); ++c) {
        const auto t0 = std::chrono::steady_clock::now();
        m_components[c]->scoreBatch(examples, completions, values, log);
        if (log)
            log->addMetric("reward_time/" + componentName(c),
                           std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        for (size_t i = 0; i < n; ++i)
            components[i][c] = values[i];
    }
    std::vector<double> totals(n);
    for (size_t i = 0; i < n; ++i)
        totals[i] = combine(components[i]);
    return totals;
}

CompositeReward::Scores CompositeReward::score(const task::Example &prompt, const task::Completion &answer) const
{
    Scores s;
    s.total = score(prompt, answer, s.components);
    return s;
}

std::vector<Explanation> CompositeReward::explain(const task::Example &prompt, const task::Completion &answer) const
{
    std::vector<Explanation> out;
    out.reserve(m_components.size());
    for (const auto &c : m_components)
        out.push_back(c->explain(prompt, answer));
    return out;
}

void CompositeReward::checkExamples(const std::vector<const task::Example *> &examples, const std::string &source) const
{
    for (size_t c = 0; c < m_components.size(); ++c) {
        if (m_config.components[c].weight == 0.0)
            continue;
        for (const task::Example *e : examples) {
            try {
                m_components[c]->checkExample(*e);
            } catch (const std::invalid_argument &ex) {
                throw data::InputException({source, 0, "components[" + std::to_string(c) + "] (" + componentName(c) +
                                                           "): " + ex.what()});
            }
        }
    }
}

} // namespace rwb::reward
