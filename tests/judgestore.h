#pragma once

// Run stores with judge decisions, for the tests of the judge decisions view and for its
// screenshots: legal-QA rollouts whose details_json holds the reference grader's coverage
// and consistency (the task grades each completion), and the judge calls a run with the
// judge rewards stores with them — built the way core/reward/judgerewards.cpp writes
// them: the request from core's prompt builders (llm::requestJson), a reply, the verdict
// JSON with the "span" core's parsers report, the value, latency, tokens, cost, cache hit
// and attempts. Header-only; include it in one test file each.
//
// writeKnownJudgeRun: six rollouts with hand-worked labels (see its comment);
// writeDemoJudgeRun: a larger run with a judge that mostly agrees with the grader, for the
// screenshots.

#include "judge/judgeclient.h"
#include "judge/judgeprompts.h"
#include "judge/rubric.h"
#include "llm/chatjson.h"
#include "reward/judgerewards.h"
#include "store/runstore.h"
#include "task/catalog.h"
#include "task/task.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace rwbtest {

using json = nlohmann::json;

// The bundled legal-QA sample lines (resources/samples/legal_qa_samples.jsonl), one per
// question (the first of each), in file order.
inline std::vector<std::string> legalQuestionLines(const std::string &resourcesDir)
{
    std::ifstream in(resourcesDir + "/samples/legal_qa_samples.jsonl");
    if (!in)
        throw std::runtime_error("cannot read the legal-QA samples in " + resourcesDir);
    std::vector<std::string> out;
    std::vector<std::string> seen;
    std::string line;
    while (std::getline(in, line)) {
        const json j = json::parse(line);
        const std::string id = j.at("id").get<std::string>();
        const std::string question = id.substr(0, id.find('-'));
        if (std::find(seen.begin(), seen.end(), question) != seen.end())
            continue;
        seen.push_back(question);
        out.push_back(line);
    }
    return out;
}

inline const char *kChatBackend = "http http://127.0.0.1:8000/v1/chat/completions";
inline const char *kJudgeModel = "judge-0.5b";

// The reward config of the judge runs: coverage and consistency weigh, the rubric and
// Likert judges are only logged (weight 0).
inline const char *kJudgeRunConfig =
    R"({"task": "legal_qa", "components": [{"reward": "coverage", "weight": 1}, {"reward": "consistency", "weight": 1},)"
    R"( {"reward": "rubric_explicit", "weight": 0}, {"reward": "likert_simple", "weight": 0}],)"
    R"( "judge": {"backend": "http", "url": "http://127.0.0.1:8000/v1", "model": "judge-0.5b"}})";

inline std::string judgeRequest(std::vector<rwb::judge::ChatMessage> messages, const rwb::judge::JudgeSchema &schema)
{
    rwb::judge::ChatRequest r;
    r.messages = std::move(messages);
    r.sampling.temperature = 0.0;
    r.sampling.maxTokens = 512;
    r.sampling.seed = 1;
    r.sampling.responseFormat = rwb::judge::ResponseFormat::JsonSchema;
    r.sampling.schemaName = schema.name;
    r.sampling.schema = schema.schema;
    return rwb::llm::requestJson(r, kJudgeModel);
}

// How a reply wraps its JSON object.
enum class ReplyForm { Bare, Fenced, Embedded };

inline std::string wrapReply(const std::string &object, ReplyForm form)
{
    switch (form) {
    case ReplyForm::Bare: return object;
    case ReplyForm::Fenced: return "回答を評価します。\n```json\n" + object + "\n```";
    case ReplyForm::Embedded: return "Here is my verdict: " + object + " — 以上です。";
    }
    return object;
}

// What a call cost and whether it came from the cache.
struct CallCost {
    double latency = 1.0;
    int64_t promptTokens = 420;
    int64_t completionTokens = 90;
    bool cacheHit = false;
    int attempts = 1;
};

inline void applyCost(rwb::judge::Decision &d, const CallCost &c)
{
    d.cacheHit = c.cacheHit;
    d.latencySeconds = c.cacheHit ? 0.0 : c.latency;
    d.promptTokens = c.cacheHit ? 0 : c.promptTokens;
    d.completionTokens = c.cacheHit ? 0 : c.completionTokens;
    d.cost = c.cacheHit ? 0.0 : (0.15 * static_cast<double>(d.promptTokens) + 0.6 * static_cast<double>(d.completionTokens)) / 1e6;
    d.attempts = c.cacheHit ? 0 : c.attempts;
}

// The legal judge's reply in the strict shape.
inline std::string legalReplyObject(double coverage, bool contradiction, const std::vector<std::string> &studentPoints,
                                    const std::vector<std::string> &referencePoints)
{
    const char *cov = coverage >= 1.0 ? "full-coverage" : coverage > 0.0 ? "partial-coverage" : "no-coverage";
    json o = {{"point_thought", "回答と参照回答をそれぞれ要点に分ける。"},
              {"student_points", studentPoints},
              {"reference_points", referencePoints},
              {"coverage", {{"thought", "参照回答の要点のうち回答が述べているものを数える。"}, {"score", cov}}},
              {"contradiction",
               {{"thought", contradiction ? "期限の値が参照回答と食い違う。" : "食い違う要点はない。"},
                {"score", contradiction ? "contradiction" : "no-contradiction"}}}};
    return o.dump();
}

// A coverage or consistency decision (`reward`) on `answer`: the judge's `reply`, parsed
// as core parses it; a reply that does not parse gives a parse failure (value None).
inline rwb::judge::Decision legalDecision(const std::string &reward, const std::string &question,
                                          const std::string &reference, const std::string &answer,
                                          const std::string &reply, const CallCost &cost)
{
    namespace judge = rwb::judge;
    judge::Decision d;
    d.reward = reward;
    d.backend = kChatBackend;
    d.request = judgeRequest(judge::legalCoverageMessages(question, reference, answer), judge::legalSchema());
    d.reply = reply;
    applyCost(d, cost);
    try {
        rwb::reward::ReadReply r = rwb::reward::readLegalReply(reward == "coverage", reply);
        d.value = r.value;
        d.verdict = std::move(r.verdict);
    } catch (const std::exception &e) {
        d.error = std::string("the reply could not be read: ") + e.what();
    }
    return d;
}

// A call that failed after its retries (no reply, value None).
inline rwb::judge::Decision failedCall(const std::string &reward, const std::string &part, std::string request,
                                       const std::string &error, double latency, int attempts)
{
    rwb::judge::Decision d;
    d.reward = reward;
    d.part = part;
    d.backend = kChatBackend;
    d.request = std::move(request);
    d.error = error;
    d.latencySeconds = latency;
    d.attempts = attempts;
    return d;
}

// The rubric of a legal question: each reference fact an Essential (the first) or
// Important item, and a Pitfall for a wrong value of the first fact.
inline rwb::judge::Rubric legalRubric(const json &question)
{
    namespace judge = rwb::judge;
    judge::Rubric r;
    bool first = true;
    for (const json &f : question.at("facts")) {
        judge::RubricItem item;
        item.criterion = "States " + f.at("slot").get<std::string>() + ": " + f.at("value").get<std::string>();
        item.category = first ? judge::RubricCategory::Essential : judge::RubricCategory::Important;
        item.weight = first ? 3.0 : 2.0;
        r.items.push_back(item);
        first = false;
    }
    judge::RubricItem pitfall;
    pitfall.criterion = "States a " + question.at("facts").at(0).at("slot").get<std::string>() + " other than " +
                        question.at("facts").at(0).at("value").get<std::string>();
    pitfall.category = judge::RubricCategory::Pitfall;
    pitfall.weight = -2.0;
    r.items.push_back(pitfall);
    return r;
}

// One call per item (rubric_explicit, mode per_item, binary verdicts).
inline rwb::judge::Decision rubricItemDecision(const std::string &question, const std::string &reference,
                                               const std::string &answer, const rwb::judge::Rubric &rubric, size_t k,
                                               bool met, ReplyForm form, const CallCost &cost)
{
    namespace judge = rwb::judge;
    judge::Decision d;
    d.reward = "rubric_explicit";
    d.part = "items[" + std::to_string(k) + "]";
    d.backend = kChatBackend;
    d.request = judgeRequest(judge::rubricItemMessages(question, answer, rubric.items[k], judge::ItemMode::Binary, reference),
                             judge::rubricItemSchema(judge::ItemMode::Binary));
    d.reply = wrapReply(json{{"explanation", met ? "回答はこの基準を満たしている。" : "回答にこの点は書かれていない。"},
                             {"criteria_met", met}}
                            .dump(),
                        form);
    applyCost(d, cost);
    judge::ChatChoice choice;
    choice.content = d.reply;
    rwb::reward::ReadReply r = rwb::reward::readRubricItemReply(rubric, k, judge::ItemMode::Binary, choice, false);
    d.value = r.value;
    d.verdict = std::move(r.verdict);
    return d;
}

// All items in one call (rubric_explicit, mode all_items).
inline rwb::judge::Decision rubricAllItemsDecision(const std::string &question, const std::string &reference,
                                                   const std::string &answer, const rwb::judge::Rubric &rubric,
                                                   const std::vector<bool> &met, ReplyForm form, const CallCost &cost)
{
    namespace judge = rwb::judge;
    judge::Decision d;
    d.reward = "rubric_explicit";
    d.backend = kChatBackend;
    d.request = judgeRequest(judge::rubricAllItemsMessages(question, answer, rubric, reference),
                             judge::rubricAllItemsSchema(rubric.items.size()));
    json items = json::array();
    for (size_t k = 0; k < met.size(); ++k)
        items.push_back({{"id", k + 1}, {"explanation", met[k] ? "述べている。" : "述べていない。"}, {"met", met[k]}});
    d.reply = wrapReply(json{{"items", items}}.dump(), form);
    applyCost(d, cost);
    rwb::reward::ReadReply r = rwb::reward::readRubricAllItemsReply(rubric, d.reply);
    d.value = r.value;
    d.verdict = std::move(r.verdict);
    return d;
}

// A Likert rating (likert_simple).
inline rwb::judge::Decision ratingDecision(const std::string &question, const std::string &answer, int rating,
                                           ReplyForm form, const CallCost &cost)
{
    namespace judge = rwb::judge;
    judge::Decision d;
    d.reward = "likert_simple";
    d.backend = kChatBackend;
    d.request = judgeRequest(judge::likertSimpleMessages(question, answer), judge::ratingSchema());
    d.reply = wrapReply(json{{"rating", rating}}.dump(), form);
    applyCost(d, cost);
    judge::ChatChoice choice;
    choice.content = d.reply;
    rwb::reward::ReadReply r = rwb::reward::readRatingReply(choice, false);
    d.value = r.value;
    d.verdict = std::move(r.verdict);
    return d;
}

// A rollout of a legal question: its completion graded by the task (details_json, answer).
inline rwb::store::Rollout legalRollout(const std::string &questionLine, const std::string &promptId, int group,
                                        int sample, const std::string &answer, int64_t lawCode)
{
    const rwb::task::Task *task = rwb::task::Catalog::builtin().find("legal_qa");
    if (!task)
        throw std::runtime_error("no legal_qa task");
    const auto example = task->exampleFromStore(questionLine, "", "test");
    rwb::store::Rollout r;
    r.promptId = promptId;
    r.groupIndex = group;
    r.sampleIndex = sample;
    r.completion = "<reasoning>条文を確認する。</reasoning><answer>" + answer + "</answer><citation><law_code>" +
                   std::to_string(lawCode) + "</law_code></citation>";
    const auto completion = task->parse(*example, r.completion, false);
    r.answer = completion->answer();
    r.detailsJson = completion->detailsJson();
    r.completionTokens = 40;
    r.tokenIds = {1, 2, 3};
    return r;
}

// Sets a rollout's coverage and consistency values (NaN: None) and its total (their mean).
inline void setJudgeRewards(rwb::store::Rollout &r, double coverage, double consistency)
{
    json j = json::object();
    j["coverage"] = coverage;
    j["consistency"] = consistency;
    r.rewardsJson = j.dump(); // NaN is written as null, as the trainer writes None
    r.reward = (coverage + consistency) / 2.0; // NaN when either is None
}

// The hand-worked run, on question q01 (reference facts: deadline 14日以内, authority
// 気象資材局長), step 1, six rollouts (ids 1–6 in a fresh file):
//   rollout  answer                          grader cov / cons   judge cov / contradiction
//   1        14日以内に気象資材局長に届け出る   1   / 1           full    / no   (fenced reply)
//   2        気象資材局長に届け出る             0.5 / 1           full    / yes  (bare)
//   3        30日以内に気象資材局長に届け出る   0.5 / 0           partial / yes  (embedded)
//   4        届出は不要                        0   / 1           none    / no   (bare)
//   5        14日以内に気象資材局長へ届け出る   1   / 1           unreadable reply: None
//   6        as 1, details_json "{}" (no grade)  — / —            partial / no
// Each rollout's decisions are written with it, in this order: coverage, then consistency
// (a cache hit), then rollout 1's rubric_explicit per item (met, met, pitfall not met),
// rollout 2's (the first a call that timed out; met; pitfall not met), rollout 3's all
// items in one call (deadline not met, authority met, pitfall met), rollout 4's
// likert_simple (rating 7). Ids in a fresh file: rollout 1: 1–5, 2: 6–10, 3: 11–13,
// 4: 14–16, 5: 17–18, 6: 19–20; then 21, coverage on the evaluation of checkpoint 1 for
// q01 (full; the prediction's details grade it 1).
// Returns the run id.
inline int64_t writeKnownJudgeRun(rwb::store::RunStore &s, const std::string &resourcesDir)
{
    namespace judge = rwb::judge;
    const std::string line = legalQuestionLines(resourcesDir).at(0);
    const json q = json::parse(line);
    const std::string question = q.at("question"), reference = q.at("reference_answer");
    const int64_t lawCode = q.at("law_codes").at(0);
    const judge::Rubric rubric = legalRubric(q);
    const std::vector<std::string> refPoints = {"14日以内に届け出る", "気象資材局長に届け出る"};

    const int64_t run = s.beginRun("judged", rwb::store::RunKind::Grpo, "{}", "legal_qa");
    s.recordRewardConfig(run, 1, kJudgeRunConfig);
    struct Known {
        std::string answer;
        double coverage;   // the judge's
        bool contradiction;
        ReplyForm form;
        bool unreadable;
        bool ungraded;
    };
    const std::vector<Known> known = {
        {"14日以内に気象資材局長に届け出る必要があります。", 1.0, false, ReplyForm::Fenced, false, false},
        {"気象資材局長に届け出る必要があります。", 1.0, true, ReplyForm::Bare, false, false},
        {"30日以内に気象資材局長に届け出ます。", 0.5, true, ReplyForm::Embedded, false, false},
        {"届出は不要です。", 0.0, false, ReplyForm::Bare, false, false},
        {"14日以内に気象資材局長へ届け出ます。", 1.0, false, ReplyForm::Bare, true, false},
        {"14日以内に気象資材局長に届け出る必要があります。", 0.5, false, ReplyForm::Bare, false, true},
    };
    std::vector<rwb::store::Rollout> rows;
    for (size_t i = 0; i < known.size(); ++i) {
        const Known &k = known[i];
        rwb::store::Rollout r = legalRollout(line, "q01", static_cast<int>(i / 4), static_cast<int>(i % 4), k.answer, lawCode);
        if (k.ungraded)
            r.detailsJson = "{}";
        const std::string reply = k.unreadable ? "The answer seems fine to me."
                                               : wrapReply(legalReplyObject(k.coverage, k.contradiction, {k.answer}, refPoints), k.form);
        const CallCost sent{1.0 + 0.5 * static_cast<double>(i), 420, 90, false, i == 1 ? 2 : 1};
        const CallCost hit{0.0, 0, 0, true, 0};
        r.judgeDecisions.push_back(legalDecision("coverage", question, reference, r.answer, reply, sent));
        r.judgeDecisions.push_back(legalDecision("consistency", question, reference, r.answer, reply, hit));
        setJudgeRewards(r, r.judgeDecisions[0].value, r.judgeDecisions[1].value);
        rows.push_back(std::move(r));
    }
    // Rubric items, one call each: rollout 1 meets the two facts and not the pitfall.
    for (size_t k = 0; k < 3; ++k)
        rows[0].judgeDecisions.push_back(rubricItemDecision(question, reference, rows[0].answer, rubric, k, k < 2,
                                                            k == 0 ? ReplyForm::Fenced : ReplyForm::Bare,
                                                            {0.8, 300, 40, false, 1}));
    // Rollout 2: the first item's call timed out; the others say authority met, no pitfall.
    rows[1].judgeDecisions.push_back(failedCall(
        "rubric_explicit", "items[0]",
        judgeRequest(judge::rubricItemMessages(question, rows[1].answer, rubric.items[0], judge::ItemMode::Binary, reference),
                     judge::rubricItemSchema(judge::ItemMode::Binary)),
        "http://127.0.0.1:8000/v1/chat/completions: timed out after 3 attempts (30 s each)", 90.5, 3));
    for (size_t k = 1; k < 3; ++k)
        rows[1].judgeDecisions.push_back(rubricItemDecision(question, reference, rows[1].answer, rubric, k, k == 1,
                                                            ReplyForm::Bare, {0.7, 300, 40, false, 1}));
    // Rollout 3: all items at once — authority met, deadline not, pitfall met.
    rows[2].judgeDecisions.push_back(rubricAllItemsDecision(question, reference, rows[2].answer, rubric, {false, true, true},
                                                            ReplyForm::Fenced, {2.0, 600, 120, false, 1}));
    rows[3].judgeDecisions.push_back(ratingDecision(question, rows[3].answer, 7, ReplyForm::Bare, {0.5, 200, 10, false, 1}));
    rows[0].advantage = 0.5;
    s.writeStep(run, 1, {{"reward", 0.5}}, rows, {{"q01", question, reference, line}});

    // An evaluation of checkpoint 1 on q01 with a coverage call.
    rwb::store::EvalPrediction p;
    p.exampleId = q.at("id");
    const rwb::store::Rollout graded = legalRollout(line, "q01", 0, 0, known[0].answer, lawCode);
    p.prediction = graded.completion;
    p.gold = reference;
    p.correct = true;
    p.detailsJson = graded.detailsJson;
    p.judgeDecisions.push_back(legalDecision("coverage", question, reference, graded.answer,
                                             legalReplyObject(1.0, false, {graded.answer}, refPoints),
                                             {1.5, 420, 90, false, 1}));
    s.writeEvalPredictions(run, 1, {p});
    s.finishRun(run, rwb::store::RunStatus::Finished);
    return run;
}

// A larger run: `steps` steps of `groups` questions × `groupSize` samples whose answers
// state all, some or none of the reference facts and sometimes a wrong value; the task
// grades them; a judge that mostly agrees with the grader (deterministic: it over-rates
// coverage now and then and misses some contradictions), a few unreadable replies and
// failed calls (their rewards None), cache hits, one all-items rubric call and one rating
// per group. Returns the run id.
inline int64_t writeDemoJudgeRun(rwb::store::RunStore &s, const std::string &resourcesDir, int steps = 6, int groups = 4,
                                 int groupSize = 6)
{
    namespace judge = rwb::judge;
    const std::vector<std::string> lines = legalQuestionLines(resourcesDir);
    const int64_t run = s.beginRun("legal-judge", rwb::store::RunKind::Grpo, "{}", "legal_qa");
    s.recordRewardConfig(run, 1, kJudgeRunConfig);
    uint64_t state = 12345;
    auto rand01 = [&state] { // a fixed linear congruential sequence: the same store every time
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(state >> 11) / 9007199254740992.0;
    };
    int next = 0;
    for (int step = 1; step <= steps; ++step) {
        std::vector<rwb::store::Rollout> rows;
        std::vector<rwb::store::Prompt> prompts;
        for (int g = 0; g < groups; ++g) {
            const std::string &line = lines[static_cast<size_t>(next++) % lines.size()];
            const json q = json::parse(line);
            const std::string question = q.at("question"), reference = q.at("reference_answer");
            const std::string promptId = q.at("id");
            const int64_t lawCode = q.at("law_codes").at(0);
            prompts.push_back({promptId, question, reference, line});
            std::vector<std::string> refPoints;
            for (const json &f : q.at("facts"))
                refPoints.push_back(f.at("slot").get<std::string>() + ": " + f.at("value").get<std::string>());
            for (int j = 0; j < groupSize; ++j) {
                // Which facts the answer states, and whether it gets the first one wrong.
                std::string answer;
                bool wrong = rand01() < 0.2;
                const double keep = 0.35 + 0.1 * step; // later steps state more
                for (size_t f = 0; f < q.at("facts").size(); ++f) {
                    const json &fact = q.at("facts")[f];
                    std::string value = fact.at("value");
                    if (f == 0 && wrong) {
                        const json &others = q.at("slot_values").at(fact.at("slot").get<std::string>());
                        for (const json &o : others)
                            if (o.get<std::string>() != value) {
                                value = o.get<std::string>();
                                break;
                            }
                    } else if (rand01() > keep) {
                        continue;
                    }
                    answer += (answer.empty() ? "" : "、") + value;
                }
                answer = answer.empty() ? "条文に定めはありません。" : answer + "です。";
                rwb::store::Rollout r = legalRollout(line, promptId, g, j, answer, lawCode);
                const json details = json::parse(r.detailsJson);
                const double gradeCoverage = details.value("coverage", 0.0);
                const bool gradeContradiction = details.value("consistency", 1.0) < 0.5;
                double coverage = gradeCoverage;
                if (rand01() < 0.15)
                    coverage = std::min(1.0, coverage + 0.5); // over-rates now and then
                bool contradiction = gradeContradiction;
                if (rand01() < (gradeContradiction ? 0.25 : 0.05))
                    contradiction = !contradiction;
                const double dice = rand01();
                const bool hit = rand01() < 0.3;
                const CallCost cost{0.6 + 2.5 * rand01() + (rand01() < 0.05 ? 8.0 : 0.0),
                                    380 + static_cast<int64_t>(80 * rand01()), 70 + static_cast<int64_t>(60 * rand01()),
                                    hit, rand01() < 0.1 ? 2 : 1};
                const CallCost second{0.0, 0, 0, true, 0};
                const ReplyForm form = dice < 0.5 ? ReplyForm::Bare : dice < 0.8 ? ReplyForm::Fenced : ReplyForm::Embedded;
                if (dice > 0.97) { // the call failed after its retries
                    const std::string request =
                        judgeRequest(judge::legalCoverageMessages(question, reference, r.answer), judge::legalSchema());
                    for (const char *reward : {"coverage", "consistency"})
                        r.judgeDecisions.push_back(failedCall(reward, "", request,
                                                              "http://127.0.0.1:8000/v1/chat/completions: HTTP 503 "
                                                              "after 4 attempts (Retry-After honoured)",
                                                              41.0, 4));
                } else {
                    const std::string reply =
                        dice > 0.94 ? "申し訳ありませんが、評価できません。"
                                    : wrapReply(legalReplyObject(coverage, contradiction, {r.answer}, refPoints), form);
                    r.judgeDecisions.push_back(legalDecision("coverage", question, reference, r.answer, reply, cost));
                    r.judgeDecisions.push_back(legalDecision("consistency", question, reference, r.answer, reply, second));
                }
                setJudgeRewards(r, r.judgeDecisions[0].value, r.judgeDecisions[1].value);
                if (j == 0) {
                    const judge::Rubric rubric = legalRubric(q);
                    std::vector<bool> met;
                    for (size_t k = 0; k < rubric.items.size(); ++k)
                        met.push_back(k + 1 < rubric.items.size() ? rand01() < 0.6 : wrong);
                    r.judgeDecisions.push_back(rubricAllItemsDecision(question, reference, r.answer, rubric, met,
                                                                      ReplyForm::Fenced, {1.8, 700, 150, false, 1}));
                    r.judgeDecisions.push_back(ratingDecision(question, r.answer, 3 + static_cast<int>(6 * rand01()),
                                                              ReplyForm::Bare, {0.4, 250, 8, false, 1}));
                }
                rows.push_back(std::move(r));
            }
            // Group advantages over the rollouts with a reward, None ones 0 (as GRPO).
            double sum = 0.0;
            int n = 0;
            for (int j = 0; j < groupSize; ++j) {
                const double v = rows[rows.size() - static_cast<size_t>(groupSize - j)].reward;
                if (v == v) {
                    sum += v;
                    ++n;
                }
            }
            const double mean = n > 0 ? sum / n : 0.0;
            for (int j = 0; j < groupSize; ++j) {
                rwb::store::Rollout &r = rows[rows.size() - static_cast<size_t>(groupSize - j)];
                r.advantage = r.reward == r.reward ? r.reward - mean : 0.0;
            }
        }
        s.writeStep(run, step, {{"reward", 0.5}}, rows, prompts);
    }
    s.finishRun(run, rwb::store::RunStatus::Finished);
    return run;
}

} // namespace rwbtest
