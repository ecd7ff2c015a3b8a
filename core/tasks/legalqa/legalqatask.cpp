#include "tasks/legalqa/legalqatask.h"

#include "tasks/legalqa/legalrewards.h"
#include "reward/judgerewards.h"
#include "reward/registry.h"

#include "judge/rubric.h"

#include "tasks/legalqa/citationmetrics.h"
#include "tasks/legalqa/legaljudgedata.h"
#include "tasks/legalqa/legalqametrics.h"
#include "tokenizer/promptformat.h"

#include <nlohmann/json.hpp>

namespace rwb::task {

namespace {

std::string verdictName(eval::FactVerdict v)
{
    switch (v) {
    case eval::FactVerdict::Stated: return "stated";
    case eval::FactVerdict::Missing: return "missing";
    case eval::FactVerdict::Contradicted: return "contradicted";
    }
    return "missing";
}

// The gold codes a model could cite: those in the prompt (all of them without sections).
std::vector<int64_t> citableGold(const LegalQaExample &e)
{
    if (e.question().retrieved.empty())
        return e.gold();
    std::vector<int64_t> out;
    for (int64_t code : e.gold())
        if (e.retrievedCodes().count(code))
            out.push_back(code);
    return out;
}

class LegalQaMetricSet : public MetricSet {
public:
    void add(const Example &example, const Completion &completion) override
    {
        const auto &e = as<LegalQaExample>(example);
        const auto &c = as<LegalQaCompletion>(completion);
        m_scorer.add(c.output(), e.gold(), c.grade());
        m_boundSum += eval::scoreCitations(citableGold(e), e.gold()).f1;
        ++m_count;
        // The rubric score s* (the truth the rubric and rating judges are measured against,
        // Rubrics as Rewards' evaluation); a question without facts has no rubric and is
        // not counted.
        if (const std::optional<double> s = c.rubricScore()) {
            m_rubricSum += *s;
            ++m_rubricCount;
        }
    }
    bool correct(const Example &example, const Completion &completion) const override
    {
        const auto &e = as<LegalQaExample>(example);
        const auto &c = as<LegalQaCompletion>(completion);
        const eval::CitationScore s = eval::scoreCitations(c.output().citedCodes, e.gold());
        return s.f1 == 1.0 && c.grade().coverage == 1.0 && c.grade().consistency == 1.0;
    }
    std::vector<std::pair<std::string, double>> result() const override
    {
        auto v = m_scorer.result().values();
        v.emplace_back("citation_f1_bound", m_count ? m_boundSum / static_cast<double>(m_count) : 0.0);
        v.emplace_back("rubric_score", m_rubricCount ? m_rubricSum / static_cast<double>(m_rubricCount) : 0.0);
        return v;
    }
    std::vector<std::pair<std::string, int64_t>> counts() const override
    {
        const eval::LegalQaMetrics m = m_scorer.result();
        return {{"examples", static_cast<int64_t>(m.count)},
                {"coverage_full", static_cast<int64_t>(m.coverageFull)},
                {"coverage_partial", static_cast<int64_t>(m.coveragePartial)},
                {"coverage_none", static_cast<int64_t>(m.coverageNone)},
                {"contradicted", static_cast<int64_t>(m.contradicted)},
                {"cited_nothing", static_cast<int64_t>(m.citation.emptyCited)},
                {"rubric_scored", static_cast<int64_t>(m_rubricCount)}};
    }

private:
    eval::LegalQaScorer m_scorer;
    double m_boundSum = 0.0;
    size_t m_count = 0;
    double m_rubricSum = 0.0;
    size_t m_rubricCount = 0;
};

} // namespace

LegalQaExample::LegalQaExample(data::LegalQuestion question)
    : m_question(std::move(question))
    , m_grader(std::make_unique<eval::LegalReferenceGrader>(m_question.slotValues))
{
    for (const data::RetrievedSection &s : m_question.retrieved)
        m_retrieved.insert(s.lawCode);
    if (!m_question.rubric.empty())
        m_rubric = std::make_unique<judge::Rubric>(
            judge::parseRubricText(m_question.rubric, "question " + m_question.id + ": rubric"));
}

LegalQaExample::~LegalQaExample() = default;

std::string LegalQaExample::goldText() const
{
    std::string s = "[";
    for (size_t i = 0; i < m_question.lawCodes.size(); ++i)
        s += (i ? ", " : "") + std::to_string(m_question.lawCodes[i]);
    return s + "] " + m_question.referenceAnswer;
}

std::string LegalQaExample::metaJson() const
{
    data::LegalQuestion q = m_question;
    q.hasCompletion = false;
    q.completion.clear();
    return data::toJsonLine(q);
}

LegalQaCompletion::LegalQaCompletion(const LegalQaExample &example, std::string text)
    : m_text(std::move(text))
    , m_output(eval::parseLegalOutput(m_text))
    , m_grade(example.grader().grade(m_output.answerText, example.question().facts))
{
    if (!example.question().facts.empty())
        m_rubricScore = judge::legalRubricTruth(example.question(), m_grade).score;
}

std::string LegalQaCompletion::detailsJson() const
{
    nlohmann::ordered_json j;
    j["format"] = std::string(eval::legalFormatName(m_output.format));
    j["cited"] = m_output.citedCodes;
    j["duplicate_citations"] = m_output.duplicateCitations;
    j["invalid_codes"] = m_output.invalidCodes.size();
    j["coverage"] = m_grade.coverage;
    j["consistency"] = m_grade.consistency;
    nlohmann::ordered_json facts = nlohmann::ordered_json::array();
    for (const eval::FactGrade &f : m_grade.facts)
        facts.push_back({{"law_code", f.fact.lawCode},
                         {"slot", f.fact.slot},
                         {"value", f.fact.value},
                         {"verdict", verdictName(f.verdict)}});
    j["facts"] = std::move(facts);
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string_view LegalQaTask::name() const
{
    return data::kLegalQaTask;
}

std::string_view LegalQaTask::description() const
{
    return "answer a legal question from retrieved sections and cite them (the third paper)";
}

namespace {

Record recordOf(data::LegalQuestion q)
{
    Record r;
    r.line = q.line;
    r.kind = q.label.empty() ? q.pattern : q.label;
    r.hasCompletion = q.hasCompletion;
    r.completion = q.completion;
    r.example = std::make_shared<const LegalQaExample>(std::move(q));
    return r;
}

} // namespace

Record LegalQaTask::readLine(std::string_view line, const std::string &source, size_t lineNo,
                             bool requireCompletion) const
{
    return recordOf(data::parseLegalQuestionLine(line, source, lineNo, requireCompletion));
}

std::string LegalQaTask::prompt(const Example &example, const tokenizer::PromptFormat &format, bool) const
{
    const data::LegalQuestion &q = as<LegalQaExample>(example).question();
    std::string body = q.question;
    if (!q.retrieved.empty()) {
        body += "\n\n関連条文\n";
        for (const data::RetrievedSection &s : q.retrieved) {
            body += "<law_code>" + std::to_string(s.lawCode) + "</law_code><context>";
            if (!s.title.empty())
                body += s.title + "：";
            body += s.text + "</context>\n";
        }
        body.pop_back();
    }
    return format.instructionPrompt(body);
}

std::string LegalQaTask::sftTarget(const Example &example, bool) const
{
    const auto &e = as<LegalQaExample>(example);
    std::string out = "<reasoning>" + e.question().reasoning + "</reasoning>\n<answer>" +
                      e.question().referenceAnswer + "</answer>\n<citation>";
    for (int64_t code : citableGold(e))
        out += "<law_code>" + std::to_string(code) + "</law_code>";
    return out + "</citation>";
}

std::unique_ptr<Completion> LegalQaTask::parse(const Example &example, std::string completion, bool) const
{
    return std::make_unique<LegalQaCompletion>(as<LegalQaExample>(example), std::move(completion));
}

std::unique_ptr<MetricSet> LegalQaTask::metrics() const
{
    return std::make_unique<LegalQaMetricSet>();
}

std::string LegalQaTask::predictionLine(const Example &example, const std::string &completion) const
{
    data::LegalQuestion q = as<LegalQaExample>(example).question();
    q.completion = completion;
    q.hasCompletion = true;
    return data::toJsonLine(q);
}

std::shared_ptr<const Example> LegalQaTask::exampleFromStore(const std::string &metaJson, const std::string &,
                                                             const std::string &source) const
{
    return std::make_shared<const LegalQaExample>(data::parseLegalQuestionLine(metaJson, source, 0));
}

namespace {
enum LegalCategory : size_t {
    Right,
    Format,
    Hallucinated,
    MissingCitation,
    WrongCitation,
    Contradiction,
    Incomplete,
};
} // namespace

std::vector<FailureCategory> LegalQaTask::failureCategories() const
{
    return {
        {"right", "right", "Cites exactly the gold sections in the prompt, states every reference fact and contradicts none."},
        {"format", "format", "The completion is not <reasoning>, <answer>, <citation> in that order and nothing else."},
        {"hallucinated_citation", "hallucinated citation", "Cites a law code that is not among the sections in the prompt."},
        {"missing_citation", "missing citation", "Cites no law code."},
        {"wrong_citation", "wrong citation", "Cites sections of the prompt, but not exactly the gold ones (a near-duplicate, one of two, an extra one)."},
        {"contradiction", "contradiction", "Cites the right sections but states a reference fact with another value (a deadline, an amount, an authority)."},
        {"incomplete", "incomplete answer", "Cites the right sections and contradicts nothing, but leaves out a reference fact."},
    };
}

size_t LegalQaTask::failureCategory(const Example &example, const Completion &completion) const
{
    const auto &e = as<LegalQaExample>(example);
    const auto &c = as<LegalQaCompletion>(completion);
    const eval::LegalOutput &o = c.output();
    if (!o.formatOk())
        return Format;
    if (!e.question().retrieved.empty())
        for (int64_t code : o.citedCodes)
            if (!e.retrievedCodes().count(code))
                return Hallucinated;
    if (o.citedCodes.empty())
        return MissingCitation;
    const std::vector<int64_t> gold = citableGold(e);
    if (std::set<int64_t>(o.citedCodes.begin(), o.citedCodes.end()) != std::set<int64_t>(gold.begin(), gold.end()))
        return WrongCitation;
    if (c.grade().consistency < 1.0)
        return Contradiction;
    if (c.grade().coverage < 1.0)
        return Incomplete;
    return Right;
}

void LegalQaTask::addRewards(reward::Registry &r) const
{
    const std::string legal(name());
    using namespace reward;
    r.add({"xml_format", legal, "1 when the completion is <reasoning>…</reasoning><answer>…</answer><citation>…</citation>",
           [](const RewardOptions &) { return std::make_unique<XmlFormatReward>(); }});
    r.add({"non_hallucination", legal, "0.5 when the format holds and a cited law code is among the retrieved sections",
           [](const RewardOptions &) { return std::make_unique<NonHallucinationReward>(); }});
    r.add({"citation_f1", legal, "F1 of the cited law codes against the gold ones",
           [](const RewardOptions &) { return std::make_unique<CitationF1Reward>(); }});
    // semantic and the judge rewards below but coverage and consistency (NitiBench's legal
    // prompts) score every task's completions too (anyTask): a user's task's reference,
    // question and rubric are what its examples give as a task::JudgedExample.
    r.add({"semantic", legal, "cosine similarity of the answer and the reference answer (the config's embedding)",
           [](const RewardOptions &o) {
               return std::make_unique<SemanticReward>(o.embedder, o.label.empty() ? "semantic" : o.label);
           },
           true, false, true});
    // Judge rewards (judgerewards.h): the config's "judge" answers them.
    const auto judged = [](const std::string &name) {
        return [name](const RewardOptions &o) {
            // Under the config's name for it, when it gives one: its decisions are kept by it.
            return makeJudgeReward(name, o.judge, parseJudgeRewardOptions(name, o.componentOptions, o.baseDir), o.label);
        };
    };
    r.add({"coverage", legal, "an LLM judge's coverage of the reference answer's points: none 0, partial 0.5, full 1",
           judged("coverage"), false, true});
    r.add({"consistency", legal, "1 − an LLM judge's contradiction of the reference answer (NitiBench)",
           judged("consistency"), false, true});
    r.add({"rubric_explicit", legal, "Σ w·c / Σ w⁺ over the rubric's items, each judged met or not (Rubrics as Rewards)",
           judged("rubric_explicit"), false, true, true});
    r.add({"rubric_implicit", legal, "an LLM judge's 1–10 rating given the whole rubric, (r − 1) / 9",
           judged("rubric_implicit"), false, true, true});
    r.add({"likert_simple", legal, "an LLM judge's 1–10 rating of the answer alone, (r − 1) / 9",
           judged("likert_simple"), false, true, true});
    r.add({"likert_reference", legal, "an LLM judge's 1–10 rating against the reference answer, (r − 1) / 9",
           judged("likert_reference"), false, true, true});
}

} // namespace rwb::task
