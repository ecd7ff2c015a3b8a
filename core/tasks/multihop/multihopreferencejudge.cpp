#include "tasks/multihop/multihopreferencejudge.h"

#include "tasks/multihop/multihopformat.h"

#include <nlohmann/json.hpp>

#include <cctype>

namespace rwb::prm {

namespace {

// The text between `from` and `to` in `text` ("" when `from` is absent).
std::string between(const std::string &text, const std::string &from, const std::string &to)
{
    const size_t a = text.find(from);
    if (a == std::string::npos)
        return {};
    const size_t start = a + from.size();
    const size_t b = to.empty() ? std::string::npos : text.find(to, start);
    return text.substr(start, b == std::string::npos ? std::string::npos : b - start);
}

// The history as the steps' own text: the prompt numbers them ("1. <step>…"), one after
// another on lines of their own.
std::string historySteps(const std::string &section)
{
    std::string out;
    size_t at = section.find("<step>");
    while (at != std::string::npos) {
        size_t next = section.find("<step>", at + 6);
        size_t end = next == std::string::npos ? section.size() : next;
        if (next != std::string::npos) { // drop the next step's "\nN. " prefix
            size_t p = end;
            while (p > at && section[p - 1] == ' ')
                --p;
            if (p > at && section[p - 1] == '.')
                --p;
            while (p > at && std::isdigit(static_cast<unsigned char>(section[p - 1])))
                --p;
            if (p > at && section[p - 1] == '\n')
                end = p - 1;
        }
        out += section.substr(at, end - at);
        at = next;
    }
    while (!out.empty() && (out.back() == '\n' || out.back() == ' '))
        out.pop_back();
    return out;
}

size_t count(const std::string &text, const std::string &what)
{
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
        ++n;
    return n;
}

} // namespace

ReferencePairJudge::ReferencePairJudge(const std::string &questionsPath)
    : ReferencePairJudge(data::readMultihopQuestions(questionsPath))
{
    m_source = questionsPath;
}

ReferencePairJudge::ReferencePairJudge(std::vector<data::MultihopQuestion> questions) : m_source("questions")
{
    for (data::MultihopQuestion &q : questions)
        m_byText.emplace(q.question, std::move(q));
}

std::string ReferencePairJudge::namedValue(const std::string &subanswer)
{
    // "榊原 灯の勤務先は翠光食品です。" → 翠光食品: after the last "は", before "です".
    const size_t ha = subanswer.rfind("は");
    if (ha == std::string::npos)
        return {};
    const size_t start = ha + std::string("は").size();
    const size_t end = subanswer.find("です", start);
    std::string v = subanswer.substr(start, end == std::string::npos ? std::string::npos : end - start);
    while (!v.empty() && (v.back() == ' ' || v.back() == '\n'))
        v.pop_back();
    return v;
}

ReferencePairJudge::Worth ReferencePairJudge::worth(const data::MultihopQuestion &q, const std::string &history,
                                                    const std::string &step)
{
    const size_t hop = count(history, "<step>");
    const task::Trajectory t = task::parseTrajectory(step);
    Worth w;
    if (t.answer && t.hops.empty()) {
        const double em = task::exactMatch(*t.answer, q.answer), f1 = task::answerF1(*t.answer, q.answer);
        w.points = em > 0 ? 4 : f1 >= 0.5 ? 2 : 0;
        w.why = em > 0 ? "answers " + *t.answer + ", the gold answer"
                       : "answers " + *t.answer + (f1 >= 0.5 ? ", partly right" : ", wrong") + " (gold: " + q.answer + ")";
        return w;
    }
    if (t.hops.empty())
        return {0, "is not a step in the format"};
    if (hop >= q.chain.size())
        return {0, "looks something up after every hop was answered"};
    // What the history says to look up next: the question's entity first, then what the
    // last sub-answer found (right or wrong: the step is judged given the history).
    std::string expected = q.chain[hop].entity;
    if (hop > 0) {
        const task::Trajectory before = task::parseTrajectory(history);
        if (!before.hops.empty() && !namedValue(before.hops.back().subanswer).empty())
            expected = namedValue(before.hops.back().subanswer);
    }
    const task::TrajectoryHop &h = t.hops.front();
    const std::string value = namedValue(h.subanswer);
    const bool follows = h.subquery.find(expected) != std::string::npos;
    // Grounded: a retrieved passage about the entity looked up states the value.
    bool grounded = false;
    size_t from = 0;
    while (!value.empty() && from <= h.retrieval.size()) {
        const size_t nl = h.retrieval.find('\n', from);
        const std::string line = h.retrieval.substr(from, nl == std::string::npos ? std::string::npos : nl - from);
        if (line.find(value) != std::string::npos && line.find(expected) != std::string::npos)
            grounded = true;
        if (nl == std::string::npos)
            break;
        from = nl + 1;
    }
    const bool gold = value == q.chain[hop].value;
    w.points = (gold ? 2 : 0) + (grounded ? 1 : 0) + (follows ? 1 : 0);
    w.why = std::string(follows ? "looks up " : "does not look up ") + expected + ", " +
            (value.empty() ? "names no value" : "names " + value) + (grounded ? " (in its passages)" : " (not in its passages)") +
            (gold ? ", the gold value" : "");
    return w;
}

judge::ChatReply ReferencePairJudge::complete(const judge::ChatRequest &request, int &attempts) const
{
    attempts = 1;
    const std::string user = request.messages.empty() ? std::string() : request.messages.back().content;
    const std::string question = between(user, "Question: ", "\n\nHistory");
    const std::string history = historySteps(between(user, "History (the steps taken so far):\n", "\nStep A:\n"));
    const std::string a = between(user, "\nStep A:\n", "\n\nStep B:\n");
    const std::string b = between(user, "\n\nStep B:\n", "\n\nWhich step is better");
    if (question.empty() || a.empty() || b.empty())
        throw judge::BackendError(identity() + ": not a preference-pair request (the reference judge reads only those)", 1);
    const auto it = m_byText.find(question);
    if (it == m_byText.end())
        throw judge::BackendError(identity() + ": the question \"" + question + "\" is not in " + m_source, 1);
    const Worth wa = worth(it->second, history, a), wb = worth(it->second, history, b);
    const std::string choice = wa.points > wb.points ? "A" : wb.points > wa.points ? "B" : "tie";
    const nlohmann::json verdict = {{"choice", choice}, {"reason", "Step A " + wa.why + "; step B " + wb.why + "."}};
    judge::ChatReply reply;
    reply.model = model();
    reply.choices.push_back({verdict.dump(), "stop", {}});
    return reply;
}

} // namespace rwb::prm
