// rwb judge check: a test call to the judge a config names. rwb judge data: labelled
// requests to train a judge on; rwb judge eval: a judge's agreement with their labels.
// rwb rubric generate: rubrics
// for a task's questions, from their reference facts or asked of a judge.

#include "cli.h"
#include "commands.h"

#include "data/jsonl.h"
#include "tasks/legalqa/legalquestion.h"
#include "tasks/legalqa/legaljudgeagreement.h"
#include "judge/judgeclient.h"
#include "judge/judgeconfig.h"
#include "tasks/legalqa/legaljudgedata.h"
#include "tasks/legalqa/legaljudgeranking.h"
#include "judge/rubric.h"
#include "judge/rubricgen.h"
#include "tasks/legalqa/legalrubric.h"
#include "util/boundedjson.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace rwb::cli {

// The judge object of a file: its "judge" when it is a reward config, else the file.
judge::JudgeOptions loadJudge(const std::string &path)
{
    const std::string text = data::readTextFile(path);
    const nlohmann::json j = util::parseJsonOrDiscarded(text);
    if (!j.is_object())
        throw data::InputException({path, 0, "not a JSON object (a reward config with \"judge\", or a judge object)"});
    if (j.contains("components") && !j.contains("judge"))
        throw data::InputException({path, 0, "a reward config without a \"judge\" object (docs/judges.md)"});
    const std::string object = j.contains("judge") ? j["judge"].dump() : text;
    return judge::parseJudgeOptions(object, path, std::filesystem::path(path).parent_path().string());
}

namespace {

using json = nlohmann::json;

const char *const kJudgeHelp = R"(rwb judge — the LLM judge of judge rewards

Usage: rwb judge check --config C.json
       rwb judge data --input Q.jsonl --out O.jsonl [--kinds K[,K…]] [--answers A[,A…]] [--seed N]
                      [--limit N]
       rwb judge eval --config C.json --data D.jsonl [--limit N] [--out R.jsonl] [--json]
                      [--no-cache]

  check      send one small request to the judge the file names, without the cache, and
             print what came back: the model, latency, tokens, and the reply
  --config   a reward config with a "judge" object, or a file holding just that object
             (docs/judges.md)

  data       labelled requests for legal-QA judges: for each question of Q.jsonl up to
             five answers made from its reference answer (right, a fact left vague, a
             fact's value changed, both, another question's answer), and for each answer
             the exact request(s) the reward of each kind of --kinds sends, with the reply
             a perfect judge gives, from the reference grader's truth; chat lines for
             rwb sft {"id", "task": "chat", "messages", "completion", "label", …}
  --answers  the kinds of answer, comma-separated (default right,vague,wrong,wrong_vague,
             other); terse adds the facts' values alone ("30日以内、甲局長。"): right, with
             little of the reference's wording, where an embedding's similarity and the
             truth part (scripts/reproduce.sh 002 --part ood)
  --kinds    the judge kinds, comma-separated (default coverage):
               coverage          the coverage / consistency rewards' request; the line
                                 has "coverage", "contradiction", "facts"
               rubric_explicit   a line per item of the question's rubric from facts
                                 (rwb rubric generate --from-facts), judged met or not;
                                 "item", "items", "weight", "met"
               rubric_implicit   a 1–10 rating given the whole rubric
               likert_simple     a 1–10 rating of the answer to the question alone
               likert_reference  a 1–10 rating against the reference answer
             the rubric and rating lines have "judge_kind", "answer_id", "question_id",
             "kind" and "score": s* = clamp(Σ w·c* / Σ w⁺, 0, 1) over the rubric's true
             verdicts c*; a rating's target is 1 + round(9·s*) for every rating kind
             (likert_simple's too: it cannot know the facts, which is what is measured);
             questions without facts get no rubric or rating lines

  eval       how far to trust the judge C.json names: it answers every request of D.jsonl
             (lines of rwb judge data, answers it did not train on) through the same
             client, cache and reading as the rewards.
             Coverage lines: precision / recall / F1 per label of coverage (none, partial,
             full) and of contradiction against the reference grader's labels, the
             agreement per kind of answer and per number of facts.
             Rubric and rating lines, per judge kind: the reward's value per answer
             (explicit Σ w·c / Σ w⁺ over the judge's item verdicts, clamped; a rating
             (r − 1) / 9) against s*: Spearman's ρ, pairwise accuracy (pairs of answers
             to one question whose s* differ, ordered as s* orders them; a tie counts
             half) with a 95 % bootstrap interval over questions, mean absolute error,
             failed requests; and the paired difference of pairwise accuracy between
             each two kinds on the answers both scored, with its interval.
             Both: the replies that failed or could not be read, tokens and time
  --data     the labelled requests
  --limit    data: the first N questions; eval: the first N lines (an answer whose
             rubric_explicit items it cuts is left out)
  --out      one JSON line per request: the truth, the judge's, the raw reply or error
  --json     the result as one JSON object instead of the tables
  --no-cache do not read or write the judge's cache file

Exit code 0 when the judge answered, 1 when it did not (the message says why).
)";

const char *const kRubricHelp = R"(rwb rubric — rubrics for rubric rewards

Usage: rwb rubric generate --input Q.jsonl --out O.jsonl (--from-facts | --judge C.json)
                           [--min-items 7] [--max-items 20] [--limit N]

  --input Q.jsonl   legal-QA questions (docs/data-legal-qa.md)
  --out O.jsonl     the same lines with "rubric" (RaR's form) added
  --from-facts      deterministic: one Essential / Important item per reference fact and one
                    Pitfall per fact with a plausible wrong value (the demo's rubric task)
  --judge C.json    ask the judge C.json names (a reward config with "judge", or the judge
                    object alone) for min–max items following Rubrics as Rewards' four
                    principles; a question whose rubric fails is written without one and
                    reported
  --limit N         the first N questions only

Prints one line per question that failed, then a summary; exit code 1 when any failed.
)";


int judgeCheck(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"config"}, {"help"}});
    if (args.has("help")) {
        std::cout << kJudgeHelp;
        return kExitOk;
    }
    judge::JudgeOptions options = loadJudge(args.required("config"));
    options.noCache = true;
    const judge::JudgeClient client(options);
    const judge::CheckResult r = judge::checkJudge(client);
    json out = {{"backend", client.backend().identity()},
                {"model", r.model},
                {"ok", r.ok},
                {"seconds", r.seconds},
                {"attempts", r.attempts},
                {"prompt_tokens", r.promptTokens},
                {"completion_tokens", r.completionTokens},
                {"reply", r.reply}};
    if (!r.ok)
        out["error"] = r.error;
    std::cout << out.dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
    if (!r.ok) {
        printError(r.error);
        return kExitFailure;
    }
    return kExitOk;
}

// The names of a comma-separated option (--kinds, --answers), in the order given, each
// once; UsageError naming an empty or unknown one and what is allowed.
std::vector<std::string> namesOf(const std::string &option, const std::string &what, const std::string &text,
                                 const std::vector<std::string> &allowed)
{
    std::string known;
    for (const std::string &a : allowed)
        known += (known.empty() ? "" : ", ") + a;
    std::vector<std::string> out;
    size_t from = 0;
    while (from <= text.size()) {
        const size_t comma = std::min(text.find(',', from), text.size());
        std::string name = text.substr(from, comma - from);
        name.erase(0, name.find_first_not_of(' '));
        name.erase(name.find_last_not_of(' ') + 1);
        if (name.empty())
            throw UsageError{"--" + option + ": an empty " + what + " in \"" + text + "\" (" + known + ")"};
        if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
            throw UsageError{"--" + option + ": unknown " + what + " \"" + name + "\" (" + known + ")"};
        if (std::find(out.begin(), out.end(), name) == out.end())
            out.push_back(name);
        from = comma + 1;
    }
    return out;
}

// The judge kinds of --kinds.
std::vector<std::string> judgeDataKinds(const std::string &text)
{
    return namesOf("kinds", "judge kind", text,
                   std::vector<std::string>(std::begin(judge::kJudgeDataKinds), std::end(judge::kJudgeDataKinds)));
}

// The answer kinds of --answers.
std::vector<std::string> answerKinds(const std::string &text)
{
    return namesOf("answers", "answer kind", text,
                   std::vector<std::string>(std::begin(judge::kLegalAnswerKinds), std::end(judge::kLegalAnswerKinds)));
}

int judgeData(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"input", "out", "seed", "limit", "kinds", "answers"}, {"help"}});
    if (args.has("help")) {
        std::cout << kJudgeHelp;
        return kExitOk;
    }
    const std::vector<std::string> kinds = judgeDataKinds(args.value("kinds", "coverage"));
    const std::vector<std::string> answers =
        args.has("answers") ? answerKinds(args.value("answers")) : judge::defaultLegalAnswerKinds();
    const bool coverage = std::find(kinds.begin(), kinds.end(), "coverage") != kinds.end();
    const std::string input = args.required("input");
    std::vector<data::LegalQuestion> questions = data::readLegalQuestions(input).questions;
    if (args.has("limit") && static_cast<size_t>(args.number("limit", 0)) < questions.size())
        questions.resize(static_cast<size_t>(args.number("limit", 0)));
    const bool rubricKinds = kinds.size() > (coverage ? 1u : 0u);
    if (rubricKinds) // before anything is written: a line's own rubric must be the facts'
        for (const data::LegalQuestion &q : questions)
            judge::requireRubricFromFacts(q, input);
    std::vector<std::string> references;
    for (const data::LegalQuestion &q : questions)
        references.push_back(q.referenceAnswer);
    const auto seed = static_cast<uint64_t>(args.number("seed", 1));
    std::map<std::string, size_t> counts;
    std::map<std::string, size_t> rubricLines; // by judge kind
    size_t lines = 0, withoutFacts = 0;
    writeOutput(args.required("out"), [&](std::ostream &out) {
        for (size_t i = 0; i < questions.size(); ++i) {
            const data::LegalQuestion &q = questions[i];
            const bool rubric = rubricKinds && !q.facts.empty(); // the rubric and rating kinds need the facts
            if (rubricKinds && q.facts.empty())
                ++withoutFacts;
            const std::optional<judge::Rubric> factsRubric =
                rubric ? std::optional<judge::Rubric>(judge::rubricFromFacts(q)) : std::nullopt;
            for (const judge::JudgeExample &e : judge::legalJudgeExamples(q, references, seed, i, answers)) {
                if (coverage) {
                    out << judge::legalCoverageLine(e) << "\n";
                    ++counts[(e.coverage >= 1 ? "full" : e.coverage > 0 ? "partial" : "none") +
                             std::string(e.contradiction ? "/contradiction" : "/consistent")];
                    ++lines;
                }
                if (!rubric)
                    continue;
                const judge::RubricTruth truth = judge::legalRubricTruth(q, e.answer); // once per answer
                for (const std::string &kind : kinds) {
                    if (kind == "coverage")
                        continue;
                    for (const judge::RubricJudgeExample &r :
                         judge::legalRubricJudgeExamples(q, e, kind, *factsRubric, truth)) {
                        out << judge::rubricJudgeLine(r) << "\n";
                        ++rubricLines[kind];
                        ++lines;
                    }
                }
            }
        }
    });
    std::cerr << "judge data: " << lines << " lines from " << questions.size() << " questions;";
    for (const auto &[label, n] : counts)
        std::cerr << " " << label << " " << n;
    for (const std::string &kind : kinds)
        if (kind != "coverage")
            std::cerr << " " << kind << " " << rubricLines[kind];
    if (withoutFacts)
        std::cerr << " (" << withoutFacts << " questions without facts: no rubric or rating lines)";
    std::cerr << "\n";
    return kExitOk;
}

std::string figure(double v)
{
    if (std::isnan(v))
        return "—";
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

json matrixJson(const eval::ConfusionMatrix &m, const char *const *labels)
{
    const auto num = [](double v) { return std::isnan(v) ? json(nullptr) : json(v); };
    json perLabel = json::array();
    json counts = json::array();
    for (int l = 0; l < m.labels(); ++l) {
        perLabel.push_back({{"label", labels[l]},
                            {"precision", num(m.precision(l))},
                            {"recall", num(m.recall(l))},
                            {"f1", num(m.f1(l))},
                            {"support", m.referenceTotal(l)},
                            {"judged", m.judgedTotal(l)}});
        json row = json::array();
        for (int j = 0; j < m.labels(); ++j)
            row.push_back(m.count(l, j));
        counts.push_back(std::move(row));
    }
    return {{"labels", perLabel}, {"agreement", num(m.agreement())}, {"macro_f1", num(m.macroF1())},
            {"counts", counts}, {"n", m.total()}};
}

void printMatrix(const std::string &title, const eval::ConfusionMatrix &m, const char *const *labels)
{
    std::printf("%s (n %d; rows: reference, columns: judge)\n", title.c_str(), m.total());
    std::printf("  %-14s %9s %9s %9s %8s   counts\n", "label", "precision", "recall", "F1", "support");
    for (int l = 0; l < m.labels(); ++l) {
        std::printf("  %-14s %9s %9s %9s %8d  ", labels[l], figure(m.precision(l)).c_str(), figure(m.recall(l)).c_str(),
                    figure(m.f1(l)).c_str(), m.referenceTotal(l));
        for (int j = 0; j < m.labels(); ++j)
            std::printf(" %5d", m.count(l, j));
        std::printf("\n");
    }
    std::printf("  agreement %s   macro F1 %s\n\n", figure(m.agreement()).c_str(), figure(m.macroF1()).c_str());
}

// "+0.125" / "−0.125" for a difference; "—" for NaN.
std::string signedFigure(double v)
{
    if (std::isnan(v))
        return "—";
    char buf[16];
    std::snprintf(buf, sizeof buf, "%+.3f", v);
    return buf;
}

json rankingJson(const judge::JudgeRanking &r, size_t cutAnswers)
{
    const auto num = [](double v) { return std::isnan(v) ? json(nullptr) : json(v); };
    const auto interval = [&](const eval::Interval &i) { return json::array({num(i.low), num(i.high)}); };
    json kinds = json::array();
    for (const judge::KindRanking &k : r.kinds)
        kinds.push_back({{"judge_kind", k.judgeKind},
                         {"requests", k.requests},
                         {"failed", k.failed},
                         {"answers", k.answers},
                         {"scored", k.scored},
                         {"spearman", num(k.spearman)},
                         {"pairwise_accuracy", num(k.pairwiseAccuracy)},
                         {"pairwise_interval", interval(k.pairwiseInterval)},
                         {"pairs", k.pairs},
                         {"questions", k.questions},
                         {"mae", num(k.meanAbsoluteError)},
                         {"target_pairwise_accuracy", num(k.targetPairwiseAccuracy)}});
    json differences = json::array();
    for (const judge::RankingDifference &d : r.differences)
        differences.push_back({{"a", d.a},
                               {"b", d.b},
                               {"difference", num(d.difference.estimate)},
                               {"interval", interval(d.difference)},
                               {"answers", d.answers},
                               {"pairs", d.pairs},
                               {"questions", d.questions}});
    return {{"judges", kinds},      {"differences", differences}, {"requests", r.requests},
            {"failed", r.failed},   {"resamples", r.resamples},   {"cut_by_limit", cutAnswers}};
}

void printRanking(const judge::JudgeRanking &r, size_t cutAnswers)
{
    std::printf("how each judge kind orders the answers by their true score s* (pairs: two answers to one question "
                "whose s* differ)\n");
    std::printf("  %-17s %7s %6s %8s %8s %-17s %6s %6s %6s\n", "judge kind", "answers", "scored", "Spearman",
                "pairwise", "[95 % interval]", "MAE", "failed", "target");
    for (const judge::KindRanking &k : r.kinds)
        std::printf("  %-17s %7zu %6zu %8s %8s [%s, %s]   %6s %6zu %6s\n", k.judgeKind.c_str(), k.answers, k.scored,
                    figure(k.spearman).c_str(), figure(k.pairwiseAccuracy).c_str(),
                    figure(k.pairwiseInterval.low).c_str(), figure(k.pairwiseInterval.high).c_str(),
                    figure(k.meanAbsoluteError).c_str(), k.failed, figure(k.targetPairwiseAccuracy).c_str());
    std::printf("  (pairwise: the share of pairs the judge orders as s* does, a tie counting half, questions "
                "resampled %d times;\n   target: what replying every target gets, below 1 where a 1–10 rating "
                "cannot tell two scores apart)\n",
                r.resamples);
    if (!r.differences.empty()) {
        std::printf("\npaired difference of pairwise accuracy, on the answers both kinds scored [95 %% interval]\n");
        for (const judge::RankingDifference &d : r.differences) {
            const std::string names = d.a + " − " + d.b;
            std::printf("  %-38s %7s [%s, %s]   %zu answers, %zu pairs, %zu questions\n", names.c_str(),
                        signedFigure(d.difference.estimate).c_str(), signedFigure(d.difference.low).c_str(),
                        signedFigure(d.difference.high).c_str(), d.answers, d.pairs, d.questions);
        }
    }
    if (cutAnswers)
        std::printf("\n%zu rubric_explicit answers left out: --limit cut off some of their items\n", cutAnswers);
}

int judgeEval(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"config", "data", "limit", "out"}, {"json", "no-cache", "help"}});
    if (args.has("help")) {
        std::cout << kJudgeHelp;
        return kExitOk;
    }
    judge::JudgeOptions options = loadJudge(args.required("config"));
    if (args.has("no-cache"))
        options.noCache = true;
    const judge::JudgeDataFile file =
        judge::readJudgeData(args.required("data"), static_cast<size_t>(args.number("limit", 0)));
    const std::vector<judge::LabelledRequest> &requests = file.coverage;
    const judge::JudgeClient client(options);
    const bool tty = isatty(fileno(stderr)) != 0;
    const size_t total = file.coverage.size() + file.ranked.size();
    const auto progress = [&](size_t offset) {
        return [&, offset](size_t done, size_t) {
            if (jsonProgress())
                printJsonProgress(static_cast<int64_t>(offset + done), static_cast<int64_t>(total), "requests");
            else
                std::cerr << "judge eval " << offset + done << "/" << total << (tty ? "\r" : "\n") << std::flush;
        };
    };
    judge::LegalAgreement a;
    if (!requests.empty())
        a = judge::measureLegalAgreement(client, requests, 64, progress(0));
    judge::JudgeRanking ranking;
    if (!file.ranked.empty())
        ranking = judge::measureJudgeRanking(client, file.ranked, 64, progress(requests.size()));
    if (tty && !jsonProgress())
        std::cerr << "\n";
    if (args.has("out"))
        writeOutput(args.value("out"), [&](std::ostream &out) {
            for (const judge::AgreementItem &i : a.items) {
                nlohmann::ordered_json line;
                line["id"] = i.id;
                line["label"] = i.kind;
                line["coverage"] = i.referenceCoverage;
                line["contradiction"] = i.referenceContradiction;
                line["facts"] = i.facts;
                line["ok"] = i.ok;
                if (i.ok) {
                    line["judged_coverage"] = i.judgedCoverage;
                    line["judged_contradiction"] = i.judgedContradiction;
                } else {
                    line["error"] = i.error;
                }
                line["reply"] = i.reply;
                out << line.dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
            }
            for (size_t k = 0; k < file.ranked.size(); ++k) {
                const judge::RankedRequest &q = file.ranked[k];
                const judge::RankedItem &i = ranking.items[k];
                nlohmann::ordered_json line;
                line["id"] = q.id;
                line["judge_kind"] = q.judgeKind;
                line["answer_id"] = q.answerId;
                line["question_id"] = q.questionId;
                line["label"] = q.kind;
                line["score"] = q.score;
                if (q.item >= 0) {
                    line["item"] = q.item;
                    line["weight"] = q.weight;
                }
                line["ok"] = i.ok;
                if (i.ok)
                    line[q.item >= 0 ? "judged_met" : "judged_rating"] =
                        q.item >= 0 ? json(i.judged >= 0.5) : json(i.judged);
                else
                    line["error"] = i.error;
                line["reply"] = i.reply;
                out << line.dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
            }
        });
    const size_t failed = a.failed + ranking.failed;
    if (!requests.empty()) {
        // The slices, labelled as the JSON and the tables name them.
        using Slices = std::vector<std::pair<std::string, judge::KindAgreement>>;
        Slices kindSlices, factSlices;
        for (const auto &[kind, k] : a.byKind)
            kindSlices.emplace_back(kind.empty() ? "(none)" : kind, k);
        for (const auto &[facts, k] : a.byFacts)
            factSlices.emplace_back(facts > 0 ? std::to_string(facts) : "(unknown)", k);
        const auto slicesJson = [](const Slices &slices) {
            json out = json::object();
            for (const auto &[label, k] : slices)
                out[label] = {{"n", k.n}, {"coverage_agrees", k.coverageAgrees}, {"consistency_agrees", k.consistencyAgrees}};
            return out;
        };
        const auto printSlices = [](const char *title, const Slices &slices) {
            std::printf("%-14s %6s %10s %10s\n", title, "n", "coverage", "contradiction");
            for (const auto &[label, k] : slices)
                std::printf("%-14s %6zu %10s %10s\n", label.c_str(), k.n, figure(k.coverageShare()).c_str(),
                            figure(k.consistencyShare()).c_str());
        };
        json result = {{"backend", client.backend().identity()},
                       {"requests", a.requests},
                       {"failed", a.failed},
                       {"coverage", matrixJson(a.coverage, judge::kCoverageLabels)},
                       {"contradiction", matrixJson(a.consistency, judge::kConsistencyLabels)},
                       {"kinds", slicesJson(kindSlices)},
                       {"by_facts", slicesJson(factSlices)},
                       {"cache_hits", a.cacheHits},
                       {"prompt_tokens", a.promptTokens},
                       {"completion_tokens", a.completionTokens},
                       {"seconds", a.seconds}};
        if (!file.ranked.empty()) { // the totals of both, and the rubric and rating judges' part
            result["requests"] = total;
            result["failed"] = failed;
            result["cache_hits"] = a.cacheHits + ranking.cacheHits;
            result["prompt_tokens"] = a.promptTokens + ranking.promptTokens;
            result["completion_tokens"] = a.completionTokens + ranking.completionTokens;
            result["seconds"] = a.seconds + ranking.seconds;
            result["ranking"] = rankingJson(ranking, file.cutAnswers);
        }
        if (args.has("json")) {
            std::cout << result.dump() << "\n";
        } else {
            std::printf("judge %s on %zu requests: %zu failed or unreadable, %llu answered from memory or the cache (a request asked before), %.1f s\n\n",
                        client.backend().identity().c_str(), a.requests, a.failed,
                        static_cast<unsigned long long>(a.cacheHits), a.seconds);
            printMatrix("coverage", a.coverage, judge::kCoverageLabels);
            printMatrix("contradiction", a.consistency, judge::kConsistencyLabels);
            printSlices("answer kind", kindSlices);
            // A judge can agree well overall and badly on one slice, which a policy trained
            // against it finds: answers with several facts (docs/results.md).
            std::printf("\n");
            printSlices("reference facts", factSlices);
            std::printf("\n(agreement per kind and per number of facts counts a failed reply as a disagreement)\n");
            std::printf("tokens: %lld prompt, %lld completion\n", static_cast<long long>(a.promptTokens),
                        static_cast<long long>(a.completionTokens));
        }
    } else if (args.has("json")) {
        const json result = {{"backend", client.backend().identity()},
                             {"requests", ranking.requests},
                             {"failed", ranking.failed},
                             {"ranking", rankingJson(ranking, file.cutAnswers)},
                             {"cache_hits", ranking.cacheHits},
                             {"prompt_tokens", ranking.promptTokens},
                             {"completion_tokens", ranking.completionTokens},
                             {"seconds", ranking.seconds}};
        std::cout << result.dump() << "\n";
    }
    if (!file.ranked.empty() && !args.has("json")) {
        if (!requests.empty())
            std::printf("\n");
        std::printf("judge %s on %zu rubric and rating requests: %zu failed or unreadable, %llu answered from memory "
                    "or the cache, %.1f s\n\n",
                    client.backend().identity().c_str(), ranking.requests, ranking.failed,
                    static_cast<unsigned long long>(ranking.cacheHits), ranking.seconds);
        printRanking(ranking, file.cutAnswers);
        std::printf("tokens: %lld prompt, %lld completion\n", static_cast<long long>(ranking.promptTokens),
                    static_cast<long long>(ranking.completionTokens));
    }
    return failed == total ? kExitFailure : kExitOk;
}

int rubricGenerate(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"input", "out", "judge", "min-items", "max-items", "limit"}, {"from-facts", "help"}});
    if (args.has("help")) {
        std::cout << kRubricHelp;
        return kExitOk;
    }
    const bool fromFacts = args.has("from-facts");
    if (fromFacts == args.has("judge"))
        throw UsageError{"give exactly one of --from-facts and --judge"};
    const int minItems = static_cast<int>(args.number("min-items", 7));
    const int maxItems = static_cast<int>(args.number("max-items", 20));
    if (minItems < 1 || maxItems < minItems)
        throw UsageError{"--min-items must be at least 1 and at most --max-items"};
    const std::string input = args.required("input");
    std::vector<data::LegalQuestion> questions = data::readLegalQuestions(input).questions;
    if (args.has("limit") && static_cast<size_t>(args.number("limit", 0)) < questions.size())
        questions.resize(static_cast<size_t>(args.number("limit", 0)));

    size_t failed = 0;
    if (fromFacts) {
        for (data::LegalQuestion &q : questions) {
            try {
                q.rubric = judge::toRaR(judge::rubricFromFacts(q)).dump();
            } catch (const std::exception &e) {
                ++failed;
                printError(input + ":" + std::to_string(q.line) + " (" + q.id + "): no rubric: " + e.what());
            }
        }
    } else {
        const judge::JudgeClient client(loadJudge(args.value("judge")));
        std::vector<judge::ChatRequest> requests;
        for (const data::LegalQuestion &q : questions) {
            judge::ChatRequest r;
            r.messages = judge::rubricGenerationMessages(q.question, q.referenceAnswer, minItems, maxItems);
            r.sampling = client.options().sampling;
            r.sampling.responseFormat = judge::ResponseFormat::JsonObject; // a rubric's length varies
            r.sampling.maxTokens = std::max(r.sampling.maxTokens, 2048);
            requests.push_back(std::move(r));
        }
        const std::vector<judge::JudgeCall> calls = client.run(requests);
        for (size_t i = 0; i < questions.size(); ++i) {
            data::LegalQuestion &q = questions[i];
            try {
                if (!calls[i].ok())
                    throw std::runtime_error(calls[i].error);
                q.rubric = judge::toRaR(judge::parseGeneratedRubric(calls[i].reply->choices.front().content,
                                                                     minItems, maxItems))
                               .dump();
            } catch (const std::exception &e) {
                ++failed;
                printError(input + ":" + std::to_string(q.line) + " (" + q.id + "): no rubric: " + e.what());
            }
        }
    }
    writeOutput(args.required("out"), [&](std::ostream &out) {
        for (const data::LegalQuestion &q : questions)
            out << data::toJsonLine(q) << "\n";
    });
    std::cerr << "rubrics: " << questions.size() - failed << " of " << questions.size() << " questions"
              << (failed ? ", " + std::to_string(failed) + " failed" : std::string()) << "\n";
    return failed ? kExitFailure : kExitOk;
}

} // namespace

int judgeCommand(const std::vector<std::string> &args)
{
    return dispatch("judge", kJudgeHelp, args, {{"check", judgeCheck}, {"data", judgeData}, {"eval", judgeEval}});
}

int rubricCommand(const std::vector<std::string> &args)
{
    return dispatch("rubric", kRubricHelp, args, {{"generate", rubricGenerate}});
}

} // namespace rwb::cli
