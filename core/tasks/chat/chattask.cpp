#include "tasks/chat/chattask.h"

#include "data/jsonl.h"
#include "text/utf8.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

namespace rwb::task {

namespace {

using json = nlohmann::json;

// The text as a JSON object, or a discarded value when it is not one.
json objectOf(std::string_view text)
{
    json j = util::parseJsonOrDiscarded(text::trimmedAscii(text));
    return j.is_object() ? j : json(json::value_t::discarded);
}

// How a reply compares with its gold.
struct Comparison {
    bool exact = false;
    bool goldIsObject = false;
    bool replyIsObject = false;
    double fieldMatch = 0.0; // when the gold is an object
};

Comparison compare(const ChatExample &e, const ChatCompletion &c)
{
    Comparison out;
    out.exact = c.answer() == text::trimmedAscii(e.record().completion);
    const json gold = objectOf(e.record().completion);
    out.goldIsObject = !gold.is_discarded();
    if (!out.goldIsObject)
        return out;
    const json reply = objectOf(c.answer());
    out.replyIsObject = !reply.is_discarded();
    if (gold.empty()) {
        out.fieldMatch = out.replyIsObject && reply.empty() ? 1.0 : 0.0;
        return out;
    }
    if (!out.replyIsObject)
        return out;
    size_t same = 0;
    for (auto it = gold.begin(); it != gold.end(); ++it)
        if (auto r = reply.find(it.key()); r != reply.end() && *r == it.value())
            ++same;
    out.fieldMatch = static_cast<double>(same) / static_cast<double>(gold.size());
    return out;
}

class ChatMetricSet : public MetricSet {
public:
    void add(const Example &example, const Completion &completion) override
    {
        const Comparison c = compare(as<ChatExample>(example), as<ChatCompletion>(completion));
        ++m_count;
        m_exact += c.exact ? 1 : 0;
        if (c.goldIsObject) {
            ++m_objects;
            m_valid += c.replyIsObject ? 1 : 0;
            m_fieldSum += c.fieldMatch;
        }
    }
    bool correct(const Example &example, const Completion &completion) const override
    {
        return compare(as<ChatExample>(example), as<ChatCompletion>(completion)).exact;
    }
    std::vector<std::pair<std::string, double>> result() const override
    {
        const auto share = [](double n, int64_t d) { return d > 0 ? n / static_cast<double>(d) : 0.0; };
        return {{"exact_match", share(static_cast<double>(m_exact), m_count)},
                {"json_valid", share(static_cast<double>(m_valid), m_objects)},
                {"field_match", share(m_fieldSum, m_objects)}};
    }
    std::vector<std::pair<std::string, int64_t>> counts() const override
    {
        return {{"n", m_count}, {"n_exact", m_exact}, {"n_json_gold", m_objects}, {"n_json_valid", m_valid}};
    }

private:
    int64_t m_count = 0;
    int64_t m_exact = 0;
    int64_t m_objects = 0;
    int64_t m_valid = 0;
    double m_fieldSum = 0.0;
};

enum ChatCategory : size_t { Right, NotJson, FieldMismatch, Different };

} // namespace

ChatExample::ChatExample(data::ChatRecord record) : m_record(std::move(record)) {}

std::string ChatExample::metaJson() const
{
    json line = m_record.line;
    line.erase("completion");
    return line.dump(-1, ' ', false, json::error_handler_t::replace);
}

ChatCompletion::ChatCompletion(std::string text) : m_text(std::move(text)), m_answer(text::trimmedAscii(m_text)) {}

std::string_view ChatTask::name() const
{
    return data::kChatTask;
}

std::string_view ChatTask::description() const
{
    return "reply to a conversation (OpenAI messages); SFT on the replies, e.g. to distil a judge";
}

Record ChatTask::readLine(std::string_view line, const std::string &source, size_t lineNo, bool requireCompletion) const
{
    data::ChatRecord c = data::parseChatLine(line, source, lineNo, requireCompletion);
    Record r;
    r.line = lineNo;
    r.kind = c.label;
    r.hasCompletion = c.hasCompletion;
    r.completion = c.completion;
    r.example = std::make_shared<const ChatExample>(std::move(c));
    return r;
}

std::string ChatTask::prompt(const Example &example, const tokenizer::PromptFormat &format, bool) const
{
    return format.chatPrompt(as<ChatExample>(example).record().messages);
}

std::string ChatTask::sftTarget(const Example &example, bool) const
{
    const data::ChatRecord &r = as<ChatExample>(example).record();
    if (!r.hasCompletion)
        throw std::invalid_argument("example " + r.id + " has no completion to train on");
    return r.completion;
}

std::unique_ptr<Completion> ChatTask::parse(const Example &example, std::string completion, bool) const
{
    as<ChatExample>(example);
    return std::make_unique<ChatCompletion>(std::move(completion));
}

std::unique_ptr<MetricSet> ChatTask::metrics() const
{
    return std::make_unique<ChatMetricSet>();
}

std::string ChatTask::predictionLine(const Example &example, const std::string &completion) const
{
    return data::chatLineWithCompletion(as<ChatExample>(example).record(), completion);
}

std::shared_ptr<const Example> ChatTask::exampleFromStore(const std::string &metaJson, const std::string &gold,
                                                          const std::string &source) const
{
    data::ChatRecord r = data::parseChatLine(metaJson, source, 0, false);
    r.completion = gold;
    r.hasCompletion = true;
    r.line["completion"] = gold;
    return std::make_shared<const ChatExample>(std::move(r));
}

std::vector<FailureCategory> ChatTask::failureCategories() const
{
    return {
        {"exact", "exact match", "The reply is the gold reply (white space at the ends aside)."},
        {"not_json", "not JSON", "The gold reply is a JSON object and the reply is not one."},
        {"field_mismatch", "field mismatch", "Both are JSON objects, but a field of the gold has another value or is missing."},
        {"different", "different", "The gold reply is not a JSON object and the reply differs from it."},
    };
}

size_t ChatTask::failureCategory(const Example &example, const Completion &completion) const
{
    const Comparison c = compare(as<ChatExample>(example), as<ChatCompletion>(completion));
    if (c.exact)
        return Right;
    if (!c.goldIsObject)
        return Different;
    return c.replyIsObject ? FieldMismatch : NotJson;
}

} // namespace rwb::task
