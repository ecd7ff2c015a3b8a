#include "task/extractiontask.h"

#include "eval/extractionmetrics.h"
#include "tokenizer/promptformat.h"

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

std::string_view ExtractionTask::name() const
{
    return data::kCompanyExtractionTask;
}

std::string_view ExtractionTask::description() const
{
    return "the sender's company from a Japanese business e-mail (the first paper)";
}

std::vector<Record> ExtractionTask::read(const std::string &path, const ReadOptions &options) const
{
    data::ExtractionReadOptions ro;
    ro.requireCompletion = options.requireCompletion;
    ro.skipInvalid = options.skipped != nullptr;
    data::ExtractionReadResult result = data::readExtractionJsonl(path, ro);
    if (options.skipped)
        options.skipped->insert(options.skipped->end(), result.skipped.begin(), result.skipped.end());
    std::vector<Record> out;
    for (data::ExtractionRecord &r : result.records) {
        if (options.limit > 0 && out.size() >= options.limit)
            break;
        Record rec;
        rec.line = r.line;
        rec.kind = r.kind;
        rec.hasCompletion = options.requireCompletion || !r.completion.empty();
        rec.completion = r.completion;
        rec.example = std::make_shared<const ExtractionExample>(std::move(r));
        out.push_back(std::move(rec));
    }
    if (out.empty())
        throw data::InputException({path, 0, "no example"});
    return out;
}

std::string ExtractionTask::prompt(const Example &example, const tokenizer::PromptFormat &format, bool thinking) const
{
    const auto &e = as<reward::ExtractionPrompt>(example);
    return format.extractionPrompt(e.senderEmail(), e.emailText(), thinking);
}

std::string ExtractionTask::sftTarget(const Example &example, bool thinking) const
{
    return tokenizer::PromptFormat::paperCompletion(example.goldText(), "", thinking);
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

} // namespace rwb::task
