// rwb judge check: a test call to the judge a config names. rwb rubric generate: rubrics
// for a task's questions, from their reference facts or asked of a judge.

#include "cli.h"
#include "commands.h"

#include "data/jsonl.h"
#include "data/legalquestion.h"
#include "judge/judgeclient.h"
#include "judge/judgeconfig.h"
#include "judge/judgedata.h"
#include "judge/rubricgen.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

namespace rwb::cli {

namespace {

using json = nlohmann::json;

const char *const kJudgeHelp = R"(rwb judge — the LLM judge of judge rewards

Usage: rwb judge check --config C.json
       rwb judge data --input Q.jsonl --out O.jsonl [--seed N] [--limit N]

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

// The judge object of a file: its "judge" when it is a reward config, else the file.
judge::JudgeOptions loadJudge(const std::string &path)
{
    const std::string text = data::readTextFile(path);
    const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object())
        throw data::InputException({path, 0, "not a JSON object (a reward config with \"judge\", or a judge object)"});
    if (j.contains("components") && !j.contains("judge"))
        throw data::InputException({path, 0, "a reward config without a \"judge\" object (docs/judges.md)"});
    const std::string object = j.contains("judge") ? j["judge"].dump() : text;
    return judge::parseJudgeOptions(object, path, std::filesystem::path(path).parent_path().string());
}

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
    return dispatch("judge", kJudgeHelp, args, {{"check", judgeCheck}, {"data", judgeData}});
}

int rubricCommand(const std::vector<std::string> &args)
{
    return dispatch("rubric", kRubricHelp, args, {{"generate", rubricGenerate}});
}

} // namespace rwb::cli
