#include "tasks/multihop/multihoptask.h"

#include "tasks/multihop/multihopreferencejudge.h"

#include "tasks/multihop/multihoprewards.h"
#include "reward/registry.h"

#include "data/jsonl.h"
#include "retrieval/bm25index.h"
#include "retrieval/corpus.h"
#include "tokenizer/promptformat.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace rwb::task {

namespace {

class MultihopMetricSet : public MetricSet {
public:
    void add(const Example &, const Completion &completion) override
    {
        const auto &c = as<MultihopCompletion>(completion);
        m_em += c.em();
        m_f1 += c.f1();
        m_format += c.trajectory().wellFormed ? 1 : 0;
        m_hops += static_cast<double>(c.trajectory().hops.size());
        ++m_count;
    }
    bool correct(const Example &, const Completion &completion) const override
    {
        return as<MultihopCompletion>(completion).em() == 1.0;
    }
    std::vector<std::pair<std::string, double>> result() const override
    {
        const double n = m_count ? static_cast<double>(m_count) : 1.0;
        return {{"em", m_em / n}, {"f1", m_f1 / n}, {"format", m_format / n}, {"hops", m_hops / n}};
    }
    std::vector<std::pair<std::string, int64_t>> counts() const override
    {
        return {{"examples", static_cast<int64_t>(m_count)}};
    }

private:
    double m_em = 0, m_f1 = 0, m_format = 0, m_hops = 0;
    size_t m_count = 0;
};

enum MultihopCategory : size_t { Right, Format, Partial, Wrong };

} // namespace

std::string MultihopExample::metaJson() const
{
    data::MultihopQuestion q = m_question;
    q.hasCompletion = false;
    q.completion.clear();
    return data::toJsonLine(q);
}

MultihopCompletion::MultihopCompletion(const MultihopExample &example, std::string text)
    : m_text(std::move(text))
    , m_trajectory(parseTrajectory(m_text))
    , m_answer(m_trajectory.answer.value_or(std::string()))
{
    if (m_trajectory.answer) {
        m_em = exactMatch(m_answer, example.question().answer);
        m_f1 = answerF1(m_answer, example.question().answer);
    }
}

std::string MultihopCompletion::detailsJson() const
{
    nlohmann::ordered_json j;
    j["format"] = m_trajectory.wellFormed ? std::string("ok") : m_trajectory.problem;
    j["hops"] = m_trajectory.hops.size();
    nlohmann::ordered_json subqueries = nlohmann::ordered_json::array();
    for (const TrajectoryHop &h : m_trajectory.hops)
        subqueries.push_back(h.subquery);
    j["subqueries"] = std::move(subqueries);
    j["em"] = m_em;
    j["f1"] = m_f1;
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string retrievalText(const std::vector<data::RetrievedPassage> &passages)
{
    std::string out;
    for (const data::RetrievedPassage &p : passages) {
        if (!out.empty())
            out += "\n";
        if (!p.title.empty())
            out += p.title + "：";
        out += p.text;
    }
    return out;
}

std::string goldHopStep(const data::MultihopStep &step)
{
    return step.entity + "の" + step.relation + "を調べる。";
}

std::string goldFinalStep(const data::MultihopQuestion &question)
{
    return std::to_string(question.chain.size()) + "回の検索で答えが分かった。";
}

std::string_view MultihopTask::name() const
{
    return data::kMultihopTask;
}

std::string_view MultihopTask::description() const
{
    return "answer a multi-hop question by chained retrieval in the step format (the fourth paper)";
}

namespace {

Record recordOf(data::MultihopQuestion q, const std::string &source, bool requireCompletion)
{
    if (requireCompletion && !q.hasCompletion)
        throw data::InputException({source, q.line, "missing field \"completion\""});
    Record r;
    r.line = q.line;
    r.kind = std::to_string(q.hops) + "-hop";
    r.hasCompletion = q.hasCompletion;
    r.completion = q.completion;
    r.example = std::make_shared<const MultihopExample>(std::move(q));
    return r;
}

} // namespace

Record MultihopTask::readLine(std::string_view line, const std::string &source, size_t lineNo,
                              bool requireCompletion) const
{
    return recordOf(data::parseMultihopQuestionLine(line, source, lineNo), source, requireCompletion);
}

std::string MultihopTask::prompt(const Example &example, const tokenizer::PromptFormat &format, bool) const
{
    return format.instructionPrompt(as<MultihopExample>(example).question().question);
}

std::string MultihopTask::sftTarget(const Example &example, bool) const
{
    const data::MultihopQuestion &q = as<MultihopExample>(example).question();
    if (!q.target.empty())
        return q.target;
    if (q.chain.empty())
        throw data::InputException({"question " + q.id, q.line, "no \"chain\": SFT needs the gold steps"});
    std::string out;
    for (size_t i = 0; i < q.chain.size(); ++i) {
        const data::MultihopStep &s = q.chain[i];
        if (s.retrieved.empty())
            throw data::InputException({"question " + q.id, q.line,
                                        "chain[" + std::to_string(i) +
                                            "] has no \"retrieved\" passages: run `rwb retrieve annotate --chain` first"});
        out += "<step>" + goldHopStep(s) + "</step><subquery>" + s.subquery + "</subquery><retrieval>" +
               retrievalText(s.retrieved) + "</retrieval><subanswer>" + s.subanswer + "</subanswer>";
    }
    return out + "<step>" + goldFinalStep(q) + "</step><answer>" + q.answer + "</answer>";
}

std::vector<TextSpan> MultihopTask::noLossSpans(const Example &example, std::string_view target) const
{
    std::vector<TextSpan> spans = environmentSpans(target);
    const data::MultihopQuestion &q = as<MultihopExample>(example).question();
    if (q.target.empty() || q.contextSteps.empty())
        return spans;
    // The context-only steps' byte ranges, in the order stepBlocks cuts them.
    size_t at = 0;
    int index = 0;
    for (const std::string &block : stepBlocks(target)) {
        const size_t begin = target.find(block, at);
        if (begin == std::string_view::npos)
            break;
        if (std::find(q.contextSteps.begin(), q.contextSteps.end(), index) != q.contextSteps.end())
            spans.push_back({begin, begin + block.size()});
        at = begin + block.size();
        ++index;
    }
    // Merge: a context step contains its retrieval.
    std::sort(spans.begin(), spans.end(), [](const TextSpan &a, const TextSpan &b) { return a.begin < b.begin; });
    std::vector<TextSpan> merged;
    for (const TextSpan &s : spans) {
        if (!merged.empty() && s.begin <= merged.back().end)
            merged.back().end = std::max(merged.back().end, s.end);
        else
            merged.push_back(s);
    }
    return merged;
}

std::vector<TextSpan> MultihopTask::environmentSpans(std::string_view text) const
{
    static constexpr std::string_view open = "<retrieval>", close = "</retrieval>";
    std::vector<TextSpan> out;
    size_t at = 0;
    for (;;) {
        const size_t b = text.find(open, at);
        if (b == std::string_view::npos)
            return out;
        const size_t e = text.find(close, b + open.size());
        const size_t end = e == std::string_view::npos ? text.size() : e + close.size();
        out.push_back({b, end});
        at = end;
    }
}

struct MultihopEnvironment::Impl {
    std::unique_ptr<retrieval::Bm25Index> index;
    retrieval::Corpus passages;
    int topK = 2;
};

MultihopEnvironment::MultihopEnvironment(const std::string &indexPath, int topK) : m_d(std::make_unique<Impl>())
{
    if (!std::filesystem::exists(indexPath))
        throw data::InputException({indexPath, 0, "no such retrieval index (build one with `rwb retrieve index`)"});
    if (topK < 1)
        throw data::InputException({indexPath, 0, "top_k must be ≥ 1"});
    m_d->index = std::make_unique<retrieval::Bm25Index>(indexPath);
    m_d->passages = m_d->index->passages();
    m_d->topK = topK;
}

MultihopEnvironment::~MultihopEnvironment() = default;

const std::vector<std::string> &MultihopEnvironment::pauses() const
{
    static const std::vector<std::string> tags{"</subquery>"};
    return tags;
}

EnvironmentReply MultihopEnvironment::retrieve(const std::string &subquery, int topK) const
{
    EnvironmentReply reply;
    std::vector<data::RetrievedPassage> found;
    for (const retrieval::Hit &h : m_d->index->search(subquery, topK)) {
        const retrieval::Passage *p = m_d->passages.find(h.id);
        found.push_back({h.id, p ? p->title : std::string(), p ? p->text : std::string()});
        reply.sources.push_back(h.id);
    }
    reply.text = "<retrieval>" + retrievalText(found) + "</retrieval>";
    return reply;
}

EnvironmentReply MultihopEnvironment::respond(const Example &, std::string_view completion) const
{
    static constexpr std::string_view open = "<subquery>", close = "</subquery>";
    std::string_view text = completion;
    if (text.size() >= close.size() && text.substr(text.size() - close.size()) == close)
        text.remove_suffix(close.size());
    // The current hop only: not a <subquery> quoted in an earlier retrieval's passages.
    if (const size_t lastReply = text.rfind("</retrieval>"); lastReply != std::string_view::npos)
        text.remove_prefix(lastReply + std::string_view("</retrieval>").size());
    const size_t b = text.rfind(open);
    return retrieve(std::string(b == std::string_view::npos ? std::string_view() : text.substr(b + open.size())),
                    m_d->topK);
}

std::unique_ptr<Environment> MultihopTask::environment(const EnvironmentOptions &options) const
{
    if (options.index.empty())
        throw data::InputException({options.source, 0,
                                    "retrieval_index (`--retrieval-index` for rwb eval run): none given, and the multihop task retrieves while it answers "
                                    "(build an index of the knowledge base with `rwb retrieve index`)"});
    return std::make_unique<MultihopEnvironment>(options.index, options.topK);
}

std::unique_ptr<Completion> MultihopTask::parse(const Example &example, std::string completion, bool) const
{
    return std::make_unique<MultihopCompletion>(as<MultihopExample>(example), std::move(completion));
}

std::unique_ptr<MetricSet> MultihopTask::metrics() const
{
    return std::make_unique<MultihopMetricSet>();
}

std::string MultihopTask::predictionLine(const Example &example, const std::string &completion) const
{
    data::MultihopQuestion q = as<MultihopExample>(example).question();
    q.completion = completion;
    q.hasCompletion = true;
    return data::toJsonLine(q);
}

std::shared_ptr<const Example> MultihopTask::exampleFromStore(const std::string &metaJson, const std::string &,
                                                              const std::string &source) const
{
    return std::make_shared<const MultihopExample>(data::parseMultihopQuestionLine(metaJson, source, 0));
}

std::vector<FailureCategory> MultihopTask::failureCategories() const
{
    return {
        {"right", "right", "The answer equals the gold answer (after normalization)."},
        {"format", "format", "The completion does not follow the step format to an <answer>."},
        {"partial", "partial answer", "The answer shares some characters with the gold answer but is not it."},
        {"wrong", "wrong answer", "The answer shares no character with the gold answer."},
    };
}

size_t MultihopTask::failureCategory(const Example &, const Completion &completion) const
{
    const auto &c = as<MultihopCompletion>(completion);
    if (c.em() == 1.0)
        return Right;
    if (!c.trajectory().wellFormed || !c.trajectory().answer)
        return Format;
    return c.f1() > 0.0 ? Partial : Wrong;
}

bool stepFormatOk(std::string_view block)
{
    // The final step is a whole trajectory of its own; a hop is one when an answer follows
    // it (the format's reader checks whole trajectories).
    const Trajectory final = parseTrajectory(block);
    if (final.wellFormed)
        return final.hops.empty() && final.answer.has_value();
    const Trajectory hop = parseTrajectory(std::string(block) + "<step>-</step><answer>-</answer>");
    return hop.wellFormed && hop.hops.size() == 1;
}

std::string MultihopSteps::stepQuestion(const Example &example) const
{
    return as<MultihopExample>(example).question().question;
}

std::optional<double> MultihopSteps::referenceStepScore(const Example &example, std::string_view history,
                                                       std::string_view step) const
{
    // The reference judge's points (multihopreferencejudge.h): 4 for a hop that follows the
    // history, is grounded in its passages and names the gold value, or for the gold answer.
    const data::MultihopQuestion &q = as<MultihopExample>(example).question();
    if (q.chain.empty())
        return std::nullopt;
    return prm::ReferencePairJudge::worth(q, std::string(history), std::string(step)).points / 4.0;
}

bool MultihopSteps::stepWellFormed(std::string_view step) const
{
    return stepFormatOk(step);
}

std::vector<std::string> MultihopSteps::split(std::string_view completion) const
{
    return stepBlocks(completion);
}

std::shared_ptr<const Example> MultihopSteps::questionExample(const std::string &question) const
{
    data::MultihopQuestion q;
    q.id = "prm";
    q.question = question;
    return std::make_shared<const MultihopExample>(std::move(q));
}

std::string MultihopSteps::keptTrajectoryLine(const Example &example, const std::string &id, const std::string &completion,
                                              const std::vector<int> &contextSteps) const
{
    data::MultihopQuestion q = as<MultihopExample>(example).question();
    q.id = id;
    q.hasCompletion = false;
    q.completion.clear();
    q.target = completion;
    q.contextSteps = contextSteps;
    return data::toJsonLine(q);
}

std::string MultihopSteps::stepAnswer(std::string_view finalStep) const
{
    static constexpr std::string_view open = "<answer>", close = "</answer>";
    const size_t b = finalStep.rfind(open);
    if (b == std::string_view::npos)
        return {};
    const size_t from = b + open.size();
    const size_t to = finalStep.size() >= close.size() ? finalStep.size() - close.size() : finalStep.size();
    return to > from ? std::string(finalStep.substr(from, to - from)) : std::string();
}

std::optional<std::string> MultihopSteps::trajectoryAnswer(std::string_view trajectory) const
{
    Trajectory t = parseTrajectory(trajectory);
    if (!t.wellFormed || !t.answer)
        return std::nullopt;
    return std::move(t.answer);
}

double MultihopSteps::answerScore(const Example &example, std::string_view answer, std::string_view metric) const
{
    const std::string &gold = as<MultihopExample>(example).question().answer;
    return metric == "em" ? exactMatch(answer, gold) : answerF1(answer, gold);
}

StepQuestion MultihopSteps::stepQuestionRecord(const Example &example) const
{
    const data::MultihopQuestion &q = as<MultihopExample>(example).question();
    return {q.id, q.question, q.answer, q.goldPassages, q.hops};
}

void MultihopTask::addRewards(reward::Registry &r) const
{
    const std::string multihop(name());
    using namespace reward;
    r.add({"answer_f1", multihop, "F1 of the answer's tokens against the gold answer's (the fourth paper's outcome reward)",
           [](const RewardOptions &) { return std::make_unique<AnswerF1Reward>(); }});
    r.add({"answer_em", multihop, "1 when the answer equals the gold answer after normalization",
           [](const RewardOptions &) { return std::make_unique<AnswerEmReward>(); }});
    r.add({"step_format", multihop, "1 when the completion follows the step format through a retrieval to an <answer>",
           [](const RewardOptions &) { return std::make_unique<StepFormatReward>(); }});
}

} // namespace rwb::task
