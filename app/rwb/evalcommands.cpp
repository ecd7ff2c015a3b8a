#include "cli.h"
#include "commands.h"

#include "data/jsonl.h"
#include "eval/failureanalysis.h"
#include "task/catalog.h"
#include "util/boundedjson.h"

#include <iostream>
#include <nlohmann/json.hpp>

namespace rwb::cli {

namespace {

const char *const kEvalHelp = R"(rwb eval — evaluation metrics

Subcommands:
  score   precision / recall / F1 of completions against their golds
  run     generate with a model on a dataset and score it
  failures  predictions grouped by what went wrong (and what two checkpoints fixed / broke)
Run "rwb eval <subcommand> --help" for its options.
)";

const char *const kScoreHelp = R"(rwb eval score — a task's metrics of scored completions (company_extraction:
precision, recall and F1, the first paper's §2.4)

Usage: rwb eval score --task T --input I.jsonl [--thinking] [--skip-invalid]

  --task T          the task (company_extraction, legal_qa, multihop, chat)
  --input I.jsonl   the task's lines with the model's "completion" (company_extraction:
                    {"id", "task", "sender_email", "email_text", "completion", "gold"})
  --thinking        the answer is the text of the first <answer>…</answer> ("" when none)
  --skip-invalid    report malformed lines on stderr and go on

Prints one JSON object: the task's metrics and the counts behind them; for
company_extraction {"precision", "recall", "f1", "n_output", "n_exist", "n_tp"}:
  N_output: answers that are not 不明 after normalization (an empty answer counts)
  N_exist:  golds that are not 不明
  N_tp:     answers equal to their gold after normalization, the gold not 不明
  precision = N_tp / N_output, recall = N_tp / N_exist, F1 = 2PR / (P + R); 0 when a denominator is 0.
Normalization: NFKC, then all white space removed (case kept).
)";

int score(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"task", "input"}, {"thinking", "skip-invalid", "help"}});
    if (args.has("help")) {
        std::cout << kScoreHelp;
        return kExitOk;
    }
    const std::string taskName = args.required("task");
    const task::Task *found = task::Catalog::builtin().find(taskName);
    if (!found)
        throw UsageError{"unknown task \"" + taskName + "\" (allowed: " +
                         reward::joinNames(task::Catalog::builtin().names()) + ")"};
    const task::Task &task = *found;
    const std::string inputPath = args.required("input");
    std::vector<data::InputError> skipped;
    task::ReadOptions options;
    options.requireCompletion = true; // a line without the model's completion is an error
    if (args.has("skip-invalid"))
        options.skipped = &skipped;
    const std::vector<task::Record> input = task.read(inputPath, options);
    for (const data::InputError &e : skipped)
        std::cerr << e.toString() << " (skipped)" << std::endl;
    // The task's metrics, then the counts behind them (extraction: precision, recall, f1,
    // n_output, n_exist, n_tp).
    const std::unique_ptr<task::MetricSet> metrics = task.metrics();
    for (const task::Record &r : input)
        metrics->add(*r.example, *task.parse(*r.example, r.completion, args.has("thinking")));
    nlohmann::ordered_json j;
    for (const auto &[name, value] : metrics->result())
        j[name] = value;
    for (const auto &[name, value] : metrics->counts())
        j[name] = value;
    std::cout << j.dump() << std::endl;
    return kExitOk;
}

const char *const kFailuresHelp = R"(rwb eval failures — predictions grouped by what went wrong

Usage: rwb eval failures --predictions P.jsonl [--against Q.jsonl] [--examples]

  --predictions P.jsonl   predictions as `rwb eval run --output` writes them (the model's
                          output as "completion"; thinking mode per line when it holds <answer>)
  --against Q.jsonl       a second checkpoint's predictions of the same examples (by id)
  --examples              also one line per prediction: {"id", "answer", "category"} and
                          what the task says besides (extraction: "source")

Prints one JSON object: {"task" (when not the default task), "total", "counts":
{category: n}} and what the task counts over its examples (extraction:
"parties_from_data"), and with --against also "against": {"total", "counts"}, "fixed",
"broke", "joined", "transitions": {"a->b": n}. The categories are the task's (the first
line's "task"; see docs/guide.md). Extraction's, first that fits: exact, no_answer,
missed, marker_only, named_where_unknown, recipient, third_party, invented, other_wrong;
recipients and third parties come from the lines' "recipient_company" /
"other_companies" when present, else from the addressee block and legal-entity markers.
)";

int failures(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"predictions", "against"}, {"examples", "help"}});
    if (args.has("help")) {
        std::cout << kFailuresHelp;
        return kExitOk;
    }
    const std::string first = args.required("predictions");
    const eval::FailureData d = eval::loadPredictionFailures(first, args.value("against"));
    const task::Task &task = task::Catalog::builtin().get(d.task, first, "task");
    const size_t n = d.categories.size();
    const auto countsJson = [&](const eval::FailureCounts &c) {
        nlohmann::ordered_json j;
        for (size_t i = 0; i < n; ++i)
            j[d.categories[i].key] = c.of(i);
        return j;
    };
    if (!d.checkpoints.count(0))
        throw data::InputException({first, 0, "no prediction of a known example"});
    const auto &a = d.checkpoints.at(0);
    nlohmann::ordered_json j;
    if (d.task != task::Catalog::builtin().find("")->name())
        j["task"] = d.task;
    j["total"] = a.size();
    j["counts"] = countsJson(eval::countFailures(a, n));
    // What the task says of its examples, summed over them (extraction: "parties_from_data").
    nlohmann::ordered_json sums = nlohmann::ordered_json::object();
    for (const auto &[id, example] : d.examples) {
        const nlohmann::json facts = util::parseJsonOrDiscarded(task.failureExampleJson(*example));
        if (!facts.is_object())
            continue;
        for (const auto &[key, value] : facts.items()) {
            if (!value.is_boolean() && !value.is_number())
                continue;
            const double add = value.is_boolean() ? (value.get<bool>() ? 1.0 : 0.0) : value.get<double>();
            sums[key] = sums.value(key, 0.0) + add;
        }
    }
    for (const auto &[key, value] : sums.items()) {
        const double v = value.get<double>();
        if (v == static_cast<double>(static_cast<int64_t>(v)))
            j[key] = static_cast<int64_t>(v);
        else
            j[key] = v;
    }
    if (d.checkpoints.count(1)) {
        const auto &b = d.checkpoints.at(1);
        const eval::FailureComparison c = eval::compareFailures(a, b, n);
        j["against"] = {{"total", b.size()}, {"counts", countsJson(eval::countFailures(b, n))}};
        j["joined"] = c.joined;
        j["fixed"] = c.fixed;
        j["broke"] = c.broke;
        nlohmann::ordered_json t = nlohmann::ordered_json::object();
        for (size_t x = 0; x < n; ++x)
            for (size_t y = 0; y < n; ++y)
                if (c.transitions[x][y])
                    t[d.categories[x].key + "->" + d.categories[y].key] = c.transitions[x][y];
        j["transitions"] = t;
    }
    std::cout << j.dump() << std::endl;
    if (args.has("examples"))
        for (const eval::AnalyzedPrediction &p : a) {
            nlohmann::ordered_json e;
            e["id"] = p.exampleId;
            e["answer"] = p.answer;
            e["category"] = p.category < n ? d.categories[p.category].key : std::string("?");
            const nlohmann::json details = util::parseJsonOrDiscarded(p.detailsJson);
            if (details.is_object())
                for (const auto &[key, value] : details.items())
                    if (!e.contains(key))
                        e[key] = value;
            std::cout << e.dump() << std::endl;
        }
    return kExitOk;
}

} // namespace

int evalCommand(const std::vector<std::string> &args)
{
    return dispatch("eval", kEvalHelp, args, {{"score", score}, {"run", evalRunCommand}, {"failures", failures}});
}

} // namespace rwb::cli
