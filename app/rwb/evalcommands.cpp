#include "cli.h"
#include "commands.h"

#include "tasks/extraction/extractionrecord.h"
#include "eval/failureanalysis.h"
#include "tasks/catalog.h"

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
  --against Q.jsonl       a second checkpoint's predictions of the same e-mails (by id)
  --examples              also one line per prediction: {"id", "answer", "category", "source"}

Prints one JSON object: {"total", "counts": {category: n}, "parties_from_data"} and with
--against also "against": {"total", "counts"}, "fixed", "broke", "joined",
"transitions": {"a->b": n}. Categories, first that fits: exact, no_answer, missed,
marker_only, named_where_unknown, recipient, third_party, invented, other_wrong (see
docs/guide.md). Recipients and third parties come from the lines' "recipient_company" /
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
    const size_t n = d.categories.size();
    const bool extraction = d.task == data::kCompanyExtractionTask;
    const auto countsJson = [&](const eval::FailureCounts &c) {
        nlohmann::ordered_json j;
        for (size_t i = 0; i < n; ++i)
            j[d.categories[i].key] = c.of(i);
        return j;
    };
    size_t fromData = 0;
    for (const auto &[id, p] : d.parties)
        fromData += p.fromData ? 1 : 0;
    if (!d.checkpoints.count(0))
        throw data::InputException({first, 0, "no prediction of a known example"});
    const auto &a = d.checkpoints.at(0);
    nlohmann::ordered_json j;
    if (!extraction)
        j["task"] = d.task;
    j["total"] = a.size();
    j["counts"] = countsJson(eval::countFailures(a, n));
    if (extraction)
        j["parties_from_data"] = fromData;
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
            if (extraction)
                e["source"] = eval::sourceKey(p.failure.source);
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
