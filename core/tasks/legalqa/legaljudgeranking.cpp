#include "tasks/legalqa/legaljudgeranking.h"

#include "data/jsonfields.h"
#include "eval/correlation.h"
#include "judge/judgeclient.h"
#include "judge/judgeprompts.h"
#include "judge/rubric.h"
#include "judge/verdict.h"
#include "tasks/chat/chatrecord.h"
#include "tasks/legalqa/legaljudgedata.h"
#include "util/duration.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <utility>

namespace rwb::judge {

namespace {

namespace jf = data::jsonfields;

// Values this close are the same, for s* and for a judge's values (as in Spearman's ranks).
constexpr double kTie = eval::kRankTieTolerance;

// A field that must be a whole number within [min, max].
int wholeField(const nlohmann::json &line, const char *field, int64_t min, int64_t max, const jf::Place &place)
{
    const nlohmann::json &v = jf::require(line, field, place);
    if (!v.is_number_integer() || v.get<int64_t>() < min || v.get<int64_t>() > max)
        jf::fail(place, std::string("field \"") + field + "\" must be a whole number within " + std::to_string(min) +
                            "–" + std::to_string(max) + ", not " + v.dump());
    return static_cast<int>(v.get<int64_t>());
}

RankedRequest rankedRequestOf(data::ChatRecord r, const std::string &judgeKind, const std::string &path)
{
    const jf::Place place{path, r.lineNumber};
    RankedRequest q;
    q.id = r.id;
    q.judgeKind = judgeKind;
    q.line = r.lineNumber;
    q.answerId = jf::asString(jf::require(r.line, "answer_id", place), "answer_id", place);
    q.questionId = jf::asString(jf::require(r.line, "question_id", place), "question_id", place);
    if (const auto kind = r.line.find("kind"); kind != r.line.end())
        q.kind = jf::asString(*kind, "kind", place);
    else
        q.kind = r.label;
    const nlohmann::json &score = jf::require(r.line, "score", place);
    if (!score.is_number() || !(score.get<double>() >= 0.0 && score.get<double>() <= 1.0))
        jf::fail(place, "field \"score\" must be a number within 0–1 (the answer's true score), not " + score.dump());
    q.score = score.get<double>();
    if (judgeKind == "rubric_explicit") {
        q.items = wholeField(r.line, "items", 1, 10000, place);
        q.item = wholeField(r.line, "item", 0, q.items - 1, place);
        const nlohmann::json &weight = jf::require(r.line, "weight", place);
        if (!weight.is_number() || !std::isfinite(weight.get<double>()) || weight.get<double>() == 0.0)
            jf::fail(place, "field \"weight\" must be a finite number other than 0 (the item's weight), not " +
                                weight.dump());
        q.weight = weight.get<double>();
    }
    q.messages = std::move(r.messages);
    return q;
}

// The pairs of answers to one question whose truths differ, and the credit a judge's
// values earn on them: 1 ordered as the truth, ½ tied, 0 reversed.
struct PairCount {
    double credit = 0.0;
    size_t pairs = 0;
};

// Per question (in `questions`' order), the pairs among `answers` with the values
// `value(answer)`.
template <typename Value>
std::vector<PairCount> pairCounts(const std::vector<const RankedAnswer *> &answers,
                                  const std::vector<std::string> &questions, Value value)
{
    std::map<std::string, size_t> index;
    for (size_t i = 0; i < questions.size(); ++i)
        index[questions[i]] = i;
    std::map<std::string, std::vector<const RankedAnswer *>> byQuestion;
    for (const RankedAnswer *a : answers)
        byQuestion[a->questionId].push_back(a);
    std::vector<PairCount> out(questions.size());
    for (const auto &[question, list] : byQuestion) {
        PairCount &c = out.at(index.at(question));
        for (size_t i = 0; i < list.size(); ++i)
            for (size_t j = i + 1; j < list.size(); ++j) {
                const double dt = list[i]->truth - list[j]->truth;
                if (std::abs(dt) <= kTie)
                    continue;
                ++c.pairs;
                const double dv = value(*list[i]) - value(*list[j]);
                c.credit += std::abs(dv) <= kTie ? 0.5 : (dv > 0.0) == (dt > 0.0) ? 1.0 : 0.0;
            }
    }
    return out;
}

// The questions of `answers`, sorted.
std::vector<std::string> questionsOf(const std::vector<const RankedAnswer *> &answers)
{
    std::set<std::string> s;
    for (const RankedAnswer *a : answers)
        s.insert(a->questionId);
    return {s.begin(), s.end()};
}

// Σ credit / Σ pairs over `counts`, and its interval from resampling the questions that
// have a pair; NaN without one. `counts` pairs each question with one or two judges'
// credits (a difference: first − second).
struct Accuracy {
    double value = NAN;
    size_t pairs = 0;
    size_t questions = 0;
    eval::Interval interval{NAN, NAN, NAN, NAN};
};

Accuracy accuracyOf(const std::vector<PairCount> &a, const std::vector<PairCount> *b, int resamples, uint64_t seed)
{
    std::vector<size_t> pool; // the questions with a pair
    Accuracy out;
    for (size_t q = 0; q < a.size(); ++q)
        if (a[q].pairs > 0) {
            pool.push_back(q);
            out.pairs += a[q].pairs;
        }
    out.questions = pool.size();
    if (pool.empty())
        return out;
    const auto statistic = [&](const std::vector<size_t> &pick) {
        double credit = 0.0, pairs = 0.0;
        for (size_t p : pick) {
            const size_t q = pool[p];
            credit += a[q].credit - (b ? (*b)[q].credit : 0.0);
            pairs += static_cast<double>(a[q].pairs);
        }
        return std::vector<double>{credit / pairs};
    };
    out.interval = eval::pairedDifferences(pool.size(), statistic, resamples, seed).front();
    out.value = out.interval.estimate;
    return out;
}

} // namespace

JudgeDataFile readJudgeData(const std::string &path, size_t limit)
{
    const std::string text = data::readTextFile(path);
    JudgeDataFile out;
    size_t lines = 0;
    bool cut = false;
    // What the lines read so far say of each answer, to check the next ones against.
    struct AnswerSeen {
        std::string questionId;
        double score = 0.0;
        size_t line = 0;
    };
    std::map<std::string, AnswerSeen> answers;
    struct ItemsSeen {
        int items = 0;
        std::map<int, size_t> lineOfItem;
        double positiveWeight = 0.0;
        size_t firstLine = 0;
    };
    std::map<std::string, ItemsSeen> explicitAnswers;
    // The line of each (answer, rating kind): a rating kind has one line per answer.
    std::map<std::pair<std::string, std::string>, size_t> ratingLines;
    data::forEachLine(text, [&](size_t lineNo, std::string_view line) {
        if (limit > 0 && lines >= limit) {
            cut = true;
            return false;
        }
        ++lines;
        data::ChatRecord r = data::parseChatLine(line, path, lineNo, false);
        const jf::Place place{path, lineNo};
        std::string judgeKind = "coverage";
        if (const auto k = r.line.find("judge_kind"); k != r.line.end()) {
            judgeKind = jf::asString(*k, "judge_kind", place);
            if (judgeKind != "coverage" && !isRubricJudgeKind(judgeKind))
                jf::fail(place, "field \"judge_kind\" must be one of " + judgeDataKindList() + ", not \"" + judgeKind + "\"");
        }
        if (judgeKind == "coverage") {
            out.coverage.push_back(labelledRequestOf(std::move(r), path));
            return true;
        }
        RankedRequest q = rankedRequestOf(std::move(r), judgeKind, path);
        const auto [seen, first] = answers.try_emplace(q.answerId, AnswerSeen{q.questionId, q.score, lineNo});
        if (!first && seen->second.questionId != q.questionId)
            jf::fail(place, "answer " + q.answerId + " is of question \"" + q.questionId + "\" here and of \"" +
                                seen->second.questionId + "\" on line " + std::to_string(seen->second.line));
        if (!first && std::abs(seen->second.score - q.score) > 1e-9)
            jf::fail(place, "answer " + q.answerId + " has score " + nlohmann::json(q.score).dump() + " here and " +
                                nlohmann::json(seen->second.score).dump() + " on line " +
                                std::to_string(seen->second.line));
        if (judgeKind == "rubric_explicit") {
            ItemsSeen &e = explicitAnswers[q.answerId];
            if (e.items == 0) {
                e.items = q.items;
                e.firstLine = lineNo;
            }
            if (e.items != q.items)
                jf::fail(place, "answer " + q.answerId + " has " + std::to_string(q.items) + " items here and " +
                                    std::to_string(e.items) + " on line " + std::to_string(e.firstLine));
            if (const auto it = e.lineOfItem.find(q.item); it != e.lineOfItem.end())
                jf::fail(place, "item " + std::to_string(q.item) + " of answer " + q.answerId +
                                    " is on line " + std::to_string(it->second) + " already");
            e.lineOfItem[q.item] = lineNo;
            e.positiveWeight += std::max(q.weight, 0.0);
        } else if (const auto [it, added] = ratingLines.try_emplace({q.answerId, judgeKind}, lineNo); !added) {
            jf::fail(place, "the " + judgeKind + " line of answer " + q.answerId + " is on line " +
                                std::to_string(it->second) + " already");
        }
        out.ranked.push_back(std::move(q));
        return true;
    });
    // Explicit answers without every item: cut off by the limit (left out), or an error.
    std::set<std::string> incomplete;
    for (const auto &[answer, e] : explicitAnswers) {
        const bool complete = e.lineOfItem.size() == static_cast<size_t>(e.items);
        if (!complete && !cut)
            throw data::InputException({path, e.firstLine,
                                        "answer " + answer + " has " + std::to_string(e.lineOfItem.size()) + " of its " +
                                            std::to_string(e.items) +
                                            " rubric_explicit items (a line per item of its rubric)"});
        if (!complete) {
            incomplete.insert(answer);
            continue;
        }
        if (!(e.positiveWeight > 0.0))
            throw data::InputException({path, e.firstLine,
                                        "the rubric_explicit items of answer " + answer +
                                            " have no positive weight (Σ w⁺ is the score's denominator)"});
    }
    if (!incomplete.empty()) {
        out.cutAnswers = incomplete.size();
        std::erase_if(out.ranked, [&](const RankedRequest &q) {
            return q.judgeKind == "rubric_explicit" && incomplete.count(q.answerId);
        });
    }
    if (out.coverage.empty() && out.ranked.empty())
        throw data::InputException({path, 0, "no labelled request"});
    return out;
}

JudgeRanking rankJudge(const std::vector<RankedRequest> &requests, const std::vector<RankedItem> &items, int resamples,
                       uint64_t seed)
{
    if (requests.size() != items.size())
        throw std::invalid_argument("rankJudge: " + std::to_string(items.size()) + " outcomes for " +
                                    std::to_string(requests.size()) + " requests");
    // The explicit answers' rubrics: the preconditions checked before anything is counted.
    std::map<std::string, double> positiveWeight; // answer → Σ w⁺ of its rubric_explicit items
    for (const RankedRequest &q : requests)
        if (q.judgeKind == "rubric_explicit") {
            if (!std::isfinite(q.weight) || q.weight == 0.0)
                throw std::invalid_argument("rankJudge: request " + q.id + " (answer " + q.answerId +
                                            ") has weight " + std::to_string(q.weight) +
                                            ", not a finite number other than 0");
            positiveWeight[q.answerId] += std::max(q.weight, 0.0);
        }
    for (const auto &[answer, positive] : positiveWeight)
        if (!(positive > 0.0))
            throw std::invalid_argument("rankJudge: the rubric_explicit items of answer " + answer +
                                        " have no positive weight (Σ w⁺ is the score's denominator)");
    JudgeRanking out;
    out.resamples = resamples;
    out.requests = requests.size();
    out.items = items;

    // The answers of each kind, in the order they first appear, with their requests.
    std::map<std::string, KindRanking> byKind;
    std::map<std::string, std::map<std::string, size_t>> answerIndex; // kind → answer → index
    std::map<std::string, std::vector<std::vector<size_t>>> answerRequests;
    for (size_t i = 0; i < requests.size(); ++i) {
        const RankedRequest &q = requests[i];
        KindRanking &k = byKind[q.judgeKind];
        k.judgeKind = q.judgeKind;
        ++k.requests;
        if (!items[i].ok) {
            ++k.failed;
            ++out.failed;
        }
        const auto [it, added] = answerIndex[q.judgeKind].try_emplace(q.answerId, k.answerValues.size());
        if (added) {
            k.answerValues.push_back({q.answerId, q.questionId, q.kind, q.score, false, 0.0});
            answerRequests[q.judgeKind].emplace_back();
        }
        answerRequests[q.judgeKind][it->second].push_back(i);
    }

    for (auto &[name, k] : byKind) {
        const bool explicitKind = name == "rubric_explicit";
        std::vector<const RankedAnswer *> scored;
        for (size_t a = 0; a < k.answerValues.size(); ++a) {
            RankedAnswer &answer = k.answerValues[a];
            const std::vector<size_t> &parts = answerRequests[name][a];
            answer.scored = std::all_of(parts.begin(), parts.end(), [&](size_t i) { return items[i].ok; });
            if (!answer.scored)
                continue;
            if (explicitKind) {
                // The reward's own aggregation (explicitScore) over the items' weights, so
                // that the value and s* (legalRubricTruth) cannot drift apart.
                Rubric rubric;
                std::vector<std::optional<double>> c;
                for (size_t i : parts) {
                    RubricItem item;
                    item.criterion = "item " + std::to_string(requests[i].item);
                    item.weight = requests[i].weight;
                    item.category = item.weight < 0.0 ? RubricCategory::Pitfall : RubricCategory::Unspecified;
                    rubric.items.push_back(std::move(item));
                    c.emplace_back(items[i].judged);
                }
                answer.value = *explicitScore(rubric, c);
            } else {
                answer.value = likertToUnit(items[parts.front()].judged);
            }
            scored.push_back(&answer);
        }
        k.answers = k.answerValues.size();
        k.scored = scored.size();
        if (!scored.empty()) {
            std::vector<double> values, truths;
            double absError = 0.0;
            for (const RankedAnswer *a : scored) {
                values.push_back(a->value);
                truths.push_back(a->truth);
                absError += std::abs(a->value - a->truth);
            }
            k.spearman = eval::spearman(values, truths);
            k.meanAbsoluteError = absError / static_cast<double>(scored.size());
        }
        const std::vector<std::string> questions = questionsOf(scored);
        const Accuracy acc =
            accuracyOf(pairCounts(scored, questions, [](const RankedAnswer &a) { return a.value; }), nullptr,
                       resamples, seed);
        k.pairwiseAccuracy = acc.value;
        k.pairwiseInterval = acc.interval;
        k.pairs = acc.pairs;
        k.questions = acc.questions;
        // The targets: s* itself for explicit, the rating r* for the others.
        const auto target = [&](const RankedAnswer &a) {
            return explicitKind ? a.truth : likertToUnit(static_cast<double>(targetRating(a.truth)));
        };
        double credit = 0.0;
        for (const PairCount &c : pairCounts(scored, questions, target))
            credit += c.credit;
        if (k.pairs > 0)
            k.targetPairwiseAccuracy = credit / static_cast<double>(k.pairs);
    }
    for (const char *name : kRankingOrder)
        if (const auto it = byKind.find(name); it != byKind.end())
            out.kinds.push_back(std::move(it->second));

    // Each two kinds on the answers both scored.
    for (size_t x = 0; x < out.kinds.size(); ++x)
        for (size_t y = x + 1; y < out.kinds.size(); ++y) {
            const KindRanking &a = out.kinds[x], &b = out.kinds[y];
            std::map<std::string, const RankedAnswer *> ofB;
            for (const RankedAnswer &r : b.answerValues)
                if (r.scored)
                    ofB[r.answerId] = &r;
            std::vector<const RankedAnswer *> common;
            std::map<const RankedAnswer *, double> valueB; // a's answer → b's value
            for (const RankedAnswer &r : a.answerValues)
                if (const auto it = ofB.find(r.answerId); r.scored && it != ofB.end()) {
                    common.push_back(&r);
                    valueB[&r] = it->second->value;
                }
            const std::vector<std::string> questions = questionsOf(common);
            const std::vector<PairCount> countsB =
                pairCounts(common, questions, [&](const RankedAnswer &r) { return valueB.at(&r); });
            const Accuracy d =
                accuracyOf(pairCounts(common, questions, [](const RankedAnswer &r) { return r.value; }), &countsB,
                           resamples, seed);
            RankingDifference diff;
            diff.a = a.judgeKind;
            diff.b = b.judgeKind;
            diff.answers = common.size();
            diff.pairs = d.pairs;
            diff.questions = d.questions;
            diff.difference = d.interval;
            out.differences.push_back(std::move(diff));
        }
    return out;
}

JudgeRanking measureJudgeRanking(const JudgeClient &client, const std::vector<RankedRequest> &requests, size_t batch,
                                 const std::function<void(size_t, size_t)> &progress, int resamples, uint64_t seed)
{
    const util::Clock::time_point start = util::Clock::now();
    std::vector<RankedItem> items(requests.size());
    uint64_t cacheHits = 0;
    int64_t promptTokens = 0, completionTokens = 0;
    batch = std::max<size_t>(batch, 1);
    for (size_t from = 0; from < requests.size(); from += batch) {
        const size_t to = std::min(requests.size(), from + batch);
        std::vector<ChatRequest> chat;
        for (size_t i = from; i < to; ++i) {
            const bool item = requests[i].judgeKind == "rubric_explicit";
            chat.push_back(rewardRequest(client.options().sampling, requests[i].messages,
                                         item ? rubricItemSchema(ItemMode::Binary) : ratingSchema(), false));
        }
        const std::vector<JudgeCall> calls = client.run(chat);
        for (size_t i = from; i < to; ++i) {
            const JudgeCall &call = calls[i - from];
            RankedItem &item = items[i];
            if (call.cacheHit)
                ++cacheHits;
            if (!call.ok()) {
                item.error = call.error;
                continue;
            }
            item.reply = call.reply->choices.front().content;
            if (!call.cacheHit) {
                promptTokens += call.reply->promptTokens;
                completionTokens += call.reply->completionTokens;
            }
            try {
                item.judged = requests[i].judgeKind == "rubric_explicit"
                                  ? parseRubricItemReply(item.reply, ItemMode::Binary).c
                                  : parseRatingReply(item.reply).rating;
                item.ok = true;
            } catch (const std::exception &e) {
                item.error = std::string("the reply could not be read: ") + e.what();
            }
        }
        if (progress)
            progress(to, requests.size());
    }
    JudgeRanking out = rankJudge(requests, items, resamples, seed);
    out.cacheHits = cacheHits;
    out.promptTokens = promptTokens;
    out.completionTokens = completionTokens;
    out.seconds = util::secondsSince(start);
    return out;
}

} // namespace rwb::judge
