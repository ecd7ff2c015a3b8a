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
#include "judge/rubricgen.h"
#include "tasks/legalqa/legalrubric.h"
#include "util/boundedjson.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
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
       rwb judge data --input Q.jsonl --out O.jsonl [--seed N] [--limit N]
       rwb judge eval --config C.json --data D.jsonl [--limit N] [--out R.jsonl] [--json]
                      [--no-cache]

  check      send one small request to the judge the file names, without the cache, and
             print what came back: the model, latency, tokens, and the reply
  --config   a reward config with a "judge" object, or a file holding just that object
             (docs/judges.md)

  data       training data for a small legal-QA judge: for each question of Q.jsonl up to
             five answers made from its reference answer (right, a fact left vague, a
             fact's value changed, both, another question's answer), labelled by the
             reference grader, as chat lines {"id", "task": "chat", "messages",
             "completion", "label", "coverage", "contradiction"}: the exact request of the
             coverage / consistency rewards and the verdict JSON to answer (rwb sft)

  eval       how far to trust the judge C.json names: it grades every request of D.jsonl
             (lines of rwb judge data, answers it did not train on), through the same
             client, cache and reading as the coverage / consistency rewards; prints
             precision / recall / F1 per label of coverage (none, partial, full) and of
             contradiction against the reference grader's labels, the agreement per kind
             of answer, the replies that failed or could not be read, tokens and time
  --data     the labelled requests
  --out      one JSON line per request: the labels, the judge's, the raw reply or error
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

int judgeData(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"input", "out", "seed", "limit"}, {"help"}});
    if (args.has("help")) {
        std::cout << kJudgeHelp;
        return kExitOk;
    }
    std::vector<data::LegalQuestion> questions = data::readLegalQuestions(args.required("input")).questions;
    if (args.has("limit") && static_cast<size_t>(args.number("limit", 0)) < questions.size())
        questions.resize(static_cast<size_t>(args.number("limit", 0)));
    std::vector<std::string> references;
    for (const data::LegalQuestion &q : questions)
        references.push_back(q.referenceAnswer);
    const auto seed = static_cast<uint64_t>(args.number("seed", 1));
    std::map<std::string, size_t> counts;
    size_t lines = 0;
    writeOutput(args.required("out"), [&](std::ostream &out) {
        for (size_t i = 0; i < questions.size(); ++i)
            for (const judge::JudgeExample &e : judge::legalJudgeExamples(questions[i], references, seed, i)) {
                json messages = json::array();
                for (const judge::ChatMessage &m : e.messages)
                    messages.push_back({{"role", m.role}, {"content", m.content}});
                nlohmann::ordered_json line;
                line["id"] = e.id;
                line["task"] = "chat";
                line["messages"] = std::move(messages);
                line["completion"] = e.target;
                line["label"] = e.kind;
                line["coverage"] = e.coverage;
                line["contradiction"] = e.contradiction;
                line["facts"] = e.facts;
                out << line.dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
                ++counts[(e.coverage >= 1 ? "full" : e.coverage > 0 ? "partial" : "none") +
                         std::string(e.contradiction ? "/contradiction" : "/consistent")];
                ++lines;
            }
    });
    std::cerr << "judge data: " << lines << " lines from " << questions.size() << " questions;";
    for (const auto &[label, n] : counts)
        std::cerr << " " << label << " " << n;
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
    const std::vector<judge::LabelledRequest> requests =
        judge::readLabelledRequests(args.required("data"), static_cast<size_t>(args.number("limit", 0)));
    const judge::JudgeClient client(options);
    const bool tty = isatty(fileno(stderr)) != 0;
    const judge::LegalAgreement a = judge::measureLegalAgreement(client, requests, 64, [&](size_t done, size_t total) {
        if (jsonProgress())
            printJsonProgress(static_cast<int64_t>(done), static_cast<int64_t>(total), "requests");
        else
            std::cerr << "judge eval " << done << "/" << total << (tty ? "\r" : "\n") << std::flush;
    });
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
        });
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
    const json result = {{"backend", client.backend().identity()},
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
    return a.failed == a.requests ? kExitFailure : kExitOk;
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
