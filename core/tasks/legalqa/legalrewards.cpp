#include "tasks/legalqa/legalrewards.h"

#include "embed/embedder.h"
#include "embed/lexicalembedder.h"
#include "tasks/legalqa/citationmetrics.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace rwb::reward {

namespace {

std::vector<int64_t> retrievedList(const task::LegalQaExample &e)
{
    return {e.retrievedCodes().begin(), e.retrievedCodes().end()};
}

std::string codes(const std::vector<int64_t> &v)
{
    std::string s = "{";
    for (size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "}";
}

} // namespace

// ---- xml_format

double XmlFormatReward::score(const task::LegalQaExample &, const task::LegalQaCompletion &c) const
{
    return c.output().formatOk() ? 1.0 : 0.0;
}

Explanation XmlFormatReward::explain(const task::LegalQaExample &e, const task::LegalQaCompletion &c) const
{
    Explanation x;
    x.reward = "xml_format";
    x.value = score(e, c);
    x.formatName = std::string(eval::legalFormatName(c.output().format));
    x.reason = c.output().formatOk() ? Reason::XmlFormatOk : Reason::XmlFormatBad;
    x.detail = c.output().formatOk() ? "the completion has the <reasoning><answer><citation> format"
                                     : "format broken: " + x.formatName;
    x.cited = c.output().citedCodes;
    return x;
}

// ---- non_hallucination

double NonHallucinationReward::score(const task::LegalQaExample &e, const task::LegalQaCompletion &c) const
{
    if (!c.output().formatOk())
        return 0.0;
    for (int64_t code : c.output().citedCodes)
        if (e.retrievedCodes().count(code))
            return 0.5;
    return 0.0;
}

Explanation NonHallucinationReward::explain(const task::LegalQaExample &e, const task::LegalQaCompletion &c) const
{
    Explanation x;
    x.reward = "non_hallucination";
    x.value = score(e, c);
    x.cited = c.output().citedCodes;
    x.retrievedCodes = retrievedList(e);
    x.formatName = std::string(eval::legalFormatName(c.output().format));
    if (!c.output().formatOk()) {
        x.reason = Reason::FormatBroken;
        x.detail = "the format does not hold (" + x.formatName + "): 0";
    } else if (x.value > 0.0) {
        x.reason = Reason::CitedRetrieved;
        x.detail = "cites " + codes(x.cited) + ", of which at least one is in the prompt " + codes(x.retrievedCodes) + ": 0.5";
    } else {
        x.reason = Reason::NothingRetrievedCited;
        x.detail = "cites " + codes(x.cited) + ", none of them in the prompt " + codes(x.retrievedCodes) + ": 0";
    }
    return x;
}

// ---- citation_f1

double CitationF1Reward::score(const task::LegalQaExample &e, const task::LegalQaCompletion &c) const
{
    return eval::scoreCitations(c.output().citedCodes, e.gold()).f1;
}

Explanation CitationF1Reward::explain(const task::LegalQaExample &e, const task::LegalQaCompletion &c) const
{
    const eval::CitationScore s = eval::scoreCitations(c.output().citedCodes, e.gold());
    Explanation x;
    x.reward = "citation_f1";
    x.value = s.f1;
    x.reason = Reason::CitationsCompared;
    x.cited = c.output().citedCodes;
    x.goldCodes = e.gold();
    x.retrievedCodes = retrievedList(e);
    x.precision = s.precision;
    x.recall = s.recall;
    x.detail = "cited " + codes(x.cited) + " against gold " + codes(x.goldCodes) + ": TP " + std::to_string(s.tp) +
               ", FP " + std::to_string(s.fp) + ", FN " + std::to_string(s.fn);
    return x;
}

// ---- semantic

namespace {

// What semantic compares an answer with: a judged example's reference answer, else the gold.
std::string referenceText(const task::Example &e)
{
    if (const auto *j = dynamic_cast<const task::JudgedExample *>(&e))
        return j->judgeReference();
    return e.goldText();
}

} // namespace

SemanticReward::SemanticReward(std::shared_ptr<const embed::Embedder> embedder, std::string name)
    : m_embedder(std::move(embedder))
    , m_name(std::move(name))
{
    if (!m_embedder)
        throw std::invalid_argument("semantic: no embedding backend");
}

double SemanticReward::score(const task::Example &e, const task::Completion &c) const
{
    if (c.answer().empty())
        return 0.0;
    return std::max(0.0, m_embedder->similarity(c.answer(), referenceText(e)));
}

void SemanticReward::scoreBatch(const std::vector<const task::Example *> &examples,
                                const std::vector<const task::Completion *> &completions,
                                std::vector<double> &out, ScoreLog *) const
{
    out.assign(examples.size(), 0.0);
    if (m_embedder->pairwise()) {
        Reward::scoreBatch(examples, completions, out); // pair by pair (lexical: exact, sparse)
        return;
    }
    // One request for the non-empty answers, one for their distinct references.
    std::vector<std::string> answers, references;
    std::vector<size_t> answerOf(examples.size(), SIZE_MAX), referenceOf(examples.size(), 0);
    std::map<const task::Example *, size_t> seen;
    for (size_t i = 0; i < examples.size(); ++i) {
        const task::Completion &c = *completions[i];
        if (c.answer().empty())
            continue;
        answerOf[i] = answers.size();
        answers.push_back(c.answer());
        auto [it, added] = seen.emplace(examples[i], references.size());
        if (added)
            references.push_back(referenceText(*examples[i]));
        referenceOf[i] = it->second;
    }
    if (answers.empty())
        return;
    const auto a = m_embedder->embed(answers, embed::EmbedRole::Document);
    const auto r = m_embedder->embed(references, embed::EmbedRole::Document);
    for (size_t i = 0; i < examples.size(); ++i)
        if (answerOf[i] != SIZE_MAX)
            out[i] = std::max(0.0, embed::cosine(a[answerOf[i]], r[referenceOf[i]]));
}

Explanation SemanticReward::explain(const task::Example &e, const task::Completion &c) const
{
    Explanation x;
    x.reward = m_name;
    x.value = score(e, c);
    x.embedder = m_embedder->name();
    x.answer = c.answer();
    x.gold = referenceText(e);
    if (c.answer().empty()) {
        x.reason = Reason::EmptyAnswer;
        x.detail = "the answer is empty: 0";
    } else {
        x.reason = Reason::SemanticCompared;
        x.detail = "cosine of answer and reference answer under " + x.embedder;
    }
    return x;
}

} // namespace rwb::reward
