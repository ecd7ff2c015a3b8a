#include "cli.h"
#include "commands.h"

#include "data/extractionrecord.h"
#include "eval/extractionmetrics.h"
#include "reward/extraction.h"

#include <iostream>
#include <nlohmann/json.hpp>

namespace rwb::cli {

namespace {

const char *const kEvalHelp = R"(rwb eval — evaluation metrics

Subcommands:
  score   precision / recall / F1 of completions against their golds
  run     generate with a model on a dataset and score it
Run "rwb eval <subcommand> --help" for its options.
)";

const char *const kScoreHelp = R"(rwb eval score — precision, recall and F1 (the first paper's §2.4)

Usage: rwb eval score --task company_extraction --input I.jsonl [--thinking] [--skip-invalid]

  --task T          the task; company_extraction
  --input I.jsonl   lines {"id", "task", "sender_email", "email_text", "completion", "gold"}
  --thinking        the answer is the text of the first <answer>…</answer> ("" when none)
  --skip-invalid    report malformed lines on stderr and go on

Prints one JSON object: {"precision", "recall", "f1", "n_output", "n_exist", "n_tp"}.
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
    const std::string task = args.required("task");
    if (task != data::kCompanyExtractionTask)
        throw UsageError{"unknown task \"" + task + "\" (allowed: company_extraction)"};
    const std::string inputPath = args.required("input");
    data::ExtractionReadOptions options;
    options.skipInvalid = args.has("skip-invalid");
    const data::ExtractionReadResult input = data::readExtractionJsonl(inputPath, options);
    for (const data::InputError &e : input.skipped)
        std::cerr << e.toString() << " (skipped)" << std::endl;
    eval::ExtractionScorer scorer;
    for (const data::ExtractionRecord &r : input.records)
        scorer.add(reward::extractAnswer(r.completion, args.has("thinking")), r.gold);
    const eval::ExtractionMetrics m = scorer.result();
    nlohmann::ordered_json j = metricsJson(m);
    std::cout << j.dump() << std::endl;
    return kExitOk;
}

} // namespace

int evalCommand(const std::vector<std::string> &args)
{
    return dispatch("eval", kEvalHelp, args, {{"score", score}, {"run", evalRunCommand}});
}

} // namespace rwb::cli
