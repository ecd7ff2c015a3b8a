#include "tasks/extraction/extractiontask.h"

#include "tasks/extraction/companyrewards.h"
#include "reward/registry.h"

#include "tasks/extraction/extractionmetrics.h"
#include "tokenizer/promptformat.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

namespace rwb::task {

namespace {

class ExtractionMetricSet : public MetricSet {
public:
    void add(const Example &example, const Completion &completion) override
    {
        m_scorer.add(completion.answer(), example.goldText());
    }
    bool correct(const Example &example, const Completion &completion) const override
    {
        eval::ExtractionScorer one;
        one.add(completion.answer(), example.goldText());
        const eval::ExtractionMetrics m = one.result();
        return m.nTp == 1 || (m.nExist == 0 && m.nOutput == 0);
    }
    std::vector<std::pair<std::string, double>> result() const override
    {
        const eval::ExtractionMetrics m = m_scorer.result();
        return {{"precision", m.precision}, {"recall", m.recall}, {"f1", m.f1}};
    }
    std::vector<std::pair<std::string, int64_t>> counts() const override
    {
        const eval::ExtractionMetrics m = m_scorer.result();
        return {{"n_output", static_cast<int64_t>(m.nOutput)},
                {"n_exist", static_cast<int64_t>(m.nExist)},
                {"n_tp", static_cast<int64_t>(m.nTp)}};
    }

private:
    eval::ExtractionScorer m_scorer;
};

} // namespace

ExtractionExample::ExtractionExample(data::ExtractionRecord record)
    : ExtractionPrompt(record.senderEmail, record.emailText, record.gold, record.id)
    , m_record(std::move(record))
{
}

const eval::EmailParties &ExtractionExample::parties() const
{
    std::call_once(m_partiesOnce, [this] { m_parties = eval::partiesOf(m_record); });
    return m_parties;
}

std::string_view ExtractionTask::name() const
{
    return data::kCompanyExtractionTask;
}

std::string_view ExtractionTask::description() const
{
    return "the sender's company from a Japanese business e-mail (the first paper)";
}

namespace {

Record recordOf(data::ExtractionRecord r, bool requireCompletion)
{
    Record rec;
    rec.line = r.line;
    rec.kind = r.kind;
    rec.hasCompletion = requireCompletion || !r.completion.empty();
    rec.completion = r.completion;
    rec.example = std::make_shared<const ExtractionExample>(std::move(r));
    return rec;
}

} // namespace

Record ExtractionTask::readLine(std::string_view line, const std::string &source, size_t lineNo,
                                bool requireCompletion) const
{
    return recordOf(data::parseExtractionLine(line, source, lineNo, requireCompletion), requireCompletion);
}

std::string ExtractionTask::prompt(const Example &example, const tokenizer::PromptFormat &format, bool thinking) const
{
    const auto &e = as<reward::ExtractionPrompt>(example);
    return format.extractionPrompt(e.senderEmail(), e.emailText(), thinking);
}

std::string ExtractionTask::sftTarget(const Example &example, bool thinking) const
{
    // In thinking mode the line's "reasoning" goes inside <thinking> (empty without one, or
    // for an example built in code rather than read from a line).
    const auto *line = dynamic_cast<const ExtractionExample *>(&example);
    return tokenizer::PromptFormat::paperCompletion(example.goldText(), line ? line->record().reasoning : std::string(),
                                                    thinking);
}

std::unique_ptr<Completion> ExtractionTask::parse(const Example &, std::string completion, bool thinking) const
{
    return std::make_unique<reward::ExtractionAnswer>(std::move(completion), thinking);
}

std::unique_ptr<MetricSet> ExtractionTask::metrics() const
{
    return std::make_unique<ExtractionMetricSet>();
}

std::string ExtractionTask::predictionLine(const Example &example, const std::string &completion) const
{
    data::ExtractionRecord r = as<ExtractionExample>(example).record();
    r.completion = completion;
    return data::toJsonLine(r);
}

std::shared_ptr<const Example> ExtractionTask::exampleFromGold(const std::string &gold) const
{
    data::ExtractionRecord record;
    record.gold = gold;
    return std::make_shared<const ExtractionExample>(std::move(record));
}

std::shared_ptr<const Example> ExtractionTask::exampleFromStore(const std::string &metaJson, const std::string &gold,
                                                                const std::string &source) const
{
    nlohmann::json meta;
    try {
        meta = util::parseJson(metaJson);
    } catch (const nlohmann::json::exception &e) {
        throw data::InputException({source, 0, std::string("the prompt's meta_json is not JSON: ") + e.what()});
    }
    data::ExtractionRecord r;
    for (auto [field, target] : {std::pair{"sender_email", &r.senderEmail}, std::pair{"email_text", &r.emailText}}) {
        const auto it = meta.is_object() ? meta.find(field) : meta.end();
        if (!meta.is_object() || it == meta.end() || !it->is_string())
            throw data::InputException({source, 0, std::string("the prompt's meta_json has no string \"") + field + "\""});
        *target = it->get<std::string>();
    }
    r.gold = gold;
    return std::make_shared<const ExtractionExample>(std::move(r));
}

std::vector<FailureCategory> ExtractionTask::failureCategories() const
{
    static_assert(eval::kFailureCategoryCount == 9);
    const std::pair<const char *, const char *> text[] = {
        {"exact", "The prediction equals the gold after normalization (不明 for 不明 too)."},
        {"no answer", "The prediction is empty."},
        {"missed (said 不明)", "The model answered 不明 although the e-mail states the sender's company."},
        {"legal-entity marker only", "Right company, but the legal-entity markers differ."},
        {"named a company where the answer is 不明", "The e-mail does not state the sender's company, but the model named one."},
        {"recipient's company", "The model picked the company the e-mail is addressed to."},
        {"third party's company", "The model picked another company the e-mail mentions."},
        {"invented (not in the input)", "The prediction does not occur in the e-mail or its sender line."},
        {"other wrong span", "In the e-mail, but none of the above (a partial span, a department, a person)."},
    };
    std::vector<FailureCategory> out;
    for (size_t i = 0; i < eval::kFailureCategoryCount; ++i)
        out.push_back({eval::categoryKey(static_cast<eval::FailureCategory>(i)), text[i].first, text[i].second});
    return out;
}

size_t ExtractionTask::failureCategory(const Example &example, const Completion &completion) const
{
    const ExtractionExample &e = as<ExtractionExample>(example);
    return static_cast<size_t>(eval::categorize(e, completion.answer(), e.parties()).category);
}

std::string ExtractionTask::failureDetailsJson(const Example &example, const Completion &completion) const
{
    const ExtractionExample &e = as<ExtractionExample>(example);
    return nlohmann::json{{"source", eval::sourceKey(eval::categorize(e, completion.answer(), e.parties()).source)}}.dump();
}

std::string ExtractionTask::failureExampleJson(const Example &example) const
{
    return nlohmann::json{{"parties_from_data", as<ExtractionExample>(example).parties().fromData}}.dump();
}

void ExtractionTask::addRewards(reward::Registry &r) const
{
    const std::string task(name());
    using namespace reward;
    r.add({"partial", task, "longest common substring ratio of the answer and the gold",
           [](const RewardOptions &) { return std::make_unique<PartialReward>(); }});
    r.add({"marker", task, "partial after removing legal-entity markers (株式会社, (株), …) from both",
           [](const RewardOptions &) { return std::make_unique<MarkerReward>(); }});
    r.add({"exist", task, "1 when the answer occurs in the sender header or the e-mail body",
           [](const RewardOptions &) { return std::make_unique<ExistReward>(); }});
    r.add({"format", task, "1 when the completion is <thinking>…</thinking><answer>…</answer>",
           [](const RewardOptions &) { return std::make_unique<FormatReward>(); }});
    r.add({"domain", task, "best partial between the romanized answer (or a synonym) and the sender's domain",
           [](const RewardOptions &o) {
               return std::make_unique<DomainReward>(o.synonyms ? o.synonyms : SynonymTable::bundled());
           }});
}

} // namespace rwb::task
