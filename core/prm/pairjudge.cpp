#include "prm/pairjudge.h"

#include "judge/judgeclient.h"
#include "judge/verdict.h"

#include <algorithm>
#include <cctype>

namespace rwb::prm {

namespace {

constexpr const char *kSystem =
    "You compare two candidate next steps of an agent that answers multi-hop questions by reasoning in steps and "
    "searching a knowledge base. Each step has a <step> (its reasoning), then either a <subquery> (what to look up), "
    "the <retrieval> the search returned and a <subanswer> (what the passages answer), or a final <answer>.\n"
    "Judge which step is the better next step for answering the question, given the history: is its reasoning "
    "logically valid, does its sub-query look up what the question needs next, does its sub-answer follow from the "
    "retrieved passages, is its answer supported by what was found? Do not prefer a step for its length or its "
    "position. Say \"tie\" only when neither is better.\n"
    "Reply with one JSON object and nothing else: {\"choice\": \"A\" or \"B\" or \"tie\", \"reason\": \"one or two "
    "sentences\"}.";

std::string lowerTrimmed(std::string s)
{
    s.erase(s.begin(), std::find_if(s.begin(), s.end(), [](unsigned char c) { return !std::isspace(c); }));
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.pop_back();
    for (char &c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

Choice unswap(Choice c, bool swapped)
{
    if (!swapped)
        return c;
    return c == Choice::A ? Choice::B : c == Choice::B ? Choice::A : c;
}

} // namespace

judge::ChatRequest pairJudgeRequest(const StepPair &pair, bool swapped, const judge::SamplingParams &sampling)
{
    std::string user = "Question: " + pair.question + "\n\nHistory (the steps taken so far):\n";
    if (pair.history.empty())
        user += "(none: the next step is the first)\n";
    for (size_t i = 0; i < pair.history.size(); ++i)
        user += std::to_string(i + 1) + ". " + pair.history[i] + "\n";
    user += "\nStep A:\n" + (swapped ? pair.stepB : pair.stepA) + "\n\nStep B:\n" + (swapped ? pair.stepA : pair.stepB) +
            "\n\nWhich step is better for answering the question, given the history?";
    judge::ChatRequest r;
    r.messages = {{"system", kSystem}, {"user", user}};
    r.sampling = sampling;
    return r;
}

Label readPairVerdict(const std::string &reply)
{
    const judge::JsonExtract found = judge::extractJson(reply);
    if (!found.ok())
        throw judge::VerdictError(found.error);
    const std::string raw = judge::readString(found.value, "choice");
    std::string c = lowerTrimmed(raw);
    if (c.rfind("step ", 0) == 0)
        c = lowerTrimmed(c.substr(5));
    Label l;
    l.source = Source::Judge;
    if (c == "a")
        l.choice = Choice::A;
    else if (c == "b")
        l.choice = Choice::B;
    else if (c == "tie" || c == "equal" || c == "neither" || c == "both")
        l.choice = Choice::Tie;
    else
        throw judge::VerdictError("choice is \"" + raw + "\", not A, B or tie");
    if (const nlohmann::json *reason = judge::findPath(found.value, "reason"); reason && reason->is_string())
        l.reason = reason->get<std::string>();
    return l;
}

std::vector<JudgedPair> judgePairs(const judge::JudgeClient &client, const std::vector<StepPair> &pairs,
                                   const PairJudgeOptions &options, size_t batch,
                                   const std::function<bool(size_t, size_t)> &progress)
{
    std::vector<JudgedPair> out;
    const std::string model = client.backend().model();
    const int orders = options.bothOrders ? 2 : 1;
    batch = std::max<size_t>(1, batch);
    for (size_t from = 0; from < pairs.size(); from += batch) {
        const size_t to = std::min(pairs.size(), from + batch);
        std::vector<judge::ChatRequest> requests;
        for (size_t i = from; i < to; ++i)
            for (int o = 0; o < orders; ++o)
                requests.push_back(pairJudgeRequest(pairs[i], o == 1, client.options().sampling));
        const std::vector<judge::JudgeCall> calls = client.run(requests);
        for (size_t i = from; i < to; ++i) {
            JudgedPair j;
            j.label.pairId = pairs[i].id;
            j.label.source = Source::Judge;
            j.label.annotator = model;
            j.cacheHit = true;
            std::vector<Label> verdicts;
            for (int o = 0; o < orders && j.error.empty(); ++o) {
                const judge::JudgeCall &call = calls[(i - from) * static_cast<size_t>(orders) + static_cast<size_t>(o)];
                j.cacheHit = j.cacheHit && call.cacheHit;
                if (!call.ok()) {
                    j.error = call.error;
                    break;
                }
                try {
                    Label v = readPairVerdict(call.reply->choices.front().content);
                    v.choice = unswap(v.choice, o == 1);
                    verdicts.push_back(std::move(v));
                } catch (const judge::VerdictError &e) {
                    j.error = std::string("the reply") + (o == 1 ? " (steps swapped)" : "") + " cannot be read: " +
                              e.what();
                    client.forget(call.key);
                }
            }
            if (j.error.empty()) {
                j.ok = true;
                j.label.choice = verdicts[0].choice;
                j.label.reason = verdicts[0].reason;
                if (orders == 2 && verdicts[1].choice != verdicts[0].choice) {
                    j.orderDependent = true;
                    j.label.choice = Choice::Tie;
                    j.label.reason = std::string("order-dependent: ") + choiceName(verdicts[0].choice) + " as asked, " +
                                     choiceName(verdicts[1].choice) + " with the steps swapped. " + verdicts[0].reason;
                }
            }
            out.push_back(std::move(j));
        }
        if (progress && !progress(to, pairs.size()))
            break;
    }
    return out;
}

} // namespace rwb::prm
